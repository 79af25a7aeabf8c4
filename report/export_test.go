package report

// WriteHook lets the external tests fail WriteDir part-way.
var WriteHook = &writeHook

// ChangeTicks exposes the interval figures' x ticks to the tests.
var ChangeTicks = changeTicks{}.Ticks
