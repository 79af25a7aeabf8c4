// Package verdict renders a comparison of two revisions (a
// [compare.Report]) as documents: text for a terminal ([WriteText]),
// GitHub-flavoured Markdown for a pull request comment ([WriteMarkdown]),
// GitHub Actions annotations and a step summary ([WriteGitHub]), and the
// figure of every verdict against the threshold band ([Figure], drawn by
// package report/plot). The comparison's JSON is compare.Report's own.
// A bisection (bisect.Result) is written as its log followed by the
// comparison that explains it, or as its JSON ([WriteBisect]).
//
// Every document reads a report the same way: results keep the report's
// order (detections first, by impact) within three groups, detections (a
// definite or potential change), unchanged, and not compared (added,
// removed, build failed, failed); the headline names the leading detection
// (see text.go for the rule); benchmarks are named relative to the module.
package verdict
