# lib.sh: what the benchmark scripts that count instructions share. Source
# it from the repository root with NAME set to the script's name:
#
#   NAME=bench-aa.sh . scripts/lib.sh
#
# It requires Valgrind, makes a work directory $work removed on exit,
# points mbopt's cache there (the usual Go build cache kept), builds
# $work/mbopt from this checkout, and makes $repo, an empty git
# repository with an identity, the current directory. GO names the go
# command (default go).

GO=${GO:-go}
if ! command -v valgrind >/dev/null 2>&1; then
	echo "$NAME: valgrind is not installed (Debian/Ubuntu: apt-get install valgrind)" >&2
	exit 1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/mbopt-${NAME%.sh}.XXXXXX")
trap 'rm -rf "$work"' EXIT
GOCACHE=$("$GO" env GOCACHE)
export GOCACHE XDG_CACHE_HOME="$work/cache" CI=true
"$GO" build -o "$work/mbopt" ./cmd/mbopt
"$GO" build -o "$work/loopmodule" ./testkit/loopmodule

repo=$work/repo
mkdir -p "$repo"
cd "$repo"
git init -q -b main
git config user.email bench@example.com
git config user.name bench
