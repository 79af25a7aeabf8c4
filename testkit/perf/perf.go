// Package perf measures what mbopt's performance benchmarks report besides
// ns/op: the live heap of their inputs, the peak heap and runtime memory
// while the timed part runs, and the process's CPU time. It is test
// support: only _test.go files import it.
//
// The metrics [Peak.Report] adds, per benchmark:
//
//   - input-MB: the live heap of the inputs (graphs, profiles, coverage)
//     before the timed part, measured by [LiveHeap], when not 0;
//   - peak-heap-MB: the largest heap (live and not yet collected objects)
//     while the timed part ran, sampled every 5 ms;
//   - peak-sys-MB: the largest memory the Go runtime held from the OS
//     (mapped, not released: about its share of the RSS), sampled likewise;
//   - cpu-ms/op: the user and system CPU time the process used per op, a
//     steadier figure than ns/op on a shared machine (it also counts the
//     garbage collector's background work).
//
// scripts/bench.sh reads these names.
package perf

import (
	"runtime"
	"runtime/metrics"
	"syscall"
	"testing"
	"time"
)

var memMetrics = []string{"/memory/classes/heap/objects:bytes", "/memory/classes/total:bytes", "/memory/classes/heap/released:bytes"}

// LiveHeap collects garbage and returns the bytes of live heap objects.
func LiveHeap() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: memMetrics[0]}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// A Peak samples the heap and the memory the runtime holds from the OS
// every 5 ms, from [Start] until [Peak.Report].
type Peak struct {
	stop        chan struct{}
	done        chan struct{}
	heap, total uint64
	cpu         time.Duration
}

// cpuTime returns the user and system CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Start starts sampling; call it right before the timed loop.
func Start() *Peak {
	p := &Peak{stop: make(chan struct{}), done: make(chan struct{}), cpu: cpuTime()}
	go func() {
		defer close(p.done)
		s := []metrics.Sample{{Name: memMetrics[0]}, {Name: memMetrics[1]}, {Name: memMetrics[2]}}
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			p.heap = max(p.heap, s[0].Value.Uint64())
			p.total = max(p.total, s[1].Value.Uint64()-s[2].Value.Uint64())
			select {
			case <-p.stop:
				return
			case <-t.C:
			}
		}
	}()
	return p
}

// Report stops sampling and reports cpu-ms/op, the peaks, and inputs (the
// live heap before the timed part) when not 0, in MB. Call it once, after
// b.StopTimer.
func (p *Peak) Report(b *testing.B, inputs uint64) {
	cpu := cpuTime() - p.cpu
	close(p.stop)
	<-p.done
	b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	const mb = 1 << 20
	if inputs > 0 {
		b.ReportMetric(float64(inputs)/mb, "input-MB")
	}
	b.ReportMetric(float64(p.heap)/mb, "peak-heap-MB")
	b.ReportMetric(float64(p.total)/mb, "peak-sys-MB")
}
