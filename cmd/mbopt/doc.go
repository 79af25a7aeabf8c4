// Mbopt makes a Go microbenchmark suite small, fast and relevant. Its first
// half measures how relevant the suite is to an application: it compares the
// CPU profile of an application workload (an application benchmark, a
// production /debug/pprof/profile capture or a default.pgo) with one CPU
// profile per benchmark, picks the smallest sub-suite with the same coverage
// and recommends what to benchmark next. Its second half runs that suite on
// two revisions, says with sound statistics whether the change made the
// application slower, and follows the verdicts over commits.
//
// Usage:
//
//	mbopt <command> [arguments]
//
// The commands:
//
//	mbopt run [DIR] [flags]                          profile the application and every benchmark, then analyse
//	mbopt profile [PATTERN...] [flags]               profile every benchmark of a module (--shard K/N: one share)
//	mbopt merge DIR... [-o OUT]                      combine the output directories of profile --shard
//	mbopt analyze --app FILE... --micro DIR|FILE...  coverage, minimal suite, recommendations
//	mbopt suite --app FILE... --micro DIR|FILE...    the minimal suite as go test invocations
//	mbopt report --app ... --micro ... --out DIR     Markdown, HTML, JSON and plots
//	mbopt cover-app [flags] -- PKG|CMD [ARGS...]     the functions a workload runs (go build -cover)
//	mbopt check --suite FILE [DIR] [flags]           does a saved suite still fit the repository (drift)
//	mbopt compare [--base REV] [--head REV] [flags]  compare two revisions' benchmarks, gate on regressions
//	mbopt compare merge DIR... [--out DIR]           combine the outputs of compare --shard or --trial-shard
//	mbopt history [BENCHMARK...] [flags]             stored comparisons over commits: jumps, trends, A/A calibration
//	mbopt history rebaseline --to REV [flags]        move the baseline, bridging every series across
//	mbopt bisect --bench NAME --good REV --bad REV   the commit that changed one benchmark
//	mbopt mutate --func NAME --slowdown S [flags]    slow one function down: do the benchmarks catch it
//
// The relevance half is profile → analyze → suite (run does all three at
// once; report, check and cover-app work on the same inputs); the comparison
// half is compare → history. "mbopt COMMAND --help" lists a command's flags
// with examples; this manual explains them, command by command, with the
// flags that several commands share explained once, under "Analysis flags"
// and "Collection flags". The definitions (call graph, project function,
// coverage, attributed and reference impact, Algorithms 2 and 3) are in the
// documentation of the packages that compute them: callgraph, coverage,
// optimize and recommend.
//
// Every command prints its results on standard output and its progress,
// notes ("mbopt: note: …"), warnings and errors on standard error. Progress
// is a bar with counts and an ETA on a terminal, one line per step otherwise
// or when $CI is set. Every command takes --cpuprofile FILE, which writes a
// CPU profile of mbopt itself (for performance reports, or to analyse mbopt
// with mbopt); it is written only when the command succeeds.
//
// -o FILE (--output FILE), where a command has it, writes the result to FILE
// instead of standard output, atomically: a failed run leaves no file, a
// symbolic link is followed and an existing file keeps its mode. FILE may not
// be one of the command's inputs.
//
// # Exit status
//
//	0         success
//	1         anything else: nothing could be profiled, an internal error
//	2         bad input or usage: a missing or bad file, a bad flag value
//	          (NaN or an infinity for any number flag, too), no benchmarks, a
//	          --module that matches no application function, an empty
//	          suite; the message names the file or flag and the fix
//	3         mbopt compare and compare merge: the --fail-on gate failed
//	4         mbopt check found drift: the saved suite no longer fits the
//	          repository (the findings are on standard output)
//	5         mbopt bisect could not locate the change: bad is not measurably
//	          different from good, skipped commits hide which commit made it,
//	          or the steps show more than one change
//	130, 143, 129
//	          interrupted by SIGINT (Ctrl-C), SIGTERM or SIGHUP: 128 plus the
//	          signal's number, as a shell reports a process killed by it
//
// On SIGINT, SIGTERM or SIGHUP mbopt stops within a second, whatever it is
// doing (even blocked opening a named pipe): the first signal cancels the
// work; if that has not ended it 0.8 s later, or at a second signal, mbopt
// removes its temporary files and exits. Its last line on standard error is
// "mbopt: interrupted; run the same command again", which is always safe:
// outputs are written atomically and collection resumes. An interrupted
// --app-cmd workload counts as an interruption, not as bad input.
//
// # Analysis flags
//
// analyze, suite, report and run analyse profiles with these flags; compare
// takes them to compute its suite, and check takes the input flags among
// them.
//
// Inputs:
//
//   - --app FILE: an application (reference) CPU profile; repeat it to merge
//     several. --app NAME=FILE[:WEIGHT] names a scenario (NAME: a letter or
//     digit, then letters, digits, '_', '.' and '-'): the scenarios are
//     analysed as one application, their union, and each is shown on its own,
//     with the pairwise overlap (see the scenarios example below). A FILE:W
//     that names an existing file is that file, not a weight.
//   - --weight NAME=W: the weight of scenario NAME in the union suite, the
//     unambiguous form of NAME=FILE:W (repeatable); with it, that scenario's
//     --app values are file names as written, so a profile named data:2 is
//     --app q=data:2 --weight q=1.
//   - --micro DIR|FILE: a benchmark profile, or a directory of them (*.pprof,
//     *.prof, *.pb.gz, *.pb, and the manifest.json of mbopt profile, which
//     names each benchmark and records its cost); repeatable. A benchmark's id
//     is its manifest name, else its file name without the extension. A
//     directory of function sets (mbopt profile --source cover) reads the same
//     way; one directory may not mix the two.
//   - --module PREFIX: a project module path prefix (repeatable). The default
//     is the manifest's module, else the module of the go.mod in the current
//     directory or above. A prefix is an import path (example.com/m,
//     example.com/m/storage, or main for package main's functions); one that
//     matches no application function is an error that lists the modules the
//     application profile does contain, by CPU time.
//   - --exclude PATTERN: a Go package pattern of code in the module that is
//     not project code, typically the workload driver: ./cmd/... (relative to
//     the module) or example.com/m/internal/bench (repeatable). Excluded
//     functions stay in the graph as external ones: overall coverage is
//     unchanged, project-only coverage, the suite and the recommendations
//     leave them out. A pattern that matches nothing is a warning.
//   - --app-cover FILE: the application's function set from mbopt cover-app
//     (repeatable): the application's functions then come from coverage,
//     which is exact, and their times from --app; a note lists the functions
//     only one of the two saw. See "mbopt cover-app".
//   - --strict: fail on any unusable benchmark profile. Without it, an empty,
//     truncated, sample-less or non-CPU benchmark profile (a benchmark that
//     failed leaves one) is skipped with a warning that names it and why, and
//     listed in the output; a benchmark the manifest records as failed is
//     listed the same way. A bad application profile is always an error.
//   - --allow-non-cpu: accept non-CPU profiles; times are then in that
//     profile's unit, and the reports print them in it ("25.7k
//     instructions" for mbopt profile --source instructions; the JSON's
//     application.unit names it) and speak of it where they speak of the
//     application's CPU ("caught in functions that take 23.2% of the
//     application's instructions"). Benchmark costs stay seconds. It
//     accepts the benchmarks' profiles as well, for their coverage and for
//     the detectable slowdowns alike (instruction profiles copied out of
//     their collection, without its manifest.json, need it).
//   - --max-profile-bytes N, --max-decoded-bytes N: refuse a profile file
//     larger than N, or decompressing to more than N (default 256MiB each;
//     sizes such as 512MiB or 2GiB).
//
// The suite:
//
//   - --nodes project|all: the functions the minimal suite must keep covered:
//     the project's (the default, the paper's practical relevance) or every
//     application function.
//   - --impact attributed|flat: the application time that orders the
//     benchmarks, breaks the suite's ties, is the impact objective's gain and
//     is plotted. attributed (the default) charges each sample to the
//     innermost project function on its stack; flat is the paper's reference
//     impact, printed alone with exactly the paper's columns. Both are always
//     in the JSON.
//   - --objective nodes|impact|cost|caught: what a pick gains: covered
//     functions (the paper's Algorithm 2), covered application time (of
//     --impact), cost: the cheapest suite mbopt finds with exactly the
//     coverage of nodes (package optimize says how, and that it is never
//     costlier than Algorithm 2's suite), or caught: the functions whose +10%
//     slowdown the pick would report as a definite regression (see
//     --sensitivity: when threshold + MDE over the function's share of the
//     benchmark is at most 10%), weighed by their share of the
//     application's CPU, so the suite keeps what the whole suite would
//     catch and dropping the other benchmarks loses no function's
//     detectability; ties go to the more
//     precise benchmark (the smaller MDE), then the cheaper, then the
//     smaller id. The default is caught when --history holds comparisons
//     (their MDEs are the measurements it weighs), nodes otherwise and for
//     function sets (--source cover), which weigh no function. caught
//     needs per-operation profiles, counts every
//     application function whatever --nodes says (as the caught curve
//     does), and ignores scenario weights; --budget, --top, --min-gain,
//     --max-instability and --certify apply to it as to the others. The
//     output says which objective chose the suite and, for caught, what a
//     +10% slowdown would be caught in with the suite and with the whole
//     suite (JSON: selection.caught).
//   - --budget D: keep the suite's summed benchmark cost within D, such as
//     90s (budgeted maximum coverage; --suite-budget on compare).
//   - --costs FILE: benchmark costs in seconds: JSON {"id": seconds}, CSV
//     id,seconds, or a manifest.json. Without it costs come from the
//     manifest in a --micro directory (each benchmark's wall time), else from
//     each profile's recorded duration, so --budget and --objective cost work
//     on bare profiles; a note names the source. When every covering benchmark
//     has a cost, the output adds a line comparing Algorithm 2's suite with the
//     cheapest suite of the same coverage.
//   - --default-cost D: the cost of a benchmark without one (by default such
//     a benchmark is an error under --budget and --objective cost).
//   - --top N: stop after N picks. --min-gain K: stop when a pick would add
//     fewer than K functions (the TCC study used 4).
//   - --certify: bound the minimal suite's distance from the smallest
//     possible with the LP relaxation (with --objective cost, also the
//     cheapest suite's cost); skipped with a note on very large instances.
//   - --max-instability W: leave out of the suite the benchmarks whose median
//     A/A instability in sec/op (the width of their mbopt compare --aa
//     intervals stored in --history, on any machine) exceeds W, such as 0.05; a
//     note says what coverage that costs and which functions no other
//     benchmark covers. Benchmarks are matched by their manifest entries, and
//     no certificate is computed then. --history FILE is the database it reads
//     (default .mbopt/history.db in the module root); given, its comparisons'
//     minimum detectable effects also make caught the default --objective
//     and feed --sensitivity.
//   - Without --history, --sensitivity and --objective caught read the
//     minimum detectable effects of the module's default history,
//     .mbopt/history.db in the module root (run's DIR), where mbopt compare
//     stores its comparisons: only when it exists (it is never created),
//     and without making caught the default objective, so a module's suite
//     does not change once compare has run. A damaged or foreign file there
//     is a warning and the MDEs take the typical value; the same file given
//     as --history is bad input (exit 2). The report names the history its
//     MDEs came from ("MDEs: 19 measured in the comparisons in
//     /src/m/.mbopt/history.db") or, with none measured, says how to
//     measure them; the JSON's mde_history names the database.
//
// The recommendations (analyze, report and run):
//
//   - --recommend N: how many functions to recommend (default 10; 0 none; -1
//     until full coverage).
//   - --targets callable|any: what may be recommended. callable (the default):
//     functions and methods a benchmark can call, each closure folded into the
//     function that returns or starts it, nothing in package main or under a
//     cmd/ directory of the module, with what is needed to write the benchmark
//     (file and line, internal or external test, the application's callers,
//     the hottest functions beneath). any: the paper's Algorithm 3 on every
//     function. With callable, negligible functions are ranked after all
//     others, and functions a thin benchmark profile may have run unseen are
//     not recommended (see below); any keeps the paper's answer and only marks
//     them.
//   - --keep-negligible: keep negligible functions in Algorithm 3's order with
//     callable targets; they stay marked. A function is negligible when its
//     own application time (cumulative, with its closures') is under 0.2% of
//     the application's and it is small: the compiler inlined it into callers
//     a benchmark covers, or it spans at most 5 lines (from the source when
//     the current directory, or --static-dir, is in its module; else bounded
//     by the profile's line numbers). Package recommend documents the rule.
//   - --edges sampled|static|both: the call edges the recommendations walk:
//     those of the profile's stacks (the default, the paper's), the static
//     call graph of the application's source between the functions the
//     application ran (x/tools VTA), or both; a note counts the edges and lists
//     the picks of the sampled edges alone when they differ. Loading the
//     source takes seconds.
//   - --static-dir DIR: the module source for --edges static|both (default:
//     the current directory; run's DIR).
//   - --explain (analyze and run): under each pick and recommendation, list
//     the application functions it adds, with their time: the project
//     functions first, then one line per external package with its total and
//     number of functions; with --targets any every function, by time.
//
// What the suite would catch (analyze, report and run):
//
//   - --sensitivity: say, for each project function, the smallest slowdown
//     of its own cost that some benchmark would report as a definite
//     regression: min over the benchmarks of (compare's default 1%
//     threshold + the benchmark's MDE) / the function's share of the
//     benchmark's cost per operation (the sum, since a definite verdict
//     needs the whole interval, one MDE either side of the change, beyond
//     the threshold; never, when no benchmark runs it), with the benchmark
//     that catches it first; the share of the application's CPU in
//     functions where a +1%, +5%, +10% and +50% slowdown would be caught,
//     for the whole suite and the minimal suite ("a 10% slowdown would be
//     caught in functions that take 62% of the application's CPU"); and
//     the functions a +10% slowdown would go unnoticed in, by application
//     share, to benchmark on their own. JSON: sensitivity (functions,
//     caught, suite_caught, recommendations); package sensitivity defines
//     it. The shares are exact from instruction profiles (mbopt profile
//     --source instructions) and sampled from CPU profiles; function sets
//     (--source cover) have none. mbopt mutate checks the claims.
//   - --mde X: the minimum detectable effect (its interval's half-width)
//     of a benchmark without a measured one, for --sensitivity and
//     --objective caught, which add it to the 1% threshold (default 0.005
//     for instruction profiles, 0.05 for CPU profiles). With a history
//     (--history FILE, or the module's default one), each benchmark's MDE
//     is that of its latest stored comparison, in the metric with the most
//     results.
//
// A suite pick whose new functions take under 1% of the application's time
// (attributed, or flat with --impact flat) is marked marginal: it keeps the
// coverage through code that barely runs; it stays in the suite.
//
// docs/sampling.md says what a sampled profile misses and measures the exact
// alternatives (--source cover, --app-cover, --edges both); mbopt warns about
// a benchmark profile of fewer than 100 samples and an application profile of
// fewer than 500. Such a thin benchmark profile (an fsync-bound benchmark that
// mostly waits takes a few dozen samples) may have run, unseen, any function
// the application's call graph reaches from one it was seen in: the report
// lists the thin profiles with those functions, and the benchtime that gives
// about 100 samples (mbopt profile --benchtime) or the exact source that
// avoids sampling (mbopt profile --source cover).
//
// # Collection flags
//
// profile and run collect with these flags:
//
//   - --bench RE: only the benchmarks matching RE (go test -bench syntax).
//   - --skip RE: leave out the benchmarks matching RE, with their
//     sub-benchmarks (go test -skip syntax; they never run).
//   - --benchtime D: run time per benchmark, a duration or Nx iterations
//     (default 1s; 1x with --source cover --scope all, 10x with --source
//     cover or instructions otherwise; the papers used 10s, and a
//     longer run samples more rarely called functions).
//   - --timeout D: kill a benchmark's process after D (default 5m).
//   - --discovery-timeout D: kill a discovery run, the -benchtime 1x run
//     that finds the sub-benchmarks of a benchmark that calls b.Run, after
//     D (default 2m, at most --timeout): it runs the benchmark's setup only
//     to learn names. The entry of one that expires says what to do:
//     --sub=false to collect the benchmark as one unit, --skip to leave it
//     out, or a longer --discovery-timeout. While a benchmark's process
//     runs, a line every 30 s says how long it has run and whether it is a
//     discovery run or a measurement, on a terminal and in CI logs alike;
//     and when the sub-benchmark processes of one benchmark each spend far
//     longer than their timed loops (each repeats the parent's setup before
//     b.Run), the summary says so and suggests --sub=false or --skip.
//   - -j N (--jobs N): benchmarks run in parallel (default one per CPU:
//     coverage needs every function sampled, not a quiet machine).
//   - --sub=false: one profile per top-level benchmark instead of one per
//     sub-benchmark.
//   - --tags T, --mod M: build tags and module download mode, as for go test
//     (vendor directories are honoured).
//   - --force: collect everything again instead of reusing complete profiles,
//     failures and discovery results of the same test binary.
//   - --retry-failed: run again the benchmarks recorded as failed or timed
//     out with the same test binary.
//   - --strict: exit 1 when any benchmark fails, times out or does not build
//     (on run, any unusable profile in the analysis too).
//
// # mbopt run
//
//	mbopt run [DIR] (--app FILE | --app-url URL | --app-pgo | --app-cmd [NAME=]CMD) [flags]
//
// Run does everything on the module in DIR (default "."): it takes the
// application profile, profiles every benchmark as mbopt profile does, and
// prints the analysis as mbopt analyze does. It takes the Collection flags
// (profile's -C, --source and --shard aside) and the Analysis flags (--micro
// aside), with --format and -o (--output) as for analyze, and these
// application sources, at least one (several are merged):
//
//   - --app FILE: an existing CPU profile (repeatable; NAME=FILE for
//     scenarios).
//   - --app-url URL: capture the profile from a running program's
//     net/http/pprof, a base URL or the full profile URL, for --app-seconds N
//     seconds (default 30).
//   - --app-pgo: the module's default.pgo files (vendor, testdata and hidden
//     directories skipped).
//   - --app-cmd CMD: a workload run with sh -c in DIR that writes a CPU
//     profile where {profile} stands (also in $MBOPT_CPUPROFILE). --app-cmd
//     NAME=CMD makes it scenario NAME (repeatable; weights with --weight); a
//     command that starts with a variable assignment must be written
//     "env GOGC=off go run …", since "GOGC=…" reads as a scenario name. The
//     workload's output goes to a log, whose path and last lines a failure
//     prints.
//   - --app-timeout D: kill the workload after D (default 10m).
//   - --app-runs N: run the workload N times ($MBOPT_APP_RUN is the run's
//     number), merge the profiles, and say how many functions every run saw
//     and how many only some did: functions seen by chance make coverage
//     unstable.
//
// The benchmark profiles go to --out DIR (default DIR/.mbopt/profiles; a rerun
// resumes), the profiles run takes and the workloads' logs to --app-out DIR
// (default DIR/.mbopt/app, neither inside --out nor around it): url.pprof,
// cmd.pprof and cmd.log (cmd-N.* with --app-runs), NAME.pprof and NAME.log for
// scenario NAME. A run that creates DIR/.mbopt writes a .gitignore there.
// The application profile is taken first, so a broken source fails in
// seconds, and run holds a lock on --app-out, so a second run on the same
// module exits 2 at once. At the end, on standard error, run names the
// profiles and prints the mbopt suite and mbopt report commands that repeat
// its analysis without profiling.
//
// # mbopt profile
//
//	mbopt profile [PATTERN...] [flags]
//
// Profile finds the packages matching PATTERN (default ./...) that have
// benchmarks, builds each package's test binary once, lists its benchmarks,
// finds sub-benchmarks with a -benchtime 1x run of those that call b.Run,
// and runs every benchmark alone with a CPU profile, as soon as it is
// found. It writes
// --out/manifest.json (the schema is package manifest's), one profile per
// benchmark, and logs/ for the failures. It takes the Collection flags and:
//
//   - --out DIR: the output directory (default profiles; relative to the
//     current directory, not to -C).
//   - -C DIR (--dir DIR): run in DIR, a directory of the module to profile.
//   - --source profile|cover: what to record per benchmark: a CPU profile (the
//     default), or cover, the exact set of module functions it executed, from
//     test binaries built with -cover (package covdata names them as profiles
//     do). The analysis reads the sets like profiles, but they hold no time
//     and no function outside the module. Or instructions: each benchmark
//     runs under Valgrind (Cachegrind) at 2x and at --benchtime (default
//     10x), and its profile (a pprof file) holds each function's
//     instructions, credited by source line to the function enclosing the
//     line (an inlined helper gets its own count): exact and weighted, with
//     no sampling, read by the analysis like a CPU profile in instructions;
//     without valgrind installed, the collection fails at once (exit 2).
//     Collections of two sources never share an --out.
//   - --scope timed|all: with --source cover or instructions, what a function
//     set or instruction profile counts.
//     timed (the default) runs each benchmark at 2x and at --benchtime
//     (default 10x) and keeps the functions whose coverage counters grew
//     with b.N: the timed loop, without the setup before b.ResetTimer or
//     the validation after b.StopTimer. A function that runs a constant
//     number of times per benchmark, not per iteration, counts as setup,
//     even inside the loop. all runs it once (--benchtime 1x by default)
//     and keeps all that ran, setup included, as the papers count. With
//     --source instructions, timed is each function's instructions per
//     operation from the difference of the two runs (the functions adding
//     at least half an instruction per operation), all the run at
//     --benchtime's counts as they are. The manifest records the source and
//     the scope (version 3 for timed, which an older mbopt refuses), and
//     analyze says when the sets or profiles are timed loops.
//   - --shard K/N: collect only shard K of N (K from 0) of the benchmarks,
//     one of N machines; --shard /N takes K from $JOB_COMPLETION_INDEX (a
//     Kubernetes Indexed Job), and $MBOPT_SHARD=K/N stands for a missing
//     --shard. Every shard builds and lists every benchmark, then takes its
//     share of a partition balanced by the costs the collection already in
//     --out recorded (package shard has the rule); combine the shards with
//     mbopt merge.
//   - --shard-costs MANIFEST: balance the shards by the costs of this
//     manifest.json or collection directory instead. Every shard must see the
//     same costs.
//
// A package that does not build, and a benchmark that panics, fails, hangs
// past --timeout or writes no profile, is recorded and named in the summary;
// the others complete. Rerunning into the same --out resumes: complete
// profiles of the same test binary and benchtime are reused, and an unchanged
// module starts no test binary (on the example module, 23 benchmarks, a rerun
// takes about 2.6 s: go test -c relinking). The manifest is merged, never
// truncated, and rewritten after every benchmark; one mbopt at a time may use
// an --out (a second exits 2, naming the holder). Package collect documents
// these rules. Exit status 0 when at least one benchmark was profiled (with
// --strict, all of them), 1 otherwise, 2 for bad flags or no benchmarks.
//
// # mbopt merge
//
//	mbopt merge DIR... [-o OUT]
//
// Merge combines the output directories of the N shards of one collection
// (mbopt profile --shard K/N) into -o OUT (--out OUT, default profiles): one
// manifest and every profile and log, what one unsharded run would have
// written. It refuses, naming the directories, inputs that are not the N
// shards of one collection: a different module, revision, Go version,
// GOOS/GOARCH, build flags or benchtime; shards of different N or that
// partitioned different benchmarks or costs; a shard given twice, missing or
// interrupted; a benchmark in two shards; a profile missing or changed since
// it was collected. OUT is replaced as a whole and atomically, so it must be
// new, empty or an earlier output directory, and a refused merge leaves it as
// it was. docs/ci.md has a GitHub Actions matrix and a Kubernetes Indexed Job,
// docs/scale.md a plan for 5,000 benchmarks.
//
// # mbopt analyze
//
//	mbopt analyze --app FILE... --micro DIR|FILE... [flags]
//
// Analyze prints the whole suite's project-only and overall coverage of the
// application's call graph, every benchmark's attributed and reference
// impact, the minimal suite (Algorithm 2, in pick order) and the
// recommendations (Algorithm 3). It takes the Analysis flags, and:
//
//   - --format text|json|github: text (the default); json, a report.Document
//     (go doc github.com/mbopt/mbopt/report Document documents each field);
//     github: the suite on standard output (or -o), then a Markdown summary
//     appended to $GITHUB_STEP_SUMMARY (to standard output when that is
//     unset; a summary file that cannot be written, a full disk included,
//     exits 2 after the suite is written, and keeps no part of the summary).
//   - -o FILE (--output FILE): write the result to FILE.
//
// The examples at the end of this manual show its output.
//
// # mbopt cover-app
//
//	mbopt cover-app [flags] -- PKG|CMD [ARGS...]
//
// Cover-app runs the application workload once with Go's coverage
// instrumentation and writes the functions that executed, named as profiles
// name them (package covdata), to -o FILE (--output, default
// app.cover.json). PKG, a local main package (./cmd/load), is built with go
// build -cover; any other CMD runs with GOCOVERDIR set and -cover added to
// GOFLAGS. An argument {profile} becomes the set's name with .pprof, so the
// same run can write the CPU profile too. The functions of main packages are
// left out of the set.
//
//   - --coverpkg PATTERNS: the packages to instrument, as go build -coverpkg
//     takes them (default: ./... of the current directory).
//   - --gocoverdir DIR: read the coverage data a program built with -cover
//     already wrote to DIR instead of running anything.
//
// Give the set and a profile of the same run to analyze, run, report or suite
// with --app-cover FILE.
//
// # mbopt suite
//
//	mbopt suite --app FILE... --micro DIR|FILE... [flags]
//
// Suite runs the analysis and prints the minimal suite as go test
// invocations, one per package, each with an anchored -bench pattern that
// selects exactly the chosen benchmarks and -run '^$', to run from the module
// root:
//
//	go test -run '^$' -bench '^BenchmarkQuery$/^(avg_by_host|sum\(cpu\))$|^BenchmarkSelect$' example.com/tinytsdb/query
//
// Benchmarks must come from a manifest or have ids <import path>.<Benchmark>.
// It takes the Analysis flags that choose the suite; --recommend, --targets,
// --certify, --edges and --static-dir are accepted and ignored. And:
//
//   - --format shell|json|list: shell (the default), json ({"invocations":
//     [...]}, which mbopt compare --suite and mbopt check --suite read), or
//     list, one "package Benchmark" line each.
//   - -o FILE (--output FILE): write the suite to FILE.
//   - --top N: keep the N most relevant picks.
//   - --allow-empty: accept an empty suite. Without it an empty suite is an
//     error (exit 2, saying why), so that mbopt suite | sh cannot pass in CI
//     without running a benchmark.
//   - --changed-since REV: map the changes from REV to the work tree (commits
//     and uncommitted edits) to the functions they change (package changes
//     says how), and tag each benchmark whose covered application functions,
//     or whose own benchmark function, changed: shell lines end in
//     "# affected: NAMES", list lines get a third field "affected", JSON
//     invocations an "affected" list. REV merge-base is the merge-base of
//     HEAD with the default branch (origin/HEAD, else main, else master). Run
//     it inside the repository.
//   - --only-affected: print only the tagged benchmarks; nothing, with exit
//     0, when none is.
//
// # mbopt check
//
//	mbopt check --suite FILE [DIR] [flags]
//
// Check compares a saved suite (--suite FILE, the JSON of mbopt suite
// --format json) with the module in DIR (default ".") as it is now, and exits
// 4 when it has drifted, printing one line per finding:
//
//	missing       a suite benchmark's function is no longer declared: removed or
//	              renamed (the package's new benchmarks are named as possible new names)
//	unprofiled    a benchmark declared in the module but not in the profiles
//	no_profile    a suite benchmark without a profile in --micro
//	no_coverage   a suite benchmark that covers no application function any more
//	low_coverage  the suite's project-only coverage is below --min-coverage
//
// Benchmarks are found in the _test.go files by top-level name, as mbopt
// profile finds them. The checks after missing need the profiles:
//
//   - --micro DIR|FILE and --app FILE: the benchmark and application profiles,
//     as for analyze (repeatable).
//   - --module PREFIX, --exclude PATTERN: as for analyze (the default module:
//     the profiles' manifest, else the module of DIR).
//   - --min-coverage P: the lowest acceptable project-only coverage, in
//     percent (default 0: no check).
//   - --format text|json: the findings as lines (the default) or JSON.
//
// # mbopt report
//
//	mbopt report --app FILE... --micro DIR|FILE... --out DIR [flags]
//
// Report runs the analysis (the Analysis flags) and writes into --out DIR
// report.md, a self-contained report.html, report.json (the JSON of analyze)
// and the plots, in PNG and SVG: the minimal suite's cumulative coverage (the
// dissertation's Figure 6.6), the recommendations' (Figure 6.7), the impact of
// each selected benchmark, and with scenarios their coverage and overlap
// (Table 6.4). The directory is written as one set, built beside --out and
// swapped in, so a failed run leaves the previous report whole and a rerun
// keeps no stale file; the files are listed in DIR/.mbopt-report, and an
// --out that holds any other file is refused.
//
// # mbopt compare
//
//	mbopt compare [--base REV] [--head REV|worktree] [--suite FILE | --bench PATTERN [PACKAGES]] [flags]
//
// Compare runs benchmarks of two revisions of the module in the current
// directory against each other in randomized multiple interleaved trials,
// says per benchmark and unit whether the head is slower or faster (a
// definite or potential regression or improvement, against a threshold band),
// leads with what that means for the application, and gates on regressions.
// docs/compare.md explains the method; package compare documents the
// revisions, the test-binary cache, the schedule and the JSON.
//
// Revisions:
//
//   - --base REV: the base (default: the merge-base of HEAD with the default
//     branch, origin/HEAD, else main, else master; a note says which).
//   - --head REV: the head (default HEAD); worktree compares the uncommitted
//     changes. Each revision is checked out with git worktree under $TMPDIR;
//     your tree is never touched, and the checkouts are removed on every exit.
//   - --no-cache: build every test binary afresh instead of reusing those
//     cached per commit under the user cache directory.
//
// The benchmarks, one of:
//
//   - --suite FILE: the JSON of mbopt suite --format json.
//   - the Analysis flags (--app, --micro, …), which compute the suite and
//     give each benchmark its impact; the suite's --budget is --suite-budget
//     here. With them, --changed-since REV (merge-base: the --base) marks the
//     results of the benchmarks that cover none of the changed functions
//     "untouched: likely noise", and --only-affected compares only the
//     benchmarks the change touched (exit 0 when there are none). Any
//     other analysis flag without --app and --micro is refused (exit 2):
//     there is no analysis for it to set.
//   - --bench PATTERN [PACKAGES]: a go test -bench pattern in PACKAGES
//     (default ./...). With the Analysis flags too, the pattern chooses
//     the benchmarks and the analysis gives each its impact and its
//     changes their application impact.
//
// A benchmark in one revision only is reported as added or removed, one that
// fails or does not build with its error (and so are the sub-benchmarks a
// failure that ended the process kept from running, saying so), and one that
// skips itself (b.Skip, say for test data it did not find, even after its
// first run) as skipped, in base, head or both, with the lines it logged;
// none of these is an error, and none fails the gate.
//
// The metric:
//
//   - --metric time|cpu|instructions: what is measured per operation
//     (default: instructions where Valgrind is installed, else time; the
//     first line of the log and of the text report names it and how to
//     get the other). time is the benchmark's own ns/op, which sees
//     everything, the machine's noise included. cpu is the user and system CPU time of
//     the benchmark's process, instructions the instructions counted under
//     Valgrind (package measure; the Debian/Ubuntu package valgrind); both
//     run each measurement as two processes at two iteration counts and take
//     the difference per operation, so start-up and setup cancel, and both
//     compare B/op and allocs/op: cpu from a normal run of the benchmark per
//     measurement, instructions from its Valgrind process at the higher
//     count (a normal run only lists and times a benchmark first). With
//     them --count (default 1) is the measurements per run and --benchtime
//     (default 100ms) the normal run's; base and head run at the same time
//     where there are 2 CPUs (instructions: -j). docs/metrics.md says which
//     to choose.
//   - --duet sequential|parallel (sequential): with time, parallel runs a
//     benchmark's base and head at the same time, each bound to a CPU of its
//     own with GOMAXPROCS=1 (the CPUs alternate between the versions), so
//     both see the same interference; sequential with fewer than 2 CPUs.
//     parallel with cpu or instructions is refused: those already run both
//     versions at the same time.
//
// The schedule:
//
//   - --trials N (3), --runs N (3), --count N (5 with time, 1 with cpu and
//     instructions), --benchtime D (1s with time, 100ms with cpu and
//     instructions): each of --trials trials runs --runs processes per
//     benchmark and version, each
//     -test.count --count at -test.benchtime --benchtime; in each run the
//     benchmarks are shuffled and each one's base and head run back to back in
//     a random order.
//   - --benchmem: also compare B/op and allocs/op.
//   - --seed N: the seed of the schedule and the bootstrap (default 1).
//   - --budget D: fit the schedule into D of wall-clock time (fewer runs, then
//     counts, never fewer than 2 trials; a note says what it chose).
//   - --until-stable WIDTH: stop a benchmark once both versions have 2
//     trials, the measurements a verdict needs, and an interval (in the
//     metric's unit) narrower than WIDTH, such as 0.02 (2 points); the
//     report says how much time that saved.
//   - --target-mde MDE: with --metric cpu or instructions, measure each
//     benchmark until its minimum detectable effect is at most MDE (default
//     0.001, 0.1%, with instructions; none with cpu; negative: none): a
//     benchmark stops once it gets there with the measurements a verdict
//     needs, and one still above it after --trials gets more trials, up to
//     4 times --trials and within --budget (a note says so). A schedule
//     smaller than a verdict needs is not extended. A result whose MDE
//     stays above 1% is marked imprecise, with the reason when known.
//   - -j, --jobs N: with --metric instructions, the measurements counted at
//     the same time, each in its own processes (default: one per CPU); a
//     count does not depend on the machine's load, so a run's benchmarks
//     are measured at once and recorded in their shuffled order. The time
//     and cpu metrics keep the interleaved order.
//   - --shard K/N: run only shard K of N of the benchmarks, both versions on
//     this machine (--shard /N takes K from $JOB_COMPLETION_INDEX;
//     --shard-costs MANIFEST balances them by recorded costs); --trial-shard
//     K/N runs every benchmark but a share of the trials, so that machines
//     differ between trials. Combine the shards with mbopt compare merge.
//
// The statistics and the verdict:
//
//   - --threshold T: the band's half width (default 0.01, 1%). Without it,
//     a benchmark calibrated by --aa on the same machine and settings is
//     judged against the larger of 1% and its calibrated threshold; an
//     explicit --threshold applies to every benchmark. A change is definite
//     when it survives the --fdr correction and its whole interval lies
//     beyond the band; potential when its median passes the largest of the
//     band, the dynamic threshold (75% of the interval's width, without
//     calibration) and its minimum detectable effect. Each result shows the
//     threshold it was judged against and its minimum detectable effect
//     (JSON: threshold, min_detectable_effect). Fewer than 8 measurements
//     per version (6 at --confidence 0.95) give no verdict.
//   - --fdr Q: the false discovery rate (default 0.05, in (0, 1]; 0 is
//     refused) over all the comparison's benchmarks and units:
//     Benjamini–Hochberg on the bootstrap p-values, after which a change
//     can be definite; the report prints the expected number of false
//     alarms. A unit that did not move and has no noise (B/op, allocs/op
//     alike in every measurement) is no test, and a p-value at its floor
//     (every resample on one side) is resampled again until it can pass
//     alone among all the tests (JSON estimate.p_resamples), so a lone
//     change stays detectable in a suite of any size.
//   - --confidence C (0.99), --resamples N (10000): the hierarchical
//     bootstrap's confidence level and resamples (at least 1).
//   - --fail-on definite-regression|any-regression|app-impact|never: what
//     fails the gate, exit 3 (default definite-regression). app-impact, with
//     the analysis flags, fails on a definite regression only when its
//     estimated application impact (below) is at least
//     --app-impact-threshold F (default 0.001, 0.1% of the application's
//     CPU time; a fraction in (0, 1), since 1 = 100% could never fail): a
//     regression marked likely no application impact passes, one without
//     an estimate fails.
//   - --aa: A/A calibration: compare the head with itself and store each
//     benchmark's instability, from which later comparisons on the same
//     machine and settings take their thresholds (see mbopt history).
//
// Culprits: for each definite or potential change in the metric, and for
// each benchmark --explain NAME names (full name or id; repeatable), compare
// takes a per-function profile of every measurement of both versions
// (instructions: each measurement's Cachegrind counts, credited by source
// line to the function whose body encloses it, so an inlined helper gets
// its own work; time and cpu: 5 CPU profiles per version, inlined frames
// included) and keeps the functions whose change is beyond their own noise
// (Welch's t-test over the measurements, Benjamini–Hochberg at 1%), ranked
// by the size of their change whatever its sign: JSON results[].culprits
// (function, base, head, delta per operation, relative, kind, share of the
// total movement, in_application) and results[].explained (how many
// profiles, how many functions moved within their noise). An A/A lists
// none and says so. The last profile of each version is written per
// operation to DIR/culprits (see --out) and named in results[].profiles,
// so go tool pprof -top -diff_base BASE HEAD shows the diff. With the
// analysis flags (and with them --bench PATTERN) each such result also gets
// app_impact, the estimated relative change of the application's CPU
// time: Σ over the changed functions of their share of the application's
// CPU × their relative change, formed only on clearly positive bases, a
// function inlined away folded into the caller that absorbed it (so the
// application's other paths to it keep their cost), app_impact_low and
// app_impact_high from the benchmark's own hierarchical bootstrap and the
// reference profile's sampling error, app_impact_basis (functions; or
// benchmark: no function changed beyond its noise, so the benchmark's share
// of the application × its change; or none), and app_relevant_share, the
// part of the movement in functions the application runs (or its function
// set, --app-cover, lists); below a tenth it is marked
// likely_no_app_impact. Text shows the top 3 culprits under the changes,
// Markdown a table of the changes by estimated application impact with the
// top 5 of each in a collapsed block. docs/compare.md explains the
// estimator.
//
// Confirmation: --confirm, with the analysis flags, measures the
// application workload itself on both versions, with the comparison's
// metric and schedule, after the benchmarks and only when a change's
// estimated application impact passes --app-impact-threshold: the
// benchmark --app-benchmark NAME (its compared result when it is one of
// the compared benchmarks), or --app-cmd CMD, a shell command run in each
// version's module root as mbopt run's --app-cmd takes it, measured whole
// (instructions: every process under Valgrind), so it should do a fixed
// amount of work. The report shows the measured change beside the estimate
// (JSON app_measured), and --fail-on app-impact then decides by the
// measurement: every definite regression fails when the measured change is
// at least the threshold and its interval lies above 0.
//
// Output:
//
//   - --format text|json|markdown|github: text (the default); json, a
//     compare.Report; markdown, a pull-request comment; github, annotations on
//     standard output (at most 10 per level, as GitHub shows no more) and the
//     Markdown appended to $GITHUB_STEP_SUMMARY. A summary that cannot be
//     appended (a full disk: no part of it is kept) is reported after the
//     annotations and exits 2, or 3 when the gate fails too.
//   - -o FILE (--output FILE): write the report to FILE.
//   - --out DIR: the raw results base.txt and head.txt, in the Go benchmark
//     format, which benchstat base.txt head.txt reads (default: a directory
//     of the comparison's own under .mbopt/compare in the module root, named
//     by its start time and the two commits, so earlier comparisons' files
//     are kept; the report prints the files' full paths).
//   - --history FILE: store the report in this database (default
//     .mbopt/history.db in the module root), one transaction per comparison;
//     --no-history stores nothing and uses no calibrated threshold.
//   - --app-benchmark NAME: the compared benchmark (id or name) that is the
//     application benchmark: its measurement at the head is stored with the
//     comparison as the application's, the upper series of history --html's
//     Figure 8/9 view. Without it, the application measured on both versions
//     (app_measured), when the comparison has it, is that series; a
//     comparison with --app also stores the reference profile's total CPU
//     time, which is no measurement and is not drawn. With each result the
//     history keeps its estimated application impact and top culprits.
//
// # mbopt compare merge
//
//	mbopt compare merge DIR... [--out DIR] [flags]
//
// Compare merge combines the output directories of the shards of one
// comparison (compare --shard or --trial-shard, never both) and computes the
// statistics over all of them at once, so each verdict uses every
// measurement. It refuses shards that do not fit together, naming the
// directories: other commits, settings (any of them, such as --count or
// --runs; only a --budget may fit trials, runs and count to each machine),
// module or partition, a shard given twice, missing or without its raw
// files, raw files that changed since the shard wrote them (shard.json
// records the size and SHA-256 of each), a benchmark in two shards.
//
//   - --out DIR: the merged raw results (default .mbopt/compare).
//   - --format, -o FILE (--output FILE), --fail-on: as for mbopt compare;
//     the gate exits 3. --fail-on app-impact judges the estimated
//     application impact each shard found (the merge carries each
//     benchmark's culprits and estimate from the shard that explained it; a
//     definite regression no shard estimated fails) against
//     --app-impact-threshold F (default 0.001), which applies to that gate
//     only. It needs every shard run with the analysis flags (--app,
//     --micro; shard.json says): over shards run without them it is
//     refused, exit 2, before anything is written, as compare refuses it,
//     and so it is when only some shards ran with them (the refusal names
//     the others), since that would judge part of the suite by its
//     application impact and the rest by its verdict alone; run the shards
//     with the analysis flags, or gate with --fail-on definite-regression.
//   - --history FILE, --no-history: as for mbopt compare: the merged report
//     is judged against the thresholds calibrated there and stored as one
//     comparison, under the machine the shards' raw files name (the shards
//     store nothing).
//   - --app-benchmark NAME: as for mbopt compare.
//
// # mbopt history
//
//	mbopt history [BENCHMARK...] [flags]
//
// History shows each benchmark's series: its change against one fixed
// baseline revision at every compared head commit, in ancestry (first-parent)
// order, with its 99% interval, the commit's date, the baseline's and the
// head's values and the verdict the comparison gave then (with its
// threshold: a later calibration never rewrites it), and runs the TCC
// study's jump and trend detectors on it (package detect has their
// definitions, package history the store and the calibration). Each machine
// and set of settings is a series of its own, named by the settings that
// differ. Arguments keep the benchmarks whose id (import path + "." + full
// name), full name or name as compare prints it equals one of them. A stored
// result that is no measurement (not finite, absurd) is left out with a
// warning. The input is only read: a file that is not an mbopt history is
// refused untouched, and a history on a read-only file system, in a
// directory you may not write or on a full disk is read all the same
// (mbopt compare refuses to store into it, saying which of these it is).
//
//   - --history FILE: the database mbopt compare writes (default
//     .mbopt/history.db).
//   - --baseline REV: the base revision of the series (default: the base of
//     the most stored comparisons); a stored base's hash or prefix, or any
//     revision of the repository in the current directory. Comparisons
//     against another base (one no rebaseline connects) are left out, and a
//     warning says how many, against which bases.
//   - --unit U: show only this unit, such as sec/op; --metric
//     time|cpu|instructions shows the unit of that compare metric (sec/op,
//     cpu-sec/op, instructions/op).
//   - --window N: trend detection: the number of earlier commits the current
//     one is compared with (default 10).
//   - --factor F, --widths N, --floor T: the dynamic threshold, F (0.75)
//     times the mean of the last N (3) interval widths, at least T (0.01).
//   - --initial-threshold T: the initial threshold of every benchmark,
//     replacing the calibrated ones (default: calibrated from A/A
//     comparisons, else 0.06).
//   - --fixed LOWER,UPPER: fixed-value bounds on the change against the
//     baseline, such as -0.2,0.2.
//   - --instability: show the A/A calibration instead: every benchmark's A/A
//     instabilities and the initial threshold derived from them. An A/A
//     result whose interval is inverted or not finite is left out of it
//     and listed.
//   - --detector LIST: the detectors, a comma-separated list of jump, trend
//     (the default pair) and edivisive (E-divisive means over the whole
//     series with a permutation test; docs/detectors.md compares them).
//   - --plot DIR: write one SVG per series (the change with its interval, the
//     jump threshold, the detections), or with --instability the distribution
//     of the instabilities, instability.svg.
//   - --html DIR: write the history as a static web site (docs/history.md):
//     index.html with the study's Figure 8/9 view and a chart per series, a
//     page per series, every asset embedded. DIR may hold other files (the
//     history database, a CNAME, the --plot figures): the site replaces and
//     removes only the files an earlier site wrote, which it lists in
//     DIR/.mbopt-site, and refuses to overwrite any other. With --html the
//     text history is printed only when --format or -o asks for it.
//   - --commit-url TEMPLATE: with --html, the link of a commit, {commit}
//     standing for its full hash (default: GitHub's when the origin remote is
//     on github.com; an http or https URL).
//   - --format text|json|markdown, -o FILE (--output FILE): the output
//     format and file.
//
// A calibration, then comparisons that use it and their history:
//
//	mbopt compare --aa --bench . ./...
//	mbopt compare --suite suite.json
//	mbopt history --plot plots/
//	mbopt history --instability --plot plots/
//	mbopt history --detector jump,trend,edivisive --html site/
//
// # mbopt history rebaseline
//
//	mbopt history rebaseline --to REV [--from REV] [compare flags]
//
// Rebaseline moves the baseline of a long-lived history: it compares the old
// baseline with the new one once, as mbopt compare does, and stores that
// comparison as a bridge, across which mbopt history carries every series
// (a point measured against the new baseline continues the old one's series,
// and the other way round; the output says where the baseline moved).
//
//   - --to REV: the new baseline.
//   - --from REV: the old baseline, a stored base's hash or prefix or a
//     revision (default: the baseline mbopt history shows).
//   - --bench PATTERN [PACKAGES], --suite FILE, or the Analysis flags (with
//     --suite-budget for the suite's budget): the benchmarks, as for mbopt
//     compare (default: those stored against the old baseline).
//   - --trials, --runs, --count, --benchtime, --benchmem, --seed, --budget,
//     --until-stable, --target-mde, -j (--jobs), --metric, --duet,
//     --threshold, --fdr, --confidence, --resamples, --no-cache: as for mbopt
//     compare; give those of the series.
//   - --history FILE, --out DIR, --format, -o FILE (--output FILE), --fail-on,
//     --app-impact-threshold, --explain, --confirm, --app-cmd: as for mbopt
//     compare; the gate applies only with an explicit --fail-on.
//   - --base, --head, --aa, --app-benchmark, --shard, --trial-shard,
//     --shard-costs, --no-history, --changed-since and --only-affected are
//     compare's and refused: rebaseline sets them (a bridge stores no
//     application value).
//
// Then compare against the new baseline (--base REV).
//
// # mbopt bisect
//
// mbopt bisect --bench NAME --good REV --bad REV [PACKAGE...] finds the
// first-parent commit between REV and REV that changed the benchmark NAME
// (its full name as go test prints it) in the packages given (package
// patterns or import paths; default ./...). It measures --bad against --good with mbopt
// compare's engine, then binary-searches the first-parent commits between
// them, each measured against --good in temporary git worktrees: your tree
// and index are never touched, and an interrupt removes the worktrees. Each
// step decides like good, like bad or unknown from the interval of the
// commit's change (package bisect documents the rule); an unknown commit is
// measured again with twice the trials, up to --max-repetitions
// measurements, then skipped. A commit that does not build or lacks the
// benchmark is skipped too, like git bisect skip; the output lists every
// skipped commit with its reason.
//
// Before it measures anything, bisect checks the range: --good and --bad
// must name different commits, and --good must be on the first-parent
// history of --bad (not on a branch that diverged from it, nor only on a
// branch merged into it); otherwise it exits 2 naming the flags and, for
// diverged revisions, their merge-base. A --good or --bad whose package
// of the benchmark does not build is bad input too (exit 2, naming the
// flag and quoting the build error), found once both are built, before
// anything is measured. --trials, --runs, --count and --max-repetitions
// must be at least 1.
//
// When the steps show more than one change beyond --threshold between
// the commits they measured (a commit decided good whose interval
// nevertheless excludes good's value by more than the threshold, say),
// bisect names no commit: it lists each change with the two measured
// commits it lies between and exits 5; bisect each range on its own, or
// give a --threshold above the smaller changes to locate the larger.
//
// On a terminal, standard error shows each step's progress as mbopt
// compare does, and a line per decided step; elsewhere (CI, a pipe)
// bisect prints no progress, and standard output's log is the record.
// Each step's raw files go to a temporary directory removed after the
// step; only --explain's comparison is kept under .mbopt/compare, for the
// profiles it names.
//
//   - --metric time|cpu|instructions: what each step measures, as in mbopt
//     compare (default: instructions where Valgrind is installed, else
//     time; standard error's first line names it). cpu and instructions
//     do not grow with the machine's load, so they decide with fewer trials on a busy machine.
//   - --trials, --runs, --count, --benchtime, --seed, --target-mde: the
//     schedule of each measurement, as in mbopt compare (trials double at
//     each repetition; --count and --benchtime default to the metric's
//     defaults).
//   - --max-repetitions N: measurements of an unknown commit before it is
//     skipped (default 3).
//   - --threshold X: the smallest change to locate (default 0.01, 1%): the
//     first step's interval must lie wholly beyond ±X, else bad is not
//     measurably different from good (a few measurements of identical
//     code can exclude zero by a fraction of a percent).
//   - --explain: once the first bad commit is found, compare it with the
//     last good commit once more, as mbopt compare --explain NAME does:
//     text adds that comparison's report with the benchmark's culprit
//     functions and the pprof command that shows their diff; json adds it
//     as explanation (a compare report, whose result has culprits and
//     profiles).
//   - --format text|json: text is a short log, one line per measurement,
//     and the first bad commit; json is a bisect.Result: first_bad (the full
//     hash), last_good, steps (each with its change, interval, trials and
//     decision), skipped, and changes when the steps show several.
//
// Exit status 5 when the change cannot be located to one commit.
//
// mbopt history prints, under each jump it detects, the mbopt bisect
// command that locates it: the point's commit as --bad, the commit of the
// point before it (or the baseline) as --good, the series' metric and
// the benchmark's package.
//
// # mbopt mutate
//
// mbopt mutate --func NAME --slowdown S [--bench PATTERN] [PACKAGES]
// checks the suite's claim to catch a slowdown (performance mutation
// testing): it compares HEAD (or --head) with HEAD whose function NAME
// runs S more of its own instructions per call (0.1: +10%), with mbopt
// compare's engine, and says whether some benchmark reports a definite
// regression and which. The slowdown is a busy loop called at the
// function's entry, in a copy of its file that only the head's build sees
// (go build -overlay): the source tree is never touched. The loop is sized
// under Valgrind: the function's own instructions per call, counted line
// by line in a benchmark that calls it (its inlined copies too), and the
// loop's fixed cost, cost per iteration and calls per operation, counted
// on two probe mutants; package compare/mutate documents the rule. A
// function so small that one call of the loop costs more than asked for
// gets that much: the output says what the loop really adds.
//
//   - --func NAME: the function, by its full name as a profile names it
//     (example.com/m/p.F, example.com/m/p.(*T).M); a declared function,
//     not a closure.
//   - --slowdown S: the share of its own cost per call to add, > 0.
//   - --size-bench ID: the benchmark that measures the function's cost, an
//     id or a name in the function's package (default: the first benchmark
//     of that package, in name order, that matches --bench and calls it).
//   - --bench PATTERN [PACKAGES], --head REV, --metric, --trials, --runs,
//     --count, --benchtime, --target-mde, --seed: the comparison, as in
//     mbopt compare (--count and --benchtime default to the metric's
//     defaults, 1 and 100ms under instructions; PACKAGES default to
//     ./..., so name the suite's packages where the module also holds
//     the application's own benchmark, or it joins the comparison and
//     catches what the suite would not); --metric
//     defaults as there, to instructions wherever mutate runs (the sizing
//     needs Valgrind anyway), and so does --target-mde (0.1%: trials are
//     added until each benchmark's interval is that tight; negative keeps
//     the fixed schedule of --trials and --runs). A schedule of fewer
//     measurements per version (--trials × --runs × --count) than a
//     verdict needs (8 at the 99% confidence) is refused: no mutant
//     could be caught. 1 trial of 8 runs is the quickest that can.
//   - --format text|json, -o FILE: text says caught or not and by which
//     benchmarks, the sizing, then the comparison as mbopt compare prints
//     it; json is a mutate.Result: function, slowdown, file, sized_by,
//     sizing, iterations, added (the slowdown the loop really adds),
//     caught (true when some benchmark reports a definite regression),
//     caught_by and comparison (a compare report). With --func repeated,
//     each mutant is sized and compared on its own, in the order given:
//     text prints them one after another, json is an array of
//     mutate.Result. -o (--output) writes it to FILE atomically.
//
// mbopt mutate --from-sensitivity N --app FILE --micro DIR [--bench
// PATTERN] [PACKAGES] measures the suite's mutation score: it runs the
// analysis with --sensitivity (the Analysis flags; --mde and --history
// as analyze takes them) and, for the N project functions with the
// largest application share, compares two mutants: one at the function's
// predicted detectable slowdown, one at a tenth of it. A prediction holds
// when the first is caught and the second is not; it is missed when the
// first is not caught, and early when both are. A function predicted
// never caught (no benchmark's profile runs it) has no benchmark to size
// a mutant by: it is listed, and not counted. Text says "mutation score:
// H of T predicted detectable slowdowns held", then per function its
// prediction, what each mutant moved its benchmark by, and the outcome;
// json is a mutate.Score: predictions (each a sensitivity function with
// outcome, at and tenth, two mutate.Result), held, tested and never.
// --from-sensitivity excludes --func and --slowdown.
//
// # Profiles by hand
//
// mbopt profile and mbopt run record profiles for you; by hand, a benchmark
// profile is one go test run per benchmark, from the package directory, named
// <import path>.<Benchmark>.pprof so that mbopt suite can name its package:
//
//	go test -run '^$' -bench '^BenchmarkAddRows$' -benchtime 10s \
//	    -cpuprofile /tmp/profiles/example.com/db/storage.BenchmarkAddRows.pprof ./storage
//
// An application profile comes from a program that imports net/http/pprof,
// while it serves a realistic workload (curl -o app.pprof
// 'http://localhost:6060/debug/pprof/profile?seconds=30'), from one that calls
// runtime/pprof.StartCPUProfile around its workload, or from a repository's
// default.pgo.
//
// # Examples
//
// The examples below analyse the profiles committed under
// testdata/profiles/example (app.pprof, an application workload, and one
// profile per benchmark of the example module example.com/tinytsdb) from the
// root of mbopt's repository. A test runs each example that starts with
// "$ mbopt" and compares the output with the text ("..." on a line of its own
// stands for lines left out), so they show what mbopt prints today.
//
// The analysis: the whole suite's coverage of the application's call
// graph, the minimal suite with the same coverage (Algorithm 2, in pick
// order), every benchmark's attributed impact (the application CPU time
// charged to the project functions it covers, each sample to the innermost
// project function on its stack) next to the paper's reference impact (the
// flat time of all the functions it covers), and the two uncovered
// functions whose benchmark would add most (Algorithm 3):
//
//	$ mbopt analyze --app testdata/profiles/example/app.pprof \
//	    --micro testdata/profiles/example/micro --module example.com/tinytsdb \
//	    --recommend 2
//	mbopt: microbenchmark suite relevance for example.com/tinytsdb
//
//	Application  1 profile, 605 functions (51 project), 11.66s CPU, 2.93s (25.1%) outside project code
//	Benchmarks   19 analysed
//	  CPU profiles of whole runs, as the papers count: setup and validation outside the timer count too, and sampling may miss a function a benchmark ran briefly.
//
//	Coverage of the application by the whole suite
//	  coverage      covered  share
//	  project-only    47/51  92.2%
//	  overall       359/605  59.3%
//
//	Minimal suite (Algorithm 2, project nodes): 4 of 19 benchmarks keep the same coverage
//	  # benchmark                       added  project  overall  attributed  share   flat  share
//	  1 query__BenchmarkQuery             +32    62.7%    32.2%       7.43s  63.7%  8.92s  76.5%
//	  2 httpapi__BenchmarkQueryHandler     +9    80.4%    39.7%       8.06s  69.1%  8.73s  74.9%
//	  3 httpapi__BenchmarkWrite            +5    90.2%    47.6%       3.70s  31.7%  4.97s  42.6%
//	  4 storage__BenchmarkSearch           +1    92.2%    48.4%       0.29s   2.5%  1.74s  14.9%
//	      marginal: the functions it adds take 0.01s (0.09%) of the application's attributed time, under 1%
//	  (project and overall: cumulative coverage after each pick; attributed: the benchmark's attributed impact,
//	   the application time charged to the project functions it covers; flat: the paper's reference impact)
//	  suite cost: Algorithm 2 20.52s (4 benchmarks); no cheaper suite with the same coverage found (--objective cost); costs from each profile's recorded duration
//
//	Benchmarks by attributed impact
//	  benchmark                         project  overall  attributed  share   flat  share  in suite
//	  httpapi__BenchmarkQueryHandler         29      185       8.06s  69.1%  8.73s  74.9%       yes
//	  query__BenchmarkQuery                  32      195       7.43s  63.7%  8.92s  76.5%       yes
//	  query__BenchmarkSelect                 25      166       7.21s  61.8%  9.00s  77.2%
//	  storage__BenchmarkReadRange            17      106       6.95s  59.6%  7.74s  66.4%
//	...
//
//	Recommended benchmark targets (Algorithm 3, callable functions, negligible ones last)
//	  # function                                             +project  +external  attributed  share   flat  share  project after
//	  1 example.com/tinytsdb/httpapi.(*Server).handleHealth        +2         +0       0.08s   0.7%  0.07s   0.6%          96.1%
//	      at httpapi/server.go:175; benchmark it in an internal test (package httpapi)
//	      called by net/http.HandlerFunc.ServeHTTP (8.72s cum)
//	      hottest beneath: example.com/tinytsdb/storage.(*Table).Stats (0.07s)
//	  2 example.com/tinytsdb/httpapi.intParam                      +1         +0       0.01s   0.1%  0.01s   0.1%          98.0%
//	      at httpapi/server.go:160; benchmark it in an internal test (package httpapi)
//	      called by example.com/tinytsdb/httpapi.(*Server).queryParams (0.04s cum)
//	      negligible: 0.09% of the application's time, inlined into covered callers
//
// With --nodes all, the minimal suite keeps every covered function
// covered, not only the project's, and needs more benchmarks; --recommend 0
// leaves out the recommendations:
//
//	$ mbopt analyze --app testdata/profiles/example/app.pprof \
//	    --micro testdata/profiles/example/micro --module example.com/tinytsdb \
//	    --nodes all --recommend 0
//	...
//	Minimal suite (Algorithm 2, all nodes): 10 of 19 benchmarks keep the same coverage
//	   # benchmark                       added  project  overall  attributed  share   flat  share
//	   1 query__BenchmarkQuery            +195    62.7%    32.2%       7.43s  63.7%  8.92s  76.5%
//	   2 httpapi__BenchmarkWrite           +62    80.4%    42.5%       3.70s  31.7%  4.97s  42.6%
//	   3 httpapi__BenchmarkQueryHandler    +31    90.2%    47.6%       8.06s  69.1%  8.73s  74.9%
//	   4 backup__BenchmarkSnapshot         +22    90.2%    51.2%       5.56s  47.7%  6.35s  54.5%
//	      marginal: the functions it adds take 0.00s (0.00%) of the application's attributed time, under 1%
//	   5 backup__BenchmarkRestore          +17    90.2%    54.0%       5.56s  47.7%  7.16s  61.4%
//	      marginal: the functions it adds take 0.00s (0.00%) of the application's attributed time, under 1%
//	   6 storage__BenchmarkRetention       +11    90.2%    55.9%       0.00s   0.0%  2.04s  17.5%
//	      marginal: the functions it adds take 0.00s (0.00%) of the application's attributed time, under 1%
//	   7 query__BenchmarkSelect             +8    92.2%    57.2%       7.21s  61.8%  9.00s  77.2%
//	      marginal: the functions it adds take 0.01s (0.09%) of the application's attributed time, under 1%
//	   8 query__BenchmarkParse              +8    92.2%    58.5%       0.09s   0.8%  2.62s  22.5%
//	      marginal: the functions it adds take 0.00s (0.00%) of the application's attributed time, under 1%
//	   9 storage__BenchmarkAddRows          +3    92.2%    59.0%       0.41s   3.5%  2.48s  21.3%
//	      marginal: the functions it adds take 0.00s (0.00%) of the application's attributed time, under 1%
//	  10 encoding__BenchmarkParseLine       +2    92.2%    59.3%       0.50s   4.3%  2.58s  22.1%
//	      marginal: the functions it adds take 0.00s (0.00%) of the application's attributed time, under 1%
//	...
//
// --objective impact picks by the application CPU time a benchmark newly
// covers (its attributed time, by default) instead of the functions, and --top 2 stops after two picks, for a
// suite that must stay short:
//
//	$ mbopt analyze --app testdata/profiles/example/app.pprof \
//	    --micro testdata/profiles/example/micro --module example.com/tinytsdb \
//	    --objective impact --top 2 --recommend 0
//	...
//	Selected suite (objective impact, project nodes): 2 of 19 benchmarks, stopped: top
//	  # benchmark                       added  project  overall  attributed  share   flat  share
//	  1 httpapi__BenchmarkQueryHandler    +29    56.9%    30.6%       8.06s  69.1%  8.73s  74.9%
//	  2 query__BenchmarkSelect            +11    78.4%    37.5%       7.21s  61.8%  9.00s  77.2%
//	  (project and overall: cumulative coverage after each pick; attributed: the benchmark's attributed impact,
//	   the application time charged to the project functions it covers; flat: the paper's reference impact)
//	...
//
// --impact flat weighs by the paper's reference impact instead and prints
// only it, exactly as before the attributed impact existed. Every
// benchmark that runs runtime.memclrNoHeapPointers or a syscall is then
// credited with all of the application's time there:
//
//	$ mbopt analyze --app testdata/profiles/example/app.pprof \
//	    --micro testdata/profiles/example/micro --module example.com/tinytsdb \
//	    --objective impact --impact flat --top 2 --recommend 0
//	...
//	Selected suite (objective impact, project nodes): 2 of 19 benchmarks, stopped: top
//	  # benchmark                added  project  overall  impact  share
//	  1 query__BenchmarkQuery      +32    62.7%    32.2%   8.92s  76.5%
//	  2 httpapi__BenchmarkWrite     +9    80.4%    42.5%   4.97s  42.6%
//	  (project and overall: cumulative coverage after each pick; impact: the benchmark's reference impact)
//	...
//
// --objective caught keeps what the whole suite would catch at +10%
// instead of what it covers. On these CPU profiles (every MDE the typical
// 5%, plus the 1% threshold, so a benchmark catches a function that takes
// at least 60% of its work) the whole suite catches 23.2% of the
// application, and so do two benchmarks; Algorithm 2's four catch 0.0%
// (--sensitivity shows both curves), and --certify proves two are needed:
//
//	$ mbopt analyze --app testdata/profiles/example/app.pprof \
//	    --micro testdata/profiles/example/micro --module example.com/tinytsdb \
//	    --objective caught --certify --recommend 0
//	...
//	Selected suite (objective caught, project nodes, what a +10.0% slowdown would be caught in): 2 of 19 benchmarks, stopped: complete
//	  # benchmark                         added  project  overall  attributed  share   flat  share
//	  1 encoding__BenchmarkDecode            +5     9.8%     2.8%       5.17s  44.3%  4.90s  42.0%
//	  2 encoding__BenchmarkMarshalValues     +2    13.7%     4.1%       0.05s   0.4%  0.38s   3.3%
//	...
//	  The suite keeps what the whole suite would catch: a +10.0% slowdown would be caught in functions that take 23.2% of the application's CPU (minimum detectable effects: none measured: the typical value of the profiles' source).
//	  The caught objective's suite has 2 benchmarks; any suite that catches what the whole suite catches needs at least 2 (LP relaxation optimum 2.000 over 2 nodes × 2 benchmarks after reduction), so it is optimal.
//	...
//
// Several --app NAME=FILE profiles are scenarios: analysed as one
// application and compared with each other:
//
//	$ mbopt analyze --app mixed=testdata/profiles/example/app.pprof \
//	    --app ingest=testdata/profiles/example/app-ingest.pprof \
//	    --app query=testdata/profiles/example/app-query.pprof \
//	    --micro testdata/profiles/example/micro --module example.com/tinytsdb --recommend 0
//	mbopt: microbenchmark suite relevance for example.com/tinytsdb
//
//	Application  3 profiles, 790 functions (57 project), 25.35s CPU, 7.09s (28.0%) outside project code
//	Benchmarks   19 analysed
//	  CPU profiles of whole runs, as the papers count: setup and validation outside the timer count too, and sampling may miss a function a benchmark ran briefly.
//
//	Coverage of the application by the whole suite
//	  coverage      covered  share
//	  project-only    52/57  91.2%
//	  overall       454/790  57.5%
//
//	Coverage of each scenario by the whole suite
//	  scenario  weight  functions  project  project coverage  overall coverage
//	  mixed          1        605       51     47/51 (92.2%)   359/605 (59.3%)
//	  ingest         1        541       44     41/44 (93.2%)   312/541 (57.7%)
//	  query          1        389       39     38/39 (97.4%)   261/389 (67.1%)
//	  union                   790       57     52/57 (91.2%)   454/790 (57.5%)
//
//	Pair-wise overlap between scenarios (functions both call; in brackets, their share of the row scenario's)
//	  overall         mixed        ingest         query  unique
//	  mixed            same  410 (67.77%)  316 (52.23%)     131
//	  ingest   410 (75.79%)          same  271 (50.09%)     112
//	  query    316 (81.23%)  271 (69.67%)          same      54
//	  common to all: 252 of 790 functions
//
//	  project-only        mixed       ingest        query  unique
//	  mixed                same  39 (76.47%)  36 (70.59%)       3
//	  ingest        39 (88.64%)         same  29 (65.91%)       3
//	  query         36 (92.31%)  29 (74.36%)         same       1
//	  common to all: 27 of 57 functions
//
//	Minimal suite (Algorithm 2, project nodes): 6 of 19 benchmarks keep the same coverage
//	  # benchmark                       added  project  overall  attributed  share    flat  share
//	  1 query__BenchmarkQuery             +32    56.1%    29.2%      14.57s  57.5%  18.29s  72.1%
//	  2 httpapi__BenchmarkWrite           +10    73.7%    38.1%       8.24s  32.5%  11.67s  46.0%
//	  3 httpapi__BenchmarkQueryHandler     +5    82.5%    43.7%      16.41s  64.7%  17.90s  70.6%
//	  4 query__BenchmarkSelect             +3    87.7%    45.2%      14.33s  56.5%  18.60s  73.4%
//	      marginal: the functions it adds take 0.03s (0.12%) of the application's attributed time, under 1%
//	  5 storage__BenchmarkAddRows          +1    89.5%    47.2%       1.24s   4.9%   6.85s  27.0%
//	      marginal: the functions it adds take 0.01s (0.04%) of the application's attributed time, under 1%
//	  6 backup__BenchmarkSnapshot          +1    91.2%    51.5%      11.07s  43.7%  13.68s  54.0%
//	      marginal: the functions it adds take 0.01s (0.04%) of the application's attributed time, under 1%
//	...
//
// --format json writes the report.Document, with every list present:
//
//	$ mbopt analyze --app testdata/profiles/example/app.pprof \
//	    --micro testdata/profiles/example/micro --module example.com/tinytsdb \
//	    --recommend 1 --format json
//	{
//	  "version": 1,
//	  "modules": [
//	    "example.com/tinytsdb"
//	  ],
//	  "criterion": "project",
//	  "impact": "attributed",
//	  "application": {
//	    "profiles": [
//	      "testdata/profiles/example/app.pprof"
//	    ],
//	    "nodes": 605,
//	    "project_nodes": 51,
//	    "total_seconds": 11.66,
//	    "outside_project_seconds": 2.93,
//	    "outside_project_share": 0.25128644939965844
//	  },
//	...
//	  "recommendation_targets": "callable",
//	  "negligible_last": true,
//	  "thin_benchmarks": [],
//	  "skipped": [],
//	  "warnings": [],
//	  "suite_cost": {
//	    "source": "profiles",
//	    "source_files": [],
//	    "algorithm2_seconds": 20.52270897,
//	    "algorithm2_benchmarks": 4,
//	    "cheapest_seconds": 20.52270897,
//	    "cheapest_benchmarks": 4
//	  }
//	}
//
// Commands that profile take a while and are not run by the test. On a module
// of your own, from its root:
//
//	mbopt run --app-cmd 'go run ./cmd/loadtest -duration 60s -cpuprofile {profile}'
//	mbopt run --app-url http://127.0.0.1:6060 --app-seconds 60
//	mbopt profile --out profiles
//	mbopt analyze --app app.pprof --micro profiles
//	mbopt suite --app app.pprof --micro profiles --format json -o suite.json
//
// In CI, on a pull request, run only the suite's benchmarks whose covered
// functions the change touched, and fail when the saved suite has drifted
// from the repository (exit 4):
//
//	mbopt suite --app app.pprof --micro profiles --changed-since merge-base --only-affected | sh
//	mbopt check --suite suite.json --app app.pprof --micro profiles --min-coverage 90
//
// Compare two revisions, and spread a comparison too slow for one machine
// over three, each with the same commits, suite and seed, then merge and gate:
//
//	mbopt compare --suite suite.json --budget 10m --format github
//	mbopt compare --base origin/main --head worktree --bench Query ./query
//	mbopt compare --base "$BASE" --suite suite.json --shard 0/3 --seed 7 --fail-on never --out shard-0
//	mbopt compare merge shard-0 shard-1 shard-2 --out merged
package main
