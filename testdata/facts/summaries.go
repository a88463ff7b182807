// Package facts holds helpers whose summaries lostupdate exports as facts,
// so that callers in other packages are analysed through them. The package
// fact marks a package with summaries, so that a package importing only it
// is still analysed.
package facts
