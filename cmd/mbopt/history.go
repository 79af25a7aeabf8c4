package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/detect"
	"github.com/mbopt/mbopt/history"
	"github.com/mbopt/mbopt/input"
	"github.com/mbopt/mbopt/internal/gitrev"
	"github.com/mbopt/mbopt/internal/progress"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/measure"
	"github.com/mbopt/mbopt/report/site"
	"github.com/mbopt/mbopt/report/trend"
)

// historyOptions holds the history command's flag values.
type historyOptions struct {
	path        string
	baseline    string
	unit        string
	metric      string
	format      string
	output      string
	plot        string
	html        string
	detectors   string
	commitURL   string
	instability bool
	detect      detect.Options
	fixed       string
	benchmarks  []string
	// initialGiven is set when --initial-threshold was given, which then
	// replaces the calibrated thresholds.
	initialGiven bool
	// detectorsGiven and commitURLGiven are set when --detector and
	// --commit-url were given.
	detectorsGiven, commitURLGiven bool
}

func newCmdHistory(s *streams) *cobra.Command {
	o := &historyOptions{detect: detect.DefaultOptions}
	cmd := &cobra.Command{
		Use:   "history [BENCHMARK...] [flags]",
		Short: "Show benchmarks' changes over commits, with jump and trend detection",
		Example: `  $ mbopt history
  $ mbopt history example.com/tinytsdb/query.BenchmarkQuery --unit sec/op --plot plots/
  $ mbopt history --baseline v1.2.0 --format markdown -o history.md
  $ mbopt history --instability --plot plots/
  $ mbopt history --detector jump,trend,edivisive --html site/`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.benchmarks = args
			o.initialGiven = cmd.Flags().Changed("initial-threshold")
			if o.metric != "" {
				m, err := measure.ParseMetric(o.metric)
				if err != nil {
					return input.Errorf("--metric: %v", err)
				}
				if o.unit != "" && o.unit != m.Unit() {
					return input.Errorf("--metric %s shows the unit %s, but --unit is %s: give one of them", m, m.Unit(), o.unit)
				}
				o.unit = m.Unit()
			}
			o.detectorsGiven = cmd.Flags().Changed("detector")
			o.commitURLGiven = cmd.Flags().Changed("commit-url")
			if err := o.check(); err != nil {
				return err
			}
			return runHistory(cmd.Context(), s, o)
		},
	}
	cmd.AddCommand(newCmdHistoryRebaseline(s))
	f := cmd.Flags()
	f.StringVar(&o.path, "history", history.DefaultPath, "the history database mbopt compare writes")
	f.StringVar(&o.baseline, "baseline", "", "the base revision of the series (default: the base of the most stored comparisons)")
	f.StringVar(&o.unit, "unit", "", "show only this unit, such as sec/op (default: every unit)")
	f.StringVar(&o.metric, "metric", "", "show only the unit of this metric of mbopt compare: {time|cpu|instructions} (sec/op, cpu-sec/op, instructions/op)")
	f.StringVar(&o.format, "format", "text", "output format: {text|json|markdown}")
	f.StringVarP(&o.output, "output", "o", "", "write the output to this file (atomically) instead of stdout")
	f.StringVar(&o.plot, "plot", "", "write one SVG plot per series (or, with --instability, the instability CDF) into `DIR`")
	f.StringVar(&o.html, "html", "", "write the history as a static web site into `DIR` (replacing an earlier one)")
	f.StringVar(&o.detectors, "detector", "jump,trend", "the detectors: a comma-separated `LIST` of {jump|trend|edivisive}")
	f.StringVar(&o.commitURL, "commit-url", "", "with --html: the link of a commit, {commit} standing for its hash (default: GitHub's when the origin remote is on github.com)")
	f.BoolVar(&o.instability, "instability", false, "show the A/A instabilities and the initial thresholds calibrated from them")
	f.Float64Var(&o.detect.InitialThreshold, "initial-threshold", detect.DefaultOptions.InitialThreshold, "initial threshold of every benchmark, replacing the calibrated ones (default: calibrated from A/A comparisons, else 0.06)")
	f.Float64Var(&o.detect.Factor, "factor", detect.DefaultOptions.Factor, "dynamic threshold: this factor times the mean of the last CI widths")
	f.IntVar(&o.detect.Widths, "widths", detect.DefaultOptions.Widths, "dynamic threshold: how many earlier CI widths it averages")
	f.Float64Var(&o.detect.Floor, "floor", detect.DefaultOptions.Floor, "dynamic threshold: its lower bound")
	f.IntVar(&o.detect.Window, "window", detect.DefaultOptions.Window, "trend detection: the number of earlier commits the current one is compared with")
	f.StringVar(&o.fixed, "fixed", "", "fixed-value bounds `LOWER,UPPER` on the change against the baseline, such as -0.2,0.2 (default: none)")
	return cmd
}

