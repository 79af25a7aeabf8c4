package history

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/testkit/dirtest"
)

// fileState is what must not change when a read opens a file: its bytes,
// its modification time and the names in its directory.
type fileState struct {
	sum   [32]byte
	mtime time.Time
	names []string
}

func stateOf(t *testing.T, path string) fileState {
	t.Helper()
	var st fileState
	fi, err := os.Stat(path)
	require.NoError(t, err)
	st.mtime = fi.ModTime()
	if fi.Mode().IsRegular() {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		st.sum = sha256.Sum256(data)
	}
	st.names = dirtest.Names(t, filepath.Dir(path))
	return st
}

// sqliteFile creates an SQLite database at path with the given
// statements run on it.
func sqliteFile(t *testing.T, path string, stmts ...string) { sqliteFileF(t, path, stmts...) }

// sqliteFileF is sqliteFile for a test or a fuzz target.
func sqliteFileF(t testing.TB, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	for _, s := range stmts {
		_, err := db.Exec(s)
		require.NoError(t, err, s)
	}
	require.NoError(t, db.Close())
}

// TestOpenReadOnlyRefuses: a read of something that is not an mbopt
// history is refused, and the file, its time and its directory stay as
// they were (issue 25 item 9: history gave a foreign database mbopt's
// tables and WAL mode, and made a 0-byte file a history).
func TestOpenReadOnlyRefuses(t *testing.T) {
	ctx := context.Background()
	newer := func(t *testing.T, path string) {
		s := open(t, path)
		_, err := s.db.Exec(`UPDATE schema_version SET version = 99`)
		require.NoError(t, err)
		require.NoError(t, s.Close())
	}
	for _, tc := range []struct {
		name    string
		make    func(t *testing.T, path string)
		want    string
		notHist bool
	}{
		{"empty file", func(t *testing.T, p string) { require.NoError(t, os.WriteFile(p, nil, 0o666)) }, "the file is empty", true},
		{"text file", func(t *testing.T, p string) { require.NoError(t, os.WriteFile(p, []byte("id,value\n1,2\n"), 0o666)) }, "not even an SQLite database", true},
		{"short file", func(t *testing.T, p string) { require.NoError(t, os.WriteFile(p, []byte("SQLite"), 0o666)) }, "not even an SQLite database", true},
		{"directory", func(t *testing.T, p string) { require.NoError(t, os.Mkdir(p, 0o777)) }, "not a regular file", true},
		{"foreign database", func(t *testing.T, p string) {
			sqliteFile(t, p, `CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)`, `INSERT INTO users VALUES (1, 'a')`)
		}, "an SQLite database without the table comparisons (its tables: users)", true},
		{"foreign WAL database", func(t *testing.T, p string) {
			sqliteFile(t, p, `PRAGMA journal_mode=WAL`, `CREATE TABLE comparisons (id INTEGER)`)
		}, "without the table results", true},
		{"empty database", func(t *testing.T, p string) { sqliteFile(t, p, `PRAGMA user_version = 1`) }, "an SQLite database without tables", true},
		{"newer schema", newer, "schema version 99 is newer than this mbopt's", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path, before := agedFile(t, tc.make)
			s, err := OpenReadOnly(ctx, path)
			if err == nil {
				s.Close()
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Contains(t, err.Error(), path)
			assert.Equal(t, tc.notHist, errors.Is(err, ErrNotHistory), "errors.Is(%v, ErrNotHistory)", err)
			after := stateOf(t, path)
			assert.Equal(t, before, after, "the file and its directory are untouched")
		})
	}
	_, err := OpenReadOnly(ctx, filepath.Join(t.TempDir(), "none.db"))
	assert.ErrorIs(t, err, fs.ErrNotExist)
}

// agedFile makes h.db in a temporary directory with create, dates it an
// hour back so that a rewrite shows in its modification time, and returns
// its path and its state.
func agedFile(t *testing.T, create func(t *testing.T, path string)) (string, fileState) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "h.db")
	create(t, path)
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	require.NoError(t, os.Chtimes(path, old, old))
	return path, stateOf(t, path)
}

