package report

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/suite"
	"github.com/mbopt/mbopt/report/github"
)

// GitHub returns the step summary of rep, whose Document is d.
func GitHub(rep *analysis.Report, d *Document) (*github.StepSummary, error) {
	s := &github.StepSummary{Suite: suiteLines(rep)}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, d, MarkdownOptions{Summary: true, Suite: s.Suite}); err != nil {
		return nil, err
	}
	s.Markdown = md.Bytes()
	return s, nil
}

// suiteLines returns the suite as `go test` command lines when every pick
// maps to a package and name (from its manifest entry or its id), else the
// picked ids, one per line, in pick order.
func suiteLines(rep *analysis.Report) string {
	if sel, err := analysis.SuiteBenchmarks(rep); err == nil && len(sel) > 0 {
		if invs, err := suite.Plan(sel, suite.Options{}); err == nil {
			var b bytes.Buffer
			if suite.Write(&b, invs, suite.FormatShell) == nil {
				return b.String()
			}
		}
	}
	var ids strings.Builder
	for _, id := range rep.Suite.IDs() {
		fmt.Fprintln(&ids, id)
	}
	return ids.String()
}

// Render returns the analysis rep in format, as mbopt analyze prints it:
// "text" ([WriteText] with opt), "json" ([WriteJSON]) or "github" (the
// suite of the step summary, which Render returns for the caller to append
// to $GITHUB_STEP_SUMMARY; nil for the other formats).
func Render(rep *analysis.Report, format string, opt TextOptions) ([]byte, *github.StepSummary, error) {
	doc := Build(rep)
	if format == "github" {
		s, err := GitHub(rep, doc)
		if err != nil {
			return nil, nil, err
		}
		return []byte(s.Suite), s, nil
	}
	var buf bytes.Buffer
	var err error
	if format == "json" {
		err = WriteJSON(&buf, doc)
	} else {
		err = WriteText(&buf, doc, opt)
	}
	return buf.Bytes(), nil, err
}
