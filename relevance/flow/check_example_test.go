package flow_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/mbopt/mbopt/relevance/flow"
)

// ParseWorkloads reads workload commands as a command line gives them: each
// NAME=CMD is a scenario, and a leading variable assignment needs env.
func ExampleParseWorkloads() {
	plain, workloads, err := flow.ParseWorkloads([]string{"read=go run ./cmd/load -mix read -cpuprofile {profile}", "write=go run ./cmd/load -mix write -cpuprofile {profile}"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q\n", plain)
	for _, w := range workloads {
		fmt.Println(w.Name+":", w.Command)
	}
	_, _, err = flow.ParseWorkloads([]string{"GOGC=off go run ./cmd/load {profile}"})
	fmt.Println(err)
	// Output:
	// ""
	// read: go run ./cmd/load -mix read -cpuprofile {profile}
	// write: go run ./cmd/load -mix write -cpuprofile {profile}
	// Config.AppCommand GOGC=off go run ./cmd/load {profile}: GOGC= could be a scenario name or an environment variable; write 'env GOGC=...' for a variable, or name the scenario in lower case
}

// Check is mbopt check, the drift check of a saved suite; a file that is
// not a saved suite is bad input that says how to write one.
func ExampleCheck() {
	dir, err := os.MkdirTemp("", "flow-check")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "suite.json")
	if err := os.WriteFile(path, []byte(`{"benchmarks": []}`), 0o644); err != nil {
		log.Fatal(err)
	}
	_, _, err = flow.Check(context.Background(), flow.CheckConfig{SuiteFile: path, Dir: dir})
	fmt.Println(strings.ReplaceAll(err.Error(), dir, "DIR"))
	// Output:
	// Config.SuiteFile DIR/suite.json: not a suite written by mbopt suite --format json: no "invocations" list; write it with 'mbopt suite --format json -o DIR/suite.json'
}
