package render

import (
	"bytes"
	"testing"
)

func TestEscapeMarkdown(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text, 2.0GHz", "plain text, 2.0GHz"},
		{"Fixture CPU @ 2.0GHz", "Fixture CPU @ 2.0GHz"},
		{"a|b *c* _d_ ~e~ `f`", `a\|b \*c\* \_d\_ \~e\~ \` + "`f\\`"},
		{"<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"},
		{"&#64;x &amp;", "&amp;#64;x &amp;amp;"},
		{"[x](http://e)", `\[x\](http:` + "\u2060" + `//e)`},
		{"![i](y.png)", `!\[i\](y.png)`},
		{"hi @someone and @org/team", "hi @\u2060someone and @\u2060org/team"},
		{"mail a@b.example", "mail a@\u2060b.example"},
		{"see www.e.example", "see w\u2060ww.e.example"},
		{`back\slash`, `back\\slash`},
		{"two\nlines\x1b", `two\\x0alines\\x1b`}, // renders as two\x0alines\x1b
	} {
		if got := EscapeMarkdown(tc.in); got != tc.want {
			t.Errorf("EscapeMarkdown(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestMarkdownCode(t *testing.T) {
	for _, tc := range []struct{ in, code, cell string }{
		{"a|b", "`a|b`", "`a\\|b`"},
		{"`x`", "`'x'`", "`'x'`"},
		{"a\nb", "`a\\x0ab`", "`a\\x0ab`"},
	} {
		if got := MarkdownCode(tc.in); got != tc.code {
			t.Errorf("MarkdownCode(%q) = %q, want %q", tc.in, got, tc.code)
		}
		if got := MarkdownCellCode(tc.in); got != tc.cell {
			t.Errorf("MarkdownCellCode(%q) = %q, want %q", tc.in, got, tc.cell)
		}
	}
}

func TestTextWriter(t *testing.T) {
	var b bytes.Buffer
	w := NewTextWriter(&b)
	for _, s := range []string{"mbopt compare: m\n", "  ::error::x\n", "\t::warning", "::y\nred \x1b[31m\r", "no newline"} {
		if _, err := w.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	want := "mbopt compare: m\n  \\x3a:error::x\n\t\\x3a:warning::y\nred \\x1b[31m\\x0dno newline"
	if b.String() != want {
		t.Errorf("wrote %q, want %q", b.String(), want)
	}
}