// check validates the flags, naming the flag at fault.
func (o *historyOptions) check() error {
	if err := cli.Enum("--format", o.format, "text", "json", "markdown"); err != nil {
		return err
	}
	if o.instability && o.format == "markdown" {
		return input.Errorf("--format markdown: --instability writes text or json")
	}
	if o.fixed != "" {
		lo, hi, ok := strings.Cut(o.fixed, ",")
		l, err1 := strconv.ParseFloat(strings.TrimSpace(lo), 64)
		h, err2 := strconv.ParseFloat(strings.TrimSpace(hi), 64)
		if !ok || err1 != nil || err2 != nil || !(l < h) {
			return input.Errorf("--fixed %s: want LOWER,UPPER relative changes with LOWER < UPPER, such as -0.2,0.2", o.fixed)
		}
		o.detect.Fixed = &detect.Bounds{Lower: l, Upper: h}
	}
	if o.detectorsGiven {
		kinds, err := detect.ParseDetectors(o.detectors)
		if err != nil {
			return cli.Word(err, nil)
		}
		o.detect.Detectors = kinds
	}
	if err := o.detect.Check(); err != nil {
		return cli.Word(err, nil)
	}
	if o.html != "" && o.instability {
		return input.Errorf("--html: --instability writes text, json or plots")
	}
	if o.commitURLGiven {
		if o.html == "" {
			return input.Errorf("--commit-url: it links the commits of --html; give --html DIR")
		}
		if err := site.CheckCommitURL(o.commitURL); err != nil {
			return input.Errorf("--commit-url: %v", err)
		}
	}
	if o.output != "" {
		if err := cli.CheckOutput(o.output); err != nil {
			return err
		}
		if err := cli.CheckNotInput("-o", o.output, history.Files(o.path)...); err != nil {
			return err
		}
	}
	return nil
}

// openHistory opens an existing history database for reading; a missing
// one is bad input that says how to make one, and so is a file that is not
// a history (left untouched).
func openHistory(ctx context.Context, path string) (*history.Store, error) {
	st, err := history.OpenReadOnly(ctx, path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, input.Errorf("--history %s: no history database; mbopt compare writes one (unless --no-history)", path)
	}
	if err != nil {
		return nil, input.Errorf("--history %s: %v", path, strings.TrimPrefix(err.Error(), "history: "+path+": "))
	}
	return st, nil
}

