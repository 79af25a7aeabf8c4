package runseed_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/internal/runseed"
)

// TestPatch: the go command's own runtime/rand.go takes the edits, and a
// rand.go without a piece an edit relies on, or with it twice, is an error
// naming the file and the piece.
func TestPatch(t *testing.T) {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	require.NoError(t, err)
	real, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "src", "runtime", "rand.go"))
	require.NoError(t, err)
	init := "\tglobalRand.state.Init(*seed)\n"
	tests := []struct {
		name string
		src  string
		err  string // "" when the patch must succeed
	}{
		{"this Go release", string(real), ""},
		{"seed line missing", strings.Replace(string(real), init, "", 1), "globalRand.state.Init(*seed)"},
		{"rand changed", strings.Replace(string(real), "func rand() uint64 {\n", "func rand() (x uint64) {\n", 1), "func rand() uint64 {"},
		{"cheaprand line twice", string(real) + "\tmp.cheaprand = rand()\n", "mp.cheaprand = rand()\" 2 times"},
		{"empty", "", "0 times"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := runseed.Patch("/goroot/src/runtime/rand.go", []byte(tt.src))
			if tt.err != "" {
				require.ErrorIs(t, err, runseed.ErrUnfit, "a caller counts with Go's own runtime")
				assert.Contains(t, err.Error(), "/goroot/src/runtime/rand.go")
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			for _, s := range []string{"\tmboptSeed(seed)\n" + init, "\tif mboptFixed {\n\t\treturn mboptRand()\n\t}\n", "mp.cheaprand = mboptCheap()"} {
				assert.Contains(t, string(got), s)
			}
		})
	}
}

// TestSeed: a run's seed is never 0, repeats for the same schedule seed,
// trial and run, and differs between runs, trials and schedule seeds.
func TestSeed(t *testing.T) {
	seen := map[uint64]string{}
	for base := range uint64(3) {
		for trial := range 20 {
			for run := range 20 {
				s := runseed.Seed(base, trial, run)
				require.NotZero(t, s)
				require.Equal(t, s, runseed.Seed(base, trial, run))
				key := strings.Join([]string{string(rune('0' + base)), string(rune('a' + trial)), string(rune('a' + run))}, "/")
				if prev, ok := seen[s]; ok {
					t.Fatalf("seed %d of %s and %s", s, prev, key)
				}
				seen[s] = key
			}
		}
	}
}

// probe prints the iteration order of a map, two draws of math/rand/v2's
// global source and a map's order built after the process started a
// thread (a blocking system call in another goroutine).
const probe = `package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"time"
)

func order(n int) []int {
	m := map[int]bool{}
	for i := range n {
		m[i] = true
	}
	var ks []int
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

func main() {
	a := order(12)
	done := make(chan bool)
	go func() {
		f, _ := os.Open(os.DevNull)
		for range 100 {
			f.Read(make([]byte, 1))
		}
		time.Sleep(time.Millisecond)
		done <- true
	}()
	<-done
	fmt.Println(a, rand.IntN(1<<30), rand.IntN(1<<30), order(12))
}
`

// TestOverlay: a program built with the overlay prints the same map
// orders and random numbers in every process that sets the same seed,
// others for another seed, and, without the variable, different ones in
// each process as Go's own runtime does.
// TestOverlayOldRelease: a Go release without runtime/rand.go (before Go
// 1.22) is ErrUnfit, which the comparison counts with Go's own runtime,
// saying so; a go command that fails is another error.
func TestOverlayOldRelease(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the overlay is for Linux")
	}
	dir := t.TempDir()
	goroot := filepath.Join(dir, "goroot")
	require.NoError(t, os.MkdirAll(filepath.Join(goroot, "src", "runtime"), 0o755))
	fakeGo := filepath.Join(dir, "go")
	require.NoError(t, os.WriteFile(fakeGo, []byte("#!/bin/sh\nprintf '%s\\nlinux\\n' "+goroot+"\n"), 0o755))
	_, _, err := runseed.Overlay(context.Background(), fakeGo, dir, nil, filepath.Join(dir, "overlay"))
	require.ErrorIs(t, err, runseed.ErrUnfit)
	assert.Contains(t, err.Error(), "rand.go")
	failing := filepath.Join(dir, "gofail")
	require.NoError(t, os.WriteFile(failing, []byte("#!/bin/sh\necho broken >&2\nexit 1\n"), 0o755))
	_, _, err = runseed.Overlay(context.Background(), failing, dir, nil, filepath.Join(dir, "overlay"))
	require.Error(t, err)
	assert.NotErrorIs(t, err, runseed.ErrUnfit)
}

func TestOverlay(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the runtime with the overlay (about 30 s the first time); skipped with -short")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the overlay is for Linux")
	}
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module probe\n\ngo 1.24\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte(probe), 0o644))
	replace, key, err := runseed.Overlay(context.Background(), "", dir, nil, filepath.Join(dir, "overlay"))
	require.NoError(t, err)
	require.Len(t, replace, 2)
	assert.Len(t, key, 16)
	overlay := filepath.Join(dir, "overlay.json")
	require.NoError(t, runseed.WriteOverlay(overlay, replace))
	bin := filepath.Join(dir, "probe")
	build := exec.Command("go", "build", "-overlay", overlay, "-o", bin, ".")
	build.Dir = dir
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	run := func(env ...string) string {
		t.Helper()
		cmd := exec.Command(bin)
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.Output()
		require.NoError(t, err)
		return string(out)
	}
	fixed := run(runseed.Env(7))
	for range 4 {
		assert.Equal(t, fixed, run(runseed.Env(7)), "the same seed")
		assert.Equal(t, fixed, run(runseed.Env(7), "GOMAXPROCS=4"), "the same seed, more threads")
	}
	assert.NotEqual(t, fixed, run(runseed.Env(8)), "another seed")
	free := map[string]bool{}
	for range 4 {
		free[run()] = true
	}
	assert.Len(t, free, 4, "without %s every process draws its own: %v", runseed.EnvVar, free)
}
