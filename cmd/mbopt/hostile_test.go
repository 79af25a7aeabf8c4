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

	"github.com/mbopt/mbopt/benchstats"
	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/history"
	"github.com/mbopt/mbopt/internal/testing/hostile"
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
