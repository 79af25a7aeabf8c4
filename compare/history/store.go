package history

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/internal/statedir"
)

// DefaultPath is where the command keeps the history, relative to the
// module root.
const DefaultPath = statedir.Name + "/history.db"

// SchemaVersion is the version of the database schema this package
// writes; [Open] migrates older databases to it.
const SchemaVersion = 6

// busyTimeout is how long a writer waits for another's lock before it
// fails with "database is locked".
const busyTimeout = 30 * time.Second

// A Store is an open history database. Its methods may be called from
// several goroutines at once.
type Store struct {
	db   *sql.DB
	path string
	// readOnly is set by [OpenReadOnly]: Add refuses.
	readOnly bool
	// tmp, when not empty, is a directory [Store.Close] removes: that of
	// the migrated copy [OpenReadOnly] reads an older history from.
	tmp string
}

// ErrNotHistory is returned (wrapped) by [OpenReadOnly] for a file that
// is not an mbopt history database, and by [Open] for an SQLite database
// of someone else's.
var ErrNotHistory = errors.New("not an mbopt history database")

// Open opens the history database at path, creating it (and its
// directory) when it does not exist, and migrates it to [SchemaVersion].
// When Open creates a directory named ".mbopt", it writes a .gitignore
// there so that nothing in it is committed. A database of a newer schema
// than this package knows is an error that says to update mbopt; a file
// that is neither empty nor an mbopt history (not SQLite, or an SQLite
// database with other tables) is an error wrapping [ErrNotHistory], and
// Open leaves it as it was.
func Open(ctx context.Context, path string) (*Store, error) {
	if path == "" {
		return nil, errors.New("history: no database path")
	}
	if err := statedir.MkdirAll(filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("history: %s: %w", path, err)
	}
	// Look before the connection below sets WAL mode, which would change
	// someone else's database; then refuse, untouched, a history that
	// cannot be written where it is.
	if fi, err := os.Stat(path); err == nil && fi.Size() > 0 {
		// A plain read-only look sees what another process is writing
		// (its -wal file); where nothing can write, it could not open the
		// -shm file, so it looks at the file alone.
		problem := placeProblem(filepath.Dir(path))
		q := url.Values{"mode": {"ro"}}
		if problem != "" {
			q = lookQuery(path)
		}
		if _, err := lookRetrying(ctx, path, q); err != nil {
			return nil, fmt.Errorf("history: %s: %w", path, err)
		}
		if problem != "" {
			return nil, fmt.Errorf("history: %s: %w", path, unwritable(path, nil))
		}
	}
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Set("_txlock", "immediate")
	db, err := openURI(path, q)
	if err != nil {
		return nil, fmt.Errorf("history: %s: %w", path, err)
	}
	s := &Store{db: db, path: path}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("history: %s: %w", path, err)
	}
	return s, nil
}

// sqliteMagic begins every SQLite database file.
const sqliteMagic = "SQLite format 3\x00"

// OpenReadOnly opens the existing history database at path for reading:
// it never creates, migrates or writes the file. A file that is not an
// mbopt history (empty, not SQLite, or an SQLite database without the
// history's tables) is an error wrapping [ErrNotHistory], found before
// SQLite writes anything beside it; a missing file is an error wrapping
// [fs.ErrNotExist]. A history of an older schema is copied (VACUUM INTO)
// into a temporary directory and the copy migrated and read; [Store.Close]
// removes it. The Store's [Store.Add] fails.
func OpenReadOnly(ctx context.Context, path string) (*Store, error) {
	if path == "" {
		return nil, errors.New("history: no database path")
	}
	s, err := openReadOnly(ctx, path)
	if errors.Is(err, ErrUnwritable) {
		err = unreadable(path, err)
	}
	if err != nil {
		return nil, fmt.Errorf("history: %s: %w", path, err)
	}
	return s, nil
}

