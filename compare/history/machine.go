package history

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/mbopt/mbopt/compare"
)

// A Machine is where a comparison ran. Results of different machines (or
// settings) are never mixed in one series.
type Machine struct {
	// GOOS and GOARCH are the target of the benchmarks' test binaries.
	GOOS, GOARCH string
	// CPU is the processor's model name, "" when unknown.
	CPU string
	// GoVersion is the Go toolchain that built the test binaries, such
	// as "go1.26.8".
	GoVersion string
}

// String returns "GOOS/GOARCH, CPU, GoVersion", leaving out what is
// unknown.
func (m Machine) String() string {
	parts := []string{m.GOOS + "/" + m.GOARCH}
	for _, s := range []string{m.CPU, m.GoVersion} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, ", ")
}

// ThisMachine returns the machine mbopt runs on, with goVersion as the Go
// version (the toolchain that builds the test binaries, which may differ
// from the one that built mbopt). The CPU model comes from /proc/cpuinfo
// on Linux and is empty elsewhere.
func ThisMachine(goVersion string) Machine {
	return Machine{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, CPU: cpuModel(), GoVersion: goVersion}
}

func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// MachineOfRaw returns the machine that wrote raw, benchmark results in
// the Go benchmark format: GOOS, GOARCH and CPU from its "goos:",
// "goarch:" and "cpu:" configuration lines, goVersion as the Go version.
// compare merge stores the shards' results under it: they ran elsewhere
// than the merge. Shards that ran on different CPUs give their models
// sorted and joined by " + "; a line that is missing leaves its field
// empty.
func MachineOfRaw(raw []byte, goVersion string) Machine {
	m := Machine{GoVersion: goVersion}
	var cpus []string
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || strings.ContainsAny(k, " \t") {
			continue
		}
		v = strings.TrimSpace(v)
		switch k {
		case "goos":
			m.GOOS = v
		case "goarch":
			m.GOARCH = v
		case "cpu":
			if !slices.Contains(cpus, v) {
				cpus = append(cpus, v)
			}
		}
	}
	slices.Sort(cpus)
	m.CPU = strings.Join(cpus, " + ")
	return m
}

// SettingsHash returns a short hash of the settings that shape a
// measurement and its interval: the schedule (trials, runs, count,
// benchtime), the metric (cpu and instructions; time, the default, adds
// nothing) and the statistics (confidence, resamples). The seed,
// threshold, budget, stop rule and --benchmem are left out: results that
// differ only in them belong to one series (--benchmem adds the B/op and
// allocs/op units, which are series of their own anyway).
func SettingsHash(s compare.Settings) string {
	key := struct {
		Trials, Runs, Count int
		BenchTime           string
		Confidence          float64
		Resamples           int
		// Metric is omitted for the time metric, so the hashes of
		// comparisons before it existed stay the same.
		Metric string `json:",omitempty"`
	}{s.Trials, s.Runs, s.Count, s.BenchTime, s.Confidence, s.Resamples, string(s.Metric)}
	b, err := json.Marshal(key)
	if err != nil {
		panic("history: " + err.Error()) // plain fields always marshal
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:6])
}

// SettingsDiff names the settings of the hash ([SettingsHash]) in which a
// and b differ, each as it is in a, such as "count 10": what separates two
// series of one benchmark. It is empty when a and b hash alike.
func SettingsDiff(a, b compare.Settings) []string {
	var out []string
	add := func(name string, x, y any) {
		if x != y {
			out = append(out, fmt.Sprintf("%s %v", name, x))
		}
	}
	add("trials", a.Trials, b.Trials)
	add("runs", a.Runs, b.Runs)
	add("count", a.Count, b.Count)
	add("benchtime", a.BenchTime, b.BenchTime)
	add("confidence", a.Confidence, b.Confidence)
	add("resamples", a.Resamples, b.Resamples)
	if a.Metric != b.Metric {
		m := string(a.Metric)
		if m == "" {
			m = "time"
		}
		out = append(out, "metric "+m)
	}
	return out
}
