package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// This file opens a history read-only: a look at the file that creates
// and locks nothing, and a migrated temporary copy of a history of an
// older schema.

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
		return nil, emptyError{"an SQLite database without tables"}
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
		return emptyError{"the file is empty; mbopt compare writes a history"}
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
