package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/mbopt/mbopt/internal/statedir"
)

// DefaultPath is where the command keeps the history, relative to the
// module root.
const DefaultPath = statedir.Name + "/history.db"

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

// ErrNothingYet is returned (wrapped, beside [ErrNotHistory]) by
// [OpenReadOnly] for a history that holds nothing yet: an empty file, or
// an SQLite database without tables, which [Open] makes a history of (and
// which is what a compare creating the database leaves for an instant).
var ErrNothingYet = errors.New("no history in it yet")

// emptyError is the error of a history that holds nothing yet: it is
// both ErrNotHistory and ErrNothingYet.
type emptyError struct{ why string }

func (e emptyError) Error() string { return ErrNotHistory.Error() + ": " + e.why }

// Is reports whether target is ErrNotHistory or ErrNothingYet.
func (emptyError) Is(target error) bool { return target == ErrNotHistory || target == ErrNothingYet }

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

// openURI opens the database at path with the URI query q.
func openURI(path string, q url.Values) (*sql.DB, error) {
	uri, err := fileURI(path, q)
	if err != nil {
		return nil, err
	}
	return sql.Open("sqlite", uri)
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
