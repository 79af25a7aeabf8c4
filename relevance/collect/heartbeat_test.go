package collect_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/relevance/collect"
	"github.com/mbopt/mbopt/relevance/manifest"
)

// TestHeartbeatAndDiscovery collects the slowsetup fixture
// (../testdata/slowsetup, its setup shortened to 2s): while the processes
// run, Progress gets EventRunning with the phase, and EventDiscoverStart
// when a discovery run starts: a discovery run for the
// benchmark that calls b.Run and none for the one that does not; a
// discovery timeout shorter than the setup gives that benchmark a timeout
// entry that says what to do, while the other is collected.
func TestHeartbeatAndDiscovery(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs testdata/slowsetup")
	}
	const pkg = "example.com/slowsetup/slow"
	run := func(cfg collect.Config) (*manifest.Manifest, []collect.Event) {
		t.Helper()
		var mu sync.Mutex
		var evs []collect.Event
		cfg.Dir, cfg.Out, cfg.Env = "../../testdata/slowsetup", t.TempDir(), []string{"MBOPT_SLOWSETUP=2s"}
		cfg.Source, cfg.Scope, cfg.Heartbeat = manifest.SourceCover, manifest.ScopeAll, 500*time.Millisecond
		cfg.Progress = func(ev collect.Event) {
			mu.Lock()
			defer mu.Unlock()
			evs = append(evs, ev)
		}
		m, err := collect.Collect(t.Context(), cfg)
		require.NoError(t, err)
		return m, evs
	}

	m, evs := run(collect.Config{})
	beats := map[string]bool{}
	var discovered, started []string
	for _, ev := range evs {
		switch ev.Kind {
		case collect.EventDiscoverStart:
			started = append(started, ev.Name)
		case collect.EventRunning:
			assert.GreaterOrEqual(t, ev.Elapsed, 500*time.Millisecond)
			beats[string(ev.Phase)+" "+ev.Name] = true
		case collect.EventDiscover:
			discovered = append(discovered, ev.Name)
		}
	}
	assert.True(t, beats["discovery BenchmarkSlowCases"], "heartbeats: %v", beats)
	assert.True(t, beats["measurement BenchmarkSlow"], "heartbeats: %v", beats)
	assert.True(t, beats["measurement BenchmarkSlowCases/n=16"], "heartbeats: %v", beats)
	assert.False(t, beats["discovery BenchmarkSlow"], "BenchmarkSlow calls no b.Run: no discovery run")
	assert.Equal(t, []string{"BenchmarkSlowCases"}, discovered)
	assert.Equal(t, []string{"BenchmarkSlowCases"}, started)
	assert.Equal(t, 3, m.Count(manifest.StatusOK), "%+v", m.Benchmarks)

	m, _ = run(collect.Config{DiscoveryTimeout: time.Second})
	slow, ok := m.Lookup(pkg + ".BenchmarkSlow")
	require.True(t, ok)
	assert.Equal(t, manifest.StatusOK, slow.Status, "no discovery run, so no discovery timeout")
	cases, ok := m.Lookup(pkg + ".BenchmarkSlowCases")
	require.True(t, ok, "%+v", m.Benchmarks)
	assert.Equal(t, manifest.StatusTimeout, cases.Status)
	first, _, _ := strings.Cut(cases.Error, "\n")
	assert.Equal(t, "finding the sub-benchmarks of BenchmarkSlowCases took longer than the discovery timeout, 1s (a -benchtime 1x run, its setup included): collect it as one unit (mbopt profile --sub=false; Config.TopLevelOnly), leave it out (--skip; Config.Skip), or give discovery longer (--discovery-timeout; Config.DiscoveryTimeout)", first)
}
