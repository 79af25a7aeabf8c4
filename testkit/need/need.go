// Package need is how mbopt's tests ask for an outside tool (valgrind,
// Chromium): where none is on PATH a test skips, except in CI (CI=true),
// whose .ci/run installs the tools, where it fails instead, so that CI
// never passes by skipping what it must run.
package need

import (
	"os"
	"os/exec"
	"testing"
)

// Tool returns the path of the first of names on PATH. Where there is
// none, it skips tb, or fails it when the environment has CI=true; both
// messages name what (the tests that need the tool) and the Debian package
// to install, names[0].
func Tool(tb testing.TB, what string, names ...string) string {
	tb.Helper()
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		tb.Fatalf("no %s on PATH, and CI=true: %s must run in CI (.ci/run installs it: apt-get install -y %[1]s)", names[0], what)
	}
	tb.Skipf("no %s on PATH: skipping %s (apt-get install -y %[1]s to run it)", names[0], what)
	return ""
}
