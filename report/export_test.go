package report

// WriteHook lets the external tests fail WriteDir part-way.
var WriteHook = &writeHook