func openReadOnly(ctx context.Context, path string) (*Store, error) {
	// The look goes through an immutable connection, which creates no
	// -wal or -shm file and takes no lock. It sees what a writer has not
	// yet checkpointed only when no -wal file exists, so with one the look
	// is a plain read-only connection (a writer's, or a crashed writer's,
	// files are there already).
	look := lookQuery(path)
	v, err := lookRetrying(ctx, path, look)
	if err != nil {
		return nil, err
	}
	if v == 0 {
		return nil, fmt.Errorf("%w: an SQLite database without tables", ErrNotHistory)
	}
	db, err := readConnection(ctx, path, look.Has("immutable"))
	if err != nil {
		return nil, err
	}
	s := &Store{db: db, path: path, readOnly: true}
	if v == SchemaVersion {
		return s, nil
	}
	defer db.Close()
	return migratedCopy(ctx, s)
}

// lookQuery is the URI query of a look at the database at path: read
// only, and immutable (no lock, no -wal or -shm file made) when no -wal
// file exists.
func lookQuery(path string) url.Values {
	look := url.Values{"mode": {"ro"}}
	if _, err := os.Lstat(path + "-wal"); errors.Is(err, fs.ErrNotExist) {
		look.Set("immutable", "1")
	}
	return look
}

// readConnection opens the database at path for reading. The connection
// may open the file for writing (so that, the last to close, it removes
// the -wal and -shm files as a writer would) but query_only keeps it from
// changing anything; mode=rw keeps it from creating the file should it
// vanish meanwhile. Where that fails for the place (a read-only directory
// or file system, a full disk: SQLite cannot make the -shm file of a WAL
// database), the connection is read-only, and immutable when noWAL (no
// -wal file holds changes not yet in the database): it then takes no
// lock and makes no file, so a writer elsewhere that changes the
// database meanwhile can make a read fail.
func readConnection(ctx context.Context, path string, noWAL bool) (*sql.DB, error) {
	q := url.Values{"mode": {"rw"}}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "query_only(1)")
	if placeProblem(filepath.Dir(path)) == "" {
		db, err := openProbed(ctx, path, q)
		if err == nil || !isPlaceError(err) {
			return db, err
		}
	}
	q = url.Values{"mode": {"ro"}}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	if noWAL {
		q.Set("immutable", "1")
	}
	db, err := openProbed(ctx, path, q)
	if err != nil {
		return nil, damaged(path, err)
	}
	return db, nil
}

