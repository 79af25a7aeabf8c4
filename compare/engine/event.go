package engine

import "time"

// An EventKind says what an [Event] reports.
type EventKind int

// The kinds of events.
const (
	// EventBuild: a test binary was built (or found in the cache).
	EventBuild EventKind = iota
	// EventRun: a test binary process finished one benchmark, or the
	// application command finished one run.
	EventRun
	// EventStable: a benchmark was stopped by Schedule.UntilStable.
	EventStable
)

// CommandName is the Name of the EventRun of an application command
// measured by [Raw.MeasureCommand], whose Package is "".
const CommandName = "application command"

// An Event reports progress of [Run], and of the measurements a [Raw]
// takes after it.
type Event struct {
	// Kind says what happened.
	Kind EventKind
	// Done and Total count builds (EventBuild) or processes
	// (EventRun, EventStable: Total shrinks when benchmarks stop early).
	Done, Total int
	// Package and Name say what was built or run (Package "" and Name
	// CommandName: the application command).
	Package, Name string
	// Side is the version built or run.
	Side Side
	// Trial and Run place an EventRun in the schedule (from 1).
	Trial, Run int
	// Wall is how long the step took.
	Wall time.Duration
	// Err is a build or run failure; the comparison goes on.
	Err error
	// Cached is set for a build found in the cache.
	Cached bool
}
