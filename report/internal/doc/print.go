package doc

import (
	"cmp"
	"fmt"
	"io"
	"strings"

	"github.com/mbopt/mbopt/report/internal/render"
)

// Text returns the printer of the text form to w: aligned columns (see
// [Layout]) without the Detail columns, each row's notes under it; a note
// on a line of its own, indented by two.
func Text(w io.Writer) Printer { return textPrinter{w} }

// Markdown returns the printer of GitHub-flavoured Markdown to w: a
// table's head, alignment and rows, data escaped (render.EscapeMarkdown,
// render.MarkdownCellCode); a note as a bold label and its text, a
// paragraph.
func Markdown(w io.Writer) Printer { return markdownPrinter{w} }

// HTML returns the printer of HTML to w: a <table> of one line per row,
// figures in cells of class "n", marks as <span class="mark …">; a note as
// a paragraph, of class "note" (or its Class) unless it is a Fragment. Data is escaped
// as html/template escapes text.
func HTML(w io.Writer) Printer { return htmlPrinter{w} }

type textPrinter struct{ w io.Writer }

// Table writes t as an aligned text table.
func (p textPrinter) Table(t *Table) {
	rt := &render.Table{}
	var heads []string
	for _, c := range t.Columns {
		if !c.Detail {
			heads = append(heads, c.Head)
		}
	}
	rt.Row(heads...)
	last := len(t.Columns) - 1
	for last > 0 && t.Columns[last].Detail {
		last--
	}
	for _, r := range t.Rows {
		var cells []string
		for i, c := range r.Cells {
			if t.Columns[i].Detail {
				continue
			}
			if t.Layout == NameLast && i == last && c.Kind == Code {
				c.Text = render.WrapName(c.Text, render.NameWidth)
			}
			cells = append(cells, c.plain())
		}
		rt.Row(cells...)
		if len(r.Notes) > 0 {
			rt.Note(r.Notes...)
		}
	}
	if t.Layout == NameLast {
		rt.WriteLastLeft(p.w)
		return
	}
	rt.Write(p.w)
}

// Note writes n on a line, indented by two.
func (p textPrinter) Note(n Note) {
	if n.Fragment {
		fmt.Fprintf(p.w, "  %s: %s\n", strings.ToLower(n.Label[:1])+n.Label[1:], n.Text)
		return
	}
	fmt.Fprintf(p.w, "  %s\n", n.Text)
}

// plain is c in the text form.
func (c Cell) plain() string {
	s := c.Text
	switch c.Kind {
	case Figure:
		if s == "" {
			s = "-"
		}
	case Names, Phrase:
		s += c.phrase(Item.line)
	}
	for _, m := range c.Marks {
		if m.Hide&TextForm == 0 {
			if s != "" {
				s += " "
			}
			s += m.Text
			if len(m.Names) > 0 {
				s += " " + strings.Join(m.Names, ", ")
			}
		}
	}
	return s
}

// phrase is c's items, each written by item, joined by ", ".
func (c Cell) phrase(item func(Item) string) string {
	var names []string
	for _, it := range c.Items {
		names = append(names, item(it))
	}
	return strings.Join(names, ", ")
}

// line is the item's name and what follows it.
func (it Item) line() string {
	if it.After == "" {
		return it.Name
	}
	return it.Name + " " + it.After
}

type markdownPrinter struct{ w io.Writer }

// markdownAlign is each alignment's cell of a Markdown table's
// alignment row.
var markdownAlign = map[Align]string{Left: "---|", Right: "--:|", Center: ":-:|"}

// Table writes t as a Markdown table.
func (p markdownPrinter) Table(t *Table) {
	var heads []string
	align := "|"
	for _, c := range t.Columns {
		heads = append(heads, render.EscapeMarkdown(c.Head))
		align += markdownAlign[c.Align]
	}
	fmt.Fprintf(p.w, "| %s |\n%s\n", strings.Join(heads, " | "), align)
	for _, r := range t.Rows {
		cells := make([]string, len(r.Cells))
		for i, c := range r.Cells {
			cells[i] = c.markdown()
		}
		fmt.Fprintf(p.w, "| %s |\n", strings.Join(cells, " | "))
	}
}

// Note writes n as a paragraph.
func (p markdownPrinter) Note(n Note) {
	end := ""
	if n.Fragment {
		end = "."
	}
	fmt.Fprintf(p.w, "**%s.** %s%s\n\n", n.Label, render.EscapeMarkdown(n.Text), end)
}

