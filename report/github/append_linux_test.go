package github_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/report/github"
)

// TestAppendPartial: when the disk takes only part of the summary (here
// the file size limit, RLIMIT_FSIZE, stands for a full disk: the write
// stops after 8 KiB), Append fails naming the file and takes the part
// back, so the step's page shows no half summary (issue 31 item 8).
func TestAppendPartial(t *testing.T) {
	path := filepath.Join(t.TempDir(), "summary.md")
	before := "## an earlier step's summary\n"
	require.NoError(t, os.WriteFile(path, []byte(before), 0o644))
	var old syscall.Rlimit
	require.NoError(t, syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old))
	lim := old
	lim.Cur = 8192
	require.NoError(t, syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim))
	s := &github.StepSummary{Markdown: []byte(strings.Repeat("a table row\n", 2000))}
	err := s.Append(path)
	require.NoError(t, syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "appending the step summary to "+path)
	data, rerr := os.ReadFile(path)
	require.NoError(t, rerr)
	assert.Equal(t, before, string(data), "the part written is taken back")
}
