#!/usr/bin/env bash
# metrics-table.sh: the figures of docs/metrics.md, "Choosing a metric".
#
# On the example module (testdata/example, example.com/tinytsdb) it runs,
# for a few benchmarks of its encoding package, RUNS A/A comparisons (HEAD
# with itself: every change found is a false alarm) of each way to compare:
#   - time sequential:  mbopt compare (wall time, base and head in turn)
#   - time parallel:    mbopt compare --duet parallel
#   - cpu:              mbopt compare --metric cpu
#   - instructions:     mbopt compare --metric instructions
#   - benchstat:        go test -bench -count 10 twice, benchstat A B (a
#                       row whose delta is not ~ is a false alarm)
# mbopt runs at --trials 3 --runs 3 (9 measurements per version, the fewest
# a verdict needs at the default 99% is 8); time at --count 1 --benchtime
# 100ms, cpu and instructions at their defaults. For each it prints the
# benchmark comparisons (runs × benchmarks, the metric's unit only: sec/op,
# cpu-sec/op or instructions/op, not B/s, B/op or allocs/op), the definite
# and potential false alarms among them, the median minimum detectable
# effect (benchstat gives none: its median ± is shown instead) and the
# cost: the mean wall time of one A/A comparison divided by the mean of the
# plain 'go test -run ^$ -bench PATTERN' runs (count 1, benchtime 1s) of
# the same benchmarks, measured before and after the comparisons, and the
# fastest comparison divided by the fastest plain run (nearer a quiet
# machine's ratio when the load changed). Test binaries are built and
# cached before anything is timed.
#
# The machine is measured as it is: run it on the kind of machine CI has,
# with whatever runs beside it.
#
# Environment: GO (default go), RUNS (default 7), BENCH (a go test -bench
# pattern, default three encoding benchmarks), METHODS (default all five:
# time-sequential time-parallel cpu instructions benchstat), KEEP (a
# directory to keep the reports and raw files in; default: removed). With
# KEEP, a method's comparisons are added to those already there (several
# runs with different METHODS may share one KEEP), and SUMMARY_ONLY=1
# prints the table of what is there, measuring nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
RUNS=${RUNS:-7}
BENCH=${BENCH:-'^Benchmark(Decode|MarshalValues|ParseLine)$'}
PKG=./encoding
if ! command -v valgrind >/dev/null 2>&1; then
	echo "metrics-table.sh: valgrind is not installed (Debian/Ubuntu: apt-get install valgrind)" >&2
	exit 1
fi
if ! command -v jq >/dev/null 2>&1; then
	echo "metrics-table.sh: jq is not installed (Debian/Ubuntu: apt-get install jq)" >&2
	exit 1
fi
work=${KEEP:-$(mktemp -d "${TMPDIR:-/tmp}/mbopt-metrics.XXXXXX")}
mkdir -p "$work"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
methods=(time-sequential time-parallel cpu instructions)
read -r -a todo <<<"${METHODS:-${methods[*]} benchstat}"

