package history

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOpenOddPaths opens histories whose names hold characters that mean
// something in a URI. Each must be created under exactly its own name
// (nothing else appears in its directory but its -wal and -shm files) and
// get every connection setting, which the URI's query carries.
func TestOpenOddPaths(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct{ name, file string }{
		{"hash", "h#1.db"},
		{"question mark", "h?x=1.db"},
		{"escaped slash", "job%2Fmain/h.db"},
		{"percent", "100%.db"},
		{"space", "my history/h 1.db"},
		{"non-ASCII", "Geschichte-ä/履歴.db"},
		{"ampersand and equals", "a&_pragma=x.db"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, tc.file)
			s := open(t, path)
			_, err := s.Add(ctx, report('a', 'b', 1, 0.01, map[string]float64{"BenchmarkA": 0.05}), testMachine)
			require.NoError(t, err)
			var timeout, fk int
			var mode string
			require.NoError(t, s.db.QueryRowContext(ctx, `PRAGMA busy_timeout`).Scan(&timeout))
			require.NoError(t, s.db.QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&fk))
			require.NoError(t, s.db.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode))
			assert.Equal(t, int(busyTimeout.Milliseconds()), timeout, "busy_timeout")
			assert.Equal(t, 1, fk, "foreign_keys")
			assert.Equal(t, "wal", mode, "journal_mode")

			var files []string
			require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					rel, _ := filepath.Rel(dir, p)
					files = append(files, filepath.ToSlash(rel))
				}
				return err
			}))
			slices.Sort(files)
			want := filepath.ToSlash(tc.file)
			assert.Equal(t, []string{want, want + "-shm", want + "-wal"}, files)

			// Reopened by another connection, it holds the comparison.
			require.NoError(t, s.Close())
			s = open(t, path)
			set, err := s.Series(ctx, Query{})
			require.NoError(t, err)
			assert.Len(t, set.Series, 1)
		})
	}
}
