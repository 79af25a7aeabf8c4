package measure

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDefaultMetric checks that the default follows Valgrind's presence in
// PATH: an empty PATH directory gives time, one holding an executable
// named valgrind gives instructions.
func TestDefaultMetric(t *testing.T) {
	empty := t.TempDir()
	with := t.TempDir()
	if err := os.WriteFile(filepath.Join(with, "valgrind"), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path string
		want       Metric
	}{
		{"without valgrind", empty, Time},
		{"with valgrind", with, Instructions},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("PATH", tc.path)
			if got := DefaultMetric(); got != tc.want {
				t.Errorf("DefaultMetric() with PATH=%s = %q, want %q", tc.path, got, tc.want)
			}
		})
	}
}

// TestChoice checks that each metric's sentence names it and points to
// the other default.
func TestChoice(t *testing.T) {
	for m, want := range map[Metric][2]string{
		"":           {"wall time", "--metric instructions"},
		Time:         {"wall time", "--metric instructions"},
		CPU:          {"CPU time", "--metric time"},
		Instructions: {"instructions per operation", "--metric time"},
	} {
		got := m.Choice()
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("Metric(%q).Choice() = %q, want it to contain %q", m, got, w)
			}
		}
	}
}
