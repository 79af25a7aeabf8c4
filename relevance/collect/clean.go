package collect

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/mbopt/mbopt/internal/atomicfile"
)

// binDir is the directory under the output directory where test binaries
// are built.
const binDir = ".bin"

// removeStale removes what a killed run into dir left behind: the test
// binaries directory and temporary files (package atomicfile's, and the
// "*.tmp" and "*.partial" names of earlier mbopt versions) in dir and
// dir/logs. The caller holds dir's lock, so no other run is using them.
func removeStale(dir string) {
	os.RemoveAll(filepath.Join(dir, binDir))
	for _, d := range []string{dir, filepath.Join(dir, "logs")} {
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range entries {
			n := e.Name()
			if atomicfile.IsTemp(n) || strings.HasSuffix(n, ".tmp") || strings.HasSuffix(n, ".partial") {
				os.RemoveAll(filepath.Join(d, n))
			}
		}
	}
}