func runHistory(ctx context.Context, s *streams, o *historyOptions) error {
	st, err := openHistory(ctx, o.path)
	if err != nil {
		return err
	}
	defer st.Close()
	if o.instability {
		return runInstability(ctx, s, o, st)
	}
	q := history.Query{Baseline: o.baseline, Benchmarks: o.benchmarks, Unit: o.unit}
	set, err := st.Series(ctx, q)
	if errors.Is(err, history.ErrBaseline) {
		// Not a stored base's prefix: perhaps a revision name.
		if c, gerr := gitrev.Commit(ctx, ".", o.baseline); gerr == nil {
			q.Baseline = c
			set, err = st.Series(ctx, q)
		}
	}
	switch {
	case errors.Is(err, history.ErrEmpty):
		return input.Errorf("--history %s: %v; run mbopt compare to add some", o.path, err)
	case errors.Is(err, history.ErrBaseline):
		return input.Wrap(fmt.Errorf("--baseline: %w", err))
	case err != nil:
		return input.Errorf("--history %s: %v", o.path, strings.TrimPrefix(err.Error(), "history: "+o.path+": "))
	}
	for _, b := range set.Unmatched {
		cli.Warnf(s.Err, "%s: no stored result against baseline %s matches this benchmark", b, short(set.Baseline.Commit))
	}
	for _, sr := range set.Series {
		for _, sk := range sr.Skipped {
			cli.Warnf(s.Err, "%s (%s): the result of comparison %d at %s is left out: %s", sr.ID, sr.Unit, sk.Comparison, short(sk.Head.Commit), sk.Reason)
		}
	}
	if len(set.Series) == 0 {
		return input.Errorf("no series against baseline %s matches the arguments and --unit %q", short(set.Baseline.Commit), o.unit)
	}
	var given *float64
	if o.initialGiven {
		given = &o.detect.InitialThreshold
	}
	detected, err := set.Detect(o.detect, st.InitialThresholds(ctx, given, o.detect.InitialThreshold))
	if err != nil {
		return err
	}
	doc := trend.NewDocument(set.Baseline, o.detect, detected)
	doc.Bridges = set.Bridges
	var buf bytes.Buffer
	switch o.format {
	case "json":
		err = trend.WriteJSON(&buf, doc)
	case "markdown":
		err = trend.WriteMarkdown(&buf, doc)
	default:
		err = trend.WriteText(&buf, doc)
	}
	if err != nil {
		return err
	}
	if o.plot != "" {
		if err := trend.WriteFigures(o.plot, doc); err != nil {
			return cli.Word(err, plotFlag)
		}
		fmt.Fprintf(s.Err, "mbopt: wrote %s into %s\n", textutil.Plural(len(doc.Series), "plot"), o.plot)
	}
	if o.html != "" {
		url := o.commitURL
		if !o.commitURLGiven {
			url, _ = gitrev.GitHubCommitURL(ctx, ".") // outside a repository: no links
		}
		err := site.WriteHistory(o.html, "", set, detected, site.Options{CommitURL: url})
		if fe := (*site.ForeignError)(nil); errors.As(err, &fe) {
			return input.Errorf("--html %s", fe)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(s.Err, "mbopt: wrote the site of %d series into %s\n", len(doc.Series), o.html)
	}
	return cli.Output(s.Out, o.output, buf.Bytes())
}

// plotFlag names the figures' directory (trend's Dir) by its flag.
var plotFlag = map[input.Field]string{"Dir": "--plot"}

// short returns a commit's first 10 characters.
func short(commit string) string { return commit[:min(10, len(commit))] }

// runInstability shows the A/A calibration.
func runInstability(ctx context.Context, s *streams, o *historyOptions, st *history.Store) error {
	insts, err := st.Instabilities(ctx, history.Filter{Benchmarks: o.benchmarks, Unit: o.unit})
	if err != nil {
		return err
	}
	if len(insts) == 0 {
		return input.Errorf("--history %s: no A/A comparison stored (for these benchmarks and units); run mbopt compare --aa", o.path)
	}
	cal, err := history.Calibrate(insts, history.DefaultCalibrateOptions)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if o.format == "json" {
		err = trend.WriteCalibrationJSON(&buf, insts, cal)
	} else {
		err = trend.WriteCalibrationText(&buf, insts, cal)
	}
	if err != nil {
		return err
	}
	if o.plot != "" {
		path, err := trend.WriteInstabilityFigure(o.plot, insts, cal)
		if err != nil {
			return cli.Word(err, plotFlag)
		}
		fmt.Fprintf(s.Err, "mbopt: wrote %s\n", path)
	}
	return cli.Output(s.Out, o.output, buf.Bytes())
}

// rebaselineFixed are the compare flags rebaseline sets itself.
var rebaselineFixed = []string{"base", "head", "aa", "app-benchmark", "shard", "trial-shard", "shard-costs", "no-history", "changed-since", "only-affected"}

func newCmdHistoryRebaseline(s *streams) *cobra.Command {
	o := &compareOptions{}
	var to, from string
	cmd := compareCommand(s, o)
	cmd.Use = "rebaseline --to REV [--from REV] [compare flags]"
	cmd.Short = "Move the history's baseline to a new revision, bridging every series across"
	cmd.Example = `  $ mbopt history rebaseline --to v1.3.0
  $ mbopt history rebaseline --from v1.2.0 --to v1.3.0 --trials 5`
	f := cmd.Flags()
	f.StringVar(&to, "to", "", "the new baseline `REV`")
	f.StringVar(&from, "from", "", "the old baseline: a stored base's hash or prefix, or a revision (default: the baseline mbopt history shows)")
	for _, name := range rebaselineFixed {
		must(f.MarkHidden(name))
	}
	cmd.RunE = func(c *cobra.Command, args []string) error {
		for _, name := range rebaselineFixed {
			if f.Changed(name) {
				return input.Errorf("--%s: rebaseline compares --from with --to and stores the bridge in --history", name)
			}
		}
		if to == "" {
			return input.Errorf("--to REV names the new baseline")
		}
		ctx := c.Context()
		path := historyPath(o.hist.path)
		st, err := openHistory(ctx, path)
		if err != nil {
			return err
		}
		old, err := st.Baseline(ctx, from)
		if errors.Is(err, history.ErrBaseline) {
			// Not a stored base's prefix: perhaps a revision name.
			if commit, gerr := gitrev.Commit(ctx, ".", from); gerr == nil {
				old, err = compare.Revision{Commit: commit}, nil
			}
		}
		if err != nil {
			st.Close()
			return input.Errorf("--from: %v", strings.TrimPrefix(err.Error(), "history: "+path+": "))
		}
		if len(args) == 0 && o.suiteFile == "" && o.bench == "" && len(o.app) == 0 && len(o.micro) == 0 {
			if o.preset, err = st.Benchmarks(ctx, old.Commit); err != nil {
				st.Close()
				return err
			}
			if len(o.preset) == 0 {
				st.Close()
				return input.Errorf("--history %s holds no compared benchmark against %s; choose the benchmarks with --bench or --suite", path, short(old.Commit))
			}
		}
		st.Close()
		newBase, err := gitrev.Commit(ctx, ".", to)
		if err != nil {
			return input.Errorf("--to: %v", err)
		}
		if newBase == old.Commit {
			return input.Errorf("--to %s is the baseline %s already", to, short(old.Commit))
		}
		o.base, o.head, o.hist.bridge = old.Commit, newBase, true
		if !f.Changed("fail-on") {
			o.failOn = string(compare.FailOnNever) // the new baseline differs on purpose
		}
		o.terminal, o.width = progress.IsTerminal(s.Err)
		return runCompare(c, s, o, args)
	}
	return cmd
}
