#!/usr/bin/env bash
# bench-compare.sh: time to a verdict of 'mbopt compare' ('make bench').
#
# On the example module (testdata/example, example.com/tinytsdb) it compares
# HEAD with itself (an A/A comparison: the verdicts are about noise, the
# time is what a real comparison of these benchmarks costs) three times, at
# the same short settings (2 trials × 1 run × count 3 at -benchtime 100ms,
# not the study's 3 × 3 × 5 at 1s, which takes about 25 times longer):
#   - the optimized suite: mbopt suite's picks on the committed profiles;
#   - the full suite: every benchmark (--bench .);
#   - the full suite with 4 trials and --until-stable W, where W is the
#     median over the top-level benchmarks of the widest interval among
#     their sub-benchmarks in the full suite's run (a top-level benchmark
#     stops when all its sub-benchmarks are stable), so that about half of
#     them can stop early whatever the machine's noise; against the time
#     the 4 trials would take without it (saved_ns).
# Test binaries are built into a fresh cache first, so the times are of
# measuring only. About 2-3 minutes on 2 cores.
#
# Environment: GO (default go).
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
work=$(mktemp -d "${TMPDIR:-/tmp}/mbopt-bench-compare.XXXXXX")
trap 'rm -rf "$work"' EXIT
# A fresh mbopt cache (XDG_CACHE_HOME) but the usual Go build cache.
GOCACHE=$("$GO" env GOCACHE)
export GOCACHE XDG_CACHE_HOME="$work/cache" CI=true

"$GO" build -o "$work/mbopt" ./cmd/mbopt
# The optimized suite: Algorithm 2's picks on the committed profiles, whose
# hand-made names "pkg__BenchmarkX" (no manifest) mbopt suite cannot map to
# packages; the example's packages are example.com/tinytsdb/pkg.
"$work/mbopt" analyze --app testdata/profiles/example/app.pprof --micro testdata/profiles/example/micro \
	--module example.com/tinytsdb --recommend 0 >"$work/analyze.txt"
awk '/^Minimal suite/ {on = 1; next} on && /^ *[0-9]+ / {split($2, p, "__"); printf "%s{\"package\": \"example.com/tinytsdb/%s\", \"benchmarks\": [\"%s\"]}", sep, p[1], p[2]; sep = ", "} on && /^ *\(/ {exit}' \
	"$work/analyze.txt" | sed 's/^/{"invocations": [/; s/$/]}/' >"$work/suite.json"
settings=(--base HEAD --head HEAD --metric time --trials 2 --runs 1 --count 3 --benchtime 100ms --fail-on never --format json)

# field FILE NAME: the first integer value of "NAME" in a JSON report.
field() { { grep -o "\"$2\": [0-9]*" "$1" || echo "x 0"; } | head -1 | awk '{print $2}'; }
# count FILE: the results of a report.
count() { grep -c '"id":' "$1" || true; }

run() { # run NAME ARGS...: one comparison, its report in $work/NAME.json
	local name=$1
	shift
	echo "# mbopt compare ${settings[*]} $*" >&2
	(cd testdata/example && "$work/mbopt" compare "${settings[@]}" --out "$work/$name" "$@" >"$work/$name.json" 2>"$work/$name.err") || {
		echo "mbopt compare failed:" >&2
		tail -5 "$work/$name.err" >&2
		exit 1
	}
}
# Build (and cache) the test binaries once, outside the timed runs.
run warm --bench . --trials 1 --count 1 --benchtime 1x ./...
run optimized --suite "$work/suite.json"
run full --bench . ./...
width=$(awk -F'"' '$2 == "package" {pkg = $4} $2 == "name" {split($4, n, "/"); top = pkg "." n[1]}
	$2 == "instability" {v = $3; gsub(/[^0-9.e+-]/, "", v); if (!(top in w) || v + 0 > w[top]) w[top] = v + 0}
	END {for (t in w) print w[t]}' "$work/full.json" | sort -g |
	awk '{v[NR] = $1} END {if (NR == 0) print 0.05; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}')
run stable --bench . --trials 4 --until-stable "$width" ./...

secs() { awk -v ns="$1" 'BEGIN{printf "%.1f s", ns/1e9}'; }
opt=$(field "$work/optimized.json" wall_ns) full=$(field "$work/full.json" wall_ns)
st=$(field "$work/stable.json" wall_ns) saved=$(field "$work/stable.json" saved_ns)
echo
echo "mbopt compare on the example module (A/A, 2 trials × 1 run × count 3 at 100ms):"
printf '  optimized suite  %3d results  %s\n' "$(count "$work/optimized.json")" "$(secs "$opt")"
printf '  full suite       %3d results  %s  (the optimized suite takes %.0f%% of it)\n' \
	"$(count "$work/full.json")" "$(secs "$full")" "$(awk -v a="$opt" -v b="$full" 'BEGIN{print 100*a/b}')"
printf '  full suite, 4 trials, --until-stable %.3g (the median top-level instability): %s, saved %s (%.0f%% of the 4 trials)\n' \
	"$width" "$(secs "$st")" "$(secs "${saved:-0}")" "$(awk -v s="${saved:-0}" -v w="$st" 'BEGIN{print 100*s/(s+w)}')"
