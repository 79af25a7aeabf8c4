package flow

import (
	"context"
	"errors"
	"io/fs"
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare/history"
)

// OpenHistory opens an existing history database for reading; a missing
// one is bad input that says how to make one, and so is a file that is not
// a history (left untouched).
func OpenHistory(ctx context.Context, path string) (*history.Store, error) {
	st, err := history.OpenReadOnly(ctx, path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, mbopt.Errorf("%s %s: no history database; mbopt compare writes one (unless %s)", FieldHistory, path, FieldNoHistory)
	}
	if err != nil {
		return nil, historyError(path, err)
	}
	return st, nil
}

// historyError returns err, an error of package history about the database
// at path, as an input error naming History: "History PATH: what is wrong".
func historyError(path string, err error) error {
	return mbopt.Errorf("%s %s: %v", FieldHistory, path, historyReason(path, err))
}

// historyReason returns the message of err, an error of package history
// about the database at path, without history's "history: PATH: " prefix.
func historyReason(path string, err error) string {
	return strings.TrimPrefix(err.Error(), "history: "+path+": ")
}

// historyPath returns the history database at path, or by default that of
// the module in the current directory (history.PathIn).
func historyPath(path string) string {
	if path != "" {
		return path
	}
	return history.PathIn("")
}

// openOutputHistory opens the history a comparison is stored in, hist
// or the default (none when store is false), after checking that output,
// the -o file, is none of inputs and none of the history's files. It
// returns the history's path (empty when none) and the open history, which
// the caller closes.
// checkNoHistory refuses NoHistory with a History file.
func checkNoHistory(noHistory bool, path string) error {
	if noHistory && path != "" {
		return mbopt.Errorf("%s and %s %s contradict each other: give one", FieldNoHistory, FieldHistory, path)
	}
	return nil
}

func openOutputHistory(ctx context.Context, store bool, hist, output string, inputs []string) (string, *history.Store, error) {
	histPath := ""
	if store {
		histPath = historyPath(hist)
		inputs = append(inputs, history.Files(histPath)...)
	}
	if err := mbopt.CheckOutput(FieldOutput, output, inputs...); err != nil {
		return "", nil, err
	}
	st, err := openCompareHistory(ctx, histPath)
	return histPath, st, err
}

// openCompareHistory opens the history at path that a comparison will be
// stored in (creating and migrating it) and checks that it can write there,
// before any benchmark runs: a read-only, newer or foreign history, or a
// path that cannot hold one, is bad input found in a second, not after the
// whole schedule. An empty path (no history) returns nil.
func openCompareHistory(ctx context.Context, path string) (*history.Store, error) {
	if path == "" {
		return nil, nil
	}
	st, err := history.Open(ctx, path)
	if err != nil {
		return nil, historyError(path, err)
	}
	if err := st.CheckWritable(ctx); err != nil {
		st.Close()
		return nil, mbopt.Errorf("%s %s: %v; give a writable %s file, or %s", FieldHistory, path, historyReason(path, err), FieldHistory, FieldNoHistory)
	}
	return st, nil
}