// openProbed opens the database at path with query q and reads its
// schema once, so that a connection that cannot read fails here.
func openProbed(ctx context.Context, path string, q url.Values) (*sql.DB, error) {
	db, err := openURI(path, q)
	if err != nil {
		return nil, err
	}
	_, err = retryBusy(ctx, func() (int, error) {
		var n int
		return n, db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master`).Scan(&n)
	})
	if err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// lookRetrying is [look] retried while the database is busy.
func lookRetrying(ctx context.Context, path string, q url.Values) (int, error) {
	if err := checkHeader(path); err != nil {
		return 0, err
	}
	return retryBusy(ctx, func() (int, error) { return look(ctx, path, q) })
}

// checkHeader refuses a file that is not an SQLite database.
func checkHeader(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%w: not a regular file", ErrNotHistory)
	}
	head := make([]byte, len(sqliteMagic))
	n, err := io.ReadFull(f, head)
	switch {
	case n == 0:
		return fmt.Errorf("%w: the file is empty; mbopt compare writes a history", ErrNotHistory)
	case err != nil && !errors.Is(err, io.ErrUnexpectedEOF):
		return err
	case string(head[:n]) != sqliteMagic:
		return fmt.Errorf("%w: not even an SQLite database; move it away to start a new history", ErrNotHistory)
	}
	return nil
}

// look opens path with query q for one look at its schema: the version
// of an mbopt history, 0 for a database without tables, or an error
// wrapping ErrNotHistory for someone else's. A version newer than
// SchemaVersion is an error.
func look(ctx context.Context, path string, q url.Values) (int, error) {
	db, err := openURI(path, q)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var tables []string
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
	if err != nil {
		return 0, damaged(path, err)
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return 0, damaged(path, err)
		}
		tables = append(tables, name)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, damaged(path, err)
	}
	if len(tables) == 0 {
		return 0, nil
	}
	for _, want := range []string{"comparisons", "results", "schema_version"} {
		if !slices.Contains(tables, want) {
			return 0, fmt.Errorf("%w: an SQLite database without the table %s (its tables: %s), someone else's; give another --history file",
				ErrNotHistory, want, strings.Join(tables[:min(5, len(tables))], ", "))
		}
	}
	var v int
	if err := db.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&v); err != nil {
		if isBusy(err) {
			return 0, err
		}
		return 0, fmt.Errorf("%w: its schema_version table holds no version (%v)", ErrNotHistory, err)
	}
	if v > SchemaVersion {
		return 0, newerSchema(v)
	}
	return v, nil
}

// migratedCopy copies the older history of s into a temporary directory
// and returns the copy, migrated, as a read-only Store that removes the
// directory when closed.
func migratedCopy(ctx context.Context, s *Store) (*Store, error) {
	dir, err := os.MkdirTemp("", "mbopt-history-")
	if err != nil {
		return nil, err
	}
	copyPath := filepath.Join(dir, "history.db")
	err = func() error {
		// VACUUM INTO writes only the copy, but query_only forbids it.
		conn, err := s.db.Conn(ctx)
		if err != nil {
			return err
		}
		defer conn.Close()
		if _, err := conn.ExecContext(ctx, `PRAGMA query_only = 0`); err != nil {
			return err
		}
		_, err = conn.ExecContext(ctx, `VACUUM INTO ?`, copyPath)
		// The connection goes back to the pool: make it read-only again.
		_, _ = conn.ExecContext(ctx, `PRAGMA query_only = 1`)
		return err
	}()
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("copying the history to migrate it: %w", err)
	}
	c, err := Open(ctx, copyPath)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	c.path, c.readOnly, c.tmp = s.path, true, dir
	return c, nil
}

// openURI opens the database at path with the URI query q.
func openURI(path string, q url.Values) (*sql.DB, error) {
	uri, err := fileURI(path, q)
	if err != nil {
		return nil, err
	}
	return sql.Open("sqlite", uri)
}

// newerSchema is the error for a database of schema version v >
// SchemaVersion.
func newerSchema(v int) error {
	return fmt.Errorf("schema version %d is newer than this mbopt's %d: update mbopt, or use another --history file", v, SchemaVersion)
}

// fileURI returns the SQLite URI of the file at path with query q. The
// path is made absolute and percent-escaped, so that the characters a URI
// gives a meaning to ('?', '#', '%') stay part of the file name: SQLite
// decodes the escapes, and the driver, which splits its own parameters
// off at the first '?', finds the query's.
func fileURI(path string, q url.Values) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive letter: file:///C:/…
	}
	u := url.URL{Scheme: "file", Path: p, RawQuery: q.Encode()}
	return u.String(), nil
}

// Files returns the files of the database at path: the database and the
// -wal, -shm and -journal files SQLite keeps beside it. A command that
// reads or writes the history must not write its output over any of them.
func Files(path string) []string {
	return []string{path, path + "-wal", path + "-shm", path + "-journal"}
}

// CheckWritable reports whether [Store.Add] can write: it takes the write
// lock (waiting for other writers, as Add does) and makes a change it
// rolls back. A read-only file or directory, or a store from
// [OpenReadOnly], is an error naming the path. Callers check before
// long work whose result they would store.
func (s *Store) CheckWritable(ctx context.Context) error {
	if s.readOnly {
		return fmt.Errorf("history: %s: opened read-only", s.path)
	}
	_, err := retryBusy(ctx, func() (int, error) {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return 0, err
		}
		defer tx.Rollback()
		_, err = tx.ExecContext(ctx, `UPDATE schema_version SET version = version`)
		return 0, err
	})
	if err != nil {
		return fmt.Errorf("history: %s: cannot write: %w", s.path, err)
	}
	return nil
}

// Path returns the database's path as given to [Open].
func (s *Store) Path() string { return s.path }

// Close closes the database (and removes the temporary copy of
// [OpenReadOnly]).
func (s *Store) Close() error {
	err := s.db.Close()
	if s.tmp != "" {
		if rerr := os.RemoveAll(s.tmp); err == nil {
			err = rerr
		}
	}
	return err
}

// migrations[v] moves a database from version v to v+1; migrations[0]
// creates version 1.
var migrations = []func(ctx context.Context, tx *sql.Tx) error{
	execAll(schemaV1...),
	migrateV2,
	execAll(schemaV3...),
	migrateV4,
	execAll(schemaV5...),
	execAll(schemaV6...),
}

// schemaV3 adds each revision's first-parent depth (compare.Revision.Depth),
// which orders a series by ancestry; 0, unknown, for the comparisons
// stored before.
var schemaV3 = []string{
	`ALTER TABLE comparisons ADD COLUMN base_depth INTEGER NOT NULL DEFAULT 0`,
	`ALTER TABLE comparisons ADD COLUMN head_depth INTEGER NOT NULL DEFAULT 0`,
}

// migrateV4 adds what a point keeps of its comparison (the threshold its
// verdict was taken against, backfilled from the stored settings; the
// benchmark's reference impact, unknown before) and the bridge flag of
// [Store.AddBridge], and recomputes the settings hashes, which no longer
// depend on --benchmem.
func migrateV4(ctx context.Context, tx *sql.Tx) error {
	if err := execAll(
		`ALTER TABLE results ADD COLUMN threshold REAL`,
		`ALTER TABLE results ADD COLUMN impact_attributed REAL`,
		`ALTER TABLE results ADD COLUMN impact_flat REAL`,
		`ALTER TABLE comparisons ADD COLUMN bridge INTEGER NOT NULL DEFAULT 0`,
	)(ctx, tx); err != nil {
		return err
	}
	settings, err := storedSettings(ctx, tx)
	if err != nil {
		return err
	}
	for id, st := range settings {
		if _, err := tx.ExecContext(ctx, `UPDATE comparisons SET settings_hash = ? WHERE id = ?`, SettingsHash(st), id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE results SET threshold = ? WHERE comparison_id = ? AND status = ?`, st.Threshold, id, string(compare.Compared)); err != nil {
			return err
		}
	}
	return nil
}