measure() { # build, then RUNS A/A comparisons of each method into $work
	GOCACHE=$("$GO" env GOCACHE)
	export GOCACHE XDG_CACHE_HOME="$work/cache" CI=true
	# Built under a name of this process's, then renamed: another run
	# sharing KEEP may be running the previous ones.
	"$GO" build -o "$work/mbopt.$$" ./cmd/mbopt
	"$GO" build -o "$work/benchstat.$$" golang.org/x/perf/cmd/benchstat
	(cd testdata/example && "$GO" test -c -o "$work/encoding.test.$$" "$PKG")
	for f in mbopt benchstat encoding.test; do mv "$work/$f.$$" "$work/$f"; done

	now() { date +%s.%N; }
	since() { awk -v s="$1" -v e="$(now)" 'BEGIN{print e - s}'; }

	# One plain go test -bench run, the unit of cost: two before the
	# comparisons and two after, as the machine's load may change.
	plain() {
		for i in 1 2; do
			start=$(now)
			(cd testdata/example/encoding && "$work/encoding.test" -test.run '^$' -test.bench "$BENCH" >/dev/null)
			since "$start" >>"$work/plain.secs"
		done
	}
	plain

	time_settings=(--count 1 --benchtime 100ms)
	declare -A args=(
		[time-sequential]="--metric time ${time_settings[*]}"
		[time-parallel]="--metric time --duet parallel ${time_settings[*]}"
		[cpu]="--metric cpu"
		[instructions]="--metric instructions"
	)

	compare() { # compare METHOD OUT: one A/A comparison, its JSON report in OUT.json
		# shellcheck disable=SC2086 # args holds several flags
		(cd testdata/example && "$work/mbopt" compare --base HEAD --head HEAD --no-history --fail-on never \
			--trials 3 --runs 3 ${args[$1]} --format json --out "$2" --bench "$BENCH" "$PKG" >"$2.json" 2>"$2.err") || {
			echo "mbopt compare ${args[$1]} failed:" >&2
			tail -5 "$2.err" >&2
			exit 1
		}
	}
	# Warm-up: build and cache HEAD's test binaries.
	(cd testdata/example && "$work/mbopt" compare --base HEAD --head HEAD --no-history --fail-on never \
		--trials 1 --runs 1 --count 1 --benchtime 1x --out "$work/warm" --bench "$BENCH" "$PKG" >/dev/null 2>&1) || true

	for r in $(seq "$RUNS"); do
		for m in "${todo[@]}"; do
			i=1
			while [ -e "$work/$m-$i.json" ] || [ -e "$work/$m-$i.out" ]; do i=$((i + 1)); done
			start=$(now)
			if [ "$m" = benchstat ]; then
				for side in a b; do
					(cd testdata/example/encoding && "$work/encoding.test" -test.run '^$' -test.bench "$BENCH" -test.count 10 >"$work/$m-$i-$side.txt")
				done
				"$work/benchstat" "$work/$m-$i-a.txt" "$work/$m-$i-b.txt" >"$work/$m-$i.out"
			else
				compare "$m" "$work/$m-$i"
			fi
			echo "$(since "$start")" >>"$work/$m.secs"
			echo "$m: A/A comparison $i done ($r of $RUNS)" >&2
		done
	done
	plain
}
[ "${SUMMARY_ONLY:-}" = 1 ] || measure

mean() { awk '{s += $1; n++} END {print s / n}' "$1"; }
median() { sort -g | awk '{v[NR] = $1} END {if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

plain=$(mean "$work/plain.secs")
fastest() { sort -g "$1" | head -1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.1fx", a / b}'; }
echo
echo "A/A on example.com/tinytsdb/encoding, $BENCH, $(nproc) cores:"
echo "one plain go test -bench run: $(printf '%.1f' "$plain") s on average, $(printf '%.1f' "$(fastest "$work/plain.secs")") s at the fastest"
printf '%-16s %4s %11s %8s %9s %10s %8s %8s\n' method runs comparisons definite potential median-MDE cost fastest
for m in "${methods[@]}"; do
	[ -s "$work/$m.secs" ] || continue
	# The metric's unit: sec/op, cpu-sec/op, instructions/op.
	results=$(jq -c '.results[] | select(.status == "compared" and (.unit == "sec/op" or .unit == "cpu-sec/op" or .unit == "instructions/op"))' "$work/$m"-*.json)
	n=$(grep -c . <<<"$results" || true)
	def=$(jq -r '.verdict' <<<"$results" | grep -c '^definite' || true)
	pot=$(jq -r '.verdict' <<<"$results" | grep -c '^potential' || true)
	mde=$(jq -r '.min_detectable_effect // empty' <<<"$results" | median)
	printf '%-16s %4d %11d %8d %9d %9.2f%% %8s %8s\n' "$m" "$(grep -c . "$work/$m.secs")" "$n" "$def" "$pot" "$(awk -v v="$mde" 'BEGIN{print 100 * v}')" \
		"$(ratio "$(mean "$work/$m.secs")" "$plain")" "$(ratio "$(fastest "$work/$m.secs")" "$(fastest "$work/plain.secs")")"
done
# benchstat's sec/op table: a row per benchmark, "~" when not significant.
[ -s "$work/benchstat.secs" ] || exit 0
sec=$(for f in "$work"/benchstat-*.out; do awk '/sec\/op/ {on = 1; next} on && /^geomean/ {exit} on && NF' "$f"; done)
n=$(grep -c . <<<"$sec" || true)
fa=$(grep -vc ' ~ ' <<<"$sec" || true)
pm=$(grep -o '± *[0-9.]*%' <<<"$sec" | tr -d '±% ' | median)
printf '%-16s %4d %11d %8d %9s %10s %8s %8s  (median ± of a median: %s%%)\n' benchstat "$(grep -c . "$work/benchstat.secs")" "$n" "$fa" - - \
	"$(ratio "$(mean "$work/benchstat.secs")" "$plain")" "$(ratio "$(fastest "$work/benchstat.secs")" "$(fastest "$work/plain.secs")")" "$pm"
