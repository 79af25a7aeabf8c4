package flow

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mbopt/mbopt"
)

// TestCheckSettings: what Check refuses before it reads anything, each
// naming the settings at fault.
func TestCheckSettings(t *testing.T) {
	tests := []struct {
		name string
		cfg  CheckConfig
		want string
	}{
		{"no suite", CheckConfig{}, "Config.SuiteFile is required"},
		{"coverage out of range", CheckConfig{SuiteFile: "s.json", MinCoverage: 101}, "Config.MinCoverage must be a percentage in [0, 100], not 101"},
		{"app without micro", CheckConfig{SuiteFile: "s.json", App: []string{"a.pprof"}}, "Config.App and Config.Micro go together"},
		{"coverage without profiles", CheckConfig{SuiteFile: "s.json", MinCoverage: 90}, "Config.MinCoverage needs Config.App and Config.Micro"},
	}
	for _, tt := range tests {
		_, _, err := Check(context.Background(), tt.cfg)
		if assert.Error(t, err, tt.name) {
			assert.Contains(t, err.Error(), tt.want, tt.name)
			assert.True(t, errors.Is(err, mbopt.ErrInput), "%s: an input error", tt.name)
		}
	}
}
