// Package cmpfixture makes the throwaway git repositories the tests of
// packages compare, bisect and culprit and of mbopt compare and bisect
// run on: a module of three benchmarks whose work is a deterministic CPU
// loop, with a base commit on branch main and a head commit on branch
// topic where one benchmark does 30% more work, one 30% less and one the
// same ([Repo]; three times and a third as much with [Variant].Threefold);
// one for the counting metrics, where one loop runs 3% more iterations
// ([LoopRepo]); and one of eight commits where one doubles the
// work of an inlined helper ([HelperRepo], whose module alone
// [WriteHelperModule] writes).
//
// The benchmarks report the process's CPU time per operation as their
// ns/op (testing.B.ReportMetric replaces the built-in metric), not the
// wall time: on a shared 2-core machine running other test suites, wall
// time doubles whenever another process takes the core, so a wall-time
// fixture tests the machine's load rather than the comparison. CPU time
// keeps the 30% a 30%; the statistics, the schedule and the files are
// what the tests check. Unix only (getrusage).
package cmpfixture

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Module is the fixture's module path; its benchmarks are in package
// Module+"/work".
const Module = "example.com/fixture"

// Package is the import path of the fixture's benchmarks.
const Package = Module + "/work"

// The benchmark names, and the loop lengths of the base; the head's
// BenchmarkSlower loops 30% longer, its BenchmarkFaster 30% shorter.
const (
	Slower = "BenchmarkSlower"
	Faster = "BenchmarkFaster"
	Same   = "BenchmarkSame"
	baseN  = 100000
)

// Variant changes the head commit.
type Variant struct {
	// AddRemove renames BenchmarkSame to BenchmarkNew in the head.
	AddRemove bool
	// Broken makes the head's package fail to build.
	Broken bool
	// Seed makes the test binary print "seed: 1" when it starts, in both
	// commits, as benchmarks that log their random seed do: a line the Go
	// benchmark format reads as configuration.
	Seed bool
	// WallTime keeps go test's own ns/op, the wall time, instead of the
	// CPU time the benchmarks report by default.
	WallTime bool
	// Threefold makes the head's BenchmarkSlower loop three times as long
	// and its BenchmarkFaster a third as long, instead of 30% longer and
	// shorter: for the tests of the time metric's definite verdicts. With
	// three trials the 99% interval reaches the worst trial's ratio, and on
	// a loaded machine one trial can read far from the others: CI twice
	// judged the fixture's -30% in CPU time "unchanged". A threefold change
	// reads that way only if one trial's CPU time triples.
	Threefold bool
}

// Repo makes the repository in a temporary directory and returns it, with
// branch topic (the head) checked out.
func Repo(t testing.TB, v Variant) string {
	t.Helper()
	dir, git, write := newRepo(t)
	write("work/work.go", workGo)
	write("work/work_test.go", benchmarks(baseN, baseN, baseN, Same, v))
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	git("checkout", "-q", "-b", "topic")
	same := Same
	if v.AddRemove {
		same = "BenchmarkNew"
	}
	slower, faster := baseN*13/10, baseN*7/10
	if v.Threefold {
		slower, faster = 3*baseN, baseN/3
	}
	write("work/work_test.go", benchmarks(slower, faster, baseN, same, v))
	if v.Broken {
		write("work/work.go", workGo+"\nfunc broken() int { return \"not an int\" }\n")
	}
	git("add", "-A")
	git("commit", "-q", "-m", "head")
	return dir
}

const workGo = `// Package work does deterministic CPU work.
package work

// Spin runs n rounds of xorshift and returns the state.
func Spin(n int) uint64 {
	x := uint64(88172645463325252)
	for i := 0; i < n; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}
`

func benchmarks(slower, faster, same int, sameName string, v Variant) string {
	return fmt.Sprintf(`package work

import (
	"fmt"
	"syscall"
	"testing"
)

var sink uint64

// printSeed makes the binary print its (fixed) random seed.
const printSeed = %t

// cpuTime makes the benchmarks report CPU time as ns/op.
const cpuTime = %t

func init() {
	if printSeed {
		fmt.Println("seed: 1")
	}
}

// cpu returns the process's user and system CPU time in nanoseconds.
func cpu() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// spin runs b.N operations of n rounds and reports CPU time per
// operation as ns/op.
func spin(b *testing.B, n int) {
	start := cpu()
	for i := 0; i < b.N; i++ {
		sink += Spin(n)
	}
	if cpuTime {
		b.ReportMetric(float64(cpu()-start)/float64(b.N), "ns/op")
	}
}

func BenchmarkSlower(b *testing.B) {
	spin(b, %d)
}

func BenchmarkFaster(b *testing.B) {
	spin(b, %d)
}

func %s(b *testing.B) {
	spin(b, %d)
}
`, v.Seed, !v.WallTime, slower, faster, sameName, same)
}

