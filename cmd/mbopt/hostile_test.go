package main

import (
	"context"
	"crypto/sha1"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/relevance/shard"
	"github.com/mbopt/mbopt/testkit/hostile"
)

// hostileHistory writes a history database at path whose benchmarks are
// the hostile-names fixture's sub-benchmarks, compared at four commits
// whose subjects are the fixture's hostile messages, on a machine with a
// hostile CPU name; it returns the benchmarks' ids.
func hostileHistory(t *testing.T, path string) []string {
	t.Helper()
	ctx := context.Background()
	st, err := history.Open(ctx, path)
	require.NoError(t, err)
	defer st.Close()
	const pkg = "example.com/m/h"
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	base := compare.Revision{Spec: "v1", Commit: fmt.Sprintf("%x", sha1.Sum([]byte("base"))), Time: t0, Subject: "<script>alert(1)</script> @someone [x](http://e)"}
	settings := compare.Settings{Trials: 3, Runs: 3, Count: 5, BenchTime: "1s", Seed: 1, Threshold: 0.01, Confidence: 0.99, Resamples: 10000}
	m := history.Machine{GOOS: "linux", GOARCH: "amd64", CPU: "@someone [x](http://e) \x1b[31m::error::cpu", GoVersion: "go1.26.8"}
	var ids []string
	for _, n := range hostile.Names {
		ids = append(ids, pkg+"."+hostile.Sub(n))
	}
	for c, change := range []float64{0.001, -0.002, 0.06, 0.061} {
		r := &compare.Report{Schema: compare.SchemaVersion, Module: "example.com/m", Base: base, Settings: settings,
			Head: compare.Revision{Spec: "HEAD", Commit: fmt.Sprintf("%x", sha1.Sum([]byte(fmt.Sprint("head ", c)))), Time: t0.Add(time.Duration(c+1) * time.Hour),
				Subject: hostile.Messages[c%len(hostile.Messages)]}}
		for i, id := range ids {
			ch := change + 0.001*float64(i)
			e := &benchstats.Estimate{Change: ch, CI: benchstats.Interval{Low: ch - 0.005, High: ch + 0.005}, BaseMedian: 1e-3, HeadMedian: 1e-3 * (1 + ch), BaseN: 45, HeadN: 45}
			r.Results = append(r.Results, compare.Result{ID: id, Package: pkg, Name: strings.TrimPrefix(id, pkg+"."), Unit: "sec/op",
				Status: compare.Compared, Estimate: e, Instability: e.Instability(), Verdict: benchstats.Classify(*e, 0.01, false), Trials: 3})
		}
		_, err := st.Add(ctx, r, m)
		require.NoError(t, err)
	}
	return ids
}

