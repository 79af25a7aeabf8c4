package selfprofile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/pprof/profile"
)

func TestStop(t *testing.T) {
	for _, keep := range []bool{true, false} {
		dir := t.TempDir()
		path := filepath.Join(dir, "cpu.pprof")
		p, err := Start(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("keep %v: %s exists before Stop: %v", keep, path, err)
		}
		if err := p.Stop(keep); err != nil {
			t.Fatal(err)
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if !keep {
			if len(entries) != 0 {
				t.Errorf("keep false left %v", entries)
			}
			continue
		}
		if len(entries) != 1 {
			t.Fatalf("keep true left %v, want only the profile", entries)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := profile.ParseData(data); err != nil {
			t.Errorf("not a CPU profile: %v", err)
		}
	}
}

func TestStartErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Start(filepath.Join(dir, "missing", "cpu.pprof")); err == nil || errors.Is(err, ErrProfiler) {
		t.Errorf("Start in a missing directory: %v, want the file's error", err)
	}
	p, err := Start(filepath.Join(dir, "first.pprof"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop(false)
	if _, err := Start(filepath.Join(dir, "second.pprof")); !errors.Is(err, ErrProfiler) {
		t.Errorf("a second Start: %v, want ErrProfiler", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("a failed Start left %v", entries)
	}
}
