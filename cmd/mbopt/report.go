package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/mbopt/mbopt/report"
)

// reportOptions holds the report command's flag values.
type reportOptions struct {
	analyzeOptions
	out string
}

func newCmdReport(s *streams) *cobra.Command {
	o := &reportOptions{}
	cmd := &cobra.Command{
		Use:   "report --app FILE --micro DIR --out DIR [flags]",
		Short: "Write a Markdown and a self-contained HTML report with plots",
		Long: `Report runs the same analysis as analyze and writes, into the --out directory:

  report.md     the report in GitHub-flavoured Markdown, linking the figures
  report.html   the same report as one self-contained page (figures inlined)
  report.json   the analysis as JSON (the schema of analyze --format json)
  suite-coverage.{png,svg}      cumulative coverage vs. benchmarks in the
                                minimal suite (the dissertation's Figure 6.6)
  recommend-coverage.{png,svg}  cumulative coverage vs. recommended
                                functions (Figure 6.7), with --recommend
  suite-impact.{png,svg}        reference impact of each selected benchmark

With several --app NAME=FILE scenarios it adds each scenario's coverage, the
pair-wise overlap (Table 6.4) and one coverage line per scenario. The LP
optimality certificate is always computed (see --certify on analyze).

Every file is written to a temporary name and renamed, so a failed run leaves
no half-written report. Exit status: 0 success, 2 bad input, 1 internal error.`,
		Example: `  $ mbopt report --app app.pprof --micro profiles/ --out report/
  $ mbopt report --app ingest=ingest.pprof --app query=query.pprof:2 --micro profiles/ --out report/
  $ mbopt report --app app.pprof --micro profiles/ --objective impact --budget 60s --out report/`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.out == "" {
				return badInputf("--out is required: the directory to write the report into")
			}
			cfg, err := o.config()
			if err != nil {
				return err
			}
			cfg.Certify = true
			rep, err := analyze(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			printWarnings(s.Err, rep)
			return writeReport(o.out, report.Build(rep))
		},
	}
	addAnalysisFlags(cmd, &o.analyzeOptions)
	cmd.Flags().StringVar(&o.out, "out", "", "directory to write the report into (created if missing)")
	return cmd
}

// writeReport writes every report file into dir.
func writeReport(dir string, d *report.Document) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return badInputf("--out: %v", err)
	}
	files := map[string][]byte{}
	images := map[string]string{}
	var inline []report.HTMLImage
	for _, f := range report.Figures(d) {
		png, err := f.PNG()
		if err != nil {
			return err
		}
		svg, err := f.SVG()
		if err != nil {
			return err
		}
		files[f.Name+".png"], files[f.Name+".svg"] = png, svg
		images[f.Name] = f.Name + ".svg"
		inline = append(inline, report.HTMLImage{Figure: f, PNG: png})
	}
	var md, html, js bytes.Buffer
	if err := report.WriteMarkdown(&md, d, report.MarkdownOptions{Images: images}); err != nil {
		return err
	}
	if err := report.WriteHTML(&html, d, inline); err != nil {
		return err
	}
	if err := report.WriteJSON(&js, d); err != nil {
		return err
	}
	files["report.md"], files["report.html"], files["report.json"] = md.Bytes(), html.Bytes(), js.Bytes()
	// Images first, pages last: a page never links a missing image.
	for _, name := range []string{"suite-coverage.png", "suite-coverage.svg", "recommend-coverage.png", "recommend-coverage.svg",
		"suite-impact.png", "suite-impact.svg", "report.json", "report.md", "report.html"} {
		data, ok := files[name]
		if !ok {
			continue
		}
		if err := writeFileAtomic(filepath.Join(dir, name), data); err != nil {
			return fmt.Errorf("report: %w", err)
		}
	}
	return nil
}
