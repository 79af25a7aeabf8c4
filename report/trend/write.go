package trend

import (
	"fmt"
	"io"

	"github.com/mbopt/mbopt/compare/detect"
	"github.com/mbopt/mbopt/compare/history"
)

// Formats are the formats [Write] writes.
var Formats = []string{"text", "json", "markdown"}

// CalibrationFormats are the formats [WriteCalibration] writes.
var CalibrationFormats = []string{"text", "json"}

// FromSet returns the [Document] of the series of set: [NewDocument] of
// its baseline and of detected (what history.Set.Detect found in set with
// opt), with set's bridges and confirmations.
func FromSet(set *history.Set, opt detect.Options, detected []history.Detected) *Document {
	d := NewDocument(set.Baseline, opt, detected)
	d.Bridges, d.Confirmations = set.Bridges, set.Confirmations
	return d
}

// Write writes d to w in format, one of [Formats]: text ([WriteText]),
// json ([WriteJSON]) or markdown ([WriteMarkdown]).
func Write(w io.Writer, d *Document, format string) error {
	switch format {
	case "text":
		return WriteText(w, d)
	case "json":
		return WriteJSON(w, d)
	case "markdown":
		return WriteMarkdown(w, d)
	}
	return fmt.Errorf("trend: unknown format %q", format)
}

// WriteCalibration writes the A/A calibration insts and cal to w in
// format, one of [CalibrationFormats]: text ([WriteCalibrationText]) or
// json ([WriteCalibrationJSON]).
func WriteCalibration(w io.Writer, insts []history.Instability, cal *history.Calibration, format string) error {
	switch format {
	case "text":
		return WriteCalibrationText(w, insts, cal)
	case "json":
		return WriteCalibrationJSON(w, insts, cal)
	}
	return fmt.Errorf("trend: unknown calibration format %q", format)
}