// TestHistoryHostileNames runs mbopt history on a history of the
// hostile-names fixture (issue 25, security of what CI publishes): its
// text, Markdown and JSON, on stdout and with -o, are inert (no workflow
// command, control character, HTML, link or @-mention; every name whole
// in code); the plots and the site's files are plain, bounded file names
// inside the directory given, and nothing is written beside it; every
// page of the site carries the Content-Security-Policy and no inline
// script.
func TestHistoryHostileNames(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "history.db")
	ids := hostileHistory(t, db)
	detectors := []string{"--detector", "jump,trend,edivisive", "--initial-threshold", "0.02"}

	for _, tc := range []struct {
		format string
		check  func(t *testing.T, out []byte)
	}{
		{"text", func(t *testing.T, out []byte) {
			hostile.CheckText(t, out)
			for _, n := range hostile.Names {
				assert.Contains(t, string(out), hostile.Sub(n), "the text names every benchmark")
			}
		}},
		{"markdown", func(t *testing.T, out []byte) { hostile.CheckMarkdown(t, out, ids, nil, nil) }},
		{"json", func(t *testing.T, out []byte) {
			assert.NotContains(t, string(out), "<", "JSON escapes <")
			assert.NotContains(t, string(out), ">", "JSON escapes >")
			var doc struct{ Series []struct{ ID string } }
			require.NoError(t, json.Unmarshal(out, &doc))
			var got []string
			for _, s := range doc.Series {
				got = append(got, s.ID)
			}
			assert.ElementsMatch(t, ids, got, "the names read back as stored")
		}},
	} {
		t.Run(tc.format, func(t *testing.T) {
			code, stdout, stderr := run(t, append([]string{"history", "--history", db, "--format", tc.format}, detectors...)...)
			require.Equal(t, cli.OK, code, stderr)
			hostile.CheckText(t, []byte(stderr))
			tc.check(t, []byte(stdout))

			out := filepath.Join(t.TempDir(), "out")
			code, _, stderr = run(t, append([]string{"history", "--history", db, "--format", tc.format, "-o", out}, detectors...)...)
			require.Equal(t, cli.OK, code, stderr)
			data, err := os.ReadFile(out)
			require.NoError(t, err)
			assert.Equal(t, stdout, string(data), "-o writes what stdout shows")
		})
	}

	t.Run("plots and site", func(t *testing.T) {
		out := t.TempDir()
		plots, site := filepath.Join(out, "plots"), filepath.Join(out, "site")
		code, _, stderr := run(t, append([]string{"history", "--history", db, "--plot", plots, "--html", site, "--commit-url", "https://github.com/o/r/commit/{commit}"}, detectors...)...)
		require.Equal(t, cli.OK, code, stderr)
		top, err := os.ReadDir(out)
		require.NoError(t, err)
		var names []string
		for _, e := range top {
			names = append(names, e.Name())
		}
		assert.Equal(t, []string{"plots", "site"}, names, "nothing written beside the directories given")

		svgs, err := os.ReadDir(plots)
		require.NoError(t, err)
		assert.Len(t, svgs, len(ids), "a plot per series")
		for _, e := range svgs {
			assert.False(t, e.IsDir(), e.Name())
			hostile.CheckFileName(t, e.Name(), 200+len("-99.svg"))
		}

		var pages int
		require.NoError(t, filepath.WalkDir(site, func(p string, d os.DirEntry, err error) error {
			if err != nil || p == site {
				return err
			}
			rel, err := filepath.Rel(site, p)
			require.NoError(t, err)
			for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
				if part != ".mbopt-site" { // the site's marker file, a fixed name
					hostile.CheckFileName(t, part, 120)
				}
			}
			if !strings.HasSuffix(p, ".html") {
				return nil
			}
			pages++
			data, err := os.ReadFile(p)
			require.NoError(t, err)
			page := string(data)
			assert.Contains(t, page, `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self'`, rel)
			assert.NotRegexp(t, `<script>|<script [^>]*>[^<]`, page, "%s: inline script", rel)
			assert.NotRegexp(t, `\son[a-z]+=`, page, "%s: event handler attribute", rel)
			for _, n := range hostile.Names {
				if strings.ContainsAny(n, "<>") {
					assert.NotContains(t, page, n, "%s: a name as markup", rel)
				}
			}
			return nil
		}))
		assert.Equal(t, len(ids)+1, pages, "the overview and a page per series")
	})
}

// hostileShard writes a shard directory of compare --shard as a CI job
// would upload it, whose benchmarks are the hostile-names fixture's
// sub-benchmarks (every third 30% slower in the head) and whose failures
// carry the fixture's hostile messages, with hostile subjects and branch.
func hostileShard(t *testing.T, dir string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o755))
	const mod, pkg = "example.com/m", "example.com/m/h"
	s := compare.DefaultSettings()
	s.Trials, s.Runs, s.Count, s.BenchTime, s.Resamples = 3, 2, 3, "10ms", 500
	var benches []string
	raw := map[string]string{}
	for _, side := range []struct{ file, name, commit string }{
		{compare.BaseFile, "base", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},
		{compare.HeadFile, "head", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"},
	} {
		var b strings.Builder
		for trial := 1; trial <= s.Trials; trial++ {
			for run := 1; run <= s.Runs; run++ {
				fmt.Fprintf(&b, "# mbopt-compare side=%s commit=%s trial=%d run=%d\ngoos: linux\ngoarch: amd64\npkg: %s\n", side.name, side.commit, trial, run, pkg)
				for i, n := range hostile.Names {
					for k := range s.Count {
						v := 1000 * (1 + 0.002*float64(k%3-1))
						if side.name == "head" && i%3 == 0 {
							v *= 1.3
						}
						fmt.Fprintf(&b, "%s 1000 %.3f ns/op\n", hostile.Sub(n), v)
					}
				}
			}
		}
		raw[side.file] = b.String()
		require.NoError(t, os.WriteFile(filepath.Join(dir, side.file), []byte(b.String()), 0o644))
	}
	for _, n := range hostile.Names {
		benches = append(benches, pkg+"."+hostile.Sub(n))
	}
	rec := compare.ShardRecord{Schema: compare.SchemaVersion, Kind: compare.ShardBenchmarks,
		Record: shard.Record{Index: 0, Count: 1, Digest: "d1", Total: len(benches)}, Module: mod,
		Base:     compare.Revision{Spec: "refs/heads/@someone/[x](http://e)", Commit: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", Subject: "fix <script>alert(1)</script> for @someone ::error::x"},
		Head:     compare.Revision{Spec: "HEAD", Commit: "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", Subject: hostile.Messages[0]},
		Settings: s, Requested: s, Benchmarks: benches, Trials: []int{1, 2, 3},
		Files: map[string]shard.File{compare.BaseFile: shard.FileOf([]byte(raw[compare.BaseFile])), compare.HeadFile: shard.FileOf([]byte(raw[compare.HeadFile]))}}
	for i, msg := range hostile.Messages {
		name := hostile.Sub(hostile.Names[i]) + "/failed"
		rec.Failures = append(rec.Failures, compare.Result{ID: pkg + "." + name, Package: pkg, Name: name, Unit: "sec/op", Status: compare.Failed, Side: "head", Error: msg})
	}
	data, err := json.Marshal(rec)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, compare.ShardFile), data, 0o644))
}

