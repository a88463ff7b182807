package e2e_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// cleanLabeler is example/internal/labeler done right: each attempt reads
// the node inside the retry, and nothing reads from the watch cache.
const cleanLabeler = `// Package labeler marks the nodes a guestbook runs on.
package labeler

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
)

// MarkNode labels a node as hosting a guestbook.
func MarkNode(ctx context.Context, cs kubernetes.Interface, name string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		node, err := cs.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if node.Labels == nil {
			node.Labels = map[string]string{}
		}
		node.Labels["example.com/guestbook"] = "true"
		_, err = cs.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{})
		return err
	})
}
`

// TestPreCommit installs the hooks of .pre-commit-hooks.yaml from a local
// clone of the checkout with Debian's pre-commit, in a project that uses
// client-go: a commit that adds a hazard is refused, a clean one passes.
// pre-commit try-repo runs both hooks (language golang, which builds the
// command from the clone, and language system, which runs the installed
// binary) on the same two states.
func TestPreCommit(t *testing.T) {
	preCommit, err := exec.LookPath("pre-commit")
	if err != nil {
		t.Fatal("pre-commit is not installed: ./scripts/test installs it (apt-get install pre-commit)")
	}
	version := mustRun(t, ".", nil, preCommit, "--version").stdout
	t.Logf("%s", strings.TrimSpace(version))

	dir := t.TempDir()
	gomodcache := strings.TrimSpace(mustRun(t, ".", nil, "go", "env", "GOMODCACHE").stdout)
	env := []string{
		"PRE_COMMIT_HOME=" + filepath.Join(dir, "pre-commit-home"),
		// pre-commit builds the golang hook with GOPATH in its own
		// directory; the module cache that ./scripts/test filled serves
		// the build offline.
		"GOMODCACHE=" + gomodcache,
		"GIT_AUTHOR_NAME=e2e", "GIT_AUTHOR_EMAIL=e2e@example.com",
		"GIT_COMMITTER_NAME=e2e", "GIT_COMMITTER_EMAIL=e2e@example.com",
		// The system hook runs the installed lostupdate.
		"PATH=" + filepath.Dir(lostupdateBinary(t)) + string(os.PathListSeparator) + os.Getenv("PATH"),
	}
	git := func(repo string, args ...string) string {
		t.Helper()
		return mustRun(t, repo, env, "git", args...).stdout
	}

	// The hook repository: a clone of the root module as it is in this
	// checkout, committed.
	hooks := filepath.Join(dir, "lostupdate")
	copyTree(t, root, hooks, rootModuleOnly)
	git(hooks, "init", "-q")
	git(hooks, "add", "-A")
	git(hooks, "commit", "-q", "-m", "lostupdate")
	rev := strings.TrimSpace(git(hooks, "rev-parse", "HEAD"))

	// The project: a module that uses client-go (the example's go.mod
	// without lostupdate as a tool), clean at first.
	project := filepath.Join(dir, "project")
	for _, f := range []string{"go.mod", "go.sum"} {
		if err := copyFile(filepath.Join(example, f), filepath.Join(project, f)); err != nil {
			t.Fatal(err)
		}
	}
	mustRun(t, project, env, "go", "mod", "edit",
		"-droptool=github.com/lostupdate/lostupdate/cmd/lostupdate",
		"-droprequire=github.com/lostupdate/lostupdate",
		"-dropreplace=github.com/lostupdate/lostupdate")
	labeler := filepath.Join(project, "internal", "labeler", "labeler.go")
	write := func(path, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(labeler, cleanLabeler)
	write(filepath.Join(project, ".pre-commit-config.yaml"), `repos:
  - repo: `+hooks+`
    rev: `+rev+`
    hooks:
      - id: lostupdate
`)
	git(project, "init", "-q")
	git(project, "add", "-A")
	git(project, "commit", "-q", "-m", "a clean start")
	mustRun(t, project, env, preCommit, "install")

	hazard, err := os.ReadFile(filepath.Join(example, "internal", "labeler", "labeler.go"))
	if err != nil {
		t.Fatal(err)
	}
	head := strings.TrimSpace(git(project, "rev-parse", "HEAD"))

	t.Run("commit with a hazard is refused", func(t *testing.T) {
		write(labeler, string(hazard))
		git(project, "add", "-A")
		r := run(t, project, env, "git", "commit", "-m", "label nodes")
		if r.code == 0 {
			t.Fatalf("the commit went through:\n%s%s", r.stdout, r.stderr)
		}
		if out := r.stdout + r.stderr; !strings.Contains(out, "internal/labeler/labeler.go:") || !strings.Contains(out, "lostupdate") {
			t.Errorf("the hook's output shows no finding:\n%s", out)
		}
		if now := strings.TrimSpace(git(project, "rev-parse", "HEAD")); now != head {
			t.Errorf("HEAD moved to %s", now)
		}
		for _, hook := range []string{"lostupdate", "lostupdate-system"} {
			r := run(t, project, env, preCommit, "try-repo", hooks, hook, "--all-files")
			if r.code == 0 || !strings.Contains(r.stdout, "internal/labeler/labeler.go:") {
				t.Errorf("pre-commit try-repo %s: exit %d, want a failure with the finding:\n%s%s", hook, r.code, r.stdout, r.stderr)
			}
		}
	})

	t.Run("clean commit passes", func(t *testing.T) {
		write(labeler, cleanLabeler+"\n// Retried on conflict, read inside the retry.\n")
		git(project, "add", "-A")
		r := run(t, project, env, "git", "commit", "-m", "label nodes, safely")
		if r.code != 0 {
			t.Fatalf("the clean commit was refused:\n%s%s", r.stdout, r.stderr)
		}
		if !strings.Contains(r.stdout+r.stderr, "Passed") {
			t.Errorf("the hook did not run:\n%s%s", r.stdout, r.stderr)
		}
		for _, hook := range []string{"lostupdate", "lostupdate-system"} {
			if r := run(t, project, env, preCommit, "try-repo", hooks, hook, "--all-files"); r.code != 0 {
				t.Errorf("pre-commit try-repo %s on clean code: exit %d\n%s%s", hook, r.code, r.stdout, r.stderr)
			}
		}
	})
}
