package history

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"runtime"
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

// SettingsHash returns a short hash of the settings that shape a
// measurement and its interval: the schedule (trials, runs, count,
// benchtime, benchmem) and the statistics (confidence, resamples). The
// seed, threshold, budget and stop rule are left out: results that differ
// only in them belong to one series.
func SettingsHash(s compare.Settings) string {
	key := struct {
		Trials, Runs, Count int
		BenchTime           string
		Benchmem            bool
		Confidence          float64
		Resamples           int
	}{s.Trials, s.Runs, s.Count, s.BenchTime, s.Benchmem, s.Confidence, s.Resamples}
	b, err := json.Marshal(key)
	if err != nil {
		panic("history: " + err.Error()) // plain fields always marshal
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:6])
}