// The benchmarks of [LoopRepo].
const (
	// Loop runs a hashing loop; the head's runs 3% more iterations.
	Loop = "BenchmarkLoop"
	// Steady runs the same hashing loop in every commit.
	Steady = "BenchmarkSteady"
	// Alloc builds a map of 200 string keys per operation, the same in
	// every commit.
	Alloc = "BenchmarkAlloc"
	// LoopChange is the relative change the head injects into Loop.
	LoopChange = 0.03
	loopN      = 100000
)

// LoopRepo makes a repository for the counting metrics, with three tags:
// base; aa, base with a comment changed (an A/A pair of commits whose code
// is the same); and head, base with Loop's loop running 3% more
// iterations. The benchmarks are in package Package; HEAD is head.
func LoopRepo(t testing.TB) string {
	t.Helper()
	dir, git, write := newRepo(t)
	write("work/work.go", LoopGo("Hash mixes n rounds."))
	write("work/work_test.go", loopBenchmarks(loopN))
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	git("tag", "base")
	write("work/work.go", LoopGo("Hash mixes n rounds of a multiply-xorshift."))
	git("commit", "-q", "-am", "comment only")
	git("tag", "aa")
	git("checkout", "-q", "-b", "topic", "base")
	write("work/work_test.go", loopBenchmarks(loopN*(100+100*LoopChange)/100))
	git("commit", "-q", "-am", "loop 3% longer")
	git("tag", "head")
	return dir
}

// LoopGo returns the source of package work of [LoopRepo], with doc as
// Hash's doc comment: Hash runs n rounds of a multiply-xorshift mix (9
// instructions a round on amd64 where it is not inlined), Map builds a
// map of n three-letter keys. Package measure's tests count these;
// scripts/bench-instructions.sh times them (testkit/loopmodule).
func LoopGo(doc string) string {
	return `// Package work does deterministic CPU work.
package work

// ` + doc + `
func Hash(n int) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < n; i++ {
		h ^= uint64(i)
		h *= 1099511628211
		h ^= h >> 29
	}
	return h
}

// Map builds a map of n three-letter keys.
func Map(n int) map[string]int {
	m := map[string]int{}
	for i := 0; i < n; i++ {
		m[string(rune('a'+i%26))+string(rune('a'+i/26%26))+string(rune('a'+i/676))] = i
	}
	return m
}
`
}

// HashBenchmarks returns a benchmark file of package work ([LoopGo]'s
// package) with one benchmark a name, the ith running Hash of rounds[i]
// rounds per operation; the round counts are kept out of the compiler's
// constants. It panics unless there are as many counts as names.
func HashBenchmarks(names []string, rounds []int) string {
	if len(names) != len(rounds) {
		panic(fmt.Sprintf("cmpfixture.HashBenchmarks: %d names, %d round counts", len(names), len(rounds)))
	}
	var b strings.Builder
	counts := make([]string, len(rounds))
	for i, r := range rounds {
		counts[i] = strconv.Itoa(r)
	}
	fmt.Fprintf(&b, `package work

import "testing"

var sink uint64

// n keeps the loop counts out of the compiler's constants.
var n = [%d]int{%s}
`, len(rounds), strings.Join(counts, ", "))
	for i, name := range names {
		fmt.Fprintf(&b, `
func %s(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += Hash(n[%d])
	}
}
`, name, i)
	}
	return b.String()
}

// loopBenchmarks returns LoopRepo's benchmarks, Loop running loop rounds.
func loopBenchmarks(loop int) string {
	return HashBenchmarks([]string{Loop, Steady}, []int{loop, loopN}) + `
func BenchmarkAlloc(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += uint64(len(Map(200)))
	}
}
`
}

// GoMod is the fixture module's go.mod.
const GoMod = "module " + Module + "\n\ngo 1.22\n"

// newRepo starts a repository of module Module in a temporary directory,
// on branch main, and returns it with a git runner (every commit at one
// fixed date; it returns git's trimmed output) and a file writer, both
// failing t on error.
func newRepo(t testing.TB) (dir string, git func(args ...string) string, write func(name, content string)) {
	t.Helper()
	dir = t.TempDir()
	git = func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2026-01-02T03:04:05Z", "GIT_COMMITTER_DATE=2026-01-02T03:04:05Z")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	write = func(name, content string) {
		t.Helper()
		writeFile(t, dir, name, content)
	}
	git("init", "-q", "-b", "main")
	git("config", "user.email", "fixture@example.com")
	git("config", "user.name", "fixture")
	write("go.mod", GoMod)
	return dir, git, write
}

