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