// storedSettings reads the settings of every stored comparison.
func storedSettings(ctx context.Context, tx *sql.Tx) (map[int64]compare.Settings, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, settings FROM comparisons`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]compare.Settings{}
	for rows.Next() {
		var id int64
		var js string
		if err := rows.Scan(&id, &js); err != nil {
			return nil, err
		}
		var st compare.Settings
		if err := json.Unmarshal([]byte(js), &st); err != nil {
			return nil, fmt.Errorf("comparison %d: its settings are not the JSON of compare.Settings: %w", id, err)
		}
		out[id] = st
	}
	return out, rows.Err()
}

// schemaV1 is the first schema: comparisons and their results.
var schemaV1 = []string{
	`CREATE TABLE schema_version (version INTEGER NOT NULL)`,
	`INSERT INTO schema_version (version) VALUES (0)`,
	`CREATE TABLE comparisons (
		id INTEGER PRIMARY KEY,
		module TEXT NOT NULL,
		base_spec TEXT NOT NULL, base_commit TEXT NOT NULL, base_time INTEGER NOT NULL,
		base_dirty INTEGER NOT NULL, base_subject TEXT NOT NULL,
		head_spec TEXT NOT NULL, head_commit TEXT NOT NULL, head_time INTEGER NOT NULL,
		head_dirty INTEGER NOT NULL, head_subject TEXT NOT NULL,
		goos TEXT NOT NULL, goarch TEXT NOT NULL, cpu TEXT NOT NULL, go_version TEXT NOT NULL,
		settings TEXT NOT NULL,
		wall_ns INTEGER NOT NULL,
		recorded INTEGER NOT NULL
	)`,
	`CREATE TABLE results (
		comparison_id INTEGER NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
		bench_id TEXT NOT NULL, package TEXT NOT NULL, name TEXT NOT NULL, unit TEXT NOT NULL,
		status TEXT NOT NULL, side TEXT NOT NULL, error TEXT NOT NULL,
		change REAL, ci_low REAL, ci_high REAL, base_median REAL, head_median REAL,
		base_n INTEGER, head_n INTEGER,
		verdict TEXT NOT NULL, p_value REAL, trials INTEGER NOT NULL,
		PRIMARY KEY (comparison_id, bench_id, unit)
	)`,
}

// migrateV2 adds the settings hash and the A/A flag, backfills both, and
// adds the indexes of the series and calibration queries.
func migrateV2(ctx context.Context, tx *sql.Tx) error {
	if err := execAll(
		`ALTER TABLE comparisons ADD COLUMN settings_hash TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE comparisons ADD COLUMN aa INTEGER NOT NULL DEFAULT 0`,
		`UPDATE comparisons SET aa = (base_commit = head_commit AND base_dirty = head_dirty)`,
		`CREATE INDEX results_bench ON results (bench_id, unit)`,
		`CREATE INDEX comparisons_base ON comparisons (base_commit, aa)`,
	)(ctx, tx); err != nil {
		return err
	}
	settings, err := storedSettings(ctx, tx)
	if err != nil {
		return err
	}
	hashes := map[int64]string{}
	for id, st := range settings {
		hashes[id] = SettingsHash(st)
	}
	for id, h := range hashes {
		if _, err := tx.ExecContext(ctx, `UPDATE comparisons SET settings_hash = ? WHERE id = ?`, h, id); err != nil {
			return err
		}
	}
	return nil
}

func execAll(stmts ...string) func(context.Context, *sql.Tx) error {
	return func(ctx context.Context, tx *sql.Tx) error {
		for _, s := range stmts {
			if _, err := tx.ExecContext(ctx, s); err != nil {
				return fmt.Errorf("%.40s…: %w", s, err)
			}
		}
		return nil
	}
}

// migrate brings the database to SchemaVersion: a database found at
// that version is left alone; any other is created or migrated in one
// immediate transaction (see migrateTx), so that no other connection
// sees a schema half made, and a migration killed halfway leaves the
// version it started from.
func (s *Store) migrate(ctx context.Context) error {
	// The quick look, outside a transaction, only spares the write lock
	// when there is nothing to do: what it sees of a database another
	// process is creating (or a look that fails) is decided again under
	// the lock, after the creator has committed.
	if v, err := retryBusy(ctx, func() (int, error) { return s.version(ctx) }); err == nil && v == SchemaVersion {
		return nil
	}
	_, err := retryBusy(ctx, func() (int, error) { return 0, s.migrateTx(ctx) })
	if isPlaceError(err) {
		return unwritable(s.path, err)
	}
	return err
}

// migrateTx takes the write lock (an immediate transaction, waiting for
// another writer, such as a process creating the same database), reads
// the version under it and runs every migration from there to
// SchemaVersion in that one transaction.
func (s *Store) migrateTx(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx, nil) // immediate: holds the write lock
	if err != nil {
		return err
	}
	defer tx.Rollback()
	v, err := versionIn(ctx, tx, s.path)
	if err != nil {
		return err
	}
	if v > SchemaVersion {
		return newerSchema(v)
	}
	if v == SchemaVersion {
		return nil // another process migrated while this one waited
	}
	for from := v; from < SchemaVersion; from++ {
		if err := migrations[from](ctx, tx); err != nil {
			return fmt.Errorf("migrating the schema from version %d to %d: %w", from, from+1, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE schema_version SET version = ?`, SchemaVersion); err != nil {
		return err
	}
	return tx.Commit()
}

