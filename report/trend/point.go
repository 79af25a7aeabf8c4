package trend

import (
	"encoding/json"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/culprit"
	"github.com/mbopt/mbopt/compare/detect"
)

// pointJSON is the JSON form of a [Point] in schema 1, which predates
// the one point type: the head as a [Revision], the detectors' threshold
// as "threshold" and the comparison's verdict under "judged". It holds no
// field of its own: every one is read from or to a Point.
type pointJSON struct {
	Head Revision `json:"head"`
	detect.Point
	Threshold float64           `json:"threshold"`
	BaseValue float64           `json:"base_value,omitempty"`
	HeadValue float64           `json:"head_value,omitempty"`
	Judged    judged            `json:"judged"`
	Impact    *callgraph.Impact `json:"impact,omitempty"`
	*culprit.AppImpact
	Culprits []string `json:"culprits,omitempty"`
	Base     string   `json:"base,omitempty"`
}

// judged is a comparison's own verdict on a point, and the threshold it
// was taken against (omitted when not stored), kept as it was whatever
// was calibrated since.
type judged struct {
	Verdict   benchstats.Verdict `json:"verdict"`
	Threshold float64            `json:"threshold,omitempty"`
}

// MarshalJSON writes p in schema 1: head (commit, subject, time, depth),
// change, ci, threshold (the detectors'), base_value, head_value, judged
// (verdict and threshold, as the comparison judged the point), impact,
// the app_impact fields, culprits and base; the stored comparison's id
// and the head's spec are not part of it.
func (p Point) MarshalJSON() ([]byte, error) {
	h := p.Head
	return json.Marshal(pointJSON{
		Head:  Revision{Commit: h.Commit, Subject: h.Subject, Time: h.Time, Depth: h.Depth},
		Point: p.Point.Point, Threshold: p.DetectThreshold,
		BaseValue: p.BaseValue, HeadValue: p.HeadValue,
		Judged: judged{Verdict: p.Verdict, Threshold: p.Threshold},
		Impact: p.Impact, AppImpact: p.AppImpact, Culprits: p.Culprits, Base: p.Base,
	})
}

// UnmarshalJSON reads what [Point.MarshalJSON] writes.
func (p *Point) UnmarshalJSON(data []byte) error {
	var j pointJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*p = Point{DetectThreshold: j.Threshold}
	p.Head = compare.Revision{Commit: j.Head.Commit, Subject: j.Head.Subject, Time: j.Head.Time, Depth: j.Head.Depth}
	p.Point.Point = j.Point
	p.BaseValue, p.HeadValue = j.BaseValue, j.HeadValue
	p.Verdict, p.Threshold = j.Judged.Verdict, j.Judged.Threshold
	p.Impact, p.AppImpact, p.Culprits, p.Base = j.Impact, j.AppImpact, j.Culprits, j.Base
	return nil
}
