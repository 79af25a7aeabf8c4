package main

import (
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
)

// TestHelpIsTheManual: every command's --help begins with its section of
// the manual (doc.go), and mbopt --help with the overview and the exit
// statuses, so that go doc and --help never disagree.
func TestHelpIsTheManual(t *testing.T) {
	root := newRootCmd(&streams{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard})
	for _, c := range commandTree(root) {
		args := append(strings.Fields(c.CommandPath())[1:], "--help")
		code, out, errOut := run(t, args...)
		require.Equal(t, 0, code, errOut)
		want := cli.Manual(manual, c.CommandPath())
		if c == root {
			want = cli.Manual(manual, "", "Exit status")
		}
		require.NotEmpty(t, want, "the manual has no section for %s", c.CommandPath())
		assert.True(t, strings.HasPrefix(out, want), "%s --help does not begin with its manual section", c.CommandPath())
	}
}
