package report_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/mbopt/mbopt/report"
)

// WriteDir writes every file of the report as one set; a second call
// replaces the whole set.
func ExampleWriteDir() {
	tmp, err := os.MkdirTemp("", "report")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, "report")

	if err := report.WriteDir(dir, report.Build(analyse(3)), report.DirOptions{}); err != nil {
		log.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range entries {
		fmt.Println(e.Name())
	}
	// Output:
	// .mbopt-report
	// recommend-coverage.png
	// recommend-coverage.svg
	// report.html
	// report.json
	// report.md
	// suite-coverage.png
	// suite-coverage.svg
	// suite-impact.png
	// suite-impact.svg
}

// GitHub gives what a CI step reports: the suite to run next and a
// Markdown step summary, here appended to the file GitHub Actions names in
// $GITHUB_STEP_SUMMARY. These profiles are named package__Benchmark, not by
// import path, so the suite is a list of ids rather than go test commands.
func ExampleGitHub() {
	rep := analyse(3)
	g, err := report.GitHub(rep, report.Build(rep))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(g.Suite)

	tmp, err := os.MkdirTemp("", "summary")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	summary := filepath.Join(tmp, "step-summary.md")
	if err := g.Append(summary); err != nil {
		log.Fatal(err)
	}
	md, err := os.ReadFile(summary)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(strings.SplitN(string(md), "\n", 2)[0])
	// Output:
	// query__BenchmarkQuery
	// httpapi__BenchmarkQueryHandler
	// httpapi__BenchmarkWrite
	// storage__BenchmarkSearch
	// # mbopt: microbenchmark suite relevance for `example.com/tinytsdb`
}
