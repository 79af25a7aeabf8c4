package interrupt

import (
	"context"
	"os"
	"slices"
	"syscall"
	"testing"
	"time"
)

func TestExitCode(t *testing.T) {
	tests := []struct {
		sig  os.Signal
		want int
	}{
		{syscall.SIGINT, 130},
		{syscall.SIGTERM, 143},
		{syscall.SIGHUP, 129},
		{nil, 130},
	}
	for _, tt := range tests {
		if got := ExitCode(tt.sig); got != tt.want {
			t.Errorf("ExitCode(%v) = %d, want %d", tt.sig, got, tt.want)
		}
	}
}

func TestCleanupOrderAndUnregister(t *testing.T) {
	var got []string
	Register(func() { got = append(got, "first") })
	unregister := Register(func() { got = append(got, "removed") })
	Register(func() { got = append(got, "last") })
	unregister()
	Cleanup()
	Cleanup() // forgotten after the first run
	if want := []string{"last", "first"}; !slices.Equal(got, want) {
		t.Errorf("cleanups ran as %q, want %q", got, want)
	}
}

// forced records the watchdog's call of force.
type forced struct{ sig chan os.Signal }

func newForced() *forced { return &forced{sig: make(chan os.Signal, 1)} }

func (f *forced) force(sig os.Signal) { f.sig <- sig }

func (f *forced) wait(t *testing.T, within time.Duration) os.Signal {
	t.Helper()
	select {
	case sig := <-f.sig:
		return sig
	case <-time.After(within):
		t.Fatalf("the watchdog did not fire within %v", within)
		return nil
	}
}

func kill(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if err := syscall.Kill(os.Getpid(), sig); err != nil {
		t.Fatal(err)
	}
}

func TestWatchCancelsThenForcesAfterGrace(t *testing.T) {
	f := newForced()
	cleaned := make(chan bool, 1)
	defer Register(func() { cleaned <- true })()
	w := Watch(context.Background(), 50*time.Millisecond, f.force)
	defer w.Stop()
	kill(t, syscall.SIGHUP)
	select {
	case <-w.Context().Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the first signal did not cancel the context")
	}
	if sig := w.Signal(); sig != syscall.SIGHUP {
		t.Errorf("Signal() = %v, want SIGHUP", sig)
	}
	if sig := f.wait(t, 5*time.Second); sig != syscall.SIGHUP {
		t.Errorf("force got %v, want SIGHUP", sig)
	}
	select {
	case <-cleaned:
	default:
		t.Error("the registered cleanup did not run before force")
	}
}

func TestWatchForcesAtSecondSignal(t *testing.T) {
	f := newForced()
	w := Watch(context.Background(), time.Hour, f.force)
	defer w.Stop()
	kill(t, syscall.SIGTERM)
	<-w.Context().Done()
	kill(t, syscall.SIGINT)
	if sig := f.wait(t, 5*time.Second); sig != syscall.SIGTERM {
		t.Errorf("force got %v, want the first signal, SIGTERM", sig)
	}
}

func TestStopDisarmsTheWatchdog(t *testing.T) {
	f := newForced()
	w := Watch(context.Background(), 20*time.Millisecond, f.force)
	if w.Signal() != nil {
		t.Errorf("Signal() = %v before any signal", w.Signal())
	}
	w.Stop()
	w.Stop()
	if w.Context().Err() == nil {
		t.Error("Stop did not cancel the context")
	}
	select {
	case sig := <-f.sig:
		t.Errorf("force called with %v after Stop", sig)
	case <-time.After(100 * time.Millisecond):
	}
}
