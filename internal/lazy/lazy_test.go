package lazy

import (
	"math/rand"
	"testing"
)

// A max-coverage greedy over random sets picks the same sets, in the same
// order, lazily and eagerly: from exact first keys, and from upper bounds
// marked stale.
func TestMatchesEagerGreedy(t *testing.T) {
	t.Run("exact", func(t *testing.T) { testMatchesEagerGreedy(t, false) })
	t.Run("upper bounds", func(t *testing.T) { testMatchesEagerGreedy(t, true) })
}

func testMatchesEagerGreedy(t *testing.T, bounds bool) {
	rng := rand.New(rand.NewSource(3))
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.Intn(12)
		sets := make([]map[int]bool, n)
		for i := range sets {
			sets[i] = map[int]bool{}
			for e := 0; e < rng.Intn(8); e++ {
				sets[i][rng.Intn(15)] = true
			}
		}
		gain := func(i int, covered map[int]bool) int {
			g := 0
			for e := range sets[i] {
				if !covered[e] {
					g++
				}
			}
			return g
		}
		type key struct{ gain, index int }
		better := func(a, b *key) bool {
			if a.gain != b.gain {
				return a.gain > b.gain
			}
			return a.index < b.index
		}

		covered := map[int]bool{}
		var keys []key
		for i := range sets {
			k := key{gain(i, covered), i}
			if bounds {
				k.gain += rng.Intn(3) // an upper bound, sometimes exact
			}
			keys = append(keys, k)
		}
		q := New(keys, better)
		if bounds {
			q.MarkStale()
		}
		var lazy []int
		for {
			top, ok := q.Top(func(k *key) bool { k.gain = gain(k.index, covered); return k.gain > 0 })
			if !ok || top.gain == 0 {
				break
			}
			k := q.Take()
			lazy = append(lazy, k.index)
			for e := range sets[k.index] {
				covered[e] = true
			}
		}

		covered = map[int]bool{}
		used := map[int]bool{}
		var eager []int
		for {
			best := key{0, -1}
			for i := range sets {
				if k := (key{gain(i, covered), i}); !used[i] && k.gain > 0 && (best.index < 0 || better(&k, &best)) {
					best = k
				}
			}
			if best.index < 0 {
				break
			}
			used[best.index] = true
			eager = append(eager, best.index)
			for e := range sets[best.index] {
				covered[e] = true
			}
		}
		if len(lazy) != len(eager) {
			t.Fatalf("trial %d: lazy %v, eager %v", trial, lazy, eager)
		}
		for i := range lazy {
			if lazy[i] != eager[i] {
				t.Fatalf("trial %d: lazy %v, eager %v", trial, lazy, eager)
			}
		}
	}
}

func TestDropKeepsRound(t *testing.T) {
	q := New([]int{5, 3, 1}, func(a, b *int) bool { return *a > *b })
	top, _ := q.Top(func(*int) bool { t.Fatal("fresh keys need no evaluation"); return true })
	if *top != 5 {
		t.Fatalf("Top = %d, want 5", *top)
	}
	q.Drop()
	top, _ = q.Top(func(*int) bool { t.Fatal("Drop must not make keys stale"); return true })
	if *top != 3 || q.Len() != 2 {
		t.Fatalf("Top = %d with %d left, want 3 with 2", *top, q.Len())
	}
}

func TestMarkStaleEvaluatesEachKeyOnce(t *testing.T) {
	q := New([]int{9, 8, 7}, func(a, b *int) bool { return *a > *b })
	q.MarkStale()
	evals := 0
	top, _ := q.Top(func(k *int) bool { evals++; *k -= 5; return true })
	// 9 → 4 and 8 → 3 fall below 7, which is evaluated to 2: 4 is fresh.
	if *top != 4 || evals != 3 {
		t.Fatalf("Top = %d after %d evaluations, want 4 after 3", *top, evals)
	}
}
