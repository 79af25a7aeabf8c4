// Package site writes a benchmark history as a static web site: the
// overview a team opens in a browser (index.html), one page per series,
// and the data and scripts they read, with every asset embedded in the
// binary: no CDN, nothing fetched at view time. The site works from
// file:// and from any static host such as GitHub Pages.
//
// # What the pages show
//
// The overview starts with the study's Figure 8/9 view (Grambow et al.,
// IEEE TCC 2022, Figures 8 and 9): the application's measured series on
// top (never a reference profile's total, which is no measurement) and
// below it every microbenchmark detection at its commit, as high as the
// application impact its comparison estimated ([Point].App), or, drawn
// apart and labelled "reference impact (not an estimate)", at the
// benchmark's reference impact where none was estimated; definite
// detections filled and potential ones as rings, regressions red and
// improvements green. Below it, one chart per series: the
// change against the baseline per commit with its confidence interval as
// a band, the dynamic threshold around the previous commit as dashed
// marks, and the detections as symbols (jump: triangle, trend: diamond,
// E-divisive: ring, fixed-value bound: square; filled when definite,
// outlined when potential, red for a regression, green for an
// improvement). Hovering a commit shows its short hash, date, subject,
// value and change, interval, threshold, verdict and detections; clicking
// opens the commit ([Options].CommitURL). Every axis names the metric and
// unit. The series can be filtered by package and name and sorted by the
// most recent detection, by application impact (estimated, else
// reference) or by name; series that share a name carry their unit in
// their card's title. A series page
// adds a larger chart and a table of every commit.
//
// # Files and speed
//
// [Write] shares its directory: it lists the site's files in [Marker] and
// replaces or removes only those on the next Write, never another file
// (the history database, a CNAME, plots), and refuses to overwrite one.
//
// index.html and the series pages are fixed templates; the data are
// classic scripts under data/: data/index.js with the commits and a
// summary of every series (enough for the Figure 8/9 view, the filters
// and the order), and data/chunk-NNN.js with the points of [ChunkSize]
// series each, in the overview's default order. The overview loads the
// first chunk with the page and draws its 20 charts at once; the others
// are drawn, and their chunks loaded, as they scroll near the view
// (IntersectionObserver). Numbers are written with the precision the
// pages show (changes in percent to 3 decimals, values to 6 digits).
//
// # Safety
//
// Benchmark names are chosen by whoever writes the code, including a pull
// request from a fork, so the site treats every name as data:
//
//   - The pages carry a Content-Security-Policy that allows scripts,
//     styles and images from the site's own files only: no inline script
//     or style, no inline event handler, nothing from elsewhere, no
//     <base>, no form target. The data is not inline either: it is in
//     classic script files of the site (which the policy allows, and which
//     a page can load from file://, unlike fetch() or a JSON file), each
//     a single call with a JSON literal. encoding/json escapes <, >, &,
//     U+2028 and U+2029 in it, so a name is a JSON string and cannot end
//     the literal or the script. A <script type="application/json"> block
//     would be as safe but could not be loaded lazily, per chunk.
//   - The scripts build the pages with createElement, textContent and
//     setAttribute, never innerHTML, and attach events with
//     addEventListener: a name is shown as text and runs nothing.
//   - The templates are html/template, which escapes the page titles.
//   - Links go to the site's own pages or to the commit URL template,
//     which must be http or https ([CheckCommitURL]) and receives only a
//     hexadecimal hash.
//   - Page file names derive from names through [PageNames]: ASCII
//     letters, digits and "-_.=+," only (no separator, no "..", no leading
//     dot), 80 bytes at most, and a hash suffix that keeps them unique.
package site
