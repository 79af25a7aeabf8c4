package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/report"
	"github.com/mbopt/mbopt/testkit/golden"
	"github.com/mbopt/mbopt/testkit/proftest"
)

// exampleDir holds the bundled example's real profiles.
const exampleDir = "../../testdata/profiles/example"

// run runs mbopt in-process and returns its exit code, stdout and stderr.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// driverProfile is the application profile of testdata/example's
// cmd/tsdbload, a driver whose code lies in a non-main package of the
// module.
const driverProfile = "../../testdata/profiles/driver/app.pprof"

func driverArgs(extra ...string) []string {
	return append([]string{"analyze",
		"--app", driverProfile,
		"--micro", exampleDir + "/micro",
		"--module", "example.com/tinytsdb",
		"--recommend", "5",
	}, extra...)
}

func exampleArgs(extra ...string) []string {
	return append([]string{"analyze",
		"--app", exampleDir + "/app.pprof",
		"--micro", exampleDir + "/micro",
		"--module", "example.com/tinytsdb",
	}, extra...)
}

// goldenCase is one TestGolden case: a golden file name and the
// arguments whose stdout it holds (stderr in name+".stderr").
type goldenCase struct {
	name string
	args []string
}

// goldenCases are TestGolden's cases; TestGoldenImpactFlat runs them again
// with --impact flat.
func goldenCases() []goldenCase {
	return []goldenCase{
		// --targets any is the paper's Algorithm 3, as before the
		// callable default.
		{"analyze.txt", exampleArgs("--recommend", "5", "--targets", "any")},
		{"analyze-explain.txt", exampleArgs("--recommend", "3", "--explain", "--targets", "any")},
		{"analyze-all-nodes.txt", exampleArgs("--nodes", "all", "--recommend", "0", "--targets", "any")},
		{"analyze.json", exampleArgs("--recommend", "5", "--format", "json", "--targets", "any")},
		// The default: callable targets, with the details a developer
		// needs.
		{"analyze-callable.txt", exampleArgs("--recommend", "5")},
		{"analyze-callable.json", exampleArgs("--recommend", "5", "--format", "json")},
		// A workload driver inside the module (testdata/example's
		// cmd/tsdbload/load), with the example's benchmarks.
		{"driver-any.txt", driverArgs("--targets", "any")},
		{"driver-callable.txt", driverArgs()},
		{"driver-exclude.txt", driverArgs("--exclude", "./cmd/...")},
		{"driver-exclude.json", driverArgs("--exclude", "./cmd/...", "--format", "json")},
		// The three recorded scenarios: the text output has the scenario
		// table and overlaps that JSON and the report have.
		{"analyze-scenarios.txt", []string{"analyze",
			"--app", "mixed=" + exampleDir + "/app.pprof", "--app", "ingest=" + exampleDir + "/app-ingest.pprof",
			"--app", "query=" + exampleDir + "/app-query.pprof",
			"--micro", exampleDir + "/micro", "--module", "example.com/tinytsdb", "--recommend", "0"}},
	}
}

func TestGolden(t *testing.T) {
	if _, err := os.Stat(exampleDir + "/micro"); err != nil {
		t.Fatalf("example profiles missing: %v (make profiles)", err)
	}
	tests := goldenCases()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := run(t, tt.args...)
			require.Equal(t, 0, code, "stderr: %s", errOut)
			golden.Check(t, filepath.Join("testdata", "golden", tt.name), []byte(out))
			golden.Check(t, filepath.Join("testdata", "golden", tt.name+".stderr"), []byte(errOut))
		})
	}
}

