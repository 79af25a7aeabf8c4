// Package history keeps the results of every comparison (package
// compare) in an embedded SQLite database and turns them into what one
// comparison cannot show: each benchmark's series of changes against a
// fixed baseline revision, the jumps and trends in it (package detect),
// and per-benchmark thresholds calibrated from A/A comparisons.
//
// # Store
//
// [Open] opens or creates the database (by default [DefaultPath],
// .mbopt/history.db) through modernc.org/sqlite, a pure-Go driver, so no
// cgo is needed. [Store.Add] writes one [compare.Report] in one
// transaction: a process killed while writing leaves either the whole
// comparison or none of it. Each result is keyed by its benchmark id
// (package + full name), unit, base and head revision (commit and commit
// time), and the [Machine] and settings it ran with: GOOS, GOARCH, CPU
// model, Go version and a hash of the settings that shape a measurement
// ([SettingsHash]). With each result it keeps what the comparison judged
// it by, so that no later calibration rewrites the past: the verdict, the
// threshold it was taken against, the medians of both sides, the
// benchmark's reference impact on the application when the comparison
// had one, and the comparison's estimate of the change's application
// impact when it explained the result. The database runs in WAL mode with a busy timeout and
// takes its write lock when a transaction begins, so several processes
// may add comparisons at once; each waits for the others.
//
// [OpenReadOnly] opens an existing history for reading (mbopt history):
// it refuses a file that is not an mbopt history before SQLite writes
// anything (an empty file, another format, someone else's SQLite
// database), never migrates the file in place (an older history is read
// through a migrated temporary copy), and cannot add comparisons. [Open]
// refuses someone else's database too, before it would switch it to WAL
// mode. The path may hold any character: it is percent-escaped into the
// SQLite URI.
//
// A history on a read-only file system, in a directory this user may not
// write or on a full disk is read all the same: SQLite cannot make the
// -shm file a WAL database needs there, so [OpenReadOnly] reads the file
// read-only, immutable when no -wal file holds changes not yet in it.
// [Open] refuses such a history, untouched, with an error wrapping
// [ErrUnwritable] that says which of these it is; it never calls a sound
// database damaged.
//
// The schema is versioned: the schema_version table holds the version,
// and [Open] creates a database and migrates an older one to
// [SchemaVersion] in one immediate transaction, holding the write lock:
// a process that opens a database another is creating waits for it, and
// no connection sees a schema half made. Version 1 stored comparisons and results; version 2 added
// the settings hash and the A/A flag (backfilled from the stored
// settings and revisions) and the indexes the series queries use; version
// 3 added each revision's first-parent depth; version 4 added each
// result's threshold (backfilled from the stored settings) and reference
// impact, the bridge flag of [Store.AddBridge], and recomputed the
// settings hashes, which no longer include --benchmem; version 5 added
// the application's value of each comparison (the upper series of the
// Figure 8/9 view); version 6 added each result's estimated application
// impact (compare's app_impact, its interval, basis and
// likely_no_app_impact) and top culprit functions, and the application
// measured on both versions (compare.Report.AppMeasured), none of which
// the results stored before have.
//
// # Series
//
// A series ([Store.Series]) is one benchmark's results in one unit on one
// machine with one settings hash, against one baseline revision, as the
// study kept its base version fixed "as long as possible to generate a
// long measurement series for trend detection". The baseline is the base
// commit of the stored comparisons; see [Query.Baseline] for the default.
// A/A comparisons and heads with uncommitted changes are left out; when a
// head was compared more than once, the latest comparison counts. Points
// are ordered by ancestry: by the head's first-parent depth (stored with
// each comparison, see compare.Revision.Depth), then commit time, then
// hash; a series with a point of unknown depth (stored before version 3,
// or compared in a shallow clone) is ordered by commit time first
// ([SortPoints]). Two series of one benchmark, unit and machine name the
// settings that separate them (Series.Distinct, such as "count 10").
//
// # Rebaseline
//
// A long-lived project cannot compare against one base version forever.
// A bridging comparison ([Store.AddBridge], mbopt history rebaseline)
// measures the old baseline against a new one once; [Store.Series] then
// carries every series across it: a point measured against a baseline
// that bridges connect to the chosen one gets its change multiplied by the
// bridges' ratios (the intervals by interval arithmetic), keeps the values
// and verdict of its own comparison, and names its baseline (Point.Base);
// Set.Bridges says where the baseline moved.
//
// # Calibration
//
// An A/A comparison compares a revision with itself (base and head the
// same commit, equally dirty); its confidence interval width is the
// benchmark's instability with nothing changed. [Calibrate] turns the
// stored instabilities ([Store.Instabilities]) into initial thresholds,
// by the study's rule ("to cover ≈80% of the microbenchmarks'
// instabilities", TCC 2022, section 4.2) applied per benchmark:
//
//	threshold(benchmark) = max(Floor, Factor × Q_Quantile(its A/A instabilities))
//
// with Quantile 0.8 (the empirical quantile, gonum stat.Quantile), Factor
// 0.75 (the dynamic threshold's factor, so the initial threshold is where
// the dynamic threshold settles if the benchmark stays as unstable as in
// its A/A runs) and Floor 1%. Benchmarks without an A/A run get the suite
// threshold, max(Floor, Q_Quantile of every calibrated benchmark's median
// instability): the study's suite-wide rule (12% and 6% for its two
// suites).
package history