// TestOpenRefusesForeign: compare's Open does not turn someone else's
// database into a history either.
func TestOpenRefusesForeign(t *testing.T) {
	path := filepath.Join(t.TempDir(), "app.db")
	sqliteFile(t, path, `CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)`)
	before := stateOf(t, path)
	_, err := Open(context.Background(), path)
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrNotHistory)
	assert.Equal(t, before, stateOf(t, path), "the database and its directory are unchanged")
}

// TestOpenReadOnlyReads: a history opened for reading gives its series,
// takes no comparison, and leaves the file and its directory as they
// were; one of an older schema is read through a migrated copy.
func TestOpenReadOnlyReads(t *testing.T) {
	ctx := context.Background()
	current := func(t *testing.T, path string) {
		s := open(t, path)
		_, err := s.Add(ctx, report('a', 'b', 1, 0.01, map[string]float64{"BenchmarkA": 0.05}), testMachine)
		require.NoError(t, err)
		require.NoError(t, s.Close())
	}
	v1 := func(t *testing.T, path string) {
		fixture, err := os.ReadFile("testdata/v1.sql")
		require.NoError(t, err)
		sqliteFile(t, path, string(fixture))
	}
	for _, tc := range []struct {
		name string
		make func(t *testing.T, path string)
	}{
		{"current schema", current},
		{"version 1", v1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path, before := agedFile(t, tc.make)
			s, err := OpenReadOnly(ctx, path)
			require.NoError(t, err)
			assert.Equal(t, path, s.Path())
			set, err := s.Series(ctx, Query{})
			require.NoError(t, err)
			require.Len(t, set.Series, 1)
			require.NoError(t, s.Check(ctx))
			_, err = s.Add(ctx, report('a', 'c', 2, 0.01, map[string]float64{"BenchmarkA": 0.05}), testMachine)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "read-only")
			tmp := s.tmp
			require.NoError(t, s.Close())
			assert.Equal(t, before, stateOf(t, path), "the file and its directory are untouched")
			if tmp != "" {
				_, err := os.Stat(tmp)
				assert.ErrorIs(t, err, fs.ErrNotExist, "the migrated copy is removed")
			}
		})
	}
}

// TestOpenReadOnlyWhileWriting: a read while a writer holds the database
// open sees what the writer committed.
func TestOpenReadOnlyWhileWriting(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	w := open(t, path)
	_, err := w.Add(ctx, report('a', 'b', 1, 0.01, map[string]float64{"BenchmarkA": 0.05}), testMachine)
	require.NoError(t, err)
	r, err := OpenReadOnly(ctx, path)
	require.NoError(t, err)
	defer r.Close()
	set, err := r.Series(ctx, Query{})
	require.NoError(t, err)
	require.Len(t, set.Series, 1)
	_, err = w.Add(ctx, report('a', 'c', 2, 0.01, map[string]float64{"BenchmarkA": 0.07}), testMachine)
	require.NoError(t, err)
	set, err = r.Series(ctx, Query{})
	require.NoError(t, err)
	assert.Len(t, set.Series[0].Points, 2)
	assert.True(t, slices.ContainsFunc(set.Series[0].Points, func(p Point) bool { return strings.HasPrefix(p.Head.Commit, "c") }))
}

func TestCheckWritable(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	w := open(t, path)
	require.NoError(t, w.CheckWritable(ctx))
	r, err := OpenReadOnly(ctx, path)
	require.NoError(t, err)
	defer r.Close()
	err = r.CheckWritable(ctx)
	require.Error(t, err)
	assert.Contains(t, err.Error(), path+": opened read-only")
	// A connection that SQLite opened read-only, as it does for a file
	// the process may not write.
	db, err := openURI(path, url.Values{"mode": {"ro"}})
	require.NoError(t, err)
	ro := &Store{db: db, path: path}
	defer ro.Close()
	err = ro.CheckWritable(ctx)
	require.Error(t, err)
	assert.Contains(t, err.Error(), path+": cannot write")
	assert.Equal(t, []string{path, path + "-wal", path + "-shm", path + "-journal"}, Files(path))
}