// writeFile writes content to the slash-separated path name below dir,
// creating its directories, failing t on error.
func writeFile(t testing.TB, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The benchmarks and functions of [HelperRepo], in package Package.
const (
	// Work runs Work and Check per operation.
	Work = "BenchmarkWork"
	// Serve runs the application's request, Serve, per operation: the
	// application workload measured directly.
	Serve = "BenchmarkServe"
	// Helper is the function whose work doubles at commit HelperCulprit:
	// the compiler inlines it into Work.
	Helper = Package + ".helper"
	// Check is the function whose work doubles at tag unused: only the
	// benchmark calls it, never the application (Serve).
	Check = Package + ".Check"
	// HelperCommits is how many commits HelperRepo's main has (tags c1 …
	// c8); HelperCulprit is the one (tag c6) that doubles the helper;
	// HelperUnbuildable the one (tag c4) that does not build in the
	// Unbuildable variant, which the next commit repairs.
	HelperCommits     = 8
	HelperCulprit     = 6
	HelperUnbuildable = 4
)

// HelperVariant changes [HelperRepo]'s history.
type HelperVariant struct {
	// Unbuildable makes commit HelperUnbuildable add a file that does not
	// compile, and the next commit remove it.
	Unbuildable bool
}

// HelperRepo makes the repository of the culprit fixture: on branch main
// eight commits, tagged c1 … c8, where c6 doubles the loop of helper (a
// function the compiler inlines into Work, and where the application's
// request Serve spends about 40% of its CPU time) and every other commit
// changes only a comment (in the Unbuildable variant, c4 also adds a file
// that does not compile and c5 removes it); and tag unused, on a detached
// commit from c1, which doubles the loop of Check, which the benchmark
// calls and the application does not. The benchmarks are Work and Serve,
// which report CPU time as ns/op, as [Repo]'s do; main (c8) is checked
// out. It returns the directory and main's commits, oldest first (the
// commit of tag c<i+1> at index i).
func HelperRepo(t testing.TB, v HelperVariant) (dir string, commits []string) {
	t.Helper()
	dir, git, write := newRepo(t)
	for c := 1; c <= HelperCommits; c++ {
		WriteHelperModule(t, dir, c)
		subject := fmt.Sprintf("comment %d", c)
		switch {
		case c == HelperCulprit:
			subject = "helper does twice the work"
		case v.Unbuildable && c == HelperUnbuildable:
			write("work/broken.go", "package work\n\nvar broken = undefinedName\n")
			subject = "does not build"
		case v.Unbuildable && c == HelperUnbuildable+1:
			git("rm", "-q", "work/broken.go")
			subject = "repair the build; comment"
		}
		git("add", "-A")
		git("commit", "-q", "-m", subject)
		git("tag", fmt.Sprintf("c%d", c))
		commits = append(commits, git("rev-parse", "HEAD"))
	}
	git("checkout", "-q", "--detach", "c1")
	write("work/work.go", helperGo(1, 4000, 4000))
	git("commit", "-q", "-am", "Check does twice the work")
	git("tag", "unused")
	git("checkout", "-q", "main")
	return dir, commits
}

// WriteHelperModule writes into dir the module of [HelperRepo] as commit
// c (1 … HelperCommits) of main has it, without the Unbuildable
// variant's file: go.mod, and package Package with its benchmarks in
// dir/work.
func WriteHelperModule(t testing.TB, dir string, c int) {
	t.Helper()
	rounds := 4000
	if c >= HelperCulprit {
		rounds *= 2
	}
	writeFile(t, dir, "go.mod", GoMod)
	writeFile(t, dir, "work/work.go", helperGo(c, rounds, 2000))
	writeFile(t, dir, "work/work_test.go", helperBenchmarks)
}

func helperGo(version, rounds, checkRounds int) string {
	return fmt.Sprintf(`// Package work is the culprit fixture (version %d): Work calls helper,
// which the compiler inlines, and the application's request Serve calls
// Work.
package work

// rounds is helper's loop count.
const rounds = %d

// helper mixes x rounds times; the compiler inlines it into Work.
func helper(x uint64) uint64 {
	for i := 0; i < rounds; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

// Work calls helper and mixes its result further.
//
//go:noinline
func Work(x uint64) uint64 {
	y := helper(x)
	for i := 0; i < 3000; i++ {
		y ^= y >> 7
		y += uint64(i)
	}
	return y
}

// checkRounds is Check's loop count.
const checkRounds = %d

// Check validates a result: the benchmark calls it, the application
// does not.
//
//go:noinline
func Check(x uint64) uint64 {
	for i := 0; i < checkRounds; i++ {
		x ^= x << 13
		x ^= x >> 7
	}
	return x
}

// Serve is the application's request: Work and a response of its own.
//
//go:noinline
func Serve(x uint64) uint64 {
	return respond(Work(x))
}

// respond is the rest of the application's request.
//
//go:noinline
func respond(y uint64) uint64 {
	for i := 0; i < 5000; i++ {
		y ^= y >> 5
		y += uint64(i)
	}
	return y
}
`, version, rounds, checkRounds)
}

const helperBenchmarks = `package work

import (
	"syscall"
	"testing"
)

var sink uint64

// cpu returns the process's user and system CPU time in nanoseconds.
func cpu() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func BenchmarkWork(b *testing.B) {
	start := cpu()
	for i := 0; i < b.N; i++ {
		sink = Check(Work(uint64(i)))
	}
	b.ReportMetric(float64(cpu()-start)/float64(b.N), "ns/op")
}

func BenchmarkServe(b *testing.B) {
	start := cpu()
	for i := 0; i < b.N; i++ {
		sink = Serve(uint64(i))
	}
	b.ReportMetric(float64(cpu()-start)/float64(b.N), "ns/op")
}
`
