package culprit_test

import (
	"math"
	"testing"

	"github.com/mbopt/mbopt/culprit"
)

func TestImpact(t *testing.T) {
	prof := func(m map[string]float64) *culprit.Profile {
		p := &culprit.Profile{Unit: "instructions", Type: "instructions"}
		for f, v := range m {
			p.Samples = append(p.Samples, culprit.Sample{Function: f, Value: v})
		}
		return p
	}
	tests := []struct {
		name                string
		base, head, app     map[string]float64
		rel, lo, hi         float64
		want, wantLo, wantH float64
		share               float64
		noImpact            bool
	}{
		{
			name: "change in a function the application spends 40% in",
			base: map[string]float64{"p.hot": 100, "p.cold": 100}, head: map[string]float64{"p.hot": 150, "p.cold": 100},
			app: map[string]float64{"p.hot": 0.4}, rel: 0.25, lo: 0.2, hi: 0.3,
			want: 0.2, wantLo: 0.16, wantH: 0.24, share: 1,
		},
		{
			name: "change outside the application",
			base: map[string]float64{"p.hot": 100, "p.cold": 100}, head: map[string]float64{"p.hot": 100, "p.cold": 200},
			app: map[string]float64{"p.hot": 0.4}, rel: 0.5, lo: 0.4, hi: 0.6,
			noImpact: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := culprit.Compare(prof(tt.base), prof(tt.head), tt.app)
			a := culprit.Impact(d, tt.app, tt.rel, tt.lo, tt.hi)
			near := func(x, y float64) bool { return math.Abs(x-y) < 1e-9 }
			if !near(a.Estimate, tt.want) || !near(a.Low, tt.wantLo) || !near(a.High, tt.wantH) || !near(a.RelevantShare, tt.share) || a.NoImpact != tt.noImpact {
				t.Errorf("got %+v, want estimate %v [%v, %v] share %v no-impact %v", a, tt.want, tt.wantLo, tt.wantH, tt.share, tt.noImpact)
			}
		})
	}
}
