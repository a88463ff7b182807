package ssatest_test

import (
	"strings"
	"testing"

	"github.com/lostupdate/lostupdate/analyzer/internal/ssatest"
)

func TestBuild(t *testing.T) {
	p := ssatest.Build(t, `package test

import (
	"strings"

	"example.com/kube"
)

func f(c *kube.Client) string {
	c.Update("a")
	go func() { c.Update("b") }()
	return strings.ToUpper("x")
}
`, map[string]string{"example.com/kube": "package kube\n\ntype Client struct{}\n\nfunc (*Client) Update(name string) {}\n"})
	fn := p.Func(t, "f")
	if got := len(ssatest.Calls(fn, "(*example.com/kube.Client).Update")); got != 2 {
		t.Errorf("%d calls of the stub's method, want 2 (one in the closure)", got)
	}
	if c := ssatest.Call(t, fn, "strings.ToUpper"); !strings.Contains(c.String(), "ToUpper") {
		t.Errorf("call %v", c)
	}
	if got := len(p.Funcs()); got != 2 {
		t.Errorf("%d functions, want f and its closure", got)
	}
}