// TestGoldenImpactFlat runs the golden cases with --impact flat, the
// paper's reference impact, whose output must stay exactly what it was
// before the attributed impact existed (testdata/golden/flat holds those
// bytes): text identical, and JSON identical once the fields the
// attributed impact added (paperOnly) are taken out.
func TestGoldenImpactFlat(t *testing.T) {
	var tests []goldenCase
	for _, c := range goldenCases() {
		tests = append(tests, goldenCase{"flat/" + c.name, append(slices.Clone(c.args), "--impact", "flat")})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := run(t, tt.args...)
			require.Equal(t, 0, code, "stderr: %s", errOut)
			if strings.HasSuffix(tt.name, ".json") {
				var doc map[string]any
				require.NoError(t, json.Unmarshal([]byte(out), &doc))
				assert.Equal(t, "flat", doc["impact"])
				out = paperOnly(out)
			}
			golden.Check(t, filepath.Join("testdata", "golden", tt.name), []byte(out))
			golden.Check(t, filepath.Join("testdata", "golden", tt.name+".stderr"), []byte(errOut))
		})
	}
}

// attributedFields are the JSON keys the attributed impact added, each on
// a line of its own in indented output.
var attributedFields = regexp.MustCompile(`(?m)^\s*"(impact|outside_project_seconds|outside_project_share|attributed_seconds|attributed_impact_seconds|attributed_impact_share|added_attributed_impact_seconds|cumulative_attributed_impact_seconds|cumulative_attributed_impact_share)": .*\n`)

// trailingComma matches a comma left before a closing bracket.
var trailingComma = regexp.MustCompile(`,(\n\s*[}\]])`)

// paperOnly removes the attributed impact's fields from indented JSON.
func paperOnly(js string) string {
	return trailingComma.ReplaceAllString(attributedFields.ReplaceAllString(js, ""), "$1")
}

// The output must not depend on scheduling: same bytes across repeated runs
// and GOMAXPROCS values (benchmark profiles are decoded in parallel).
func TestDeterministicAcrossGOMAXPROCS(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var first string
	for _, procs := range []int{1, 2, 4, 8, 1, 8} {
		runtime.GOMAXPROCS(procs)
		code, out, errOut := run(t, exampleArgs("--recommend", "-1", "--format", "json")...)
		require.Equal(t, 0, code, errOut)
		if first == "" {
			first = out
			continue
		}
		require.Equal(t, first, out, "GOMAXPROCS=%d", procs)
	}
}

func TestJSONSchemaNames(t *testing.T) {
	code, out, errOut := run(t, exampleArgs("--recommend", "2", "--format", "json")...)
	require.Equal(t, 0, code, errOut)
	var doc map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	cov := doc["coverage"].(map[string]any)
	for _, k := range []string{"project", "overall"} {
		r := cov[k].(map[string]any)
		for _, f := range []string{"covered", "total", "ratio"} {
			assert.Contains(t, r, f, "coverage.%s.%s", k, f)
		}
	}
	fields := map[string][]string{
		"benchmarks":      {"id", "project_nodes", "overall_nodes", "impact_seconds", "impact_share", "attributed_impact_seconds", "attributed_impact_share"},
		"minimal_suite":   {"id", "added", "cumulative_project_ratio", "cumulative_overall_ratio", "impact_seconds", "functions", "attributed_impact_seconds", "attributed_impact_share", "added_attributed_impact_seconds", "cumulative_attributed_impact_seconds"},
		"recommendations": {"function", "package", "added_project", "added_external", "impact_seconds", "cumulative_project_ratio", "functions", "attributed_impact_seconds", "attributed_impact_share"},
	}
	for list, names := range fields {
		items := doc[list].([]any)
		require.NotEmpty(t, items, list)
		for _, f := range names {
			assert.Contains(t, items[0], f, "%s[].%s", list, f)
		}
	}
	assert.Contains(t, doc, "skipped")
	assert.Equal(t, "attributed", doc["impact"], "the default impact")
	app := doc["application"].(map[string]any)
	assert.Contains(t, app, "outside_project_seconds")
	assert.Contains(t, app, "outside_project_share")
}

// writeProfile writes p gzipped to dir/name and returns the path.
func writeProfile(t *testing.T, dir, name string, p *profile.Profile) string {
	t.Helper()
	path := filepath.Join(dir, name)
	proftest.WriteFile(t, path, p)
	return path
}

