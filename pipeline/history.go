package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/detect"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/compare/measure"
	"github.com/mbopt/mbopt/internal/gitrev"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/report/site"
	"github.com/mbopt/mbopt/report/trend"
)

// A HistoryConfig says which trends of a history [History] shows, and how.
// Errors about a field are *mbopt.Error values naming it, as
// "Config.Baseline" or "Config.Plot".
type HistoryConfig struct {
	// History is the history database mbopt compare writes.
	History string
	// Baseline is the base of the series (history.Query), or a
	// revision, resolved in the current directory's repository.
	Baseline string
	// Benchmarks keeps those benchmarks (history.Query).
	Benchmarks []string
	// Unit keeps that unit (history.Query).
	Unit string
	// Metric, when set, keeps the unit of that metric of mbopt compare
	// (measure.Metric.Unit: sec/op, cpu-sec/op or instructions/op); a
	// Unit set too must be the same.
	Metric measure.Metric
	// Detect configures the detectors.
	Detect detect.Options
	// InitialGiven makes Detect.InitialThreshold replace the thresholds
	// calibrated from the history's A/A comparisons.
	InitialGiven bool
	// Format is the document's format: "text", "json" or "markdown".
	Format string
	// Plot, when set, is a directory for one SVG figure per series (with
	// Instability, the instability CDF). A directory that cannot be
	// written is an input error naming Plot and the directory.
	Plot string
	// HTML, when set, is a directory for the history as a static web site
	// (site.Write: it replaces only the files of an earlier site and
	// leaves the others, the history database among them). A directory
	// that cannot be written is an input error naming HTML.
	HTML string
	// CommitURL links the site's commits ({commit} stands for the hash);
	// empty means GitHub's when the origin remote is on github.com.
	CommitURL string
	// CommitURLGiven makes CommitURL the choice even when it is empty,
	// which then means no links.
	CommitURLGiven bool
	// Instability shows the A/A instabilities and the initial thresholds
	// calibrated from them instead of the trends.
	Instability bool
	// Output is the file the caller will write the document to, checked
	// with mbopt.CheckOutput: not one of the history database's files
	// (history.Files), not a directory, in a directory that exists.
	Output string
	// Logf, when set, gets what was written where.
	Logf func(format string, args ...any)
	// Warn, when set, gets the benchmarks and results left out.
	Warn func(error)
}

// The settings of a HistoryConfig or RebaselineConfig named in errors.
const (
	baselineField    mbopt.Field = "Baseline"
	unitField        mbopt.Field = "Unit"
	formatField      mbopt.Field = "Format"
	plotField        mbopt.Field = "Plot"
	htmlField        mbopt.Field = "HTML"
	commitURLField   mbopt.Field = "CommitURL"
	instabilityField mbopt.Field = "Instability"
	metricField      mbopt.Field = "Metric"
)

// Check checks the combination of the settings, Detect, and that Output
// is not a file of the history.
func (cfg HistoryConfig) Check() error {
	if cfg.Metric != "" {
		m, err := measure.ParseMetric(string(cfg.Metric))
		if err != nil {
			return metricField.Errorf("%v", err)
		}
		if cfg.Unit != "" && cfg.Unit != m.Unit() {
			return mbopt.Errorf("%s %s shows the unit %s, but %s is %s: give one of them", metricField, m, m.Unit(), unitField, cfg.Unit)
		}
	}
	if cfg.Instability && cfg.Format == "markdown" {
		return mbopt.Errorf("%s markdown: %s writes text or json", formatField, instabilityField)
	}
	if err := cfg.Detect.Check(); err != nil {
		return err
	}
	if cfg.HTML != "" && cfg.Instability {
		return mbopt.Errorf("%s: %s writes text, json or plots", htmlField, instabilityField)
	}
	if cfg.CommitURL != "" || cfg.CommitURLGiven {
		if cfg.HTML == "" {
			return mbopt.Errorf("%s: it links the commits of %s; give %s DIR", commitURLField, htmlField, htmlField)
		}
		if err := site.CheckCommitURL(cfg.CommitURL); err != nil {
			return mbopt.Errorf("%s: %v", commitURLField, err)
		}
	}
	return mbopt.CheckOutput(outputField, cfg.Output, history.Files(cfg.History)...)
}

