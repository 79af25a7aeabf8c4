package trend_test

import (
	"fmt"
	"testing"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/detect"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/report/trend"
)

// TestBisectCommand: a jump or an E-divisive change point names the
// bisection from the point before it (the baseline before the first
// point) to its commit, in the series' metric; a trend, a fixed bound and
// a unit no metric measures name none.
func TestBisectCommand(t *testing.T) {
	const id = "example.com/m/query.BenchmarkQuery"
	commit := func(i int) string { return fmt.Sprintf("%040d", i) }
	tests := []struct {
		name  string
		unit  string
		index int
		kind  detect.Kind
		want  string
	}{
		{"jump", "sec/op", 2, detect.Jump,
			"mbopt bisect --bench BenchmarkQuery --good " + commit(1) + " --bad " + commit(2) + " --metric time example.com/m/query"},
		{"first point", "cpu-sec/op", 0, detect.Jump,
			"mbopt bisect --bench BenchmarkQuery --good " + commit(9) + " --bad " + commit(0) + " --metric cpu example.com/m/query"},
		{"edivisive", "instructions/op", 1, detect.EDivisive,
			"mbopt bisect --bench BenchmarkQuery --good " + commit(0) + " --bad " + commit(1) + " --metric instructions example.com/m/query"},
		{"trend", "sec/op", 2, detect.Trend, ""},
		{"fixed", "sec/op", 2, detect.Fixed, ""},
		{"no metric's unit", "B/op", 2, detect.Jump, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := history.Series{ID: id, Unit: tt.unit}
			for i := range 3 {
				s.Points = append(s.Points, history.Point{Head: compare.Revision{Commit: commit(i)}})
			}
			det := detect.Detection{Index: tt.index, Kind: tt.kind, Direction: detect.Up, Change: 0.1, Threshold: 0.02, Definite: true}
			doc := trend.NewDocument(compare.Revision{Commit: commit(9)}, detect.DefaultOptions,
				[]history.Detected{{Series: s, Thresholds: []float64{0.02, 0.02, 0.02}, Detections: []detect.Detection{det}}})
			if got := doc.Series[0].Detections[0].Bisect; got != tt.want {
				t.Errorf("bisect command\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}
