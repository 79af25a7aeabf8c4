package callgraph

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// NormalizeName returns the canonical form of a function name from a
// profile: each balanced, bracketed type-argument list is replaced with
// "[...]", so "pkg.Map[go.shape.int,go.shape.string]", "pkg.Map[int,string]"
// and "pkg.Map[...]" all become "pkg.Map[...]", and
// "pkg.(*Tree[go.shape.int]).Insert.func1" becomes "pkg.(*Tree[...]).Insert.func1".
//
// A type-argument list always directly follows the name it instantiates, so
// only a '[' right after an identifier character (a letter, digit or '_')
// opens one. Other brackets are kept, so names that merely contain brackets
// stay distinct: "type:.eq.[2]string" and "type:.eq.[4]int" (the compiler's
// array equality functions) are not merged, and a name that is all brackets,
// such as "[vdso]", is not turned into "[...]". Unbalanced type-argument
// lists are left as they are. NormalizeName is idempotent, and names
// without '[' are returned unchanged without allocating.
func NormalizeName(name string) string {
	i := typeArgs(name, 0)
	if i < 0 {
		return name
	}
	var b strings.Builder
	b.Grow(len(name))
	for i >= 0 {
		end := matchBracket(name, i)
		if end < 0 {
			break
		}
		b.WriteString(name[:i])
		b.WriteString("[...]")
		name = name[end+1:]
		// name now starts right after a ']', which is not an identifier
		// character, so a '[' at name[0] opens no type-argument list.
		i = typeArgs(name, 1)
	}
	b.WriteString(name)
	return b.String()
}

// typeArgs returns the index of the first '[' at or after s[from] that
// directly follows an identifier character, or -1.
func typeArgs(s string, from int) int {
	for from < len(s) {
		j := strings.IndexByte(s[from:], '[')
		if j < 0 {
			return -1
		}
		j += from
		if j > 0 {
			r, _ := utf8.DecodeLastRuneInString(s[:j])
			if r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) {
				return j
			}
		}
		from = j + 1
	}
	return -1
}

// matchBracket returns the index of the ']' closing the '[' at s[open], or -1.
func matchBracket(s string, open int) int {
	depth := 0
	for j := open; j < len(s); j++ {
		switch s[j] {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// PackageOf returns the import path of the package a (normalised) Go
// function name belongs to: everything up to the first '.' after the last
// '/'. The linker escapes dots in the last element of an import path
// ("gopkg.in/yaml%2ev3.F"), so that rule is exact for Go symbols; the
// escape is undone in the result ("gopkg.in/yaml.v3").
// Examples: "example.com/a/b.(*T).M.func1" → "example.com/a/b",
// "runtime.mallocgc" → "runtime", "main.main" → "main".
// Names that are not Go symbols (C functions, addresses) have no package
// and yield "".
func PackageOf(name string) string {
	slash := strings.LastIndexByte(name, '/')
	// A '/' inside brackets belongs to a type argument, but normalised names
	// have only "[...]" there.
	dot := strings.IndexByte(name[slash+1:], '.')
	if dot < 0 {
		return ""
	}
	pkg := name[:slash+1+dot]
	if strings.Contains(pkg, "%2e") {
		pkg = strings.ReplaceAll(pkg, "%2e", ".")
	}
	return pkg
}

// IsBelow reports whether package path pkg is module path mod or lies below
// it, matching whole path elements: IsBelow("github.com/x/y/z", "github.com/x/y")
// is true, IsBelow("github.com/x/y-client", "github.com/x/y") is false.
func IsBelow(pkg, mod string) bool {
	mod = strings.TrimSuffix(mod, "/")
	if mod == "" {
		return false
	}
	return pkg == mod || (strings.HasPrefix(pkg, mod) && pkg[len(mod)] == '/')
}
