// Package github writes what GitHub Actions reads from a step of a
// workflow: the Markdown step summary appended to the file named by
// $GITHUB_STEP_SUMMARY ([StepSummary]), and workflow commands such as
// ::error, which the runner reads from the step's standard output and
// shows as annotations ([Annotation]). The documents of package report
// and report/verdict fill them.
package github

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/internal/textutil"
)

// A StepSummary is a document as a GitHub Actions step reports it: a
// Markdown summary for the job's page and, for an analysis, the selected
// suite for the next step to run.
type StepSummary struct {
	// Suite is, for an analysis (report.GitHub), the minimal suite as
	// `go test` command lines (see package suite) when every pick's
	// package is known (see analysis.SuiteBenchmarks), else the picked
	// benchmark ids, one per line, in pick order; empty for a comparison.
	Suite string
	// Markdown is the summary: for an analysis the short Markdown form of
	// the report (report.MarkdownOptions.Summary) with Suite shown as a
	// code block, for a comparison verdict.WriteMarkdown's.
	Markdown []byte
}

// FieldStepSummary is the setting the step summary's file stands for in
// the errors of [CheckStepSummary] and [StepSummary.Deliver]
// ($GITHUB_STEP_SUMMARY on mbopt's command line).
const FieldStepSummary mbopt.Field = "StepSummary"

// summaryFix is what every error about the step summary's file advises.
const summaryFix = "point GITHUB_STEP_SUMMARY at a writable file, or unset it to get the summary on stdout"

// CheckStepSummary checks, before the work whose summary it is, that
// [StepSummary.Append] can append to path: path must be a file that can
// be opened for appending (it is not changed), or not exist in an
// existing directory. A directory, or a missing directory, is an input
// error about the setting StepSummary naming path; an empty path (no
// file: the summary goes to standard output) is fine.
func CheckStepSummary(path string) error {
	if path == "" {
		return nil
	}
	if err := checkAppend(path); err != nil {
		return mbopt.Errorf("%s: %v; %s", FieldStepSummary, err, summaryFix)
	}
	return nil
}

// checkAppend is [CheckStepSummary]'s check, its error naming path.
func checkAppend(path string) error {
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.IsDir():
		return fmt.Errorf("%s is a directory", path)
	case err == nil:
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		return f.Close()
	case errors.Is(err, fs.ErrNotExist):
		dir := filepath.Dir(path)
		if di, err := os.Stat(dir); err != nil || !di.IsDir() {
			return fmt.Errorf("%s: the directory %s does not exist", path, dir)
		}
		return nil
	default:
		return err
	}
}

// Deliver is where a step's summary goes: appended to the file path
// ($GITHUB_STEP_SUMMARY), or, when path is empty, returned as stdout for
// the caller to print on standard output. A summary that cannot be
// appended (see [StepSummary.Append]: a full disk leaves none of it) is an
// input error about the setting StepSummary, which advises to free space
// when the file opened but the write failed.
func (s *StepSummary) Deliver(path string) (stdout []byte, err error) {
	if path == "" {
		return s.Markdown, nil
	}
	if err := s.Append(path); err != nil {
		fix := summaryFix
		if pe := (*fs.PathError)(nil); !errors.As(err, &pe) || pe.Op != "open" {
			fix = "free space, " + fix
		}
		return nil, mbopt.Errorf("%s: %v; %s", FieldStepSummary, err, fix)
	}
	return nil, nil
}

// Append appends s.Markdown to the file at path, creating it (mode 0644)
// when missing: GitHub Actions gives each step such a file in
// $GITHUB_STEP_SUMMARY and shows what the step appended. The file belongs
// to the runner, so it is appended to in one write, not replaced, and
// synced, so that a disk that fills up at write-back fails here. When the
// write fails (a full disk takes part of it), the part written is taken
// back (the file is truncated to its size before) and the error names
// path.
func (s *StepSummary) Append(path string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("appending the step summary: %w", err)
	}
	size := int64(-1) // not a regular file: nothing to sync or take back
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
	}
	_, err = f.Write(s.Markdown)
	if err == nil && size >= 0 {
		err = f.Sync()
	}
	if err != nil {
		if size >= 0 {
			f.Truncate(size) // best effort: the error says what failed
		}
		f.Close()
		return fmt.Errorf("appending the step summary to %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("appending the step summary to %s: %w", path, err)
	}
	return nil
}

// An Annotation is one GitHub Actions workflow command such as ::error:
// GitHub shows it on the run's page, titled, at its level.
type Annotation struct {
	// Level is "error", "warning" or "notice".
	Level string
	// Title is the annotation's title.
	Title string
	// Message is its text; it may hold several lines.
	Message string
}

// escapeData escapes an annotation's message as GitHub's workflow
// commands require ("%", CR and LF), after writing its other control
// characters as escapes (textutil.EscapeControl), so that a message from a
// benchmark cannot end the command's line or recolour the log.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(textutil.EscapeControl(s, "\r\n"))
}

// escapeProperty escapes an annotation's property value (the title) as
// GitHub requires ("%", CR, LF, ":" and ","), after writing its other
// control characters as escapes.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(textutil.EscapeControl(s, "\r\n"))
}

// WriteAnnotations writes as, one workflow command per line
// ("::error title=T::message"), escaped as GitHub requires, and returns the
// first write error.
func WriteAnnotations(w io.Writer, as []Annotation) error {
	for _, a := range as {
		if _, err := fmt.Fprintf(w, "::%s title=%s::%s\n", a.Level, escapeProperty(a.Title), escapeData(a.Message)); err != nil {
			return err
		}
	}
	return nil
}
