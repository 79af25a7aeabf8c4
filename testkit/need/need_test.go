package need

import (
	"fmt"
	"os/exec"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recorder is a testing.TB that records a skip or a failure and, like
// testing.T, ends its goroutine there.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper() {}

func (r *recorder) Skipf(format string, a ...any) {
	r.skipped = fmt.Sprintf(format, a...)
	runtime.Goexit()
}

func (r *recorder) Fatalf(format string, a ...any) {
	r.failed = fmt.Sprintf(format, a...)
	runtime.Goexit()
}

// tool runs Tool on r in a goroutine of its own, which a skip or a
// failure ends.
func (r *recorder) tool(what string, names ...string) string {
	var got string
	done := make(chan struct{})
	go func() {
		defer close(done)
		got = Tool(r, what, names...)
	}()
	<-done
	return got
}

func TestTool(t *testing.T) {
	sh, err := exec.LookPath("sh")
	require.NoError(t, err)
	const missing = "mbopt-no-such-tool"
	tests := []struct {
		name          string
		ci            string
		names         []string
		want          string
		skipped, fail string
	}{
		{"found", "", []string{"sh"}, sh, "", ""},
		{"a later name found", "true", []string{missing, "sh"}, sh, "", ""},
		{"missing skips", "", []string{missing}, "", "no " + missing + " on PATH: skipping the x tests (apt-get install -y " + missing + " to run it)", ""},
		{"missing in CI fails", "true", []string{missing}, "", "", "no " + missing + " on PATH, and CI=true: the x tests must run in CI (.ci/run installs it: apt-get install -y " + missing + ")"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("CI", tt.ci)
			r := &recorder{}
			assert.Equal(t, tt.want, r.tool("the x tests", tt.names...))
			assert.Equal(t, tt.skipped, r.skipped)
			assert.Equal(t, tt.fail, r.failed)
		})
	}
}