// badFiles writes one file of each kind of bad input to dir.
func badFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	app, _, _ := proftest.Figure62()
	good := writeProfile(t, dir, "good.pprof", app)
	data, err := os.ReadFile(good)
	require.NoError(t, err)

	files := map[string]string{}
	add := func(kind string, content []byte) {
		path := filepath.Join(dir, kind+".pprof")
		require.NoError(t, os.WriteFile(path, content, 0o644))
		files[kind] = path
	}
	add("text", []byte("this is not a profile\n"))
	add("truncated", data[:len(data)/2])
	add("empty-file", nil)
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte("garbage inside valid gzip"))
	zw.Close()
	add("gzip-garbage", buf.Bytes())
	files["no-samples"] = writeProfile(t, dir, "no-samples.pprof", proftest.Profile())
	heap := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "alloc_objects", Unit: "count"}, {Type: "alloc_space", Unit: "bytes"}},
		Sample:     app.Sample, Location: app.Location, Function: app.Function,
	}
	for _, s := range heap.Sample {
		s.Value = []int64{1, 64}
	}
	files["heap"] = writeProfile(t, dir, "heap.pprof", heap)
	unsym, _, _ := proftest.Figure62()
	for _, l := range unsym.Location {
		l.Line = nil
	}
	unsym.Function = nil
	files["unsymbolized"] = writeProfile(t, dir, "unsymbolized.pprof", unsym)
	return files
}

func TestBadApplicationInput(t *testing.T) {
	dir := t.TempDir()
	bad := badFiles(t, dir)
	micro := t.TempDir()
	_, b1, _ := proftest.Figure62()
	writeProfile(t, micro, "b1.pprof", b1)
	emptyDir := t.TempDir()

	tests := []struct {
		name  string
		app   string
		micro string
		want  []string
		extra []string
	}{
		{"missing file", filepath.Join(dir, "nope.pprof"), micro, []string{"nope.pprof", "no such file or directory", "check the path"}, nil},
		{"not a profile", bad["text"], micro, []string{"text.pprof", "unrecognized profile format", "written by 'go test -cpuprofile'"}, nil},
		{"truncated gzip", bad["truncated"], micro, []string{"truncated.pprof", "truncated or corrupt"}, nil},
		{"gzip of garbage", bad["gzip-garbage"], micro, []string{"gzip-garbage.pprof"}, nil},
		{"empty file", bad["empty-file"], micro, []string{"empty-file.pprof", "empty file"}, nil},
		{"no samples", bad["no-samples"], micro, []string{"no-samples.pprof", "profile has no samples"}, nil},
		{"heap profile", bad["heap"], micro, []string{"heap.pprof", "not a CPU profile", "alloc_objects/count", "-cpuprofile"}, nil},
		{"empty micro directory", bad["text"], emptyDir, []string{emptyDir, "no benchmark profiles"}, nil},
		{"missing micro directory", bad["text"], filepath.Join(dir, "nodir"), []string{"nodir", "no such file or directory"}, nil},
		{"unsymbolized", bad["unsymbolized"], micro, []string{"unsymbolized.pprof", "profile is not symbolized", "go tool pprof -proto -symbolize=local"}, nil},
		{"over --max-profile-bytes", bad["heap"], micro, []string{"heap.pprof: file is", "over the 100 B limit (raise it with --max-profile-bytes)"}, []string{"--max-profile-bytes", "100"}},
		{"over --max-decoded-bytes", bad["heap"], micro, []string{"heap.pprof: profile decompresses to more than the 100 B limit (raise it with --max-decoded-bytes)"}, []string{"--max-decoded-bytes", "100B"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "result.json")
			args := append([]string{"analyze", "--app", tt.app, "--micro", tt.micro, "--module", "example.com/fig", "--format", "json", "-o", out}, tt.extra...)
			code, stdout, stderr := run(t, args...)
			assert.Equal(t, 2, code, "exit code; stderr: %s", stderr)
			assert.Empty(t, stdout)
			for _, w := range tt.want {
				assert.Contains(t, stderr, w)
			}
			assert.NotContains(t, stderr, "--module", "no advice to change the module for a bad file")
			assert.NotContains(t, stderr, "Limits.", "the CLI names flags, not library fields")
			assert.Equal(t, 1, strings.Count(stderr, "\n"), "one error line: %q", stderr)
			_, err := os.Stat(out)
			assert.True(t, os.IsNotExist(err), "no output file may be left behind")
			entries, _ := os.ReadDir(filepath.Dir(out))
			assert.Empty(t, entries, "no temporary file may be left behind")
		})
	}
}

