package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/compare/mutate"
	"github.com/mbopt/mbopt/relevance/sensitivity"
	"github.com/mbopt/mbopt/testkit/cmpfixture"
	"github.com/mbopt/mbopt/testkit/counted"
	"github.com/mbopt/mbopt/testkit/need"
)

// TestSensitivityCaught is issue 34's check, as a user runs it, on a
// module where Parse takes 40% of the application's CPU but 0.1% of the
// only benchmark that runs it, beside Hash, its benchmark's whole work:
// from instruction profiles, mbopt analyze --sensitivity --format json
// gives Hash a detectable slowdown of at most 5% and Parse one of at least
// 50%, and recommends Parse first; mbopt mutate --bench . catches +10% in
// Hash, does not catch +10% in Parse, and catches Parse at five times its
// predicted detectable slowdown; the source tree is unchanged.
func TestSensitivityCaught(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a fixture under Valgrind and compares three mutants")
	}
	need.Tool(t, "the sensitivity check", "valgrind")
	bin := buildMbopt(t)
	dir := cmpfixture.SensitivityRepo(t)
	run := func(t *testing.T, name string, args ...string) []byte {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "CI=true")
		out, err := cmd.Output()
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		require.NoError(t, err, "%s %v:\n%s%s", name, args, out, stderr)
		return out
	}
	// The application's reference profile: the request's instruction
	// profile (deterministic: Parse 40%, Hash 30%, Other 30%), which a
	// CPU profile only approximates, and on a loaded machine with few
	// samples.
	work := t.TempDir()
	appProfiles, profiles := filepath.Join(work, "app"), filepath.Join(work, "profiles")
	run(t, bin, "profile", "--source", "instructions", "--out", appProfiles, "./app")
	apps, err := filepath.Glob(filepath.Join(appProfiles, "*BenchmarkApp*.pprof"))
	require.NoError(t, err)
	require.Len(t, apps, 1, "the request's profile in %s", appProfiles)
	app := apps[0]
	// 200x, as docs/sensitivity.md advises for benchmarks of a few
	// thousand instructions per operation: at the default 10x the
	// runtime's work between the 8 operations counted diluted Hash's
	// share of its benchmark to anywhere from 26% to 94%.
	run(t, bin, "profile", "--source", "instructions", "--benchtime", "200x", "--out", profiles, "./work")

	var doc struct {
		Sensitivity sensitivity.Result `json:"sensitivity"`
	}
	require.NoError(t, json.Unmarshal(run(t, bin, "analyze", "--app", app, "--allow-non-cpu", "--micro", profiles, "--exclude", "./app", "--sensitivity", "--format", "json"), &doc))
	s := doc.Sensitivity
	fns := map[string]sensitivity.Function{}
	for _, f := range s.Functions {
		fns[f.Function] = f
	}
	hash, parse := fns[cmpfixture.Hash], fns[cmpfixture.Parse]
	require.NotNil(t, hash.DetectableSlowdown, "%+v", s.Functions)
	require.NotNil(t, parse.DetectableSlowdown, "%+v", s.Functions)
	t.Logf("Hash: %.1f%% of the application, caught from %+.2f%%; Parse: %.1f%%, caught from %+.0f%%", 100*hash.AppShare, 100**hash.DetectableSlowdown, 100*parse.AppShare, 100**parse.DetectableSlowdown)
	assert.LessOrEqual(t, *hash.DetectableSlowdown, 0.05)
	assert.GreaterOrEqual(t, *parse.DetectableSlowdown, 0.5)
	require.NotEmpty(t, s.Recommendations)
	assert.Equal(t, cmpfixture.Parse, s.Recommendations[0].Function.Function, "the first sensitivity recommendation")

	mutant := func(t *testing.T, fn string, slowdown float64) *mutate.Result {
		var r mutate.Result
		require.NoError(t, json.Unmarshal(run(t, bin, "mutate", "--func", fn, "--slowdown", fmt.Sprint(slowdown), "--bench", ".", "--target-mde", "-1", "--format", "json", "./work"), &r))
		for _, res := range r.Report.Results {
			if res.Estimate != nil {
				t.Logf("%s %+.0f%%: %s %s %+.3f%% [%+.3f%%, %+.3f%%]", fn, 100*slowdown, res.Name, res.Unit, 100*res.Estimate.Change, 100*res.Estimate.CI.Low, 100*res.Estimate.CI.High)
			}
		}
		return &r
	}
	// The three mutants at once: instruction counts do not depend on
	// what else the machine runs.
	t.Run("mutants", func(t *testing.T) {
		for _, tc := range []struct {
			name     string
			fn       string
			slowdown float64
			caught   bool
		}{
			{"Hash+10%", cmpfixture.Hash, 0.10, true},
			{"Parse+10%", cmpfixture.Parse, 0.10, false},
			{"Parse at 5x its detectable slowdown", cmpfixture.Parse, 5 * *parse.DetectableSlowdown, true},
		} {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				assert.Equal(t, tc.caught, mutant(t, tc.fn, tc.slowdown).Caught)
			})
		}
	})
	assert.Empty(t, string(run(t, "git", "status", "--porcelain")), "the source tree is untouched")
}

