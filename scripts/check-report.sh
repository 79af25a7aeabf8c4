#!/usr/bin/env bash
# check-report.sh renders an mbopt HTML report in a real headless browser
# (Debian's chromium) and checks that every inlined figure decoded.
#
#   scripts/check-report.sh REPORT.html SCREENSHOT.png
#
# It takes a full-page screenshot (look at it) and dumps the DOM after
# load, then fails unless the page has at least one <img> and every image
# has a non-zero natural width (a broken data: URI renders as 0×0).
# Needs: apt-get install -y chromium
set -euo pipefail
html="$(realpath "$1")"
shot="${2:-/tmp/report.png}"
chromium="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
if [ -z "$chromium" ]; then
	echo "check-report: chromium not found (apt-get install -y chromium)" >&2
	exit 3
fi
profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
	--disable-background-networking --disable-component-update --disable-sync
	--user-data-dir="$profile")
"$chromium" "${flags[@]}" --screenshot="$shot" --window-size=1200,3000 "file://$html" >/dev/null 2>&1
test -s "$shot" || { echo "check-report: no screenshot written" >&2; exit 1; }
# A script in the page cannot run in --dump-dom before images decode, so
# inject a checker through a copy of the page that writes its verdict into
# the DOM once the window's load event (all images decoded) fired.
probe="$profile/probe.html"
sed 's#</body>#<script>window.addEventListener("load",function(){var i=document.images,b=[];for(var k=0;k<i.length;k++){if(!i[k].complete||i[k].naturalWidth===0){b.push(i[k].alt)}}document.body.setAttribute("data-check",i.length+" images, broken: ["+b.join("; ")+"]")})</script></body>#' "$html" >"$probe"
verdict="$("$chromium" "${flags[@]}" --virtual-time-budget=5000 --dump-dom "file://$probe" 2>/dev/null | grep -o 'data-check="[^"]*"' || true)"
echo "check-report: $verdict"
case "$verdict" in
*"0 images"*|"") echo "check-report: no images rendered" >&2; exit 1 ;;
*"broken: []"*) echo "check-report: ok, screenshot in $shot" ;;
*) echo "check-report: broken images" >&2; exit 1 ;;
esac
