package callgraph

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// ErrPattern means a package pattern in [Options.Exclude] is not an import
// path pattern.
var ErrPattern = errors.New("bad package pattern")

// MatchPattern returns a function reporting whether an import path matches
// pattern, with the semantics of "go help packages": each "..." matches any
// string, slashes and the empty string included, and a pattern ending in
// "/..." also matches the path before it, so "example.com/m/cmd/..."
// matches "example.com/m/cmd" and every package below it, but not
// "example.com/m/cmdx". A pattern without "..." matches exactly that path.
//
// pattern must be an import path pattern: a relative pattern such as
// "./cmd/..." (which the go command resolves against the current
// directory) or an absolute file path is refused with an error wrapping
// [ErrPattern]; resolve it against the module path first, as package
// analysis does. Vendored packages carry their original import path in
// profiles, so the go command's special rule for "vendor" elements does not
// apply.
func MatchPattern(pattern string) (func(pkg string) bool, error) {
	switch {
	case pattern == "":
		return nil, fmt.Errorf("%w: the pattern is empty", ErrPattern)
	case pattern == "." || pattern == ".." || strings.HasPrefix(pattern, "./") || strings.HasPrefix(pattern, "../"):
		return nil, fmt.Errorf("%w: %q is relative; write the import path (module path + %q)", ErrPattern, pattern, strings.TrimLeft(pattern, "./"))
	case strings.HasPrefix(pattern, "/") || strings.Contains(pattern, "\\"):
		return nil, fmt.Errorf("%w: %q is a file path, not an import path pattern", ErrPattern, pattern)
	}
	re := regexp.QuoteMeta(pattern)
	if strings.HasSuffix(re, `/\.\.\.`) {
		re = strings.TrimSuffix(re, `/\.\.\.`) + `(/\.\.\.)?`
	}
	re = strings.ReplaceAll(re, `\.\.\.`, `.*`)
	reg := regexp.MustCompile(`^` + re + `$`)
	return reg.MatchString, nil
}

// excluder matches package paths against compiled [Options.Exclude]
// patterns.
type excluder []func(string) bool

func newExcluder(patterns []string) (excluder, error) {
	var ex excluder
	for i, p := range patterns {
		m, err := MatchPattern(p)
		if err != nil {
			return nil, fmt.Errorf("Options.Exclude[%d]: %w", i, err)
		}
		ex = append(ex, m)
	}
	return ex, nil
}

func (ex excluder) match(pkg string) bool {
	for _, m := range ex {
		if m(pkg) {
			return true
		}
	}
	return false
}
