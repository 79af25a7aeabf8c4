package analysis

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/recommend"
	"github.com/mbopt/mbopt/relevance/staticcg"
)

// EdgesNote says which call edges the recommendations walked when
// Config.Edges asked for static ones, and how the recommendations differ
// from those of the sampled edges alone. It is a [Note].
type EdgesNote struct {
	// Stats describes the edges (see staticcg.Stats).
	Stats staticcg.Stats
	// Picks are the recommendations made, and SampledPicks those the
	// sampled edges alone give, each as "function +N" (N the project
	// nodes it adds), in pick order.
	Picks, SampledPicks []string
}

// Note marks the note as information.
func (*EdgesNote) Note() {}

// Error returns the note with the fields named as Go code names them.
func (n *EdgesNote) Error() string { return n.Text(mbopt.Field.String) }

// Text returns the note with the fields named by name.
func (n *EdgesNote) Text(name func(mbopt.Field) string) string {
	st := n.Stats
	which := "static call edges"
	if st.Edges == staticcg.Both {
		which = "sampled and static call edges"
	}
	s := fmt.Sprintf("recommendations walked %s (%s %s): %d edges between the application's functions, %d static edges of which %d were not sampled",
		which, name(FieldEdges), st.Edges, st.Result, st.Static, st.Static-st.Common)
	if st.Edges == staticcg.Static {
		s += fmt.Sprintf(", %d sampled edges not in the static graph", st.Sampled-st.Common)
	}
	if slices.Equal(n.Picks, n.SampledPicks) {
		return s + "; the same recommendations as with sampled edges only"
	}
	return s + "; with sampled edges only they would be: " + picksText(n.SampledPicks)
}

func picksText(picks []string) string {
	if len(picks) == 0 {
		return "none"
	}
	return strings.Join(picks, ", ")
}

// UnmatchedFunctionsWarning says that project functions of the application
// have no function in the static call graph, so no static edge touches
// them: the source given to the static analysis may not be the profiled
// program's, or names differ (see staticcg.Name).
type UnmatchedFunctionsWarning struct {
	// Functions are the project functions without a static function,
	// sorted.
	Functions []string
	// Dir is where the source was loaded from.
	Dir string
}

// Error returns the warning with the fields named as Go code names them.
func (w *UnmatchedFunctionsWarning) Error() string { return w.Text(mbopt.Field.String) }

// Text returns the warning with the fields named by name.
func (w *UnmatchedFunctionsWarning) Text(name func(mbopt.Field) string) string {
	return fmt.Sprintf("%d project functions of the application are not in the static call graph of %s (%s), so no static edge touches them; check that %s is the profiled program's source",
		len(w.Functions), w.Dir, textutil.List(w.Functions, 3), name(FieldStaticDir))
}

// recommendations runs Algorithm 3 on the application graph with the edges
// cfg.Edges chooses, adding to rep the edge statistics and notes.
func recommendations(ctx context.Context, cfg Config, rep *Report, opts recommend.Options) (*recommend.Result, error) {
	sampled := recommend.Additional(rep.Coverage, rep.Coverage.Covered, opts)
	if cfg.Edges == staticcg.Sampled {
		return sampled, nil
	}
	sg := cfg.StaticGraph
	dir := cfg.Static.Dir
	if dir == "" {
		dir = cfg.Dir
	}
	if dir == "" {
		dir = "."
	}
	if sg == nil {
		sopts := cfg.Static
		sopts.Dir = dir
		var err error
		sg, err = staticcg.Build(ctx, sopts)
		if err != nil {
			if errors.Is(err, staticcg.ErrLoad) {
				return nil, mbopt.Errorf("%w (%s names the application's source for %s %s)", err, FieldStaticDir, FieldEdges, cfg.Edges)
			}
			return nil, err
		}
	}
	app, st := staticcg.Apply(rep.Coverage.App, sg, cfg.Edges)
	rep.Edges = &st
	if len(st.Unmatched) > 0 {
		rep.Warnings = append(rep.Warnings, &UnmatchedFunctionsWarning{Functions: st.Unmatched, Dir: dir})
	}
	cov := *rep.Coverage
	cov.App = app
	res := recommend.Additional(&cov, rep.Coverage.Covered, opts)
	rep.Warnings = append(rep.Warnings, &EdgesNote{Stats: st, Picks: picks(rep.Coverage, res), SampledPicks: picks(rep.Coverage, sampled)})
	return res, nil
}

// picks returns res's recommendations as "function +N".
func picks(cov *coverage.Result, res *recommend.Result) []string {
	var out []string
	for _, r := range res.Recommendations {
		out = append(out, fmt.Sprintf("%s +%d", shortName(r.Function), r.AddedProject))
	}
	return out
}

// shortName drops a function name's import path up to its last '/':
// "example.com/m/httpapi.(*Server).handle" → "httpapi.(*Server).handle".
func shortName(name string) string {
	pkg := callgraph.PackageOf(name)
	if i := strings.LastIndexByte(pkg, '/'); i >= 0 {
		return name[i+1:]
	}
	return name
}
