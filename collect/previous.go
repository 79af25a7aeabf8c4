package collect

import (
	"errors"
	"io/fs"

	"github.com/mbopt/mbopt/manifest"
)

// loadPrevious returns the manifest in dir, or nil when there is none.
func loadPrevious(dir string) (*manifest.Manifest, error) {
	m, err := manifest.Load(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return m, err
}
