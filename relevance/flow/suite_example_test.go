package flow_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/pprof/profile"

	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/flow"
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/testkit/proftest"
)

// Suite is mbopt suite: the optimized suite of an analysis as go test
// invocations; here the application and the two benchmarks of the paper's
// Figure 6.2, then the same with a selection that stops before its first
// pick, which is an error saying why the suite is empty.
func ExampleSuite() {
	dir, err := os.MkdirTemp("", "flow-suite")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	app, b1, b2 := proftest.Figure62()
	for name, p := range map[string]*profile.Profile{"app.pprof": app, "micro/one.pprof": b1, "micro/two.pprof": b2} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			log.Fatal(err)
		}
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			log.Fatal(err)
		}
		if err := p.Write(f); err != nil {
			log.Fatal(err)
		}
		f.Close()
	}
	m := &manifest.Manifest{Version: manifest.SchemaVersion, Module: proftest.Figure62Module, BenchTime: "1s",
		Benchmarks: []manifest.Entry{
			{ID: "example.com/fig/app.BenchmarkOne", Package: "example.com/fig/app", Dir: "app", Name: "BenchmarkOne", Status: manifest.StatusOK, Profile: "one.pprof", WallSeconds: 1},
			{ID: "example.com/fig/other.BenchmarkTwo", Package: "example.com/fig/other", Dir: "other", Name: "BenchmarkTwo", Status: manifest.StatusOK, Profile: "two.pprof", WallSeconds: 1},
		}}
	if err := m.Write(filepath.Join(dir, "micro")); err != nil {
		log.Fatal(err)
	}
	cfg := analysis.Config{App: []string{filepath.Join(dir, "app.pprof")}, Micro: []string{filepath.Join(dir, "micro")}, Modules: []string{proftest.Figure62Module}}
	res, err := flow.Suite(context.Background(), flow.SuiteConfig{Config: cfg})
	if err != nil {
		log.Fatal(err)
	}
	for _, inv := range res.Invocations {
		fmt.Println(inv.Package, inv.Benchmarks)
	}
	fmt.Println(res.Log())
	cfg.Select.MinGain = 100
	_, err = flow.Suite(context.Background(), flow.SuiteConfig{Config: cfg})
	fmt.Println(strings.ReplaceAll(err.Error(), dir, "DIR"))
	// Output:
	// example.com/fig/app [BenchmarkOne]
	// example.com/fig/other [BenchmarkTwo]
	// [2 of 2 benchmarks in 2 packages]
	// DIR/micro: the suite is empty: the selection flags (Config.Select.Budget 0s, Config.Select.MinGain 100, Config.Select.Top 0) left no benchmark although 5 of 10 project functions (Config.Modules example.com/fig) are covered; loosen them, or pass Config.AllowEmpty
}
