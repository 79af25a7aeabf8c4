package history

import (
	"errors"
	"fmt"
	"path/filepath"
)

// ErrUnwritable is returned (wrapped) for a history that SQLite cannot
// open where it is for what the caller asked, although nothing says the
// database is damaged: by [Open] for a history in a read-only directory
// or on a read-only file system or a full disk, and by [OpenReadOnly]
// when even a read fails there. The message says which, when the
// directory shows it; the database is left as it was, and [OpenReadOnly]
// reads a sound one in such places.
var ErrUnwritable = errors.New("the history cannot be written where it is")

// The SQLite primary result codes the package tells apart.
const (
	sqlitePerm     = 3  // SQLITE_PERM
	sqliteReadOnly = 8  // SQLITE_READONLY
	sqliteIOErr    = 10 // SQLITE_IOERR, such as SQLITE_IOERR_SHMSIZE on a full disk
	sqliteCorrupt  = 11 // SQLITE_CORRUPT
	sqliteFull     = 13 // SQLITE_FULL
	sqliteCantOpen = 14 // SQLITE_CANTOPEN: the file, its -wal or -shm file
	sqliteNotADB   = 26 // SQLITE_NOTADB
)

// isPlaceError reports whether err is an SQLite failure to open, lock or
// extend the database or its -wal and -shm files: what a read-only
// directory or file system, missing permissions or a full disk cause.
func isPlaceError(err error) bool {
	switch sqliteCode(err) {
	case sqlitePerm, sqliteReadOnly, sqliteIOErr, sqliteFull, sqliteCantOpen:
		return true
	}
	return false
}

// sqliteCode returns the primary result code of an SQLite error, 0 for
// an error of another kind.
func sqliteCode(err error) int {
	var coded interface{ Code() int }
	if errors.As(err, &coded) {
		return coded.Code() & 0xff
	}
	return 0
}

// damaged is the error of a database at path whose schema SQLite could
// not read: busy errors pass unchanged, for retryBusy; a file SQLite finds
// corrupt or not a database wraps ErrNotHistory; a file, lock or -shm file
// it cannot open or extend (see isPlaceError) says what is wrong with the
// place (see unwritable) and never calls the file damaged.
func damaged(path string, err error) error {
	switch {
	case isBusy(err):
		return err
	case sqliteCode(err) == sqliteCorrupt || sqliteCode(err) == sqliteNotADB:
		return fmt.Errorf("%w: not an SQLite database, or a damaged one (%v); move it away to start a new history", ErrNotHistory, err)
	case isPlaceError(err):
		return unwritable(path, err)
	}
	return fmt.Errorf("reading the schema: %w", err)
}

// A placeError is an error wrapping ErrUnwritable with its own message;
// cause is SQLite's error, nil when none was tried.
type placeError struct {
	msg   string
	cause error
}

func (e *placeError) Error() string        { return e.msg }
func (e *placeError) Unwrap() error        { return e.cause }
func (e *placeError) Is(target error) bool { return target == ErrUnwritable }

// unwritable returns err, a failure of SQLite to open or lock the
// database at path (nil: none was tried), as an error wrapping
// ErrUnwritable that says what is wrong where the directory shows it
// (placeProblem): a read-only file system, a directory this user may not
// write, a full disk; and that a read still works.
func unwritable(path string, err error) error {
	if errors.Is(err, ErrUnwritable) || errors.Is(err, ErrNotHistory) {
		return err
	}
	return &placeError{msg: ErrUnwritable.Error() + ": " + describe(path, err) +
		"; mbopt history still reads it, and comparisons can be stored once that is fixed or in another --history file", cause: err}
}

// unreadable is the error of a history that even a read-only connection
// cannot open where it is (see unwritable): a -wal file whose -shm file
// SQLite cannot make there, say.
func unreadable(path string, err error) error {
	var pe *placeError
	if errors.As(err, &pe) {
		err = pe.cause
	}
	return &placeError{msg: "SQLite cannot read the history where it is: " + describe(path, err) +
		"; copy it, with its -wal file, into a writable directory and read the copy", cause: err}
}

// describe says what is wrong with the place of the database at path, as
// far as its directory shows it, followed by SQLite's error err in
// parentheses; err alone when the directory shows nothing.
func describe(path string, err error) string {
	p := placeProblem(filepath.Dir(path))
	switch {
	case p == "" && err == nil:
		return "the file or its directory cannot be written"
	case p == "":
		return err.Error() + " (check the permissions of the file and its directory, and the free space of its disk)"
	case err != nil:
		return p + " (" + err.Error() + ")"
	}
	return p
}
