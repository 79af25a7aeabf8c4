package fieldtest

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

type inner struct{ Dir string }

type embedded struct{ Shard int }

type config struct {
	embedded
	Settings  inner
	Scenarios []inner
	Static    *inner
	ByName    map[string]inner
	hidden    string
}

func TestIn(t *testing.T) {
	// An unexported field is never a setting, even when set.
	typ := reflect.TypeOf(config{hidden: "set"})
	for _, tt := range []struct {
		path string
		want bool
	}{
		{"Settings", true},
		{"Settings.Dir", true},
		{"Scenarios.Dir", true},
		{"Static.Dir", true},
		{"ByName.Dir", true},
		{"Shard", true}, // promoted from the embedded struct
		{"Settings.Missing", false},
		{"Missing", false},
		{"Settings.Dir.More", false},
		{"hidden", false},
	} {
		if got := In(typ, tt.path); got != tt.want {
			t.Errorf("In(config, %q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

func TestFieldConsts(t *testing.T) {
	consts, err := fieldConsts("testdata")
	if err != nil {
		t.Fatal(err)
	}
	want := []fieldConst{{name: "FieldDir", path: "Dir"}, {name: "FieldSettingsDir", path: "Settings.Dir"}, {name: "FieldComputed"}}
	if len(consts) != len(want) {
		t.Fatalf("found %d constants, want %d: %+v", len(consts), len(want), consts)
	}
	for i, c := range consts {
		if c.name != want[i].name || c.path != want[i].path {
			t.Errorf("constant %d: %s = %q, want %s = %q", i, c.name, c.path, want[i].name, want[i].path)
		}
	}
}

// TestEveryPackageChecksItsFields: every package of the module that
// declares mbopt.Field constants calls Check in one of its tests, so that
// each constant is checked against its struct (the package doc's rule).
func TestEveryPackageChecksItsFields(t *testing.T) {
	root := "../.."
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if name := d.Name(); path != root && (name == "testdata" || strings.HasPrefix(name, ".")) {
			return filepath.SkipDir
		}
		consts, err := fieldConsts(path)
		if err != nil || len(consts) == 0 {
			return err
		}
		tests, err := filepath.Glob(filepath.Join(path, "*_test.go"))
		if err != nil {
			return err
		}
		for _, f := range tests {
			if b, err := os.ReadFile(f); err == nil && strings.Contains(string(b), "fieldtest.Check(") {
				checked++
				return nil
			}
		}
		t.Errorf("%s declares %d mbopt.Field constants (%s, ...) but no test calls fieldtest.Check", path, len(consts), consts[0].name)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 10 {
		t.Errorf("only %d packages check their fields", checked)
	}
	t.Logf("%d packages check their mbopt.Field constants", checked)
}
