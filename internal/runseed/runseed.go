// Package runseed fixes the Go runtime's random seed in a test binary that
// mbopt counts instructions of, so that map layouts, map iteration order
// and the runtime's random sources (math/rand/v2's global functions,
// hash/maphash seeds) repeat across processes.
//
// Every one of them comes from the runtime's random state, which a Go
// process seeds from the kernel at start-up (runtime/rand.go, randinit):
// a benchmark that builds a map or draws its inputs in its setup costs a
// different number of instructions per operation in each process. Measured
// on a 2-core machine, 8 processes each: a lookup benchmark on a 40-key map
// of random keys spread over 16.8% (1,546–1,820 instructions/op, sd 5.9%),
// sorting 300 random ints drawn in setup 5.7% (sd 2.1%), ranging over a
// 60-key map 4.7%; with the seed fixed, 0.03–0.05% (sd ≤ 0.016%).
// docs/metrics.md ("The runtime's seed") has the table and the rule for
// choosing the seeds.
//
// [Overlay] writes a go build -overlay that replaces the runtime's
// rand.go, read from the GOROOT of the go command in use, with a copy
// edited in three places, and adds one file. A binary built with it
// behaves as Go's own unless its environment sets [EnvVar] ([Env]); then
// (1) the global random state is seeded from that value, (2) the
// runtime's rand (maps' seeds and iteration starts, the random packages'
// global sources) draws from one counter-based stream shared by all
// threads instead of each thread's own, whose draws depend on which
// thread ran the code, and (3) a new thread's cheap random state is drawn
// from the global state instead of the calling thread's stream, so that
// starting a thread, which happens when the scheduler likes, moves no
// later draw. The seed alone is not enough: with (1) only, the same
// benchmarks still spread over 2.0–5.5% (which thread ran the setup).
//
// The edits are checked: when a Go release changes the code they rely
// on, Overlay fails with [ErrUnfit] and the file and the text it did not
// find, rather than build a binary whose seed is not fixed; the
// comparison then counts with Go's own runtime and says so.
package runseed

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// EnvVar is the environment variable that sets the seed of a binary built
// with [Overlay]: a decimal unsigned integer.
const EnvVar = "MBOPT_RUNTIME_SEED"

// Env returns the environment entry that sets seed.
func Env(seed uint64) string { return EnvVar + "=" + strconv.FormatUint(seed, 10) }

// Seed returns the seed of run run of trial trial of a schedule drawn
// from base: the same for both versions of a comparison, so that their
// measurements of one run see the same map layouts and random inputs,
// and different from run to run, so that a change that moves the
// benchmark's random draws is measured over several layouts rather than
// one that happens to suit one version. It is never 0.
func Seed(base uint64, trial, run int) uint64 {
	return max(1, mix(mix(base)^uint64(trial)<<32^uint64(run)))
}

// mix is SplitMix64's output function.
func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// An edit replaces one piece of rand.go, which must occur exactly once.
type edit struct{ old, new string }

// edits are the changes to runtime/rand.go (see the package documentation).
var edits = []edit{
	{"\tglobalRand.state.Init(*seed)\n", "\tmboptSeed(seed)\n\tglobalRand.state.Init(*seed)\n"},
	{"func rand() uint64 {\n", "func rand() uint64 {\n\tif mboptFixed {\n\t\treturn mboptRand()\n\t}\n"},
	{"\tmp.cheaprand = rand()\n", "\tmp.cheaprand = mboptCheap()\n"},
}

// added is the file the overlay adds to package runtime, with the import
// path of the runtime's atomics in place of "ATOMIC". It reads EnvVar from
// the process's environment before the runtime has parsed it, as the
// runtime's getGodebugEarly reads GODEBUG.
const added = `package runtime

// Added by mbopt (internal/runseed): the runtime's random seed from ` + EnvVar + `.

import (
	"ATOMIC"
	"unsafe"
)

var (
	mboptFixed   bool
	mboptBase    uint64
	mboptCounter uint64
)

func mboptSeed(seed *[32]byte) {
	const prefix = "` + EnvVar + `="
	n := int32(0)
	for argv_index(argv, argc+1+n) != nil {
		n++
	}
	for i := int32(0); i < n; i++ {
		p := argv_index(argv, argc+1+i)
		s := unsafe.String(p, findnull(p))
		if len(s) <= len(prefix) || s[:len(prefix)] != prefix {
			continue
		}
		var v uint64
		for _, c := range []byte(s[len(prefix):]) {
			if c < '0' || c > '9' {
				return
			}
			v = v*10 + uint64(c-'0')
		}
		mboptFixed, mboptBase = true, v
		for j := range seed {
			seed[j] = byte(mboptMix(v + uint64(j)))
		}
		return
	}
}

//go:nosplit
func mboptMix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

//go:nosplit
func mboptRand() uint64 {
	return mboptMix(mboptBase*0x9e3779b97f4a7c15 + atomic.Xadd64(&mboptCounter, 1))
}

func mboptCheap() uint64 {
	if mboptFixed {
		return bootstrapRand()
	}
	return rand()
}
`