// History shows the trends of the history database cfg.History as mbopt
// history does: it reads the series against the baseline, runs the
// detectors with each series' initial threshold (calibrated from the A/A
// comparisons unless given) and returns the document in cfg.Format, after
// writing the figures and the site it asks for. With cfg.Instability it
// shows the A/A calibration instead.
func History(ctx context.Context, cfg HistoryConfig) ([]byte, error) {
	logf := logf(cfg.Logf)
	warn := func(format string, args ...any) {
		if cfg.Warn != nil {
			cfg.Warn(fmt.Errorf(format, args...))
		}
	}
	if cfg.Metric != "" {
		cfg.Unit = cfg.Metric.Unit()
	}
	st, err := OpenHistory(ctx, cfg.History)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	if cfg.Instability {
		return instability(ctx, cfg, st, logf)
	}
	q := history.Query{Baseline: cfg.Baseline, Benchmarks: cfg.Benchmarks, Unit: cfg.Unit}
	set, err := st.Series(ctx, q)
	if errors.Is(err, history.ErrBaseline) {
		// Not a stored base's prefix: perhaps a revision name.
		if c, gerr := gitrev.Commit(ctx, ".", cfg.Baseline); gerr == nil {
			q.Baseline = c
			set, err = st.Series(ctx, q)
		}
	}
	switch {
	case errors.Is(err, history.ErrEmpty):
		return nil, mbopt.Errorf("%s %s: %v; run mbopt compare to add some", historyField, cfg.History, err)
	case errors.Is(err, history.ErrBaseline):
		return nil, mbopt.Errorf("%s: %w", baselineField, err)
	case err != nil:
		return nil, historyError(cfg.History, err)
	}
	if len(set.OtherBaselines) > 0 {
		left := 0
		var each []string
		for _, o := range set.OtherBaselines {
			left += o.Comparisons
			each = append(each, fmt.Sprintf("%d against %s", o.Comparisons, short(o.Commit)))
		}
		if len(each) > 5 {
			each = append(each[:5], fmt.Sprintf("and %d more baselines", len(each)-5))
		}
		cfg.warnInput("%d of %d comparisons are against other baselines and left out: %s; %s REV shows the series against one of them",
			left, set.Comparisons, strings.Join(each, ", "), baselineField)
	}
	for _, b := range set.Unmatched {
		warn("%s: no stored result against baseline %s matches this benchmark", b, short(set.Baseline.Commit))
	}
	for _, sr := range set.Series {
		for _, sk := range sr.Skipped {
			warn("%s (%s): the result of comparison %d at %s is left out: %s", sr.ID, sr.Unit, sk.Comparison, short(sk.Head.Commit), sk.Reason)
		}
	}
	if len(set.Series) == 0 {
		return nil, mbopt.Errorf("no series against baseline %s matches the arguments and %s %q", short(set.Baseline.Commit), unitField, cfg.Unit)
	}
	var given *float64
	if cfg.InitialGiven {
		given = &cfg.Detect.InitialThreshold
	}
	detected, err := set.Detect(cfg.Detect, st.InitialThresholds(ctx, given, cfg.Detect.InitialThreshold))
	if err != nil {
		return nil, err
	}
	doc := trend.NewDocument(set.Baseline, cfg.Detect, detected)
	doc.Bridges, doc.Confirmations = set.Bridges, set.Confirmations
	var buf bytes.Buffer
	switch cfg.Format {
	case "json":
		err = trend.WriteJSON(&buf, doc)
	case "markdown":
		err = trend.WriteMarkdown(&buf, doc)
	default:
		err = trend.WriteText(&buf, doc)
	}
	if err != nil {
		return nil, err
	}
	if cfg.Plot != "" {
		if err := trend.WriteFigures(cfg.Plot, doc); err != nil {
			return nil, dirError(plotField, cfg.Plot, "figures", err)
		}
		logf("wrote %s into %s", textutil.Plural(len(doc.Series), "plot"), cfg.Plot)
	}
	if cfg.HTML != "" {
		url := cfg.CommitURL
		if url == "" && !cfg.CommitURLGiven {
			url, _ = gitrev.GitHubCommitURL(ctx, ".") // outside a repository: no links
		}
		err := site.WriteHistory(cfg.HTML, "", set, detected, site.Options{CommitURL: url})
		if fe := (*site.ForeignError)(nil); errors.As(err, &fe) {
			return nil, mbopt.Errorf("%s %s", htmlField, fe)
		}
		if err != nil {
			return nil, dirError(htmlField, cfg.HTML, "site", err)
		}
		logf("wrote the site of %d series into %s", len(doc.Series), cfg.HTML)
	}
	return buf.Bytes(), nil
}

// warnInput gives cfg.Warn a warning that names settings (mbopt.Field
// arguments), which a front end words in its own vocabulary.
func (cfg HistoryConfig) warnInput(format string, args ...any) {
	if cfg.Warn != nil {
		cfg.Warn(mbopt.Errorf(format, args...))
	}
}

// dirError is err, a failure to write what (the figures, the site) into
// the directory dir that the setting field names, as bad input naming the
// setting and the directory: "Plot DIR: cannot write the figures there:
// permission denied; give a directory you can write". The operating
// system's reason comes without the file it failed on (a temporary file's
// name means nothing to the user). An error that is not about a file
// passes unchanged.
func dirError(field mbopt.Field, dir, what string, err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	reason := ""
	switch {
	case errors.As(err, &pe):
		reason = pe.Err.Error()
	case errors.As(err, &le):
		reason = le.Err.Error()
	default:
		return err
	}
	return mbopt.Errorf("%s %s: cannot write the %s there: %s; give a directory you can write", field, dir, what, reason)
}