// Unusable benchmark profiles are skipped with a warning naming them, listed
// in skipped[], and turned into an error by --strict.
func TestBadBenchmarkProfilesAreSkipped(t *testing.T) {
	dir := t.TempDir()
	bad := badFiles(t, dir)
	app, b1, b2 := proftest.Figure62()
	appPath := writeProfile(t, t.TempDir(), "app.pprof", app)
	micro := t.TempDir()
	writeProfile(t, micro, "benchmark1.pprof", b1)
	writeProfile(t, micro, "benchmark2.pprof", b2)
	for _, kind := range []string{"empty-file", "truncated", "heap"} {
		data, err := os.ReadFile(bad[kind])
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(micro, "Benchmark_"+kind+".pprof"), data, 0o644))
	}
	require.NoError(t, os.WriteFile(filepath.Join(micro, "notes.txt"), []byte("not a profile, ignored"), 0o644))

	code, stdout, stderr := run(t, "analyze", "--app", appPath, "--micro", micro, "--module", "example.com/fig", "--format", "json")
	require.Equal(t, 0, code, stderr)
	for _, kind := range []string{"empty-file", "truncated", "heap"} {
		assert.Contains(t, stderr, "warning: skipping "+filepath.Join(micro, "Benchmark_"+kind+".pprof"))
	}
	var doc struct {
		Coverage struct{ Project, Overall struct{ Covered, Total int } }
		Skipped  []struct{ File, Reason string }
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &doc))
	assert.Len(t, doc.Skipped, 3)
	assert.Equal(t, 5, doc.Coverage.Project.Covered, "Figure 6.2: 5/10")
	assert.Equal(t, 10, doc.Coverage.Project.Total)
	assert.Equal(t, 6, doc.Coverage.Overall.Covered, "Figure 6.2: 6/19")
	assert.Equal(t, 19, doc.Coverage.Overall.Total)

	code, stdout, stderr = run(t, "analyze", "--app", appPath, "--micro", micro, "--module", "example.com/fig", "--strict")
	assert.Equal(t, 2, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "Benchmark_empty-file.pprof")
	assert.Contains(t, stderr, "--strict")

	// A benchmark profile over a size limit is skipped, and the warning
	// names the flag that raises the limit.
	st, err := os.Stat(appPath)
	require.NoError(t, err)
	big := filepath.Join(micro, "Benchmark_big.pprof")
	require.NoError(t, os.WriteFile(big, make([]byte, 2*st.Size()), 0o644))
	code, _, stderr = run(t, "analyze", "--app", appPath, "--micro", micro, "--module", "example.com/fig", "--max-profile-bytes", strconv.FormatInt(st.Size(), 10))
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "warning: skipping "+big+": file is")
	assert.Contains(t, stderr, "limit (raise it with --max-profile-bytes)")
}

func TestFlagErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"analyze", "--micro", "x"}, "--app is required"},
		{[]string{"analyze", "--app", "x"}, "--micro is required"},
		{[]string{"analyze", "--app", "x", "--micro", "y", "--nodes", "some"}, "valid values are {project|all}"},
		{[]string{"analyze", "--app", "x", "--micro", "y", "--format", "xml"}, "valid values are {text|json|github}"},
		{[]string{"analyze", "--bogus"}, "unknown flag: --bogus"},
		{[]string{"bogus"}, `unknown command "bogus"`},
		{[]string{"analyze", "extra-arg"}, "unknown command"},
		{[]string{"analyze", "--app", "x", "--micro", "y", "--recommend", "-5"}, "--recommend must be"},
		{[]string{"analyze", "--app", "x", "--micro", "y", "--max-profile-bytes", "lots"}, `invalid argument "lots" for "--max-profile-bytes" flag: invalid size`},
		{[]string{"analyze", "--app", "x", "--micro", "y", "--max-decoded-bytes", "0"}, "must be at least 1 byte"},
		// issue 25: --resamples 0 silently became 10000.
		{[]string{"compare", "--resamples", "0"}, "--resamples 0: it must be at least 1"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, _, stderr := run(t, tt.args...)
			assert.Equal(t, 2, code)
			assert.Contains(t, stderr, tt.want)
		})
	}
}

