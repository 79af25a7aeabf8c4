// Package hostile is the hostile-names fixture of mbopt's tests: names a
// sub-benchmark may have (b.Run takes any string, and a pull request from a
// fork chooses them) that would execute, link, mention, inject a GitHub
// workflow command or escape a directory if mbopt rendered them as they
// are, and the checks that what mbopt renders from them is inert: Markdown
// as GitHub renders it ([CheckMarkdown], with goldmark and GitHub's
// extensions), workflow commands ([CheckWorkflowCommands]), terminal text
// ([CheckText]) and file names ([CheckFileName]).
package hostile

import (
	"bytes"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// Names are the hostile sub-benchmark names: the five of issue 25 and
// others that break a table cell, a code span, a workflow command's
// escaping or a terminal.
var Names = []string{
	"<script>alert(1)</script>",
	"[x](http://e)",
	"@someone",
	"::error::x",
	"../../etc",
	"a|b",
	"`tick`",
	"%0A::warning::pct",
	"<img_src=x_onerror=alert(2)>",
	"http://e.example/x",
	"@org/team",
	"..",
}

// Messages are hostile texts a benchmark can print or panic with, which
// reach reports as errors: several lines, a carriage return, a terminal
// escape and workflow commands at the start of a line.
var Messages = []string{
	"panic: <script>alert(3)</script> @someone [x](http://e)\n::error title=t::injected\n\r::warning::cr",
	"boom\x1b[31m red \x1b]0;title\x07 ::add-mask::secret\n  ::stop-commands::tok",
}

// Sub returns the full benchmark name of the sub-benchmark name of
// BenchmarkHostile, as go test prints it (spaces become underscores).
func Sub(name string) string {
	return "BenchmarkHostile/" + strings.ReplaceAll(name, " ", "_")
}

// gfm parses Markdown as GitHub does, autolinks included.
var gfm = goldmark.New(goldmark.WithExtensions(extension.GFM))

// mention matches a GitHub @-mention: "@" after no word character,
// followed by a user or team name.
var mention = regexp.MustCompile(`(^|[^A-Za-z0-9_.])@[A-Za-z0-9]`)

// CheckMarkdown parses md as GitHub-flavoured Markdown and fails t unless
// it is inert: no raw HTML but the tags in allowedTags (such as
// "<details>", "</summary>"), no link or image but those to allowedLinks,
// no @-mention or URL in text outside code, and every name of names whole
// inside one code span (so that none was split across table cells or left
// outside code).
func CheckMarkdown(t testing.TB, md []byte, names []string, allowedTags, allowedLinks []string) {
	t.Helper()
	doc := gfm.Parser().Parse(text.NewReader(md))
	var codes []string
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf("Markdown not inert: "+format, args...)
	}
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.CodeSpan:
			var b bytes.Buffer
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				if tx, ok := c.(*ast.Text); ok {
					b.Write(tx.Segment.Value(md))
				}
			}
			codes = append(codes, b.String())
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML:
			for i := range n.Segments.Len() {
				seg := n.Segments.At(i)
				if tag := string(seg.Value(md)); !slices.Contains(allowedTags, tag) {
					fail("raw HTML %q", tag)
				}
			}
		case *ast.HTMLBlock:
			for i := range n.Lines().Len() {
				seg := n.Lines().At(i)
				line := strings.TrimSpace(string(seg.Value(md)))
				for _, tag := range allowedTags {
					line = strings.ReplaceAll(line, tag, "")
				}
				if strings.ContainsAny(line, "<>") {
					fail("raw HTML block line %q", seg.Value(md))
				}
			}
		case *ast.Link:
			if !slices.Contains(allowedLinks, string(n.Destination)) {
				fail("link to %q", n.Destination)
			}
		case *ast.Image:
			if !slices.Contains(allowedLinks, string(n.Destination)) {
				fail("image %q", n.Destination)
			}
		case *ast.AutoLink:
			fail("autolink %q", n.URL(md))
		case *ast.Text:
			s := string(n.Segment.Value(md))
			if mention.MatchString(s) {
				fail("@-mention in text %q", s)
			}
			if strings.Contains(s, "://") || strings.Contains(strings.ToLower(s), "www.") {
				fail("URL in text %q", s)
			}
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if !slices.ContainsFunc(codes, func(c string) bool { return strings.Contains(unescapeCell(c), codeForm(name)) }) {
			t.Errorf("Markdown: %q is in no code span whole (code spans: %q)", name, codes)
		}
	}
}

// unescapeCell undoes the "\|" a table cell needs inside code.
func unescapeCell(s string) string { return strings.ReplaceAll(s, `\|`, "|") }

// codeForm is name as a code span shows it: backticks become quotes, as
// Markdown code cannot hold them reliably.
func codeForm(name string) string { return strings.ReplaceAll(name, "`", "'") }

// CheckWorkflowCommands fails t unless out, a step's standard output, holds
// exactly want workflow commands (lines that start with "::" after leading
// space, which the GitHub runner executes), each an annotation of a known
// level with a title, and no other line the runner would read as one.
func CheckWorkflowCommands(t testing.TB, out []byte, want int) {
	t.Helper()
	annotation := regexp.MustCompile(`^::(error|warning|notice) title=[^:,\r\n]*::[^\r\n]*$`)
	n := 0
	for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		if !strings.HasPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), "::") {
			continue
		}
		n++
		if !annotation.MatchString(line) {
			t.Errorf("workflow command %q is not one annotation with a title", line)
		}
	}
	if n != want {
		t.Errorf("%d workflow commands, want %d:\n%s", n, want, out)
	}
	if bytes.ContainsRune(out, '\r') {
		t.Errorf("a carriage return in the output, which ends a workflow command line: %q", out)
	}
}

// CheckText fails t unless out, text for a terminal or a CI log, has no
// control character but newline and tab (no terminal escape, no carriage
// return) and no line the GitHub runner would execute as a workflow
// command.
func CheckText(t testing.TB, out []byte) {
	t.Helper()
	for i, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), "::") {
			t.Errorf("line %d is a workflow command: %q", i+1, line)
		}
		if strings.IndexFunc(line, func(r rune) bool { return r != '\t' && (unicode.IsControl(r) || r == '\u2028' || r == '\u2029') }) >= 0 {
			t.Errorf("line %d holds a control character: %q", i+1, line)
		}
	}
}

// CheckFileName fails t unless name is a single, plain file name: no
// separator, not "." or "..", no ".." at all, no control character or
// space, not hidden, at most max bytes.
func CheckFileName(t testing.TB, name string, max int) {
	t.Helper()
	switch {
	case name == "" || name == "." || name == "..":
		t.Errorf("file name %q", name)
	case strings.ContainsAny(name, `/\`) || filepath.Base(name) != name:
		t.Errorf("file name %q has a separator", name)
	case strings.Contains(name, ".."):
		t.Errorf("file name %q holds ..", name)
	case strings.HasPrefix(name, ".") || strings.HasPrefix(name, "-"):
		t.Errorf("file name %q starts with %q", name, name[:1])
	case strings.IndexFunc(name, func(r rune) bool { return r > 0x7e || r <= ' ' }) >= 0:
		t.Errorf("file name %q holds a character other than printable ASCII", name)
	case len(name) > max:
		t.Errorf("file name %q has %d bytes, more than %d", name, len(name), max)
	}
}
