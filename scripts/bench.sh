#!/usr/bin/env bash
# bench.sh: mbopt's performance figures ('make bench').
#
# Runs the performance benchmarks where they live (see the comments at the
# top of relevance/analysis/bench_test.go, recommend/bench_test.go and
# optimize/objective_bench_test.go) once each, then prints a summary:
#   - time and memory of the pipeline (coverage + minimal suite + 20
#     recommendations) at three synthetic sizes, and of the whole in-memory
#     analysis (graph building included);
#   - linearity: how the largest case's cost compares with the smallest's,
#     next to the ratio of their input sizes;
#   - a deep 100,000-function application (call chains hundreds deep, 200
#     benchmarks): the pipeline, and 20 recommendations alone from the
#     suite's coverage and from nothing covered, against the targets of
#     300 MB and 2 s;
#   - end to end: analysis.Run on the synthetic corpus (1,000 files, ~50 MB)
#     against just decoding the same files with profile.Parse, in one
#     process;
#   - the peak RSS of the largest pipeline case and of the deep pipeline,
#     measured with /usr/bin/time when it exists;
#   - 'mbopt analyze' against the decoding floor (testkit/floor),
#     each in a process of its own on the same corpus: wall time, CPU time
#     and peak RSS, medians of 3, as ratios to the floor's (issue 20's
#     goals), with /usr/bin/time.
#
# Wall times depend on what else the machine runs; cpu-ms/op (user+system
# CPU time of the process) is steadier. The corpus is written once to
# $TMPDIR/mbopt-bench-corpus-<hash> (by testkit/corpus) and reused.
# About 3-5 minutes on 2 cores.
#
# Environment: GO (default go), BENCH (a -bench regexp to run a subset),
# BENCHTIME (default 1s), FLOOR_RUNS (runs of the floor and of mbopt
# analyze, default 3), SKIP_FLOOR, SKIP_OBJECTIVES, SKIP_MERGE and
# SKIP_SOURCES (non-empty skips that part).
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
BENCH=${BENCH:-'^Benchmark(Pipeline|InMemory|Deep|EndToEnd)$'}
BENCHTIME=${BENCHTIME:-1s}
work=$(mktemp -d "${TMPDIR:-/tmp}/mbopt-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The pipeline benchmarks of analysis, then recommend's (BenchmarkDeep's
# recommend/from=... cases), into one output for the summary.
echo "# go test -run '^\$' -bench '$BENCH' -benchmem -count 1 -benchtime $BENCHTIME ./relevance/analysis ./recommend" >&2
"$GO" test -c -o "$work/analysis.test" ./relevance/analysis
"$GO" test -c -o "$work/recommend.test" ./recommend
: >"$work/out.txt"
for pkg in analysis recommend; do
	(cd "$pkg" && "$work/$pkg.test" -test.run '^$' -test.bench "$BENCH" -test.benchmem \
		-test.count 1 -test.benchtime "$BENCHTIME" -test.timeout 30m) | tee -a "$work/out.txt"
done

# Peak RSS, when GNU time is there: the largest pipeline case in a process
# of its own (generation, graph building and the timed pipeline), and the
# CLI on the end-to-end corpus.
rss_pipeline="" rss_deep=""
if [ -x /usr/bin/time ] && grep -q 'Pipeline/app=50000' "$work/out.txt"; then
	(cd analysis && /usr/bin/time -f '%M %e' -o "$work/rss-pipeline" "$work/analysis.test" -test.run '^$' \
		-test.bench '^BenchmarkPipeline$/^app=50000,bench=5000$' -test.benchtime 1x >/dev/null) &&
		rss_pipeline=$(awk '{printf "%.0f", $1/1024}' "$work/rss-pipeline")
fi
if [ -x /usr/bin/time ] && grep -q '^BenchmarkDeep/pipeline' "$work/out.txt"; then
	(cd analysis && /usr/bin/time -f '%M %e' -o "$work/rss-deep" "$work/analysis.test" -test.run '^$' \
		-test.bench '^BenchmarkDeep$/^pipeline$' -test.benchtime 1x >/dev/null) &&
		rss_deep=$(awk '{printf "%.0f", $1/1024}' "$work/rss-deep")
fi
awk -v rss_pipeline="$rss_pipeline" -v rss_deep="$rss_deep" '
/^Benchmark/ {
	name = $1; sub(/-[0-9]+$/, "", name)
	names[++n] = name
	for (i = 3; i < NF; i += 2) v[name, $(i+1)] = $i
}
function dur(ns) {
	if (ns >= 1e9) return sprintf("%.2f s", ns / 1e9)
	return sprintf("%.1f ms", ns / 1e6)
}
function size(name) { s = name; sub(/^[^\/]*\//, "", s); return s }
function table(prefix, title,    i, nm, first, last) {
	printed = 0
	for (i = 1; i <= n; i++) {
		nm = names[i]
		if (index(nm, prefix "/") != 1) continue
		if (!printed) {
			print title
			printf "  %-24s %10s %10s %10s %12s %12s\n", "size", "nodes", "wall", "cpu", "peak-heap", "peak-sys"
			printed = 1
			first = nm
		}
		last = nm
		printf "  %-24s %10d %10s %10s %9.0f MB %9.0f MB\n", size(nm), v[nm, "nodes/op"], dur(v[nm, "ns/op"]),
			dur(v[nm, "cpu-ms/op"] * 1e6), v[nm, "peak-heap-MB"], v[nm, "peak-sys-MB"]
	}
	if (printed && first != last) {
		printf "  linearity: largest/smallest wall %.1fx, cpu %.1fx, for %.1fx the input nodes\n",
			v[last, "ns/op"] / v[first, "ns/op"], v[last, "cpu-ms/op"] / v[first, "cpu-ms/op"],
			v[last, "nodes/op"] / v[first, "nodes/op"]
		lastOf[prefix] = last
	}
	if (printed) print ""
}
END {
	print ""
	print "== mbopt performance summary (cpu = process CPU time, steadier than wall on a shared machine)"
	print ""
	table("BenchmarkPipeline", "Pipeline: coverage + optimize + recommend (n=20), graphs built beforehand")
	table("BenchmarkInMemory", "In memory: callgraph.New for the app and every benchmark profile, then the pipeline")
	if (("BenchmarkDeep/pipeline", "ns/op") in v) {
		p = "BenchmarkDeep/pipeline"
		printf "Deep application: %d functions, call chains up to %d deep, %d benchmarks (targets: at most 300 MB and 2 s)\n",
			v[p, "app-nodes"], v[p, "max-depth"], v[p, "benchmarks"]
		printf "  %-34s %10s %10s %12s %12s %10s\n", "case", "wall", "cpu", "peak-heap", "inputs", "uncovered"
		split("pipeline recommend/from=suite recommend/from=nothing", cases, " ")
		for (i = 1; i <= 3; i++) {
			nm = "BenchmarkDeep/" cases[i]
			if (!((nm, "ns/op") in v)) continue
			printf "  %-34s %10s %10s %9.0f MB %9.0f MB %10s\n", cases[i], dur(v[nm, "ns/op"]), dur(v[nm, "cpu-ms/op"] * 1e6),
				v[nm, "peak-heap-MB"], v[nm, "input-MB"], ((nm, "uncovered") in v) ? v[nm, "uncovered"] : "-"
		}
		if (rss_deep != "")
			printf "  pipeline process max RSS (generation, graph building and pipeline): %d MB\n", rss_deep
		print ""
	}
	d = "BenchmarkEndToEnd/decode-only"; a = "BenchmarkEndToEnd/analyze"
	if ((d, "ns/op") in v && (a, "ns/op") in v) {
		printf "End to end: %d files, %.1f MB\n", v[a, "files"], v[a, "MB/s"] * v[a, "ns/op"] / 1e9
		printf "  %-24s %10s %10s %8.1f MB/s\n", "decode-only (1 goroutine)", dur(v[d, "ns/op"]), dur(v[d, "cpu-ms/op"] * 1e6), v[d, "MB/s"]
		printf "  %-24s %10s %10s %8.1f MB/s %6.0f MB peak-heap\n", "analyze (analysis.Run)", dur(v[a, "ns/op"]), dur(v[a, "cpu-ms/op"] * 1e6), v[a, "MB/s"], v[a, "peak-heap-MB"]
		printf "  analyze/decode: wall %.2fx, cpu %.2fx (target: at most 1.5x)\n", v[a, "ns/op"] / v[d, "ns/op"], v[a, "cpu-ms/op"] / v[d, "cpu-ms/op"]
		print ""
	}
	p = lastOf["BenchmarkPipeline"]; m = lastOf["BenchmarkInMemory"]
	if (p != "") {
		printf "Largest case (%s; targets: under 10 s and 2 GiB)\n", size(p)
		printf "  pipeline:  %s wall, %s cpu, peak heap %.0f MB, runtime memory %.0f MB (input graphs %.0f MB)\n",
			dur(v[p, "ns/op"]), dur(v[p, "cpu-ms/op"] * 1e6), v[p, "peak-heap-MB"], v[p, "peak-sys-MB"], v[p, "input-MB"]
		if (rss_pipeline != "")
			printf "  pipeline process max RSS (generation, graph building and pipeline): %d MB\n", rss_pipeline
		if (m != "")
			printf "  in memory: %s wall, %s cpu, peak heap %.0f MB incl. %.0f MB of input profiles\n",
				dur(v[m, "ns/op"]), dur(v[m, "cpu-ms/op"] * 1e6), v[m, "peak-heap-MB"], v[m, "input-MB"]
	}
}' "$work/out.txt"

# mbopt analyze against the decoding floor (issue 20), each in a process of
# its own on the synthetic corpus (testkit/corpus: a 20,000-function
# application and 1,000 benchmark profiles): the floor
# (testkit/floor) decodes every profile with profile.Parse on one
# goroutine and walks each sample's stack once, keeping nothing; 'mbopt
# analyze' with its defaults computes coverage, the minimal suite and 10
# recommendations. They run alternately FLOOR_RUNS times (default 3); the
# summary gives the medians of wall time, CPU time (user + system) and peak
# RSS, and analyze's as ratios to the floor's, against the goals of at most
# 0.8x wall, 1.2x CPU and 2x RSS, with the load average before and after
# (the machine's cores are shared: wall times mean little under load).
if [ -x /usr/bin/time ] && [ -z "${SKIP_FLOOR:-}" ]; then
	echo >&2
	echo "# mbopt analyze vs. the decoding floor on the synthetic corpus, ${FLOOR_RUNS:-3} runs each" >&2
	corpus=$("$GO" run ./testkit/corpus)
	"$GO" build -o "$work/floor" ./testkit/floor
	"$GO" build -o "$work/mbopt" ./cmd/mbopt
	load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
	: >"$work/floor.txt"
	for i in $(seq "${FLOOR_RUNS:-3}"); do
		/usr/bin/time -f 'floor %e %U %S %M' -o "$work/time" "$work/floor" "$corpus/app.pprof" "$corpus/micro" >/dev/null
		tail -1 "$work/time" >>"$work/floor.txt"
		/usr/bin/time -f 'analyze %e %U %S %M' -o "$work/time" "$work/mbopt" analyze --app "$corpus/app.pprof" \
			--micro "$corpus/micro" --module example.com/synth >/dev/null 2>"$work/cli.err" ||
			{ echo "mbopt analyze on the corpus failed:" >&2; head -5 "$work/cli.err" >&2; exit 1; }
		tail -1 "$work/time" >>"$work/floor.txt"
	done
	load_after=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
	size=$(du -sk "$corpus" | cut -f1)
	awk -v size="$size" -v before="$load_before" -v after="$load_after" -v cores="$(nproc 2>/dev/null || echo '?')" '
	{ k = $1; n[k]++; wall[k, n[k]] = $2; cpu[k, n[k]] = $3 + $4; rss[k, n[k]] = $5 / 1024 }
	function median(a, k,    i, j, t, m, x) {
		m = n[k]
		for (i = 1; i <= m; i++) x[i] = a[k, i]
		for (i = 2; i <= m; i++) for (j = i; j > 1 && x[j-1] > x[j]; j--) { t = x[j]; x[j] = x[j-1]; x[j-1] = t }
		return m % 2 ? x[(m+1)/2] : (x[m/2] + x[m/2+1]) / 2
	}
	function ok(r, goal) { return r <= goal ? "ok" : "MISSED" }
	END {
		fw = median(wall, "floor"); fc = median(cpu, "floor"); fr = median(rss, "floor")
		aw = median(wall, "analyze"); ac = median(cpu, "analyze"); ar = median(rss, "analyze")
		printf "\nmbopt analyze vs. the decoding floor: synthetic corpus, 20,000 application functions, 1,000 benchmark profiles, %.0f MB\n", size / 1024
		printf "(medians of %d runs each, alternating; load average %s before, %s after, %s cores)\n", n["floor"], before, after, cores
		printf "  %-42s %9s %9s %10s\n", "", "wall", "cpu", "peak RSS"
		printf "  %-42s %7.2f s %7.2f s %7.0f MB\n", "floor (profile.Parse, 1 goroutine)", fw, fc, fr
		printf "  %-42s %7.2f s %7.2f s %7.0f MB\n", "mbopt analyze (coverage, suite, 10 recs)", aw, ac, ar
		printf "  %-42s %8.2fx %8.2fx %9.2fx\n", "analyze / floor", aw / fw, ac / fc, ar / fr
		printf "  %-42s %9s %9s %10s\n", "goal", "<= 0.8x", "<= 1.2x", "<= 2x"
		printf "  %-42s %9s %9s %10s\n", "", ok(aw / fw, 0.8), ok(ac / fc, 1.2), ok(ar / fr, 2)
	}' "$work/floor.txt"
fi

# Objective variants (optimize.Select) against the plain greedy, measured in
# one run on the 50,000-node instance: none may take more than 2x greedy,
# except cost (three greedy passes and two reverse-delete passes: 3.5x).
if [ -z "${SKIP_OBJECTIVES:-}" ]; then
	echo >&2
	echo "# go test -run '^\$' -bench '^BenchmarkObjectives\$' -benchtime 5x ./optimize" >&2
	"$GO" test -c -o "$work/optimize.test" ./optimize
	(cd optimize && "$work/optimize.test" -test.run '^$' -test.bench '^BenchmarkObjectives$' \
		-test.benchtime 5x -test.count 1 -test.timeout 30m) | tee "$work/obj.txt"
	awk '
	/^BenchmarkObjectives\/greedy/ { g = $3 }
	/^BenchmarkObjectives\/select\// { n[++k] = $1; t[k] = $3 }
	END {
		if (!g) exit
		printf "\nObjective variants, 50,000 nodes x 5,000 benchmarks (ratio to the plain greedy; target at most 2x, cost 3.5x)\n"
		printf "  %-34s %10.1f ms  1.00x\n", "greedy (Algorithm 2)", g / 1e6
		for (i = 1; i <= k; i++) {
			name = n[i]; sub(/^BenchmarkObjectives\/select\//, "", name); sub(/-[0-9]+$/, "", name)
			printf "  %-34s %10.1f ms  %.2fx\n", "select " name, t[i] / 1e6, t[i] / g
		}
	}' "$work/obj.txt"
fi

# Merging sharded collections (docs/scale.md): 5,000 benchmarks with 4 KB
# profiles split into 10, 100 and 1,000 shards; the cost is a fixed part per
# file plus a part per shard, so it grows linearly in the shard count.
if [ -z "${SKIP_MERGE:-}" ]; then
	echo >&2
	echo "# go test -run '^\$' -bench '^BenchmarkMerge\$' -benchtime 3x ./relevance/collect" >&2
	"$GO" test -run '^$' -bench '^BenchmarkMerge$' -benchtime 3x -count 1 -timeout 30m ./relevance/collect | tee "$work/merge.txt"
	awk '
	/^BenchmarkMerge\/shards=/ {
		n = $1; sub(/^BenchmarkMerge\/shards=/, "", n); sub(/-[0-9]+$/, "", n)
		k++; shards[k] = n; t[k] = $3
	}
	END {
		if (k < 2) exit
		printf "\nmbopt merge, 5,000 benchmarks (20 MB of profiles), by shard count\n"
		for (i = 1; i <= k; i++) printf "  %6d shards  %8.0f ms\n", shards[i], t[i] / 1e6
		slope = (t[k] - t[1]) / (shards[k] - shards[1])
		printf "  linear fit: %.0f ms + %.2f ms per shard\n", (t[1] - slope * shards[1]) / 1e6, slope / 1e6
	}' "$work/merge.txt"
fi

# Time to a coverage map by collection source (issue 12): the papers'
# protocol against 'mbopt profile' (--source profile, defaults) and
# 'mbopt profile --source cover', with the module functions each finds
# against the union of all (BenchmarkSources in relevance/collect/cover_bench_test.go).
# By default the example module only, with the papers' protocol estimated
# from the profile collection's per-benchmark wall times (about 1 minute);
# with MBOPT_BENCH_COLLECT=1 the papers' protocol also runs for real on the
# example (about 5 more minutes), and mbopt's own repository is measured
# too, its papers' protocol estimated (about 10 more minutes: its synthetic
# benchmarks spend seconds on setup each).
if [ -z "${SKIP_SOURCES:-}" ]; then
	echo >&2
	echo "# MBOPT_BENCH_SOURCES=1 go test -run '^\$' -bench '^BenchmarkSources\$' -benchtime 1x ./relevance/collect" >&2
	"$GO" test -c -o "$work/collect.test" ./relevance/collect
	sources() { # DIR PAPER_RUN
		(cd collect && MBOPT_BENCH_SOURCES=1 MBOPT_BENCH_SOURCES_DIR="$1" MBOPT_PAPER_RUN="$2" "$work/collect.test" \
			-test.run '^$' -test.bench '^BenchmarkSources$' -test.benchtime 1x -test.count 1 -test.timeout 60m) |
			grep -v -e '^Benchmark' -e '^PASS' -e '^goos' -e '^goarch' -e '^pkg:' -e '^cpu:'
	}
	echo
	echo "Time to a coverage map: papers' protocol (10 s per benchmark, sequential) vs. mbopt profile vs. --source cover"
	if [ -n "${MBOPT_BENCH_COLLECT:-}" ]; then
		sources ../testdata/example 1
		echo
		sources .. 0
	else
		sources ../testdata/example 0
		echo "(mbopt's own repository and a real run of the papers' protocol: 'MBOPT_BENCH_COLLECT=1 make bench')"
	fi
fi

# Collection speed on the example module against the papers' protocol (10 s
# per benchmark, sequential, go test relinking per benchmark): about 10
# minutes, so it runs only with MBOPT_BENCH_COLLECT=1.
if [ -n "${MBOPT_BENCH_COLLECT:-}" ]; then
	echo >&2
	echo "# MBOPT_BENCH_COLLECT=1 go test -run '^\$' -bench '^BenchmarkCollectVsPaperProtocol\$' -benchtime 1x ./relevance/collect" >&2
	MBOPT_BENCH_COLLECT=1 "$GO" test -run '^$' -bench '^BenchmarkCollectVsPaperProtocol$' -benchtime 1x -count 1 -timeout 60m ./relevance/collect
else
	echo
	echo "Collection speed vs. the papers' protocol: skipped (about 10 minutes); run 'MBOPT_BENCH_COLLECT=1 make bench'."
fi
