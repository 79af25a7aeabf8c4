// Command mbopt measures how relevant a Go microbenchmark suite is to an
// application workload, picks the smallest sub-suite with the same coverage
// and recommends what to benchmark next. It compares the CPU profile of the
// application (an application benchmark, a production /debug/pprof/profile
// capture or a default.pgo) with one CPU profile per benchmark.
//
// Usage:
//
//	mbopt run [DIR] [flags]                          profile the application and every benchmark, then analyse
//	mbopt profile [PATTERN...] [flags]               profile every benchmark of a module (--shard K/N: one share)
//	mbopt merge DIR... [-o OUT]                      combine the output directories of profile --shard
//	mbopt compare merge DIR... [--out DIR]           combine the outputs of compare --shard or --trial-shard
//	mbopt analyze --app FILE... --micro DIR|FILE...  coverage, minimal suite, recommendations
//	mbopt suite --app FILE... --micro DIR|FILE...    the minimal suite as go test invocations
//	mbopt report --app ... --micro ... --out DIR     Markdown, HTML, JSON and plots
//	mbopt cover-app [flags] -- PKG|CMD [ARGS...]     the functions a workload runs (go build -cover)
//	mbopt check --suite FILE [DIR] [flags]           does a saved suite still fit the repository (drift)
//	mbopt compare [--base REV] [--head REV] [flags]  compare two revisions' benchmarks, gate on regressions

