#!/usr/bin/env bash
# bench-instructions.sh: the time of 'mbopt compare --metric instructions'
# ('make bench'), against what people run today.
#
# In a throwaway git repository it makes a module of 3 CPU-bound benchmarks
# of about 1 ms/op (a hashing loop, written by testkit/loopmodule),
# a base commit and a head commit whose first benchmark loops 3% longer,
# and times, on this machine as it is:
#   - mbopt compare --metric instructions --base base --head head at the
#     default settings (3 trials × 3 runs × 1 measurement per version, each
#     measurement two processes under Cachegrind; the two versions run at
#     the same time on 2 or more cores), after a warm-up that builds and
#     caches the test binaries;
#   - go test -run '^$' -bench . -count 10 in a checkout of each revision
#     (the binary built first), as for benchstat base.txt head.txt.
# It prints both, their ratio, and the change mbopt found.
#
# Environment: GO (default go).
set -euo pipefail
cd "$(dirname "$0")/.."

NAME=bench-instructions.sh . scripts/lib.sh
"$work/loopmodule" . BenchmarkA=1000000 BenchmarkB=1000000 BenchmarkC=1200000
git add -A && git commit -q -m base && git tag base
"$work/loopmodule" . BenchmarkA=1030000 BenchmarkB=1000000 BenchmarkC=1200000
git commit -q -am 'A loops 3% longer' && git tag head

# Warm-up: build and cache the test binaries.
"$work/mbopt" compare --metric instructions --base base --head head --trials 1 --runs 1 --no-history --fail-on never >/dev/null 2>&1
start=$(date +%s.%N)
"$work/mbopt" compare --metric instructions --base base --head head --no-history --fail-on never --format json >"$work/instr.json" 2>"$work/instr.err"
mbopt=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN{print e - s}')

gotest=0
for rev in base head; do
	git -c advice.detachedHead=false worktree add -q "$work/$rev" "$rev"
	(cd "$work/$rev" && "$GO" test -c -o "$work/$rev.test" ./work)
	start=$(date +%s.%N)
	(cd "$work/$rev/work" && "$work/$rev.test" -test.run '^$' -test.bench . -test.count 10 >"$work/$rev.txt")
	gotest=$(awk -v s="$start" -v e="$(date +%s.%N)" -v t="$gotest" 'BEGIN{print t + e - s}')
done
nsop=$(awk '/^BenchmarkB/ {s += $3; n++} END {printf "%.2f", s / n / 1e6}' "$work/base.txt")
change=$(grep -o '"change": [-0-9.e]*' "$work/instr.json" | head -1 | awk '{printf "%+.2f%%", 100 * $2}')
verdict=$(grep -o '"verdict": "[a-z-]*"' "$work/instr.json" | head -1 | cut -d'"' -f4)
echo
echo "mbopt compare --metric instructions, 3 benchmarks of about $nsop ms/op, default settings, $(nproc) cores:"
printf '  mbopt compare --metric instructions  %6.1f s  (first result: %s %s, injected +3%%)\n' "$mbopt" "$verdict" "$change"
printf '  go test -bench . -count 10, both     %6.1f s\n' "$gotest"
printf '  ratio                                %6.1f x\n' "$(awk -v a="$mbopt" -v b="$gotest" 'BEGIN{print a / b}')"
