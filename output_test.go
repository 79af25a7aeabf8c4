package mbopt

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteOutput checks where WriteOutput puts the result and which
// failures are input errors.
func TestWriteOutput(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, output string
		stdout, file string // what stdout and output hold after
		input        bool   // an input error
	}{
		{"stdout", "", "result\n", "", false},
		{"file", filepath.Join(dir, "out.txt"), "", "result\n", false},
		{"directory", dir, "", "", true},
		{"missing parent", filepath.Join(dir, "no", "out.txt"), "", "", true},
	}
	for _, tt := range tests {
		var stdout bytes.Buffer
		err := WriteOutput(&stdout, tt.output, []byte("result\n"))
		if (err != nil) != tt.input || (err != nil && !errors.Is(err, ErrInput)) {
			t.Errorf("%s: error %v, want an input error: %v", tt.name, err, tt.input)
		}
		if stdout.String() != tt.stdout {
			t.Errorf("%s: stdout %q, want %q", tt.name, stdout.String(), tt.stdout)
		}
		if tt.file != "" {
			if data, err := os.ReadFile(tt.output); err != nil || string(data) != tt.file {
				t.Errorf("%s: %s holds %q (%v), want %q", tt.name, tt.output, data, err, tt.file)
			}
		}
	}
}
