package doc

import (
	"strings"
	"testing"
)

// table holds a cell of every kind, a mark of each sort, a detail column
// and a note.
func table() *Table {
	t := &Table{Columns: []Column{{Head: "#", Align: Right}, {Head: "name"}, {Head: "+gain", Align: Right},
		{Head: "kept", Align: Center}, {Head: "says"}, {Head: "callers", Detail: true}}}
	t.Add(FigureCell("1"), CodeCell("B/a+b|<c>", Mark{Class: "marginal", Text: "marginal", Hide: TextForm}, Mark{Class: "thin", Text: "thin", Hide: TextForm | MarkdownForm}),
		FigureCell("+3"), CheckCell(true), WordsCell("a*b & c"), NamesCell(Item{Name: "F"}, Item{Name: "G", After: "1.00s"}))
	t.Note("      a note")
	t.Add(FigureCell("2"), CodeCell("", Mark{Class: "unseen", Text: "may have run unseen in", Title: "t'", Names: []string{"X", "Y"}}),
		FigureCell("+10"), CheckCell(false), WordsCell(""), NamesCell())
	return t
}

// TestPrinters prints one table and two notes in every format: the text
// without the detail column and the marks, Markdown and HTML with data
// escaped, figures as they are, an empty code cell empty in Markdown.
func TestPrinters(t *testing.T) {
	notes := []Note{{Label: "Optimality", Text: "It is optimal."}, {Label: "Suite cost", Text: "1s <b>", Fragment: true}}
	tests := []struct {
		name    string
		printer func(w *strings.Builder) Printer
		want    string
	}{
		{"text", func(w *strings.Builder) Printer { return Text(w) }, `  # name                         +gain  kept     says
  1 B/a+b|<c>                       +3   yes  a*b & c
      a note
  2 may have run unseen in X, Y    +10
  It is optimal.
  suite cost: 1s <b>
`},
		{"markdown", func(w *strings.Builder) Printer { return Markdown(w) }, "| # | name | +gain | kept | says | callers |\n" +
			"|--:|---|--:|:-:|---|---|\n" +
			"| 1 | `B/a+b\\|<c>` *marginal* | +3 | ✓ | a\\*b &amp; c | `F`<br>`G 1.00s` |\n" +
			"| 2 |  *may have run unseen in* `X`<br>`Y` | +10 |  |  |  |\n" +
			"**Optimality.** It is optimal.\n\n" +
			"**Suite cost.** 1s &lt;b&gt;.\n\n"},
		{"html", func(w *strings.Builder) Printer { return HTML(w) }, "<table><tr><th>#</th><th>name</th><th>+gain</th><th>kept</th><th>says</th><th>callers</th></tr>\n" +
			`<tr><td class="n">1</td><td><code>B/a&#43;b|&lt;c&gt;</code><span class="mark marginal">marginal</span><span class="mark thin">thin</span></td><td class="n">+3</td><td>✓</td><td>a*b &amp; c</td><td><code>F</code><br><code>G</code> 1.00s</td></tr>` + "\n" +
			`<tr><td class="n">2</td><td><code></code><span class="mark unseen" title="t&#39;">may have run unseen in X, Y</span></td><td class="n">+10</td><td></td><td></td><td></td></tr>` + "\n" +
			"</table>\n" +
			`<p class="note"><b>Optimality.</b> It is optimal.</p>` + "\n" +
			`<p><b>Suite cost.</b> 1s &lt;b&gt;.</p>` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			p := tt.printer(&b)
			p.Table(table())
			for _, n := range notes {
				p.Note(n)
			}
			if got := b.String(); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestNameLast prints a table of the NameLast layout: the text wraps the
// long name of its last column after a "/" and shows its mark, a figure
// not known is a dash in each form.
func TestNameLast(t *testing.T) {
	long := "BenchmarkQuery/" + strings.Repeat("x", 50) + "/size=1024"
	tab := &Table{Layout: NameLast, Columns: []Column{{Head: "", Detail: true}, {Head: "verdict"}, {Head: "impact", Align: Right}, {Head: "unit"}, {Head: "benchmark"}}}
	tab.Add(WordsCell("🔴"), WordsCell("definite regression"), FigureCell(""), WordsCell("sec/op"), CodeCell(long, Mark{Text: "(untouched)"}))
	tab.Add(WordsCell("⚪"), WordsCell("unchanged"), FigureCell("12.0%"), WordsCell("B/op"), CodeCell("BenchmarkPut"))
	tests := []struct {
		name    string
		printer func(w *strings.Builder) Printer
		want    string
	}{
		{"text", func(w *strings.Builder) Printer { return Text(w) }, "  verdict              impact    unit  benchmark\n" +
			"  definite regression       -  sec/op  BenchmarkQuery/\n" +
			"                                       " + strings.Repeat("x", 50) + "/size=1024 (untouched)\n" +
			"  unchanged             12.0%    B/op  BenchmarkPut\n"},
		{"markdown", func(w *strings.Builder) Printer { return Markdown(w) }, "|  | verdict | impact | unit | benchmark |\n|---|---|--:|---|---|\n" +
			"| 🔴 | definite regression | – | sec/op | `" + long + "` *(untouched)* |\n" +
			"| ⚪ | unchanged | 12.0% | B/op | `BenchmarkPut` |\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			tt.printer(&b).Table(tab)
			if got := b.String(); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestPhrase prints a Phrase cell in each form: the names code in
// Markdown (a "|" escaped so it cannot end the cell), escaped text in
// HTML.
func TestPhrase(t *testing.T) {
	c := PhraseCell("2 project functions: ", Item{Name: "a.F"}, Item{Name: "b.G|<x>", After: "and 3 more"})
	for _, tt := range []struct{ name, got, want string }{
		{"text", c.plain(), "2 project functions: a.F, b.G|<x> and 3 more"},
		{"markdown", c.markdown(), "2 project functions: `a.F`, `b.G\\|<x>` and 3 more"},
		{"html", c.html(), "2 project functions: a.F, b.G|&lt;x&gt; and 3 more"},
	} {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}