// instability shows the A/A calibration of the history st.
func instability(ctx context.Context, cfg HistoryConfig, st *history.Store, logf func(string, ...any)) ([]byte, error) {
	insts, err := st.Instabilities(ctx, history.Filter{Benchmarks: cfg.Benchmarks, Unit: cfg.Unit})
	if err != nil {
		return nil, err
	}
	if len(insts) == 0 {
		return nil, mbopt.Errorf("%s %s: no A/A comparison stored (for these benchmarks and units); run mbopt compare --aa", historyField, cfg.History)
	}
	cal, err := history.Calibrate(insts, history.DefaultCalibrateOptions)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if cfg.Format == "json" {
		err = trend.WriteCalibrationJSON(&buf, insts, cal)
	} else {
		err = trend.WriteCalibrationText(&buf, insts, cal)
	}
	if err != nil {
		return nil, err
	}
	if cfg.Plot != "" {
		path, err := trend.WriteInstabilityFigure(cfg.Plot, insts, cal)
		if err != nil {
			return nil, dirError(plotField, cfg.Plot, "figure", err)
		}
		logf("wrote %s", path)
	}
	return buf.Bytes(), nil
}

// OpenHistory opens an existing history database for reading; a missing
// one is bad input that says how to make one, and so is a file that is not
// a history (left untouched).
func OpenHistory(ctx context.Context, path string) (*history.Store, error) {
	st, err := history.OpenReadOnly(ctx, path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, mbopt.Errorf("%s %s: no history database; mbopt compare writes one (unless %s)", historyField, path, noHistoryField)
	}
	if err != nil {
		return nil, historyError(path, err)
	}
	return st, nil
}

// historyError returns err, an error of package history about the database
// at path, as an input error naming History: "History PATH: what is wrong".
func historyError(path string, err error) error {
	return mbopt.Errorf("%s %s: %v", historyField, path, historyReason(path, err))
}

// historyReason returns the message of err, an error of package history
// about the database at path, without history's "history: PATH: " prefix.
func historyReason(path string, err error) string {
	return strings.TrimPrefix(err.Error(), "history: "+path+": ")
}

// A RebaselineConfig moves a history's baseline to a new revision
// ([Rebaseline]).
type RebaselineConfig struct {
	// CompareConfig configures the bridging comparison; Rebaseline sets
	// its Base, Head, Preset and Bridge.
	CompareConfig
	// To is the new baseline, a revision.
	To string
	// From is the old baseline: a stored base's hash or prefix, or a
	// revision; empty means the baseline History shows.
	From string
}

// Rebaseline compares the old baseline with the new one, the benchmarks
// chosen as for [Compare] or, by default, those stored against the old
// baseline, and stores the comparison as a bridge, which carries every
// series of the history across (history.Store.AddBridge).
func Rebaseline(ctx context.Context, cfg RebaselineConfig) (*compare.Report, error) {
	if cfg.To == "" {
		return nil, mbopt.Errorf("%s REV names the new baseline", mbopt.Field("To"))
	}
	path := historyPath(cfg.History)
	st, err := OpenHistory(ctx, path)
	if err != nil {
		return nil, err
	}
	old, err := st.Baseline(ctx, cfg.From)
	if errors.Is(err, history.ErrBaseline) {
		// Not a stored base's prefix: perhaps a revision name.
		if commit, gerr := gitrev.Commit(ctx, ".", cfg.From); gerr == nil {
			old, err = compare.Revision{Commit: commit}, nil
		}
	}
	if err != nil {
		st.Close()
		return nil, mbopt.Errorf("%s: %v", mbopt.Field("From"), historyReason(path, err))
	}
	c := cfg.CompareConfig
	if len(c.Packages) == 0 && c.SuiteFile == "" && c.Bench == "" && c.Analysis == nil {
		if c.Preset, err = st.Benchmarks(ctx, old.Commit); err != nil {
			st.Close()
			return nil, err
		}
		if len(c.Preset) == 0 {
			st.Close()
			return nil, mbopt.Errorf("%s %s holds no compared benchmark against %s; choose the benchmarks with %s or %s", historyField, path, short(old.Commit), mbopt.Field("Bench"), suiteFileField)
		}
	}
	st.Close()
	newBase, err := gitrev.Commit(ctx, ".", cfg.To)
	if err != nil {
		return nil, mbopt.Errorf("%s: %v", mbopt.Field("To"), err)
	}
	if newBase == old.Commit {
		return nil, mbopt.Errorf("%s %s is the baseline %s already", mbopt.Field("To"), cfg.To, short(old.Commit))
	}
	c.Base, c.Head, c.Bridge = old.Commit, newBase, true
	return Compare(ctx, c)
}
