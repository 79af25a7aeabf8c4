// Package dirtest lists what a test finds in a directory, for the tests
// that check what a write left behind: the files it made, and no
// temporary file or half-built directory beside them.
package dirtest

import (
	"os"
	"testing"
)

// Names returns the names of dir's entries in sorted order (os.ReadDir's),
// nil for an empty directory; it fails tb when dir cannot be read.
func Names(tb testing.TB, dir string) []string {
	tb.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}
