package fieldtest

import (
	"reflect"
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