// ErrUnfit is the error of [Overlay] and [Patch] when the Go release's
// runtime is not the one the edits fit (no runtime/rand.go before Go
// 1.22, or code a later release changed): the seed cannot be fixed, and
// a caller may count with Go's own runtime instead, saying so.
var ErrUnfit = errors.New("the runtime's random seed cannot be fixed in this Go release")

// Overlay writes, into dir, the runtime files and the go build -overlay
// file that fix the runtime's seed for the go command goCmd ("" means
// "go") run in moduleDir with env (nil means the process's), and returns
// the overlay's Replace map (the runtime's file paths to the written
// copies) and a key that changes with their contents, for a build cache.
// It returns nil and "" when the target is not Linux: the edited code
// reads the environment as the runtime does on Linux only.
func Overlay(ctx context.Context, goCmd, moduleDir string, env []string, dir string) (replace map[string]string, key string, err error) {
	if goCmd == "" {
		goCmd = "go"
	}
	cmd := exec.CommandContext(ctx, goCmd, "env", "GOROOT", "GOOS")
	cmd.Dir, cmd.Env = moduleDir, env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, "", fmt.Errorf("go env GOROOT GOOS in %s: %v: %s", moduleDir, err, strings.TrimSpace(stderr.String()))
	}
	f := strings.Fields(string(out))
	if len(f) != 2 {
		return nil, "", fmt.Errorf("go env GOROOT GOOS in %s printed %q, not two lines", moduleDir, out)
	}
	goroot, goos := f[0], f[1]
	if goos != "linux" {
		return nil, "", nil
	}
	src := filepath.Join(goroot, "src", "runtime", "rand.go")
	data, err := os.ReadFile(src)
	if err != nil {
		return nil, "", fmt.Errorf("%w: reading the runtime's rand.go: %v", ErrUnfit, err)
	}
	patched, err := Patch(src, data)
	if err != nil {
		return nil, "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, "", err
	}
	replace = map[string]string{
		src: filepath.Join(dir, "rand.go"),
		filepath.Join(goroot, "src", "runtime", "mbopt_runseed.go"): filepath.Join(dir, "mbopt_runseed.go"),
	}
	// The runtime's atomics moved in Go 1.23.
	atomicPkg := "internal/runtime/atomic"
	if _, err := os.Stat(filepath.Join(goroot, "src", filepath.FromSlash(atomicPkg))); err != nil {
		atomicPkg = "runtime/internal/atomic"
	}
	addedFile := strings.Replace(added, `"ATOMIC"`, strconv.Quote(atomicPkg), 1)
	h := sha256.New()
	for _, c := range [][]byte{[]byte(src), patched, []byte(addedFile)} {
		h.Write(c)
		h.Write([]byte{0})
	}
	if err := os.WriteFile(replace[src], patched, 0o644); err != nil {
		return nil, "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "mbopt_runseed.go"), []byte(addedFile), 0o644); err != nil {
		return nil, "", err
	}
	return replace, hex.EncodeToString(h.Sum(nil))[:16], nil
}

// Patch returns the runtime's rand.go (read from file, which names it in
// errors) with the edits that fix its seed. A piece of code an edit
// relies on that is missing or not unique is an error: the Go release
// changed it, and the seed cannot be fixed.
func Patch(file string, src []byte) ([]byte, error) {
	s := string(src)
	for _, e := range edits {
		if n := strings.Count(s, e.old); n != 1 {
			return nil, fmt.Errorf("%w: %s: found %q %d times, not once: this Go release's runtime differs from what mbopt's edits expect", ErrUnfit, file, strings.TrimSpace(e.old), n)
		}
		s = strings.Replace(s, e.old, e.new, 1)
	}
	return []byte(s), nil
}

// WriteOverlay writes replace as a go build -overlay file at path.
func WriteOverlay(path string, replace map[string]string) error {
	data, err := json.Marshal(map[string]map[string]string{"Replace": replace})
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
