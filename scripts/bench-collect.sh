#!/usr/bin/env bash
# bench-collect.sh: the time of a coverage collection against a sampled one
# ('make bench'; issue 20's goals for mbopt profile --source cover).
#
# On two modules, it runs alternately, RUNS times each (default 3), into
# fresh output directories (--force):
#   profile  mbopt profile                                (CPU profiles, 1s per benchmark)
#   cover    mbopt profile --source cover --scope all     (function sets, one iteration)
#   timed    mbopt profile --source cover --scope timed   (function sets of the timed
#            loops: two runs per benchmark, at 2x and 10x)
# and prints the median wall times, the ratio of cover's to profile's against
# the goal (at most 0.5x on the example module, 0.2x on the heavy-setup
# fixture), timed's ratio (no goal: its cost, reported apart) and, for each
# collection, the application's project functions it covers (mbopt analyze
# with the module's application profile): the cover collection must cover at
# least as many as the profiles; the timed one covers what the benchmarks
# time, fewer where they set up or validate outside the timer. The modules:
#   testdata/example      23 benchmarks in 5 packages (tinytsdb)
#   testdata/heavysetup   6 benchmarks that each build a 2M-key index before
#                         b.ResetTimer, then time a few nanoseconds
# The machine's load average is printed before and after: on a shared
# machine wall times move with it, and alternating the two commands is what
# keeps their ratio fair. About 10 minutes on a loaded 2-core machine.
#
# Environment: GO (default go), RUNS (default 3), MODULES (default
# "example heavysetup").
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
RUNS=${RUNS:-3}
MODULES=${MODULES:-"example heavysetup"}
root=$(pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/mbopt-bench-collect.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$GO" build -o "$work/mbopt" ./cmd/mbopt

# now prints the time in seconds with a fraction.
now() { date +%s.%N; }

for name in $MODULES; do
	dir="$root/testdata/$name"
	case "$name" in
	example)
		mod=example.com/tinytsdb goal=0.5
		app="$root/testdata/profiles/example/app.pprof"
		;;
	heavysetup)
		mod=example.com/heavysetup goal=0.2
		app="$work/heavysetup-app.pprof"
		(cd "$dir" && "$GO" run ./cmd/indexapp -duration 2s -cpuprofile "$app")
		;;
	*)
		echo "bench-collect.sh: unknown module $name" >&2
		exit 2
		;;
	esac
	echo >&2
	echo "# $name: mbopt profile and mbopt profile --source cover (--scope all, --scope timed), alternately, $RUNS runs each" >&2
	# Warm the build cache, so that no run pays for compiling.
	(cd "$dir" && "$GO" test -count=1 -run '^$' -bench '^$' ./... >/dev/null)
	"$work/mbopt" profile -C "$dir" --source cover --scope all --out "$work/warm" --force >/dev/null 2>&1
	"$work/mbopt" profile -C "$dir" --source cover --scope timed --out "$work/warm-timed" --force >/dev/null 2>&1
	load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
	: >"$work/times"
	for i in $(seq "$RUNS"); do
		for kind in profile cover timed; do
			args=(profile -C "$dir" --out "$work/$kind" --force)
			[ "$kind" = cover ] && args+=(--source cover --scope all)
			[ "$kind" = timed ] && args+=(--source cover --scope timed)
			start=$(now)
			"$work/mbopt" "${args[@]}" >/dev/null 2>"$work/$kind.err" ||
				{ echo "mbopt ${args[*]} failed:" >&2; tail -5 "$work/$kind.err" >&2; exit 1; }
			end=$(now)
			echo "$kind $(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", e - s }')" >>"$work/times"
		done
	done
	load_after=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
	for kind in profile cover timed; do
		"$work/mbopt" analyze --app "$app" --micro "$work/$kind" --module "$mod" >"$work/$kind.analysis" 2>&1 ||
			{ echo "mbopt analyze of the $kind collection failed:" >&2; head -5 "$work/$kind.analysis" >&2; exit 1; }
		awk '$1 == "project-only" { print $2; exit }' "$work/$kind.analysis" >"$work/$kind.covered"
	done
	awk -v name="$name" -v goal="$goal" -v before="$load_before" -v after="$load_after" \
		-v cores="$(nproc 2>/dev/null || echo '?')" -v pcov="$(cat "$work/profile.covered")" \
		-v ccov="$(cat "$work/cover.covered")" -v tcov="$(cat "$work/timed.covered")" '
	{ n[$1]++; t[$1, n[$1]] = $2; runs[$1] = runs[$1] sprintf(" %.1f", $2) }
	function median(k,    i, j, x, m, tmp) {
		m = n[k]
		for (i = 1; i <= m; i++) x[i] = t[k, i]
		for (i = 2; i <= m; i++) for (j = i; j > 1 && x[j-1] > x[j]; j--) { tmp = x[j]; x[j] = x[j-1]; x[j-1] = tmp }
		return m % 2 ? x[(m+1)/2] : (x[m/2] + x[m/2+1]) / 2
	}
	END {
		p = median("profile"); c = median("cover"); tm = median("timed")
		split(pcov, pc, "/"); split(ccov, cc, "/")
		printf "\nCollection time, %s (medians of %d runs each, alternating; load average %s before, %s after, %s cores)\n", name, n["profile"], before, after, cores
		printf "  %-34s %8s   %-22s %s\n", "", "median", "runs (s)", "app project functions covered"
		printf "  %-34s %6.1f s  %-22s %s\n", "mbopt profile", p, runs["profile"], pcov
		printf "  %-34s %6.1f s  %-22s %s\n", "--source cover --scope all", c, runs["cover"], ccov
		printf "  %-34s %6.1f s  %-22s %s\n", "--source cover --scope timed", tm, runs["timed"], tcov
		verdict = "MISSED"; if (c / p <= goal) verdict = "ok"
		funcs = "FEWER: MISSED"; if (cc[1] + 0 >= pc[1] + 0) funcs = "as many or more: ok"
		printf "  cover / profile: %.2fx (goal: at most %sx) %s; covered functions %s\n", c / p, goal, verdict, funcs
		printf "  timed / profile: %.2fx (two runs per benchmark; no goal)\n", tm / p
	}' "$work/times"
done
