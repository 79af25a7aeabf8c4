package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/testkit/gittest"
	"github.com/mbopt/mbopt/testkit/hostile"
)

// hostileModule is a module whose BenchmarkHostile runs one sub-benchmark
// per hostile name with b.Run, as a fork's pull request can write it. Its
// loop runs work rounds per op; the sub-benchmarks at even positions run
// slow times as many, and the one at position fail fails with a hostile
// message (-1: none).
func hostileModule(slow int, fail int) string {
	var names strings.Builder
	for _, n := range hostile.Names {
		names.WriteString("\t" + strconv.Quote(n) + ",\n")
	}
	return fmt.Sprintf(`package h

import "testing"

var names = []string{
%s}

var sink uint64

func work(n int) uint64 {
	h := uint64(1)
	for i := 0; i < n; i++ {
		h = h*6364136223846793005 + uint64(i)
	}
	return h
}

func BenchmarkHostile(b *testing.B) {
	for i, name := range names {
		rounds := 20000
		if i%%2 == 0 {
			rounds *= %d
		}
		b.Run(name, func(b *testing.B) {
			if i == %d {
				b.Fatal(%q)
			}
			for k := 0; k < b.N; k++ {
				sink += work(rounds)
			}
		})
	}
}
`, names.String(), slow, fail, hostile.Messages[0])
}

// TestCompareHostileNames runs mbopt compare on a real module whose
// sub-benchmarks carry the hostile names, the head's commit message
// hostile too (issue 25, security of what CI publishes): every benchmark
// is found, run and compared, and the JSON, github
// (annotations and $GITHUB_STEP_SUMMARY), text and Markdown reports are
// inert.
func TestCompareHostileNames(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a comparison of 12 sub-benchmarks; skipped with -short")
	}
	r := gittest.New(t, "main")
	r.Write("go.mod", "module example.com/m\n\ngo 1.22\n")
	r.Write("h/h_test.go", hostileModule(1, -1))
	r.Commit("base: <script>alert(1)</script> @someone [x](http://e)")
	r.Git("tag", "base")
	r.Write("h/h_test.go", hostileModule(5, -1))
	r.Commit("head\n::error::injected")
	tmp := t.TempDir()
	summary := filepath.Join(tmp, "summary.md")
	args := []string{"compare", "--base", "base", "--head", "HEAD", "--bench", "BenchmarkHostile", "./h", "--metric", "time",
		"--trials", "2", "--runs", "1", "--count", "4", "--benchtime", "50x", "--resamples", "500",
		"--no-history", "--fail-on", "never", "--out", filepath.Join(tmp, "raw"), "--format", "github"}
	withFormat := func(f string) []string { return append(append([]string{}, args[:len(args)-1]...), f) }

	code, js, stderr := mboptIn(t, r.Dir, tmp, withFormat("json")...)
	require.Equal(t, cli.OK, code, "stdout:\n%s\nstderr:\n%s", js, stderr)
	hostile.CheckText(t, []byte(stderr))
	assert.NotContains(t, js, "<", "JSON escapes <")
	assert.NotContains(t, js, ">", "JSON escapes >")
	var rep compare.Report
	require.NoError(t, json.Unmarshal([]byte(js), &rep))
	annotations, compared, failed := 0, map[string]bool{}, 0
	for _, res := range rep.Results {
		switch {
		case res.Status == compare.Failed:
			failed++
			annotations++
		case res.Status == compare.Compared:
			compared[res.Name] = true
			if res.Verdict != benchstats.Unchanged {
				annotations++
			}
		}
	}
	for _, n := range hostile.Names {
		assert.True(t, compared[hostile.Sub(n)], "compared %q; results %v", n, compared)
	}
	assert.Zero(t, failed)
	assert.Positive(t, annotations, "the slowed sub-benchmarks are changes, each an annotation")

	// The github run measures again, so its verdicts can differ from the
	// JSON run's on a loaded machine: its own summary's "In all" line
	// says how many results are annotated (all but the unchanged).
	t.Setenv("GITHUB_STEP_SUMMARY", summary) // inherited by the mbopt process
	code, gh, stderr := mboptIn(t, r.Dir, tmp, withFormat("github")...)
	require.Equal(t, cli.OK, code, stderr)
	data, err := os.ReadFile(summary)
	require.NoError(t, err)
	m := regexp.MustCompile(`In all: ([^.]*)\.`).FindSubmatch(data)
	require.NotNil(t, m, "the summary's In all line:\n%s", data)
	want := 0
	for _, part := range strings.Split(string(m[1]), ", ") {
		var n int
		var what string
		_, err := fmt.Sscanf(part, "%d %s", &n, &what)
		require.NoError(t, err, part)
		if what != "unchanged" {
			want += n
		}
	}
	hostile.CheckWorkflowCommands(t, []byte(gh), want)
	t.Setenv("GITHUB_STEP_SUMMARY", "")

	code, text, stderr := mboptIn(t, r.Dir, tmp, withFormat("text")...)
	require.Equal(t, cli.OK, code, stderr)
	hostile.CheckText(t, []byte(text))

	code, md, stderr := mboptIn(t, r.Dir, tmp, withFormat("markdown")...)
	require.Equal(t, cli.OK, code, stderr)
	var names []string
	for _, n := range hostile.Names {
		names = append(names, "h."+hostile.Sub(n))
	}
	detailsTags := []string{"<details>", "<summary>", "</summary>", "</details>", "<sub>", "</sub>"}
	hostile.CheckMarkdown(t, []byte(md), names, detailsTags, nil)

	hostile.CheckMarkdown(t, data, names, detailsTags, nil)
	if t.Failed() {
		t.Logf("text:\n%s\nMarkdown:\n%s\nGitHub:\n%s", text, md, gh)
	}
}
