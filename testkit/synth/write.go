package synth

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/google/pprof/profile"
)

// Files lists what [Suite.WriteDir] wrote.
type Files struct {
	// App is the application profile's path.
	App string
	// MicroDir is the directory of the benchmark profiles, one
	// "<ID>.pprof" per benchmark.
	MicroDir string
	// Micro lists the benchmark profiles in benchmark order.
	Micro []string
	// MicroBytes is the total size of the benchmark profiles.
	MicroBytes int64
}

// WriteDir writes the suite as gzipped pprof files, as 'go test
// -cpuprofile' does: dir/app.pprof and dir/micro/<ID>.pprof for every
// benchmark. Profiles are generated and written by up to workers goroutines
// (0 means GOMAXPROCS); the files' contents do not depend on it.
func (s *Suite) WriteDir(dir string, workers int) (*Files, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	fs := &Files{App: filepath.Join(dir, "app.pprof"), MicroDir: filepath.Join(dir, "micro")}
	if err := os.MkdirAll(fs.MicroDir, 0o755); err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	if _, err := writeProfile(fs.App, s.App()); err != nil {
		return nil, err
	}
	fs.Micro = make([]string, len(s.benches))
	sizes := make([]int64, len(s.benches))
	errs := make([]error, len(s.benches))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, max(1, len(s.benches))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				fs.Micro[k] = filepath.Join(fs.MicroDir, s.benches[k].ID+".pprof")
				sizes[k], errs[k] = writeProfile(fs.Micro[k], s.Benchmark(k))
			}
		}()
	}
	for k := range s.benches {
		next <- k
	}
	close(next)
	wg.Wait()
	for k, err := range errs {
		if err != nil {
			return nil, err
		}
		fs.MicroBytes += sizes[k]
	}
	return fs, nil
}

// writeProfile writes p gzipped to path and returns the file's size.
func writeProfile(path string, p *profile.Profile) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, fmt.Errorf("synth: %w", err)
	}
	w := bufio.NewWriter(f)
	err = p.Write(w)
	if err == nil {
		err = w.Flush()
	}
	var size int64
	if err == nil {
		var st os.FileInfo
		if st, err = f.Stat(); err == nil {
			size = st.Size()
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, fmt.Errorf("synth: writing %s: %w", path, err)
	}
	return size, nil
}

// CorpusConfig is the shape of the end-to-end corpus of 'make bench': 1,000
// benchmark profiles of about 50 KB each (about 50 MB gzipped), exercising
// 200 to 4,000 functions of a 20,000-function application.
var CorpusConfig = Config{Seed: 1, AppNodes: 20000, Benchmarks: 1000, MinBenchNodes: 200, MaxBenchNodes: 4000}

// Cached returns the files of cfg written under root, in a directory named
// after cfg and [Version]: written once (by up to GOMAXPROCS goroutines)
// and reused by later calls and processes, rewritten if incomplete. A
// complete directory holds a file named "complete", written last; the
// directory is renamed into place whole, so a concurrent writer never
// leaves a partial one.
func Cached(root string, cfg Config) (*Files, error) {
	key := sha256.Sum256(fmt.Appendf(nil, "v%d %+v", Version, cfg))
	dir := filepath.Join(root, fmt.Sprintf("mbopt-bench-corpus-%x", key[:6]))
	s := New(cfg)
	if fs, ok := s.complete(dir); ok {
		return fs, nil
	}
	tmp, err := os.MkdirTemp(root, "mbopt-bench-corpus-tmp-")
	if err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	defer os.RemoveAll(tmp)
	if _, err := s.WriteDir(tmp, 0); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(tmp, "complete"), nil, 0o644); err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	os.RemoveAll(dir)
	if err := os.Rename(tmp, dir); err != nil {
		// Another process may have just written it.
		if fs, ok := s.complete(dir); ok {
			return fs, nil
		}
		return nil, fmt.Errorf("synth: %w", err)
	}
	if fs, ok := s.complete(dir); ok {
		return fs, nil
	}
	return nil, fmt.Errorf("synth: %s is incomplete right after writing it", dir)
}

// complete returns the files of s in dir and whether they are all there.
func (s *Suite) complete(dir string) (*Files, bool) {
	if _, err := os.Stat(filepath.Join(dir, "complete")); err != nil {
		return nil, false
	}
	fs := &Files{App: filepath.Join(dir, "app.pprof"), MicroDir: filepath.Join(dir, "micro")}
	for _, bm := range s.benches {
		path := filepath.Join(fs.MicroDir, bm.ID+".pprof")
		st, err := os.Stat(path)
		if err != nil {
			return nil, false
		}
		fs.Micro = append(fs.Micro, path)
		fs.MicroBytes += st.Size()
	}
	return fs, true
}
