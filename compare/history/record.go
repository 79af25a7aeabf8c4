package history

import (
	"cmp"
	"context"
	"path/filepath"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/internal/gomod"
)

// PathIn returns the history database of the Go module that holds dir (""
// is the current directory): [DefaultPath] in the module's root, or in dir
// outside a module.
func PathIn(dir string) string {
	if mod, err := gomod.Find(cmp.Or(dir, ".")); err == nil {
		return filepath.Join(mod.Dir, DefaultPath)
	}
	return filepath.Join(dir, DefaultPath)
}

// RecordOptions say how [Store.Record] treats a report.
type RecordOptions struct {
	// Machine is the machine the comparison ran on; the zero Machine
	// means [ThisMachine] of the report's Go version.
	Machine Machine
	// Verdicts says which verdicts are stored: the zero value,
	// [Calibrated], retakes them against the calibrated thresholds;
	// [AsCompared] keeps them, for a comparison whose Settings.Threshold
	// was chosen for it rather than left at its default.
	Verdicts Verdicts
	// Bridge stores the comparison as a bridge from its base to its head
	// (see [Store.AddBridge]) instead of with [Store.Add].
	Bridge bool
	// Application, when not nil, is the application's value in this
	// comparison (such as [ProfileApplication]), stored with it for the
	// Figure 8/9 view of mbopt history --html. A bridge stores none.
	Application *Application
	// AppBenchmark, when not empty, names the compared benchmark that is
	// the application benchmark: its measurement ([ApplicationOf])
	// is stored in place of Application. When the report holds no
	// compared result of it, Recorded.ApplicationErr says so and
	// Application is stored.
	AppBenchmark string
}

// Verdicts says which verdicts [Store.Record] stores: see
// [RecordOptions].Verdicts.
type Verdicts string

// The values of Verdicts.
const (
	// Calibrated verdicts are retaken against each benchmark's threshold
	// calibrated from the stored A/A comparisons (the default).
	Calibrated Verdicts = ""
	// AsCompared verdicts are those the comparison took, against its
	// Settings.Threshold.
	AsCompared Verdicts = "as-compared"
)

// Recorded says what [Store.Record] did.
type Recorded struct {
	// ID is the comparison's id in the store; 0 when it was not stored.
	ID int64
	// Calibration is the calibration the verdicts were retaken against;
	// nil when they were kept (AsCompared, an A/A comparison, or no A/A
	// result stored for this machine and these settings).
	Calibration *Calibration
	// CalibrationErr says why the calibration could not be read; the
	// verdicts were then kept.
	CalibrationErr error
	// AA is, after an A/A comparison, the calibration of this machine and
	// these settings with the comparison's results included; nil
	// otherwise, and when it could not be read back (AAErr says why).
	AA *Calibration
	// AAErr says why AA could not be read back.
	AAErr error
	// AARuns is, with AA, the largest number of A/A results of one
	// benchmark that AA comes from.
	AARuns int
	// Application is the application's value stored with the comparison;
	// nil when none was.
	Application *Application
	// ApplicationErr says why RecordOptions.AppBenchmark gave no
	// measurement.
	ApplicationErr error
}

// Record stores the comparison rep in the history, the way mbopt compare
// does: unless rep is an A/A comparison (see [IsAA]) or the verdicts are
// kept ([AsCompared]), each benchmark's verdict is first retaken against
// its initial threshold calibrated from the A/A comparisons stored for
// this machine and these settings (see [Calibrate]), never below rep's
// Settings.Threshold (see compare.Reclassify); then rep, with its new
// verdicts, is stored, and with it the application's value
// (RecordOptions.AppBenchmark's measurement, else
// RecordOptions.Application; none for an A/A comparison). After an A/A
// comparison, Recorded.AA is the calibration the comparison adds to, which
// later comparisons take their verdicts against.
//
// The comparison is done by then, so Record keeps what it can: a
// calibration that cannot be read leaves the verdicts as they were
// (Recorded.CalibrationErr), and one that cannot be read back after an A/A
// comparison only leaves AA unset (Recorded.AAErr). Record fails only when
// rep cannot be stored; the Recorded it returns then still says what
// happened before.
func (s *Store) Record(ctx context.Context, rep *compare.Report, opt RecordOptions) (*Recorded, error) {
	m := opt.Machine
	if m == (Machine{}) {
		m = ThisMachine(rep.GoVersion)
	}
	filter := Filter{Machine: &m, SettingsHash: SettingsHash(rep.Settings)}
	calibration := func() (*Calibration, int, error) {
		insts, err := s.Instabilities(ctx, filter)
		if err != nil {
			return nil, 0, err
		}
		runs := 0
		for _, in := range insts {
			runs = max(runs, len(in.Widths))
		}
		cal, err := Calibrate(insts, DefaultCalibrateOptions)
		return cal, runs, err
	}
	rec := &Recorded{}
	aa := IsAA(rep)
	if opt.Verdicts != AsCompared && !aa {
		cal, _, err := calibration()
		switch {
		case err != nil:
			rec.CalibrationErr = err
		case cal.Suite > 0:
			compare.Reclassify(rep, func(id, unit string) float64 {
				t, _ := cal.For(id, unit)
				return max(t, rep.Settings.Threshold)
			})
			rec.Calibration = cal
		}
	}
	var err error
	if opt.Bridge {
		rec.ID, err = s.AddBridge(ctx, rep, m)
	} else {
		app := opt.Application
		if opt.AppBenchmark != "" && !aa {
			measured, err := ApplicationOf(rep, opt.AppBenchmark)
			if err != nil {
				rec.ApplicationErr = err
			} else {
				app = measured
			}
		}
		if aa {
			app = nil // an A/A comparison is no point of any series
		}
		rec.ID, err = s.store(ctx, rep, m, false, app)
		if err == nil {
			rec.Application = app
		}
	}
	if err != nil {
		return rec, err
	}
	if aa {
		rec.AA, rec.AARuns, rec.AAErr = calibration()
		if rec.AAErr != nil {
			rec.AA = nil
		}
	}
	return rec, nil
}
