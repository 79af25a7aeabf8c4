#!/usr/bin/env bash
# bench-aa.sh: the cost and precision of an A/A 'mbopt compare --metric
# instructions' at its defaults ('make bench'), against a plain benchmark run.
#
# In a throwaway git repository it makes a module of 3 benchmarks of about
# 40-150 us/op (a hashing loop, CPU-bound; a word index built in a map and
# a sort of formatted records, both allocating) and two commits with the
# same tree, and, caches warm (the test binaries built and cached by a
# first comparison), alternates ROUNDS times (default 3):
#   - mbopt compare --metric instructions --base base --head head at the
#     defaults (--target-mde 0.001, -j one per CPU);
#   - go test -run '^$' -bench . -count 1 in a checkout of each revision.
# It prints the median wall time of each and their ratio, and the last
# comparison's verdict and MDE per benchmark (instructions/op), and how
# many results of all the comparisons were a definite change (none should
# be: ROUNDS=20 is the A/A check over 20 comparisons of each benchmark).
#
# Environment: GO (default go), ROUNDS (default 3).
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-3}
NAME=bench-aa.sh . scripts/lib.sh
cat >go.mod <<'GO'
module example.com/aa

go 1.22
GO
cat >aa.go <<'GO'
// Package aa is bench-aa.sh's fixture.
package aa

import (
	"sort"
	"strconv"
	"strings"
)

// Hash runs a multiplicative hash n times.
func Hash(n int) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < n; i++ {
		h ^= uint64(i)
		h *= 1099511628211
		h ^= h >> 29
	}
	return h
}

// Index maps each word to its positions.
func Index(words []string) map[string][]int {
	m := map[string][]int{}
	for i, w := range words {
		m[w] = append(m[w], i)
	}
	return m
}

// Render formats n records, sorts them and joins them.
func Render(n int) string {
	rs := make([]string, 0, n)
	for i := 0; i < n; i++ {
		rs = append(rs, "rec-"+strconv.Itoa((i*7919)%n)+":"+strings.Repeat("x", i%7))
	}
	sort.Strings(rs)
	return strings.Join(rs, ",")
}
GO
cat >aa_test.go <<'GO'
package aa

import (
	"strconv"
	"testing"
)

var (
	sink  any
	hsink uint64
)

func BenchmarkHash(b *testing.B) {
	for i := 0; i < b.N; i++ {
		hsink = Hash(40000)
	}
}

func BenchmarkIndex(b *testing.B) {
	words := make([]string, 800)
	for i := range words {
		words[i] = "w" + strconv.Itoa(i%200)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink = Index(words)
	}
}

func BenchmarkRender(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = Render(450)
	}
}
GO
git add -A && git commit -q -m base && git tag base
git commit -q --allow-empty -m 'the same tree' && git tag head
for rev in base head; do
	git -c advice.detachedHead=false worktree add -q "$work/$rev" "$rev"
done

compare() {
	"$work/mbopt" compare --metric instructions --base base --head head --no-history --fail-on never >"$work/aa.txt" 2>/dev/null
}
plain() {
	for rev in base head; do
		(cd "$work/$rev" && "$GO" test -run '^$' -bench . -count 1 >/dev/null)
	done
}
seconds() { # seconds CMD: the wall time of CMD
	local s
	s=$(date +%s.%N)
	"$@"
	awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN{printf "%.2f\n", e - s}'
}
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

# Warm-up: build and cache the test binaries, and go test's.
compare
plain
: >"$work/mbopt.s"
: >"$work/plain.s"
definite=0 results=0
for _ in $(seq "$ROUNDS"); do
	seconds compare >>"$work/mbopt.s"
	definite=$((definite + $(awk '/\/op / && $1 ~ /^definite/' "$work/aa.txt" | wc -l)))
	results=$((results + $(awk '/\/op /' "$work/aa.txt" | wc -l)))
	seconds plain >>"$work/plain.s"
done
m=$(median <"$work/mbopt.s")
p=$(median <"$work/plain.s")
echo
echo "A/A mbopt compare --metric instructions at the defaults, 3 benchmarks of 40-150 us/op, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), median of $ROUNDS alternated:"
printf '  mbopt compare --metric instructions      %7.1f s  (%s)\n' "$m" "$(tr '\n' ' ' <"$work/mbopt.s")"
printf "  go test -run '^\$' -bench . -count 1, both %7.1f s  (%s)\n" "$p" "$(tr '\n' ' ' <"$work/plain.s")"
printf '  ratio                                    %7.2f x\n' "$(awk -v a="$m" -v b="$p" 'BEGIN{print a / b}')"
echo "  definite changes in the $ROUNDS A/A comparisons: $definite of $results results (ROUNDS=20 for the A/A check)"
echo "  instructions/op of the last comparison (verdict, MDE) and its notes on the target MDE:"
awk '/ instructions\/op / {printf "    %-16s %-10s MDE %s\n", $NF, $1, $(NF - 2)}' "$work/aa.txt"
grep -i 'target MDE\|imprecise' "$work/aa.txt" | sed 's/^/    /' || true