//	mbopt history [BENCHMARK...] [flags]             stored comparisons over commits: jumps, trends, A/A calibration
//
// Every command prints its results on standard output and progress,
// warnings and errors on standard error, and takes --cpuprofile FILE to
// profile mbopt itself. "mbopt COMMAND --help" lists each command's flags
// with examples; the README is the full manual.
//
// Exit status: 0 success; 2 bad input or usage (missing or bad files, bad
// flags, no benchmarks); 3 the --fail-on gate of mbopt compare failed; 4
// drift found by mbopt check (the saved suite no longer fits the
// repository); 1 anything else (nothing could be profiled, internal
// errors); 130, 143, 129 interrupted by SIGINT, SIGTERM, SIGHUP.
//
// # Examples
//
// The examples below analyse the profiles committed under
// testdata/profiles/example (app.pprof, an application workload, and one
// profile per benchmark of the example module example.com/tinytsdb) from
// the root of mbopt's repository. A test runs each example that starts with
// "$ mbopt" and compares the output with the text ("..." on a line of its
// own stands for lines left out), so they show what mbopt prints today.
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
//
//	Coverage of the application by the whole suite
//	  project-only    47/51  92.2%
//	  overall       359/605  59.3%
//
//	Minimal suite (Algorithm 2, project nodes): 4 of 19 benchmarks keep the same coverage
//	  # benchmark                       added  project  overall  attributed  share   flat  share
//	  1 query__BenchmarkQuery             +32    62.7%    32.2%       7.43s  63.7%  8.92s  76.5%
//	  2 httpapi__BenchmarkQueryHandler     +9    80.4%    39.7%       8.06s  69.1%  8.73s  74.9%
//	  3 httpapi__BenchmarkWrite            +5    90.2%    47.6%       3.70s  31.7%  4.97s  42.6%
//	  4 storage__BenchmarkSearch           +1    92.2%    48.4%       0.29s   2.5%  1.74s  14.9%
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
//	Recommended benchmark targets (Algorithm 3, callable functions)
//	  # function                                             +project  +external  attributed  share   flat  share  project after
//	  1 example.com/tinytsdb/httpapi.(*Server).handleHealth        +2         +0       0.08s   0.7%  0.07s   0.6%          96.1%
//	      at httpapi/server.go:175; benchmark it in an internal test (package httpapi)
//	      called by net/http.HandlerFunc.ServeHTTP (8.72s cum)
//	      hottest beneath: example.com/tinytsdb/storage.(*Table).Stats (0.07s)
//	  2 example.com/tinytsdb/httpapi.intParam                      +1         +0       0.01s   0.1%  0.01s   0.1%          98.0%
//	      at httpapi/server.go:160; benchmark it in an internal test (package httpapi)
//	      called by example.com/tinytsdb/httpapi.(*Server).queryParams (0.04s cum)
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
//	   5 backup__BenchmarkRestore          +17    90.2%    54.0%       5.56s  47.7%  7.16s  61.4%
//	   6 storage__BenchmarkRetention       +11    90.2%    55.9%       0.00s   0.0%  2.04s  17.5%
//	   7 query__BenchmarkSelect             +8    92.2%    57.2%       7.21s  61.8%  9.00s  77.2%
//	   8 query__BenchmarkParse              +8    92.2%    58.5%       0.09s   0.8%  2.62s  22.5%
//	   9 storage__BenchmarkAddRows          +3    92.2%    59.0%       0.41s   3.5%  2.48s  21.3%
//	  10 encoding__BenchmarkParseLine       +2    92.2%    59.3%       0.50s   4.3%  2.58s  22.1%
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
// --edges both makes the recommendations walk the static call graph of the
// application's source (x/tools VTA; --static-dir names the module) between
// the functions the application ran, as well as the sampled calls; a note
// on standard error counts the edges and lists the sampled-only picks when
// they differ. It loads the source, so it takes seconds, and it is not run
// by the test:
//
//	mbopt analyze --app testdata/profiles/example/app.pprof \
//	    --micro testdata/profiles/example/micro --module example.com/tinytsdb \
//	    --recommend 3 --edges both --static-dir testdata/example
//
// Commands that profile take a while and are not run by the test. On a
// module of your own, from its root:
//
//	mbopt run --app-cmd 'go run ./cmd/loadtest -duration 60s -cpuprofile {profile}'
//	mbopt profile --out profiles
//	mbopt analyze --app app.pprof --micro profiles
//	mbopt suite --app app.pprof --micro profiles
//
// In CI, on a pull request, run only the suite's benchmarks whose covered
// functions the change touched, and fail when the saved suite has drifted
// from the repository (exit 4):
//
//	mbopt suite --app app.pprof --micro profiles --changed-since merge-base --only-affected | sh
//	mbopt check --suite suite.json --app app.pprof --micro profiles --min-coverage 90
//
// With --source cover, profile records instead the exact set of module
// functions each benchmark executed (test binaries built with -cover, each
// benchmark run for 500ms), which analyze, suite and report read like
// profiles; see package covdata for how functions are named:
//
//	mbopt profile --source cover --out cover
//	mbopt analyze --app app.pprof --micro cover
//
// # Comparing two revisions
//
// mbopt compare runs benchmarks of two revisions against each other in
// randomized multiple interleaved trials and gates on regressions. It
// measures, so it is not run by the test either. In a git clone of the
// module, after mbopt suite --format json -o suite.json:
//
//	mbopt compare --suite suite.json
//	mbopt compare --base origin/main --head worktree --bench Query ./query
//	mbopt compare --suite suite.json --budget 10m --format github
//
// The base defaults to the merge-base of HEAD with the default branch
// (origin/HEAD, else main, else master), the head to HEAD; "--head
// worktree" compares uncommitted changes. Each revision is checked out with
// git worktree under $TMPDIR/mbopt-compare-<pid>-*, removed on every exit
// (a killed run's is removed by the next run); test binaries are cached
// per commit under the user cache directory. The schedule is --trials ×
// --runs processes of -test.count --count at --benchtime per benchmark and
// version (3 × 3 × 5 at 1s); --budget fits it into a wall-clock time and
// --until-stable WIDTH stops a benchmark whose interval is narrower than
// WIDTH after 2 trials. The raw results, base.txt and head.txt in --out
// (.mbopt/compare), are in the Go benchmark format: benchstat base.txt
// head.txt compares them. The exit status is 3 when the --fail-on gate
// (definite-regression by default, any-regression, never) fails.
//
// A comparison too slow for one machine runs as N shards, one per CI job,
// each with the same commits, suite and seed, and one merge that gates:
//
//	mbopt compare --base "$BASE" --suite suite.json --shard 0/3 --seed 7 --fail-on never --out shard-0
//	mbopt compare merge shard-0 shard-1 shard-2 --out merged
//
// --shard K/N runs a share of the benchmarks, both versions on one machine;
// --trial-shard K/N runs every benchmark but a share of the trials, so that
// machines differ between trials (docs/compare.md says what each measures).
package main
