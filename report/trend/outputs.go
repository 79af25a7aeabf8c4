package trend

import (
	"bytes"
	"cmp"
	"errors"
	"io/fs"
	"os"
	"slices"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare/detect"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/internal/enum"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/report/site"
)

// Outputs say how mbopt history shows a history: the document's format,
// and the directories of the figures and of the site written beside it.
// Errors about a field are *mbopt.Error values naming it, as "Config.Plot".
type Outputs struct {
	// Format is the document's format: one of [Formats] for the trends,
	// of [CalibrationFormats] for an A/A calibration; "" is text, and
	// with HTML it means the site is the only output (see
	// [Outputs.Prints]).
	Format string
	// Plot, when set, is a directory for the figures: one SVG per series
	// ([WriteFigures]), or the instability CDF of a calibration
	// ([WriteInstabilityFigure]). A directory that cannot be written is
	// an input error naming Plot and the directory.
	Plot string
	// HTML, when set, is a directory for the trends as a static web site
	// (site.WriteHistory: it replaces only the files of an earlier site
	// and leaves the others, the history database among them). A
	// directory that cannot be written, or a file there that no earlier
	// site wrote, is an input error naming HTML.
	HTML string
	// CommitURL, when not nil, links the site's commits ({commit} stands
	// for the hash; "" means no links) instead of Site.CommitURL: it needs
	// HTML.
	CommitURL *string
	// Site are the site's options.
	Site site.Options
	// Instability shows the A/A calibration ([Outputs.Calibration])
	// instead of the trends: in text or json, with no site.
	Instability bool
	// Logf, when set, gets what was written where.
	Logf func(format string, args ...any)
}

// The settings of Outputs named in errors.
const (
	FieldFormat      mbopt.Field = "Format"
	FieldPlot        mbopt.Field = "Plot"
	FieldHTML        mbopt.Field = "HTML"
	FieldCommitURL   mbopt.Field = "CommitURL"
	FieldInstability mbopt.Field = "Instability"
)

// format is the document's format, "" being text.
func (o Outputs) format() string { return cmp.Or(o.Format, "text") }

// Prints reports whether the document is an output: always without HTML;
// with it, only when a Format or an output file (-o) asks for it, the site
// being the output otherwise.
func (o Outputs) Prints(output string) bool {
	return o.HTML == "" || o.Format != "" || output != ""
}

// Check checks the combination of the settings before anything is read:
// Format is one of [Formats] (with Instability, of [CalibrationFormats]);
// Instability writes no site; CommitURL needs HTML and must pass
// site.CheckCommitURL.
func (o Outputs) Check() error {
	switch {
	case !slices.Contains(Formats, o.format()):
		return FieldFormat.Errorf("%w", enum.Check("invalid value", o.Format, Formats...))
	case o.Instability && !slices.Contains(CalibrationFormats, o.format()):
		return mbopt.Errorf("%s %s: %s writes text or json", FieldFormat, o.Format, FieldInstability)
	case o.HTML != "" && o.Instability:
		return mbopt.Errorf("%s: %s writes text, json or plots", FieldHTML, FieldInstability)
	case o.HTML == "" && o.CommitURL != nil:
		return mbopt.Errorf("%s: it links the commits of %s; give %s DIR", FieldCommitURL, FieldHTML, FieldHTML)
	case o.CommitURL != nil:
		if err := site.CheckCommitURL(*o.CommitURL); err != nil {
			return mbopt.Errorf("%s: %v", FieldCommitURL, err)
		}
	}
	return nil
}

// Trends writes the figures and the site o asks for of the series of set
// and what the detectors found in them (detected, as history.Set.Detect
// found them with opt), then returns their document ([FromSet]) in
// o.Format. It writes nothing when the document cannot be rendered.
func (o Outputs) Trends(set *history.Set, opt detect.Options, detected []history.Detected) ([]byte, error) {
	d := FromSet(set, opt, detected)
	var buf bytes.Buffer
	if err := Write(&buf, d, o.format()); err != nil {
		return nil, err
	}
	if o.Plot != "" {
		if err := WriteFigures(o.Plot, d); err != nil {
			return nil, dirError(FieldPlot, o.Plot, "figures", err)
		}
		o.logf("wrote %s into %s", textutil.Plural(len(d.Series), "plot"), o.Plot)
	}
	if o.HTML != "" {
		opt := o.Site
		if o.CommitURL != nil {
			opt.CommitURL = *o.CommitURL
		}
		err := site.WriteHistory(o.HTML, "", set, detected, opt)
		if fe := (*site.ForeignError)(nil); errors.As(err, &fe) {
			return nil, mbopt.Errorf("%s %s", FieldHTML, fe)
		}
		if err != nil {
			return nil, dirError(FieldHTML, o.HTML, "site", err)
		}
		o.logf("wrote the site of %d series into %s", len(d.Series), o.HTML)
	}
	return buf.Bytes(), nil
}

// Calibration writes the instability figure o.Plot asks for of the A/A
// calibration insts and cal (history.Calibrate), then returns its document
// in o.Format; o.HTML is not used. It writes nothing when the document
// cannot be rendered.
func (o Outputs) Calibration(insts []history.Instability, cal *history.Calibration) ([]byte, error) {
	var buf bytes.Buffer
	if err := WriteCalibration(&buf, insts, cal, o.format()); err != nil {
		return nil, err
	}
	if o.Plot != "" {
		path, err := WriteInstabilityFigure(o.Plot, insts, cal)
		if err != nil {
			return nil, dirError(FieldPlot, o.Plot, "figure", err)
		}
		o.logf("wrote %s", path)
	}
	return buf.Bytes(), nil
}

// logf calls o.Logf when it is set.
func (o Outputs) logf(format string, args ...any) {
	if o.Logf != nil {
		o.Logf(format, args...)
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