// retryBusy runs f until it does not fail with SQLITE_BUSY, for up to
// busyTimeout. SQLite returns SQLITE_BUSY without waiting in a few cases
// the busy timeout does not cover, such as a connection opening while
// another closes the WAL file.
func retryBusy[T any](ctx context.Context, f func() (T, error)) (T, error) {
	deadline := time.Now().Add(busyTimeout)
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		v, err := f()
		if err == nil || !isBusy(err) || time.Now().After(deadline) {
			return v, err
		}
		select {
		case <-ctx.Done():
			return v, ctx.Err()
		case <-time.After(wait):
		}
	}
}

// isBusy reports whether err is SQLite's SQLITE_BUSY or SQLITE_LOCKED, in
// any of their extended forms.
func isBusy(err error) bool {
	var coded interface{ Code() int }
	if errors.As(err, &coded) {
		c := coded.Code() & 0xff
		return c == 5 || c == 6
	}
	return false
}

type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// version returns the schema version, 0 for an empty database.
func (s *Store) version(ctx context.Context) (int, error) { return versionIn(ctx, s.db, s.path) }

// versionIn returns the schema version q sees, 0 for an empty database.
// Outside a transaction it reads the schema in one statement, so that it
// sees one state of a database another connection is creating.
func versionIn(ctx context.Context, q querier, path string) (int, error) {
	var n, tables int
	if err := q.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'),
		(SELECT count(*) FROM sqlite_master)`).Scan(&n, &tables); err != nil {
		return 0, damaged(path, err)
	}
	if n == 0 {
		if tables > 0 {
			return 0, fmt.Errorf("%w: an SQLite database with other tables; give another --history file", ErrNotHistory)
		}
		return 0, nil
	}
	var v int
	if err := q.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&v); err != nil {
		return 0, fmt.Errorf("reading the schema version: %w", err)
	}
	return v, nil
}

// testHookMidAdd, when set, runs inside Add's transaction after half of
// the results are written; tests kill the process there.
var testHookMidAdd func()

// Add stores r, run on m, in one transaction and returns the
// comparison's id. Results of every status are stored; those without an
// estimate have no change or interval. With each compared result it keeps
// what the comparison judged it by, so that a later calibration never
// rewrites it: the verdict, the threshold the verdict was taken against
// (Result.Threshold, else the settings'), the benchmark's reference
// impact when the comparison had one, and its estimated application
// impact (compare.Result's AppImpact) and top culprit functions when it
// was explained; with the comparison, the application measured on both
// versions (compare.Report.AppMeasured). Add waits for other writers (up to
// a busy timeout of 30s).
func (s *Store) Add(ctx context.Context, r *compare.Report, m Machine) (int64, error) {
	return s.store(ctx, r, m, false, nil)
}

// AddBridge stores r like [Store.Add], marked as a bridging comparison:
// its base is an old baseline and its head the new one (mbopt history
// rebaseline), and [Store.Series] carries a series across it.
func (s *Store) AddBridge(ctx context.Context, r *compare.Report, m Machine) (int64, error) {
	if r != nil && (IsAA(r) || r.Head.Dirty) {
		return 0, errors.New("history: AddBridge: a bridge goes from one baseline commit to another")
	}
	return s.store(ctx, r, m, true, nil)
}

// store stores r as Add and AddBridge do, and app, when not nil, as the
// application's measurement in that comparison.
func (s *Store) store(ctx context.Context, r *compare.Report, m Machine, bridge bool, app *Application) (int64, error) {
	if r == nil {
		return 0, errors.New("history: Add: nil report")
	}
	if app != nil {
		if err := app.Check(); err != nil {
			return 0, err
		}
	}
	if s.readOnly {
		return 0, fmt.Errorf("history: %s: opened read-only", s.path)
	}
	settings, err := json.Marshal(r.Settings)
	if err != nil {
		return 0, fmt.Errorf("history: Add: %w", err)
	}
	// A transaction that failed as busy wrote nothing: try it again.
	return retryBusy(ctx, func() (int64, error) { return s.add(ctx, r, m, settings, bridge, app) })
}

func (s *Store) add(ctx context.Context, r *compare.Report, m Machine, settings []byte, bridge bool, app *Application) (int64, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("history: %s: %w", s.path, err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `INSERT INTO comparisons (
		module,
		base_spec, base_commit, base_time, base_dirty, base_subject,
		head_spec, head_commit, head_time, head_dirty, head_subject,
		goos, goarch, cpu, go_version, settings, settings_hash, aa, wall_ns, recorded,
		base_depth, head_depth, bridge
	) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.Module,
		r.Base.Spec, r.Base.Commit, r.Base.Time.UnixNano(), r.Base.Dirty, r.Base.Subject,
		r.Head.Spec, r.Head.Commit, r.Head.Time.UnixNano(), r.Head.Dirty, r.Head.Subject,
		m.GOOS, m.GOARCH, m.CPU, m.GoVersion, string(settings), SettingsHash(r.Settings), IsAA(r),
		int64(r.Wall), time.Now().UnixNano(),
		r.Base.Depth, r.Head.Depth, bridge)
	if err != nil {
		return 0, fmt.Errorf("history: %s: storing the comparison: %w", s.path, err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, err
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO results (
		comparison_id, bench_id, package, name, unit, status, side, error,
		change, ci_low, ci_high, base_median, head_median, base_n, head_n,
		verdict, p_value, trials, threshold, impact_attributed, impact_flat
	) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return 0, err
	}
	defer stmt.Close()
	for i, x := range r.Results {
		if i == len(r.Results)/2 && testHookMidAdd != nil {
			testHookMidAdd()
		}
		var change, low, high, bm, hm, bn, hn any
		if e := x.Estimate; e != nil {
			change, low, high, bm, hm, bn, hn = e.Change, e.CI.Low, e.CI.High, e.BaseMedian, e.HeadMedian, e.BaseN, e.HeadN
		}
		var p, threshold, attributed, flat any
		if x.Status == compare.Compared {
			p = x.PValue
			threshold = r.Settings.Threshold
			if x.Threshold > 0 {
				threshold = x.Threshold
			}
		}
		if im := x.Impact; im != nil {
			attributed, flat = im.Attributed, im.Flat
		}
		if _, err := stmt.ExecContext(ctx, id, x.ID, x.Package, x.Name, x.Unit, string(x.Status), x.Side, x.Error,
			change, low, high, bm, hm, bn, hn, x.Verdict.String(), p, x.Trials, threshold, attributed, flat); err != nil {
			return 0, fmt.Errorf("history: %s: storing %s (%s): %w", s.path, x.ID, x.Unit, err)
		}
	}
	if err := addEstimates(ctx, tx, id, r); err != nil {
		return 0, fmt.Errorf("history: %s: storing the application impact estimates: %w", s.path, err)
	}
	if app != nil {
		if err := addApplication(ctx, tx, id, app); err != nil {
			return 0, fmt.Errorf("history: %s: storing the application %s: %w", s.path, app.Name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("history: %s: %w", s.path, err)
	}
	return id, nil
}

// IsAA reports whether r is an A/A comparison: the same commit on both
// sides, equally dirty.
func IsAA(r *compare.Report) bool {
	return r.Base.Commit == r.Head.Commit && r.Base.Dirty == r.Head.Dirty
}

// Check runs SQLite's integrity check and returns an error listing what
// it found, nil for a sound database.
func (s *Store) Check(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, `PRAGMA integrity_check`)
	if err != nil {
		return fmt.Errorf("history: %s: %w", s.path, err)
	}
	defer rows.Close()
	var msgs []string
	for rows.Next() {
		var m string
		if err := rows.Scan(&m); err != nil {
			return err
		}
		if m != "ok" {
			msgs = append(msgs, m)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if len(msgs) > 0 {
		return fmt.Errorf("history: %s: integrity check: %v", s.path, msgs)
	}
	return nil
}
