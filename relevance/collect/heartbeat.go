package collect

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"sync"
	"time"
)

// This file reports the test binary processes that run long: every
// Config.Heartbeat, an EventRunning per process still running, so that a
// benchmark with minutes of setup does not leave the collection silent.

// A Phase says what a test binary process runs for.
type Phase string

// The phases of [EventRunning].
const (
	// PhaseDiscovery: a discovery run, which runs a top-level benchmark
	// once (-test.benchtime 1x), setup included, to find its
	// sub-benchmarks.
	PhaseDiscovery Phase = "discovery"
	// PhaseMeasurement: a profile run, or with Source cover a coverage run,
	// of one benchmark.
	PhaseMeasurement Phase = "measurement"
)

// DefaultHeartbeat is the interval of EventRunning when [Config.Heartbeat]
// is zero.
const DefaultHeartbeat = 30 * time.Second

// A tracked process is one test binary process that has run for a while.
type tracked struct {
	pkg, name string
	phase     Phase
	start     time.Time
	next      time.Duration // elapsed time of its next EventRunning
}

// heartbeat holds the processes running, for EventRunning.
type heartbeat struct {
	mu      sync.Mutex
	running map[*tracked]bool
}

// track runs f, which runs a test binary process of the given phase for
// benchmark name of package pkg, and tracks the process while f runs.
func (c *collector) track(phase Phase, pkg, name string, f func() procResult) procResult {
	if c.cfg.heartbeat() <= 0 {
		return f()
	}
	t := &tracked{pkg: pkg, name: name, phase: phase, start: time.Now(), next: c.cfg.heartbeat()}
	c.beats.mu.Lock()
	if c.beats.running == nil {
		c.beats.running = map[*tracked]bool{}
	}
	c.beats.running[t] = true
	c.beats.mu.Unlock()
	defer func() {
		c.beats.mu.Lock()
		delete(c.beats.running, t)
		c.beats.mu.Unlock()
	}()
	return f()
}

// beat emits an EventRunning for every process whose elapsed time has
// passed its next multiple of the heartbeat, until ctx is done.
func (c *collector) beat(ctx context.Context) {
	every := c.cfg.heartbeat()
	if every <= 0 {
		return
	}
	tick := time.NewTicker(min(every/4, time.Second))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			var due []Event
			c.beats.mu.Lock()
			for t := range c.beats.running {
				if elapsed := now.Sub(t.start); elapsed >= t.next {
					for t.next <= elapsed {
						t.next += every
					}
					due = append(due, Event{Kind: EventRunning, Package: t.pkg, Name: t.name, Phase: t.phase, Elapsed: elapsed})
				}
			}
			c.beats.mu.Unlock()
			sortEvents(due)
			for _, ev := range due {
				c.emit(ev)
			}
		}
	}
}

// sortEvents orders the events of one beat by package, then name, so
// their order does not depend on map iteration.
func sortEvents(evs []Event) {
	slices.SortFunc(evs, func(a, b Event) int {
		return cmp.Or(strings.Compare(a.Package, b.Package), strings.Compare(a.Name, b.Name), strings.Compare(string(a.Phase), string(b.Phase)))
	})
}
