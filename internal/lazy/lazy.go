// Package lazy is the priority queue behind mbopt's lazy greedy algorithms
// (minimal suite, objectives, recommendations).
//
// A greedy step takes the candidate with the best key, where a key (a gain
// and its tie-breaks) can only get worse as earlier picks cover more. So a
// key computed in an earlier round is an upper bound: if the best key in
// the queue is fresh (computed this round), no stale key can beat it once
// re-evaluated. [Queue.Top] re-evaluates only stale keys that reach the
// top, which gives exactly the eager greedy's picks, ties included, as long
// as the order is total.
package lazy

import "container/heap"

// Queue holds candidates' keys, best first by Better.
type Queue[K any] struct {
	h     keyHeap[K]
	round int
}

// New returns a queue of keys, all fresh for the first round. better must
// be a strict total order: better(a, b) reports that a comes before b.
func New[K any](keys []K, better func(a, b *K) bool) *Queue[K] {
	q := &Queue[K]{h: keyHeap[K]{better: better, items: make([]item[K], len(keys))}}
	for i := range keys {
		q.h.items[i] = item[K]{key: keys[i]}
	}
	heap.Init(&q.h)
	return q
}

type item[K any] struct {
	key   K
	round int
}

// Len returns the number of candidates left.
func (q *Queue[K]) Len() int { return len(q.h.items) }

// Top returns the best candidate with a fresh key, re-evaluating stale keys
// with eval on the way; eval updates the key in place and returns false to
// drop a candidate that can no longer gain. It returns false when the
// queue is empty. The returned pointer is valid until the next call.
func (q *Queue[K]) Top(eval func(k *K) bool) (*K, bool) {
	for len(q.h.items) > 0 {
		top := &q.h.items[0]
		if top.round == q.round {
			return &top.key, true
		}
		top.round = q.round
		if eval(&top.key) {
			heap.Fix(&q.h, 0)
		} else {
			heap.Pop(&q.h)
		}
	}
	return nil, false
}

// Take removes the top candidate, which the caller picks, and starts a new
// round: every remaining key becomes stale.
func (q *Queue[K]) Take() K {
	k := heap.Pop(&q.h).(item[K]).key
	q.round++
	return k
}

// MarkStale makes every key stale, as Take does, without removing a
// candidate. Use it right after New when the keys given are upper bounds
// (in the order of better) rather than exact, because exact keys cost too
// much to compute for every candidate: each key is then evaluated when it
// first reaches the top, and the picks are still exactly the eager
// greedy's.
func (q *Queue[K]) MarkStale() { q.round++ }

// Drop removes the top candidate without picking it; the round goes on.
func (q *Queue[K]) Drop() { heap.Pop(&q.h) }

type keyHeap[K any] struct {
	items  []item[K]
	better func(a, b *K) bool
}

func (h *keyHeap[K]) Len() int           { return len(h.items) }
func (h *keyHeap[K]) Less(i, j int) bool { return h.better(&h.items[i].key, &h.items[j].key) }
func (h *keyHeap[K]) Swap(i, j int)      { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *keyHeap[K]) Push(x any)         { h.items = append(h.items, x.(item[K])) }
func (h *keyHeap[K]) Pop() any {
	n := len(h.items)
	it := h.items[n-1]
	h.items = h.items[:n-1]
	return it
}
