package collect

import (
	"context"
	"sync"
)

// A scheduler runs tasks on a fixed number of workers, highest priority
// (lowest number) first, first in first out within a priority. Tasks may
// add tasks. Once ctx is done, queued tasks are dropped.
type scheduler struct {
	ctx     context.Context
	mu      sync.Mutex
	cond    *sync.Cond
	queues  [numPrio][]func()
	pending int // queued or running
	workers int
}

func newScheduler(ctx context.Context, workers int) *scheduler {
	s := &scheduler{ctx: ctx, workers: max(1, workers)}
	s.cond = sync.NewCond(&s.mu)
	return s
}

// add queues f with priority prio.
func (s *scheduler) add(prio int, f func()) {
	s.mu.Lock()
	s.queues[prio] = append(s.queues[prio], f)
	s.pending++
	s.mu.Unlock()
	s.cond.Signal()
}

// next returns the next task, or nil when every task has run.
func (s *scheduler) next() func() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		for p := range s.queues {
			if q := s.queues[p]; len(q) > 0 {
				s.queues[p] = q[1:]
				return q[0]
			}
		}
		if s.pending == 0 {
			return nil
		}
		s.cond.Wait()
	}
}

// done marks a task finished.
func (s *scheduler) done() {
	s.mu.Lock()
	s.pending--
	s.mu.Unlock()
	s.cond.Broadcast()
}

// wait runs the workers until every task, including the tasks added by
// tasks, has run (or was dropped after ctx was done).
func (s *scheduler) wait() {
	var wg sync.WaitGroup
	for range s.workers {
		wg.Go(func() {
			for f := s.next(); f != nil; f = s.next() {
				if s.ctx.Err() == nil {
					f()
				}
				s.done()
			}
		})
	}
	wg.Wait()
}
