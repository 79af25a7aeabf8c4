#!/usr/bin/env bash
# collect-profiles.sh regenerates the real profiles mbopt's tests use:
#
#   testdata/profiles/example/app.pprof          appbench -scenario mixed
#   testdata/profiles/example/app-ingest.pprof   appbench -scenario ingest
#   testdata/profiles/example/app-query.pprof    appbench -scenario query
#   testdata/profiles/example/micro/<id>.pprof   one per top-level Benchmark
#   testdata/profiles/driver/app.pprof           tsdbload (a driver in package load), 5s
#   testdata/profiles/bad/{truncated,heap,no-samples}.pprof
#
# <id> is the package path relative to the module root with '/' replaced
# by '_', then "__", then the benchmark function name.
#
# Usage: ./collect-profiles.sh [-duration 10s] [-benchtime 2s]
# Runtime is about 100 s on 2 cores. Profiles differ from run to run
# (sampling), so only commit them when you mean to.
set -euo pipefail

duration=10s
benchtime=2s
while [[ $# -gt 0 ]]; do
	case "$1" in
	-duration) duration="$2"; shift 2 ;;
	-benchtime) benchtime="$2"; shift 2 ;;
	*) echo "usage: $0 [-duration D] [-benchtime T]" >&2; exit 2 ;;
	esac
done

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$(cd "$here/../profiles" && pwd)"
ex="$out/example"
bad="$out/bad"
mkdir -p "$ex/micro" "$bad"
cd "$here"

module="$(go list -m)"
go vet ./...

echo "== application workload ($duration per scenario)" >&2
appbench="$(mktemp -d)/appbench"
trap 'rm -rf "$(dirname "$appbench")"' EXIT
go build -o "$appbench" ./cmd/appbench
"$appbench" -scenario mixed -duration "$duration" -cpuprofile "$ex/app.pprof"
for s in ingest query; do
	"$appbench" -scenario "$s" -duration "$duration" -cpuprofile "$ex/app-$s.pprof"
done
mkdir -p "$out/driver"
go run ./cmd/tsdbload -duration 5s -cpuprofile "$out/driver/app.pprof"

echo "== microbenchmarks (-benchtime $benchtime each)" >&2
rm -f "$ex"/micro/*.pprof
for pkg in $(go list ./...); do
	rel="${pkg#"$module"/}"
	benches="$(go test -list '^Benchmark' "./$rel" | grep '^Benchmark' || true)"
	for b in $benches; do
		id="${rel//\//_}__$b"
		echo "$id" >&2
		go test -run '^$' -bench "^$b\$" -benchtime "$benchtime" \
			-cpuprofile "$ex/micro/$id.pprof" "./$rel" >/dev/null
	done
done
rm -f ./*.test

echo "== bad-input fixtures" >&2
src="$ex/micro/encoding__BenchmarkParseLine.pprof"
head -c $(($(wc -c <"$src") / 2)) "$src" >"$bad/truncated.pprof"
go test -run '^$' -bench '^BenchmarkParseLine$' -benchtime 200ms \
	-memprofile "$bad/heap.pprof" ./encoding >/dev/null
rm -f ./*.test
(cd "$here/../.." && go run ./testkit/nosamples "$bad/no-samples.pprof")
printf 'this is not a pprof profile\n' >"$bad/not-a-profile.pprof"
: >"$bad/empty-file.pprof"

echo "done: $(ls "$ex/micro" | wc -l) benchmark profiles in $ex/micro" >&2
