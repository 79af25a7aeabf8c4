package github_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/report/github"
)

// TestDeliver: without a file the summary comes back for standard output;
// appended, it comes back empty; a file that cannot take it is an input
// error about StepSummary that says what to do, advising to free space
// only when the file opened and the write failed.
func TestDeliver(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, path string
		stdout     string // what comes back
		err        string // part of the error, "" for none
		freeSpace  bool   // the error advises to free space
	}{
		{"no file", "", "## summary\n", "", false},
		{"a file", filepath.Join(dir, "summary.md"), "", "", false},
		{"a missing directory", filepath.Join(dir, "none", "summary.md"), "", "Config.StepSummary: appending the step summary: open ", false},
		{"a full disk", "/dev/full", "", "Config.StepSummary: appending the step summary to /dev/full", true},
	}
	for _, tt := range tests {
		if _, err := os.Stat(tt.path); tt.path == "/dev/full" && err != nil {
			continue // no /dev/full here
		}
		s := &github.StepSummary{Markdown: []byte("## summary\n")}
		stdout, err := s.Deliver(tt.path)
		if string(stdout) != tt.stdout {
			t.Errorf("%s: stdout %q, want %q", tt.name, stdout, tt.stdout)
		}
		if tt.err == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
			}
			continue
		}
		if err == nil || !errors.Is(err, mbopt.ErrInput) || !strings.Contains(err.Error(), tt.err) || !strings.Contains(err.Error(), "point GITHUB_STEP_SUMMARY at a writable file") {
			t.Errorf("%s: error %v, want an input error with %q", tt.name, err, tt.err)
		} else if got := strings.Contains(err.Error(), "free space"); got != tt.freeSpace {
			t.Errorf("%s: %v: advises to free space: %v, want %v", tt.name, err, got, tt.freeSpace)
		}
	}
	if data, err := os.ReadFile(filepath.Join(dir, "summary.md")); err != nil || string(data) != "## summary\n" {
		t.Errorf("the file holds %q (%v), want the summary", data, err)
	}
}
