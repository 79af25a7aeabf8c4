// Package gomod finds the Go module a directory belongs to, the one way
// mbopt does: the go.mod in the directory or its nearest parent, as the go
// command finds the main module in module mode, with the module path read
// by golang.org/x/mod/modfile. It reads files only and runs no go command,
// so GOFLAGS=-modfile, GOWORK and GO111MODULE=off are not consulted.
package gomod

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/mod/modfile"
)

// A Module is the module a directory belongs to.
type Module struct {
	// Path is the module path, from the go.mod's module directive.
	Path string
	// Dir is the module root: the absolute directory holding GoMod.
	Dir string
	// GoMod is the absolute path of the go.mod file.
	GoMod string
}

// ErrNoModule matches (with errors.Is) the error of [Find] for a directory
// in no module: no go.mod in it or in any parent.
var ErrNoModule = errors.New("not inside a Go module (no go.mod there or in a parent directory)")

// ErrNoModulePath matches (with errors.Is) the error of [Find] for a
// go.mod without a module directive.
var ErrNoModulePath = errors.New("no module directive")

// Find returns the module of dir ("" is the current directory): the
// go.mod in dir or its nearest parent (dir made absolute, symbolic links
// not resolved) and its module path. It fails, matching [ErrNoModule],
// when there is none; matching [ErrNoModulePath], naming the file, when
// the go.mod has no module directive; and with the read error when the
// nearest go.mod cannot be read.
func Find(dir string) (Module, error) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Module{}, err
	}
	for d := abs; ; d = filepath.Dir(d) {
		path := filepath.Join(d, "go.mod")
		data, err := os.ReadFile(path)
		switch {
		case err == nil:
			mod := modfile.ModulePath(data)
			if mod == "" {
				return Module{}, fmt.Errorf("%s: %w", path, ErrNoModulePath)
			}
			return Module{Path: mod, Dir: d, GoMod: path}, nil
		case !errors.Is(err, os.ErrNotExist):
			return Module{}, err
		}
		if filepath.Dir(d) == d {
			return Module{}, fmt.Errorf("%s is %w", abs, ErrNoModule)
		}
	}
}
