package cli

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"strings"
)

// Manual returns the sections titled titles of the manual: the package
// comment of src, the Go source of a command's doc.go, rendered as go doc
// renders it and split at its headings. The title "" is the text before the
// first heading. mbopt's --help prints the manual's section of the command,
// so that go doc and --help say the same, from one text.
func Manual(src string, titles ...string) string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "doc.go", src, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return ""
	}
	p, err := doc.NewFromFiles(fset, []*ast.File{f}, "")
	if err != nil {
		return ""
	}
	sections := map[string]string{}
	title := ""
	for _, line := range strings.SplitAfter(string(p.Text(p.Doc)), "\n") {
		if h, ok := strings.CutPrefix(line, "# "); ok {
			title = strings.TrimSpace(h)
			continue
		}
		sections[title] += line
	}
	var b strings.Builder
	for _, t := range titles {
		if t != "" && b.Len() > 0 {
			b.WriteString(t + "\n\n")
		}
		b.WriteString(strings.Trim(sections[t], "\n") + "\n\n")
	}
	return strings.TrimRight(b.String(), "\n")
}
