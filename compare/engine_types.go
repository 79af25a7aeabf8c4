package compare

import "github.com/mbopt/mbopt/compare/engine"

// The nouns of a comparison that package engine, which runs it, defines:
// compare's API names them as before.
type (
	// A Side is one of the two versions compared (see [engine.Side]).
	Side = engine.Side
	// A Revision is one version of the module as compared (see
	// [engine.Revision]).
	Revision = engine.Revision
	// A Benchmark names one benchmark to compare by its package and full
	// name, as `mbopt suite` selects them (see [engine.Benchmark]).
	Benchmark = engine.Benchmark
	// An Event reports progress of [Run] (see [engine.Event]).
	Event = engine.Event
	// An EventKind says what an [Event] reports (see [engine.EventKind]).
	EventKind = engine.EventKind
)

// The two sides.
const (
	Base = engine.Base
	Head = engine.Head
)

// The kinds of events (see [engine.EventBuild]).
const (
	EventBuild  = engine.EventBuild
	EventRun    = engine.EventRun
	EventStable = engine.EventStable
)

// CommandName is the Name of the EventRun of the application command
// that Confirm.Command measures (its Package is ""): see
// [engine.CommandName].
const CommandName = engine.CommandName

// Worktree is the [Options.Head] value that compares the work tree with
// its uncommitted changes (tracked and untracked, not ignored files).
const Worktree = engine.Worktree

// TempPrefix starts the name of the temporary directory each Run makes
// for its git worktrees (see [engine.TempPrefix]).
const TempPrefix = engine.TempPrefix

// The raw result files in the output directory (see [engine.BaseFile]).
const (
	BaseFile = engine.BaseFile
	HeadFile = engine.HeadFile
)
