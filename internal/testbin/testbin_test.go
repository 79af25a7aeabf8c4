package testbin

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestTailBufferKeepsTheTail(t *testing.T) {
	var b TailBuffer
	chunk := bytes.Repeat([]byte("x"), MaxOutput/2)
	for range 5 {
		b.Write(chunk)
	}
	b.Write([]byte("END"))
	got := b.Bytes()
	if !bytes.HasPrefix(got, []byte("[output truncated]\n")) || !bytes.HasSuffix(got, []byte("END")) || len(got) > 2*MaxOutput+100 {
		t.Errorf("TailBuffer kept %d bytes starting %q", len(got), got[:20])
	}
}

func TestBuildError(t *testing.T) {
	for _, tc := range []struct{ out, want string }{
		{"# example.com/m/broken\nbroken.go:5:17: cannot use x\n\n", "broken.go:5:17: cannot use x"},
		{"# example.com/faults/broken [example.com/faults/broken.test]\nbroken/broken.go:5:17: cannot use x\n\n", "broken/broken.go:5:17: cannot use x"},
		{"# a\na.go:1: x\r\n# b\nb.go:2: y\n", "a.go:1: x\nb.go:2: y"},
		{"", ""},
	} {
		if got := BuildError([]byte(tc.out)); got != tc.want {
			t.Errorf("BuildError(%q) = %q, want %q", tc.out, got, tc.want)
		}
	}
}

func TestRunTimeoutAndCancel(t *testing.T) {
	r := Run(context.Background(), t.TempDir(), nil, 100*time.Millisecond, "sleep", "10")
	if !r.TimedOut || r.Err == nil || r.Wall > 5*time.Second {
		t.Errorf("timeout: %+v", r)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r := Run(ctx, t.TempDir(), nil, time.Minute, "sleep", "10"); r.Err != context.Canceled {
		t.Errorf("canceled: Err = %v, want context.Canceled", r.Err)
	}
	if r := Run(context.Background(), t.TempDir(), nil, time.Minute, "echo", "hi"); r.Err != nil || string(r.Output) != "hi\n" {
		t.Errorf("echo: %+v", r)
	}
}

func TestBenchmarkNames(t *testing.T) {
	for _, tc := range []struct {
		out  string
		want []string
	}{
		{"BenchmarkA\nBenchmarkB\n", []string{"BenchmarkA", "BenchmarkB"}},
		{"BenchmarkA\r\n  BenchmarkB  \n", []string{"BenchmarkA", "BenchmarkB"}},
		{"TestX\nExampleY\nBenchmarkA\nok  \texample.com/m\t0.01s\n", []string{"BenchmarkA"}},
		{"Benchmark with space\n", nil},
		{"", nil},
	} {
		if got := BenchmarkNames([]byte(tc.out)); !slices.Equal(got, tc.want) {
			t.Errorf("BenchmarkNames(%q) = %q, want %q", tc.out, got, tc.want)
		}
	}
}

// TestBuildAndList builds the test binaries of a small module's packages
// and lists their benchmarks.
func TestBuildAndList(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test -c")
	}
	mod := t.TempDir()
	for name, content := range map[string]string{
		"go.mod":           "module example.com/m\n\ngo 1.22\n",
		"a/a.go":           "package a\n\nfunc F() int { return 1 }\n",
		"a/a_test.go":      "package a\n\nimport \"testing\"\n\nfunc BenchmarkZ(b *testing.B) {}\nfunc BenchmarkA(b *testing.B) {}\nfunc TestT(t *testing.T) {}\n",
		"notests/n.go":     "package notests\n",
		"broken/broken.go": "package broken\n\nvar x int = \"s\"\n",
		"broken/b_test.go": "package broken\n",
	} {
		p := filepath.Join(mod, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	bin := filepath.Join(t.TempDir(), "a.test")
	b := Build{Dir: mod, Env: env, Flags: []string{"-gcflags=all=-l"}, Package: "./a", Out: bin}
	if got, want := strings.Join(b.Args(), " "), "test -c -o "+bin+" -gcflags=all=-l ./a"; got != want {
		t.Errorf("Args = %q, want %q", got, want)
	}
	if out, err := b.Run(context.Background()); err != nil {
		t.Fatalf("building ./a: %v\n%s", err, out)
	}
	names, r := List(context.Background(), filepath.Join(mod, "a"), env, time.Minute, bin)
	if r.Err != nil || !slices.Equal(names, []string{"BenchmarkZ", "BenchmarkA"}) {
		t.Errorf("List = %q, %+v; want the benchmarks in declaration order", names, r)
	}

	none := filepath.Join(t.TempDir(), "notests.test")
	if out, err := (Build{Dir: mod, Env: env, Package: "./notests", Out: none}).Run(context.Background()); err != nil {
		t.Errorf("building a package without tests: %v\n%s", err, out)
	}
	if _, err := os.Stat(none); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a package without test files built %s (%v)", none, err)
	}

	out, err := (Build{Dir: mod, Env: env, Package: "./broken", Out: filepath.Join(t.TempDir(), "broken.test")}).Run(context.Background())
	if msg := BuildError(out); err == nil || !strings.Contains(msg, "broken.go:3:") || strings.HasPrefix(msg, "#") {
		t.Errorf("a broken package: err %v, message %q", err, msg)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := b.Run(ctx); err != context.Canceled {
		t.Errorf("canceled build: err = %v, want context.Canceled", err)
	}
}
