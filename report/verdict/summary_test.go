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
