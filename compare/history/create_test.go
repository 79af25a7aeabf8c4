package history

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
)

// TestConcurrentCreateRace opens one new database from several
// connections at once, many times over: none may take another's schema,
// half made or whole, for someone else's database (issue 31 item 12:
// TestConcurrentCreate failed once in CI with "not an mbopt history
// database: an SQLite database with other tables"). TestConcurrentCreate
// races two processes once; this races in-process openers, each with its
// own connection pool, for many rounds.
func TestConcurrentCreateRace(t *testing.T) {
	if testing.Short() {
		t.Skip("creates 150 databases")
	}
	const rounds, openers = 150, 4
	dir := t.TempDir()
	for round := range rounds {
		path := filepath.Join(dir, fmt.Sprintf("h%d.db", round))
		var wg sync.WaitGroup
		errs := make([]error, openers)
		start := make(chan struct{})
		for i := range openers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				s, err := Open(context.Background(), path)
				if err != nil {
					errs[i] = err
					return
				}
				errs[i] = s.Close()
			}()
		}
		close(start)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d, opener %d: %v", round, i, err)
			}
		}
	}
}
