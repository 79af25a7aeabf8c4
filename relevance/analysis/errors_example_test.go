package analysis_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"path/filepath"
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/relevance/analysis"
)

// Warnings are typed errors: pick one out with errors.As. A front end with
// its own names for the settings words a warning or an mbopt.Error its way
// with Text.
func ExampleReport_Warnings() {
	rep, err := analysis.Run(context.Background(), analysis.Config{
		App:   []string{"../../testdata/profiles/example/app.pprof"},
		Micro: []string{"../../testdata/profiles/example/micro"},
		Dir:   "../../testdata/example", // no Modules: read its go.mod
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, w := range rep.Warnings {
		var guess *analysis.ModuleFromGoModWarning
		if errors.As(w, &guess) {
			fmt.Println("module:", guess.Module)
			flag := func(f mbopt.Field) string { return "--module" }
			fmt.Println(strings.ReplaceAll(guess.Text(flag), guess.GoMod, filepath.Base(guess.GoMod)))
		}
	}

	_, err = analysis.Run(context.Background(), analysis.Config{Micro: []string{"profiles"}})
	var fe *mbopt.Error
	if errors.As(err, &fe) {
		fmt.Println(fe.Fields(), errors.Is(err, mbopt.ErrInput))
		fmt.Println(err)
	}
	// Output:
	// module: example.com/tinytsdb
	// project module example.com/tinytsdb taken from go.mod; use --module to choose another
	// [Config.App] true
	// no application profile: give at least one with Config.App
}