// TestPositiveFlags: the library takes a zero setting for its default, so
// each flag whose zero would be silently replaced refuses 0 as it is
// parsed, with words that say what to give (issue 25: --resamples 0 became
// 10000; issue 31: bisect took --trials 0).
func TestPositiveFlags(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", "--trials", "0"}, "mbopt: --trials 0: it must be at least 1\n"},
		{[]string{"compare", "--count", "-1"}, "mbopt: --count -1: it must be at least 1\n"},
		{[]string{"compare", "--fdr", "0"}, "mbopt: --fdr 0: it must be in (0, 1], such as 0.05 (1 turns the correction off); 0 would flag nothing\n"},
		{[]string{"compare", "--threshold", "0"}, "mbopt: --threshold 0: it must be a fraction in (0, 1), such as 0.01 for 1%; leave it out for the default\n"},
		{[]string{"history", "rebaseline", "--runs", "0"}, "mbopt: --runs 0: it must be at least 1\n"},
		{[]string{"bisect", "--count", "0"}, "mbopt: --count 0: it must be at least 1\n"},
		{[]string{"profile", "--timeout", "0s"}, "mbopt: --timeout must be positive, not 0s\n"},
		{[]string{"run", "--discovery-timeout", "0"}, "mbopt: --discovery-timeout must be positive, not 0s\n"},
		{[]string{"run", "--app-seconds", "0"}, "mbopt: --app-seconds must be positive, not 0\n"},
		{[]string{"run", "--app-timeout", "-1s"}, "mbopt: --app-timeout must be positive, not -1s\n"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := run(t, tt.args...)
			assert.Equal(t, 2, code)
			assert.Empty(t, stdout)
			assert.Equal(t, tt.want, stderr)
		})
	}
}

// TestNonFiniteFloatFlags: every float flag of every command refuses NaN
// and ±Inf before the command does anything (issue 25 item 7: --threshold
// NaN passed the range check and turned the gate off). The flags are found
// by walking the command tree, so a new float flag is covered too.
func TestNonFiniteFloatFlags(t *testing.T) {
	t.Chdir(t.TempDir()) // nothing may be written, but if it were, not here
	var flags [][]string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		// A command that needs arguments gets one, so that cobra's
		// argument check, which comes first, passes.
		var args []string
		if c.Args != nil && c.Args(c, nil) != nil {
			args = []string{"nosuch"}
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Value.Type() == "float64" {
				flags = append(flags, append(append(strings.Fields(c.CommandPath())[1:], args...), "--"+f.Name))
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(&streams{}))
	if len(flags) < 10 {
		t.Fatalf("found %d float flags: %v", len(flags), flags)
	}
	for _, f := range flags {
		for _, v := range []string{"NaN", "nan", "Inf", "+Inf", "-Inf", "infinity"} {
			args := append(slices.Clone(f), v)
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				code, stdout, stderr := run(t, args...)
				assert.Equal(t, 2, code)
				assert.Empty(t, stdout)
				assert.Contains(t, stderr, f[len(f)-1]+" ")
				assert.Contains(t, stderr, "want a finite number")
			})
		}
	}
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	assert.Empty(t, entries, "a refused flag wrote files")
}

// -o onto a device or a directory: /dev/null must stay a device (renaming a
// temporary file over it would replace it with a regular file).
func TestOutputToSpecialFiles(t *testing.T) {
	code, _, stderr := run(t, exampleArgs("--format", "json", "-o", os.DevNull)...)
	require.Equal(t, 0, code, stderr)
	fi, err := os.Stat(os.DevNull)
	require.NoError(t, err)
	assert.False(t, fi.Mode().IsRegular(), "%s must still be a device, is %v", os.DevNull, fi.Mode())

	dir := t.TempDir()
	code, _, stderr = run(t, exampleArgs("-o", dir)...)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "is a directory")
}