// TestCompareMergeHostileNames runs compare merge on a shard of the
// hostile-names fixture, as a fork's pull request could make one (issue
// 25, security of what CI publishes): each format mbopt writes for CI is
// inert. Text has no workflow command or control character; Markdown (and
// the github format's $GITHUB_STEP_SUMMARY) no HTML but the collapsible
// sections, no link or @-mention, and every name whole in code; github's
// output is exactly one annotation per judged or failed result, each
// escaped; JSON escapes < and > and reads back with every name.
func TestCompareMergeHostileNames(t *testing.T) {
	tmp := t.TempDir()
	sh := filepath.Join(tmp, "shard-0")
	hostileShard(t, sh)
	var names []string
	for _, n := range hostile.Names {
		names = append(names, "h."+hostile.Sub(n))
	}
	merge := func(t *testing.T, format string) (string, string) {
		t.Helper()
		code, stdout, stderr := run(t, "compare", "merge", sh, "--out", filepath.Join(t.TempDir(), "merged"), "--no-history", "--fail-on", "never", "--format", format)
		require.Equal(t, cli.OK, code, stderr)
		hostile.CheckText(t, []byte(stderr))
		return stdout, stderr
	}
	detailsTags := []string{"<details>", "<summary>", "</summary>", "</details>", "<sub>", "</sub>"}

	js, _ := merge(t, "json")
	assert.NotContains(t, js, "<", "JSON escapes <")
	assert.NotContains(t, js, ">", "JSON escapes >")
	var rep compare.Report
	require.NoError(t, json.Unmarshal([]byte(js), &rep))
	annotations, ids := 0, map[string]bool{}
	for _, r := range rep.Results {
		ids[r.ID] = true
		if r.Status == compare.Failed || r.Status == compare.BuildFailed || (r.Status == compare.Compared && r.Verdict != benchstats.Unchanged) {
			annotations++
		}
	}
	for _, n := range hostile.Names {
		assert.True(t, ids["example.com/m/h."+hostile.Sub(n)], "the JSON holds %q", n)
	}
	require.Positive(t, annotations)

	text, _ := merge(t, "text")
	hostile.CheckText(t, []byte(text))
	for _, n := range hostile.Names {
		assert.Contains(t, text, hostile.Sub(n))
	}

	md, _ := merge(t, "markdown")
	hostile.CheckMarkdown(t, []byte(md), names, detailsTags, nil)

	summary := filepath.Join(tmp, "step-summary.md")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	gh, _ := merge(t, "github")
	hostile.CheckWorkflowCommands(t, []byte(gh), annotations)
	data, err := os.ReadFile(summary)
	require.NoError(t, err)
	hostile.CheckMarkdown(t, data, names, detailsTags, nil)
	if t.Failed() {
		t.Logf("text:\n%s\nMarkdown:\n%s\nGitHub:\n%s", text, md, gh)
	}
}
