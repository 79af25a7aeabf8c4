package flow

import (
	"context"
	"errors"
	"testing"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare"
)

// TestRefusedBeforeAnything checks the settings Compare and Merge refuse
// before they open or run anything: a history file with NoHistory, and a
// merge's application-impact threshold without its gate.
func TestRefusedBeforeAnything(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		run  func() error
		want string
	}{
		{"compare", func() error {
			_, err := Compare(context.Background(), CompareConfig{Options: compare.Options{Dir: dir, Bench: "."}, History: "h.db", NoHistory: true})
			return err
		}, "Config.NoHistory and Config.History h.db contradict each other: give one"},
		{"merge", func() error {
			_, err := Merge(context.Background(), MergeConfig{Dirs: []string{dir}, History: "h.db", NoHistory: true})
			return err
		}, "Config.NoHistory and Config.History h.db contradict each other: give one"},
		{"merge app-impact threshold without the gate", func() error {
			v := 0.01
			_, err := Merge(context.Background(), MergeConfig{Dirs: []string{dir}, AppImpactThreshold: &v})
			return err
		}, "Config.AppImpactThreshold applies to Config.FailOn app-impact only"},
	}
	for _, tt := range tests {
		err := tt.run()
		if err == nil || err.Error() != tt.want || !errors.Is(err, mbopt.ErrInput) {
			t.Errorf("%s: %v, want the input error %q", tt.name, err, tt.want)
		}
	}
}
