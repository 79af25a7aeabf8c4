package culprit_test

import (
	"math"
	"strings"
	"testing"

	"github.com/mbopt/mbopt/culprit"
)

func TestReadValgrind(t *testing.T) {
	tests := []struct {
		name, in string
		want     []culprit.Sample
		err      string
	}{
		{
			name: "cachegrind",
			in:   "desc: I1 cache:\ncmd: x\nevents: Ir\nfl=/a.go\nfn=p.F\n3 10\n4 5\n3 1\nfn=p.G\n9 2\nsummary: 18\n",
			want: []culprit.Sample{{Symbol: "p.F", File: "/a.go", Line: 3, Value: 11}, {Symbol: "p.F", File: "/a.go", Line: 4, Value: 5}, {Symbol: "p.G", File: "/a.go", Line: 9, Value: 2}},
		},
		{
			name: "callgrind compressed, inlined file, call cost skipped",
			in:   "positions: line\nevents: Ir\nfl=(1) /a.go\nfn=(1) p.F\n3 10\nfi=(2) /b.go\n+2 4\nfe=(1)\n-1 1\ncfl=(1)\ncfn=(2) p.G\ncalls=1 9\n* 100\nfn=(2)\n9 100\n",
			want: []culprit.Sample{{Symbol: "p.F", File: "/a.go", Line: 3, Value: 10}, {Symbol: "p.F", File: "/b.go", Line: 5, Value: 4}, {Symbol: "p.F", File: "/a.go", Line: 4, Value: 1}, {Symbol: "p.G", File: "/a.go", Line: 9, Value: 100}},
		},
		{name: "no events", in: "fl=/a.go\nfn=p.F\n3 10\n", err: "no \"events:\" line"},
		{name: "bad count", in: "events: Ir\nfl=/a.go\nfn=p.F\n3 x\n", err: "in.out:4: count \"x\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := culprit.ReadValgrind(strings.NewReader(tt.in), "in.out")
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %+v\nwant %+v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("sample %d: got %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

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
