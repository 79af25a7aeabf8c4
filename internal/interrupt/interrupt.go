// Package interrupt ends mbopt promptly and cleanly on SIGINT, SIGTERM and
// SIGHUP, whatever it is doing.
//
// The first signal cancels a context ([Watcher.Context]): every stage that
// honours its context stops, and the command returns normally. A goroutine
// blocked where no context reaches (an open(2) of a named pipe nobody
// writes, a write to a full pipe) cannot stop that way, so a watchdog ends
// the process when it has not stopped within a grace period after the first
// signal, or at once at a second signal: it runs the cleanups registered
// with [Register] (removing temporary files, killing child process groups)
// and calls the command's force function, which exits.
//
// Exit status: a run ended by a signal exits with 128 plus the signal's
// number, as a shell reports a process killed by it ([ExitCode]): 130 for
// SIGINT, 143 for SIGTERM, 129 for SIGHUP.
package interrupt

import (
	"context"
	"os"
	"os/signal"
	"slices"
	"sync"
	"syscall"
	"time"
)

// Signals are the signals that interrupt mbopt.
var Signals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// ExitCode returns the exit status of a run ended by sig: 128 plus the
// signal number (130 SIGINT, 143 SIGTERM, 129 SIGHUP). A nil sig, for a run
// cancelled some other way, gives 130, the status of an interrupt.
func ExitCode(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 128 + int(syscall.SIGINT)
}

var registry struct {
	sync.Mutex
	next int
	fns  map[int]func()
}

// Register adds fn to the cleanups that [Cleanup] runs when the watchdog
// ends the process, and returns a function that removes it again (call it
// once the resource fn cleans up is gone). fn must be quick and must not
// block: the process is exiting. It is safe for concurrent use.
func Register(fn func()) (unregister func()) {
	registry.Lock()
	defer registry.Unlock()
	if registry.fns == nil {
		registry.fns = map[int]func(){}
	}
	id := registry.next
	registry.next++
	registry.fns[id] = fn
	return func() {
		registry.Lock()
		delete(registry.fns, id)
		registry.Unlock()
	}
}

// Cleanup runs every registered cleanup once, the most recently registered
// first, and forgets them.
func Cleanup() {
	registry.Lock()
	ids := make([]int, 0, len(registry.fns))
	for id := range registry.fns {
		ids = append(ids, id)
	}
	fns := registry.fns
	registry.fns = nil
	registry.Unlock()
	slices.Sort(ids)
	for _, id := range slices.Backward(ids) {
		fns[id]()
	}
}

// A Watcher cancels a context at the first of [Signals] and ends the
// process when that does not stop it in time.
type Watcher struct {
	ctx    context.Context
	cancel context.CancelFunc
	ch     chan os.Signal
	done   chan struct{}
	stop   sync.Once

	mu  sync.Mutex
	sig os.Signal
}

// Watch starts watching [Signals]. The first one cancels the Watcher's
// context; when the Watcher is not stopped within grace after it, or at a
// second signal, Watch's goroutine runs [Cleanup] and then force with the
// first signal. force must end the process (os.Exit); Watch does not
// return to normal operation after it.
func Watch(parent context.Context, grace time.Duration, force func(os.Signal)) *Watcher {
	ctx, cancel := context.WithCancel(parent)
	w := &Watcher{ctx: ctx, cancel: cancel, ch: make(chan os.Signal, 2), done: make(chan struct{})}
	signal.Notify(w.ch, Signals...)
	go w.watch(grace, force)
	return w
}

func (w *Watcher) watch(grace time.Duration, force func(os.Signal)) {
	var first os.Signal
	select {
	case first = <-w.ch:
	case <-w.done:
		return
	}
	w.mu.Lock()
	w.sig = first
	w.mu.Unlock()
	w.cancel()
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case <-w.done:
		return
	case <-w.ch:
	case <-timer.C:
	}
	Cleanup()
	force(first)
}

// Context returns the context that the first signal cancels.
func (w *Watcher) Context() context.Context { return w.ctx }

// Signal returns the first signal received, or nil.
func (w *Watcher) Signal() os.Signal {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.sig
}

// Stop stops watching: the watchdog will not fire, the context is
// cancelled, and later signals have their default effect again. It is safe
// to call more than once.
func (w *Watcher) Stop() {
	w.stop.Do(func() {
		signal.Stop(w.ch)
		close(w.done)
		w.cancel()
	})
}
