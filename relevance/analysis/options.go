package analysis

import (
	"strings"
	"time"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/optimize"
	"github.com/mbopt/mbopt/recommend"
	"github.com/mbopt/mbopt/relevance/staticcg"
)

// Options are the settings of an analysis as a command line or a file
// gives them: names for the enumerations and durations for the costs.
// [Options.Config] checks them and returns the Config they describe; its
// errors name the Config fields at fault, as Config's own do.
type Options struct {
	// App and Weights are the application profiles and the scenarios'
	// weights, as [ParseApps] reads them.
	App, Weights []string
	// Micro, Modules, Exclude and AppFunctions are Config's.
	Micro, Modules, Exclude, AppFunctions []string
	// Targets, Nodes, Impact and Edges name Config's values, as
	// recommend.ParseTargets, optimize.ParseNodes, coverage.ParseImpactKind
	// and staticcg.ParseEdges read them.
	Targets, Nodes, Impact, Edges string
	// StaticDir is Config.Static.Dir, which needs static Edges.
	StaticDir string
	// Recommend is Config's.
	Recommend int
	// KeepNegligible is Config's.
	KeepNegligible bool
	// Strict is Config's.
	Strict bool
	// AllowNonCPU is Config's.
	AllowNonCPU bool
	// Certify is Config's.
	Certify bool
	// Limits is Config's.
	Limits callgraph.Limits
	// Objective names Config.Select.Objective (optimize.ParseObjective);
	// "" is the default: caught when MDEs holds measurements (the suite
	// then keeps what the whole suite would catch; for benchmarks that are
	// function sets, which weigh no function, the analysis falls back to
	// nodes), nodes (Algorithm 2) otherwise.
	Objective string
	// Budget and DefaultCost are Config.Select's, as durations.
	Budget, DefaultCost time.Duration
	// CostsFile is Config.Select's.
	CostsFile string
	// Top is Config.Select's.
	Top int
	// MinGain is Config.Select's.
	MinGain int
	// Sensitivity asks for the detectable slowdowns (Config.Sensitivity),
	// with MDE as SensitivityConfig.DefaultMDE.
	Sensitivity bool
	// MDE is SensitivityConfig.DefaultMDE, of the detectable slowdowns
	// and of the caught objective; it needs one of them.
	MDE float64
	// MDEs are the benchmarks' measured minimum detectable effects, by
	// id (compare/flow.MeasuredMDEs reads them from a history): the
	// SensitivityConfig.MDEs of the detectable slowdowns and of the
	// caught objective, which they make the default Objective.
	MDEs map[string]float64
}

// Config checks o and returns the Config it describes. With inputs set, App
// and Micro are required.
func (o Options) Config(inputs bool) (Config, error) {
	nodes, err := optimize.ParseNodes(o.Nodes)
	if err != nil {
		return Config{}, FieldNodes.Errorf("%v", err)
	}
	impact, err := coverage.ParseImpactKind(o.Impact)
	if err != nil {
		return Config{}, FieldImpact.Errorf("%v", err)
	}
	switch {
	case inputs && len(o.App) == 0:
		return Config{}, mbopt.Errorf("%s is required: the application profile to compare against", FieldApp)
	case inputs && len(o.Micro) == 0:
		return Config{}, mbopt.Errorf("%s is required: a directory or files of benchmark profiles", FieldMicro)
	}
	if o.Recommend < -1 {
		return Config{}, mbopt.Errorf("%s must be -1 (no limit), 0 (none) or a positive count, not %d", FieldRecommend, o.Recommend)
	}
	targets, err := recommend.ParseTargets(o.Targets)
	if err != nil {
		return Config{}, FieldTargets.Errorf("%v", strings.TrimPrefix(err.Error(), "invalid targets "))
	}
	edges, err := staticcg.ParseEdges(o.Edges)
	if err != nil {
		return Config{}, FieldEdges.Errorf("%v", strings.TrimPrefix(err.Error(), "invalid edges "))
	}
	if o.StaticDir != "" && edges == staticcg.Sampled {
		return Config{}, mbopt.Errorf("%s is the source for static call edges: use it with %s static or both", FieldStaticDir, FieldEdges)
	}
	apps, scenarios, err := ParseApps(o.App, o.Weights)
	if err != nil {
		return Config{}, err
	}
	obj, err := o.objective()
	if err != nil {
		return Config{}, FieldSelectObjective.Errorf("%v", err)
	}
	if o.Budget < 0 {
		return Config{}, mbopt.Errorf("%s must be a positive duration such as 90s, not %s", FieldSelectBudget, o.Budget)
	}
	if o.DefaultCost < 0 {
		return Config{}, mbopt.Errorf("%s must be a positive duration such as 2s, not %s", FieldSelectDefaultCost, o.DefaultCost)
	}
	mdes := SensitivityConfig{DefaultMDE: o.MDE, MDEs: o.MDEs}
	var sens *SensitivityConfig
	switch {
	case o.Sensitivity:
		sens = &SensitivityConfig{DefaultMDE: o.MDE, MDEs: o.MDEs}
	case o.MDE != 0 && obj != optimize.Caught:
		return Config{}, mbopt.Errorf("%s is the typical minimum detectable effect of the detectable slowdowns and of %s caught: use it with %s or that objective", FieldSensitivityDefaultMDE, FieldSelectObjective, FieldSensitivity)
	}
	// Top and MinGain are checked by Run (SelectConfig).
	return Config{Sensitivity: sens,
		App: apps, Scenarios: scenarios, Micro: o.Micro, Modules: o.Modules, Nodes: nodes, Impact: impact,
		Exclude: o.Exclude, Targets: targets, Recommend: o.Recommend, KeepNegligible: o.KeepNegligible,
		AppFunctions: o.AppFunctions, Edges: edges, Static: staticcg.Options{Dir: o.StaticDir}, Strict: o.Strict,
		AllowNonCPU: o.AllowNonCPU, Limits: o.Limits, Certify: o.Certify,
		Select: SelectConfig{Objective: obj, byDefault: o.Objective == "" && obj == optimize.Caught, Caught: mdes, Budget: o.Budget.Seconds(), CostsFile: o.CostsFile,
			DefaultCost: o.DefaultCost.Seconds(), Top: o.Top, MinGain: o.MinGain},
	}, nil
}

// objective returns the objective o.Objective names, or for "" the
// default: optimize.Caught when o.MDEs holds measured MDEs (what the
// suite would catch is then known from measurements), else
// optimize.NodeCount, Algorithm 2.
func (o Options) objective() (optimize.Objective, error) {
	if o.Objective == "" {
		if len(o.MDEs) > 0 {
			return optimize.Caught, nil
		}
		return optimize.NodeCount, nil
	}
	return optimize.ParseObjective(o.Objective)
}
