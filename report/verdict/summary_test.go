package verdict_test

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/report/verdict"
)

// TestDocumentSummaryFails: a step summary that cannot be appended (here
// /dev/full, a disk with no space) is an error naming StepSummary and the
// reason, returned with the document, which the caller prints before it
// reports the error (issue 31 item 8: a failed write of
// $GITHUB_STEP_SUMMARY must not pass unnoticed, nor take the report with
// it).
func TestDocumentSummaryFails(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	r := compareFixtures()["full"]
	out, err := verdict.Document(r, "github", "/dev/full")
	require.Error(t, err)
	assert.True(t, errors.Is(err, mbopt.ErrInput), "an input error: %v", err)
	assert.Contains(t, err.Error(), "Config.StepSummary: appending the step summary to /dev/full")
	assert.Contains(t, err.Error(), "no space left on device")
	var want bytes.Buffer
	_, werr := verdict.WriteGitHub(&want, r)
	require.NoError(t, werr)
	assert.Equal(t, want.String(), string(out), "the annotations come back with the error")
}

// TestCheckStepSummary: only github appends a step summary, so only then
// is the file checked; a directory, or a file in a missing directory, is
// an input error naming StepSummary before anything runs.
func TestCheckStepSummary(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, format, path string
		want               string // "" means no error
	}{
		{"text ignores it", "text", dir, ""},
		{"unset", "github", "", ""},
		{"a new file", "github", dir + "/summary.md", ""},
		{"a directory", "github", dir, "Config.StepSummary: " + dir + " is a directory; point GITHUB_STEP_SUMMARY at a writable file"},
		{"a missing directory", "github", dir + "/none/s.md", "the directory " + dir + "/none does not exist"},
	}
	for _, tt := range tests {
		err := verdict.CheckStepSummary(tt.format, tt.path)
		if tt.want == "" {
			assert.NoError(t, err, tt.name)
			continue
		}
		if assert.Error(t, err, tt.name) {
			assert.Contains(t, err.Error(), tt.want, tt.name)
			assert.True(t, errors.Is(err, mbopt.ErrInput), "%s: an input error", tt.name)
		}
	}
	assert.NoFileExists(t, dir+"/summary.md", "checking creates nothing")
}