// markdown is c in a Markdown table.
func (c Cell) markdown() string {
	var s string
	switch c.Kind {
	case Words:
		s = render.EscapeMarkdown(c.Text)
	case Code:
		s = markdownCodes(c.Text)
	case Check:
		if c.Text != "" {
			s = "✓"
		}
	case Names:
		var names []string
		for _, it := range c.Items {
			names = append(names, it.line())
		}
		s = markdownCodes(names...)
	case Phrase:
		s = render.EscapeMarkdown(c.Text) + c.phrase(func(it Item) string {
			if it.After == "" {
				return render.MarkdownCellCode(it.Name)
			}
			return render.MarkdownCellCode(it.Name) + " " + render.EscapeMarkdown(it.After)
		})
	default:
		s = cmp.Or(c.Text, "–")
	}
	for _, m := range c.Marks {
		if m.Hide&MarkdownForm != 0 {
			continue
		}
		s += " *" + m.Text + "*"
		if len(m.Names) > 0 {
			s += " " + markdownCodes(m.Names...)
		}
	}
	return s
}

// markdownCodes formats each non-empty name as code in a table cell, one
// per line ("<br>"): an empty code span is no Markdown.
func markdownCodes(names ...string) string {
	var out []string
	for _, s := range names {
		if s != "" {
			out = append(out, render.MarkdownCellCode(s))
		}
	}
	return strings.Join(out, "<br>")
}

type htmlPrinter struct{ w io.Writer }

// escapeHTML escapes text as html/template does in text and quoted
// attributes, so that the tables read as the template wrote them.
var escapeHTML = strings.NewReplacer("\x00", "\uFFFD", `"`, "&#34;", "&", "&amp;", "'", "&#39;", "+", "&#43;", "<", "&lt;", ">", "&gt;")

// escapeHead escapes a column head, mbopt's words, for markup only.
var escapeHead = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// Table writes t as an HTML table.
func (p htmlPrinter) Table(t *Table) {
	var b strings.Builder
	b.WriteString("<table><tr>")
	for _, c := range t.Columns {
		b.WriteString("<th>" + escapeHead.Replace(c.Head) + "</th>")
	}
	b.WriteString("</tr>\n")
	for _, r := range t.Rows {
		b.WriteString("<tr>")
		for i, c := range r.Cells {
			if t.Columns[i].Align == Right {
				b.WriteString(`<td class="n">`)
			} else {
				b.WriteString("<td>")
			}
			b.WriteString(c.html() + "</td>")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table>\n")
	io.WriteString(p.w, b.String())
}

// Note writes n as a paragraph.
func (p htmlPrinter) Note(n Note) {
	if n.Fragment {
		fmt.Fprintf(p.w, "<p><b>%s.</b> %s.</p>\n", escapeHead.Replace(n.Label), escapeHTML.Replace(n.Text))
		return
	}
	fmt.Fprintf(p.w, "<p class=\"%s\"><b>%s.</b> %s</p>\n", cmp.Or(n.Class, "note"), escapeHead.Replace(n.Label), escapeHTML.Replace(n.Text))
}

// html is c in an HTML table cell.
func (c Cell) html() string {
	var s string
	switch c.Kind {
	case Words:
		s = escapeHTML.Replace(c.Text)
	case Code:
		s = "<code>" + escapeHTML.Replace(c.Text) + "</code>"
	case Check:
		if c.Text != "" {
			s = "✓"
		}
	case Names:
		var names []string
		for _, it := range c.Items {
			n := "<code>" + escapeHTML.Replace(it.Name) + "</code>"
			if it.After != "" {
				n += " " + escapeHTML.Replace(it.After)
			}
			names = append(names, n)
		}
		s = strings.Join(names, "<br>")
	case Phrase:
		s = escapeHTML.Replace(c.Text + c.phrase(Item.line))
	default:
		s = cmp.Or(c.Text, "–")
	}
	for _, m := range c.Marks {
		if m.Hide&HTMLForm != 0 {
			continue
		}
		s += `<span class="mark ` + m.Class + `"`
		if m.Title != "" {
			s += ` title="` + escapeHTML.Replace(m.Title) + `"`
		}
		s += ">" + escapeHTML.Replace(m.Text)
		if len(m.Names) > 0 {
			s += " " + escapeHTML.Replace(strings.Join(m.Names, ", "))
		}
		s += "</span>"
	}
	return s
}