// TestMutateFlags checks mutate's choice between --func and
// --from-sensitivity before anything is built: each error names the
// flags to give or leave out.
func TestMutateFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--slowdown", "0.1"}, []string{"--func is required", "--from-sensitivity"}},
		{[]string{"--from-sensitivity", "2", "--func", "example.com/m/p.F"}, []string{"--from-sensitivity", "leave out --func and --slowdown"}},
		{[]string{"--from-sensitivity", "2", "--slowdown", "0.1"}, []string{"leave out --func and --slowdown"}},
		{[]string{"--from-sensitivity", "2", "--micro", exampleDir + "/micro"}, []string{"--app is required"}},
		{[]string{"--from-sensitivity", "-1", "--app", exampleDir + "/app.pprof", "--micro", exampleDir + "/micro", "--module", "example.com/tinytsdb"}, []string{"--from-sensitivity -1"}},
	} {
		code, _, stderr := run(t, append([]string{"mutate"}, tc.args...)...)
		assert.Equal(t, 2, code, "%v: %s", tc.args, stderr)
		for _, w := range tc.want {
			assert.Contains(t, stderr, w, "%v", tc.args)
		}
	}
}

// TestMutateFromSensitivity is mbopt mutate --from-sensitivity's happy
// path as a user runs it on cmpfixture.SensitivityRepo: the application's
// instruction profile (Parse 40%, Hash and Other 30% each), a suite
// profiled as only BenchmarkEncode (Parse is 0.1% of it), and the
// quickest schedule that gives verdicts (counted.Args(1): 1 trial of 8
// runs, the 8 measurements a verdict needs at 99%). It scores the three
// largest functions: Parse's prediction (about +1800%, by BenchmarkEncode)
// holds, its mutant caught (a definite regression of about +1.5%) and the
// one at a tenth not (+0.15%, unchanged); no benchmark runs Hash or
// Other, so both are predicted never caught and get no mutant. Exit
// status 0, and the source tree is untouched. 33 s at load 4 on 2 cores,
// 130 s at load 12 (47 s of CPU), most of it the 32 Valgrind runs.
func TestMutateFromSensitivity(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a fixture under Valgrind and compares two mutants")
	}
	need.Tool(t, "mbopt mutate --from-sensitivity", "valgrind")
	dir, tmp := cmpfixture.SensitivityRepo(t), t.TempDir()
	mbopt := func(t *testing.T, args ...string) (code int, stdout, stderr string) {
		t.Helper()
		return mboptIn(t, dir, tmp, args...)
	}
	work := t.TempDir()
	appDir, micro := filepath.Join(work, "app"), filepath.Join(work, "profiles")
	for _, args := range [][]string{
		{"profile", "--source", "instructions", "--out", appDir, "./app"},
		// 200x, as TestSensitivityCaught profiles them (docs/sensitivity.md).
		{"profile", "--source", "instructions", "--benchtime", "200x", "--bench", "Encode", "--out", micro, "./work"},
	} {
		code, _, stderr := mbopt(t, args...)
		require.Zero(t, code, "mbopt %v: %s", args, stderr)
	}
	apps, err := filepath.Glob(filepath.Join(appDir, "*BenchmarkApp*.pprof"))
	require.NoError(t, err)
	require.Len(t, apps, 1, "the request's profile in %s", appDir)

	args := append([]string{"mutate", "--from-sensitivity", "3", "--app", apps[0], "--allow-non-cpu", "--micro", micro,
		"--exclude", "./app", "--bench", "Encode"}, counted.Args(1)...)
	code, stdout, stderr := mbopt(t, append(args, "./work")...)
	t.Logf("mbopt %v:\n%s%s", args, stdout, stderr)
	require.Zero(t, code, "exit status")
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	require.GreaterOrEqual(t, len(lines), 7, "score, blank, Parse and its two mutants, Hash, Other")
	assert.Equal(t, "mutation score: 1 of 1 predicted detectable slowdowns held (2 function(s) predicted never caught: no benchmark runs them, so none can size a mutant; not counted)", lines[0])
	pct := `\+[0-9.]+%`
	encode := regexp.QuoteMeta(cmpfixture.Package + ".BenchmarkEncode")
	for i, re := range []string{
		`^` + regexp.QuoteMeta(cmpfixture.Parse) + ` \([0-9.]+% of the application\): predicted caught from ` + pct + ` by ` + encode + `: held$`,
		`^  ` + pct + ` \(the loop adds ` + pct + `\): caught by ` + encode + `; BenchmarkEncode \+1\.[0-9]+% \[` + pct + `, ` + pct + `\] definite-regression$`,
		`^  ` + pct + ` \(the loop adds ` + pct + `\): not caught; BenchmarkEncode \+0\.[0-9]+% \[[-+0-9.]+%, ` + pct + `\] unchanged$`,
		`^` + regexp.QuoteMeta(cmpfixture.Hash) + ` \([0-9.]+% of the application\): predicted never caught: no mutant$`,
		`^` + regexp.QuoteMeta(cmpfixture.Other) + ` \([0-9.]+% of the application\): predicted never caught: no mutant$`,
	} {
		assert.Regexp(t, re, lines[2+i])
	}
	// The mutants are at the prediction and at a tenth of it.
	at := regexp.MustCompile(`^  \+([0-9.]+)% `)
	first, tenth := at.FindStringSubmatch(lines[3]), at.FindStringSubmatch(lines[4])
	require.NotNil(t, first, lines[3])
	require.NotNil(t, tenth, lines[4])
	hi, err := strconv.ParseFloat(first[1], 64)
	require.NoError(t, err)
	lo, err := strconv.ParseFloat(tenth[1], 64)
	require.NoError(t, err)
	assert.InEpsilon(t, hi/10, lo, 0.01, "the second mutant is at a tenth of the first")
	assert.Contains(t, stderr, "mutate: checking the predicted detectable slowdowns of 3 functions, two mutants each for the 1 predicted caught (none for the 2 predicted never caught)")
	out, err := exec.Command("git", "-C", dir, "status", "--porcelain").CombinedOutput()
	require.NoError(t, err)
	assert.Empty(t, string(out), "the source tree is untouched")
}