// The issue 9 scenario: a driver inside the module (cmd/tsdbload, whose
// package main calls the library package cmd/tsdbload/load). The paper's
// targets pick the driver's entry closure; callable targets never pick a
// closure, package main, an initialiser or anything under cmd/, and say so
// in a note; --exclude also takes the driver out of the project.
func TestDriverRecommendations(t *testing.T) {
	recs := func(args ...string) []report.Recommendation {
		t.Helper()
		code, out, stderr := run(t, driverArgs(append(args, "--recommend", "-1", "--format", "json")...)...)
		require.Equal(t, 0, code, stderr)
		var d report.Document
		require.NoError(t, json.Unmarshal([]byte(out), &d))
		require.NotEmpty(t, d.Recommendations)
		return d.Recommendations
	}
	const driver = "example.com/tinytsdb/cmd/tsdbload/load"
	closure := regexp.MustCompile(`\.(func|gowrap|deferwrap)\d+|-range\d+|-fm$`)

	any := recs("--targets", "any")
	assert.Equal(t, driver+".Command.func1.1", any[0].Function, "the paper's Algorithm 3 picks the driver's entry closure")

	callable := recs()
	for _, r := range callable {
		assert.NotRegexp(t, closure, r.Function, "callable targets: no closure")
		assert.NotEqual(t, "main", r.Package)
		assert.NotContains(t, r.Function, ".init")
		assert.False(t, strings.HasPrefix(r.Package, "example.com/tinytsdb/cmd/"), "%s: callable targets never recommend the driver", r.Function)
		assert.NotNil(t, r.Exported, "%s: details", r.Function)
	}
	_, _, stderr := run(t, driverArgs("--recommend", "-1")...)
	assert.Contains(t, stderr, "mbopt: note: the uncovered functions of 1 package under cmd/ ("+driver+") are no recommendation targets")
	assert.Contains(t, stderr, "--exclude ./cmd/... also leaves them out of the project coverage, and --targets any recommends them")

	lib := recs("--exclude", "./cmd/...")
	for _, r := range lib {
		assert.NotRegexp(t, closure, r.Function)
		assert.False(t, strings.HasPrefix(r.Package, "example.com/tinytsdb/cmd"), "%s: excluded package recommended", r.Function)
		assert.True(t, strings.HasPrefix(r.Package, "example.com/tinytsdb/"), r.Function)
		assert.NotEmpty(t, r.File, r.Function)
		assert.NotEmpty(t, r.Dir, r.Function)
	}
}

// --keep-negligible keeps Algorithm 3's order; by default negligible
// functions come after all others (package recommend's TestNegligibleLast
// shows a reordering; the example's two negligible functions come last
// either way). Both mark them and recommend the same functions.
func TestKeepNegligible(t *testing.T) {
	doc := func(args ...string) report.Document {
		t.Helper()
		code, out, stderr := run(t, exampleArgs(append(args, "--recommend", "-1", "--format", "json")...)...)
		require.Equal(t, 0, code, stderr)
		var d report.Document
		require.NoError(t, json.Unmarshal([]byte(out), &d))
		return d
	}
	names := func(d report.Document) (all, negligible []string) {
		for _, r := range d.Recommendations {
			all = append(all, r.Function)
			if r.Negligible != nil {
				negligible = append(negligible, r.Function)
			}
		}
		return all, negligible
	}
	last, kept := doc(), doc("--keep-negligible")
	assert.True(t, last.NegligibleLast)
	assert.False(t, kept.NegligibleLast)
	lastAll, lastNeg := names(last)
	keptAll, keptNeg := names(kept)
	assert.Equal(t, []string{"example.com/tinytsdb/httpapi.intParam", "example.com/tinytsdb/query.labelValue"}, lastNeg)
	assert.Equal(t, lastAll, keptAll)
	assert.Equal(t, lastNeg, keptNeg)
	assert.Equal(t, lastNeg, lastAll[len(lastAll)-len(lastNeg):], "negligible ones last")
}
