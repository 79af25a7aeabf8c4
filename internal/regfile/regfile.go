// Package regfile opens and reads input files that must be regular files,
// without ever blocking on a named pipe or device: the one rule every
// reader of user-given paths (profiles, manifests, cost files) follows.
//
// A path is stat'ed first and refused unless it is a regular file (or a
// symbolic link to one); it is then opened without blocking (O_NONBLOCK on
// Unix, so opening a named pipe without a writer returns at once) and the
// opened file is checked again, in case the path was replaced in between.
package regfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is matched (errors.Is) by a [*NotRegularError].
var ErrNotRegular = errors.New("not a regular file")

// NotRegularError reports a path that is not a regular file.
type NotRegularError struct {
	// Mode is the file's mode; Mode.Type() says what it is.
	Mode fs.FileMode
}

// Error describes what the file is, e.g. "is a named pipe (FIFO), not a
// regular file".
func (e *NotRegularError) Error() string {
	return fmt.Sprintf("is %s, %v", Kind(e.Mode), ErrNotRegular)
}

// Is reports whether target is ErrNotRegular.
func (e *NotRegularError) Is(target error) bool { return target == ErrNotRegular }

// TooLargeError reports a file larger than the limit a reader set.
type TooLargeError struct {
	// Max is the limit and Size the file's size, in bytes.
	Max, Size int64
}

// Error gives the size and the limit.
func (e *TooLargeError) Error() string {
	return fmt.Sprintf("file is %d bytes, over the %d-byte limit", e.Size, e.Max)
}

// Kind describes the kind of file mode is, with an article: "a regular
// file", "a directory", "a named pipe (FIFO)", "a socket", "a character
// device", "a device", "a symbolic link" or "an irregular file".
func Kind(mode fs.FileMode) string {
	switch {
	case mode.IsRegular():
		return "a regular file"
	case mode.IsDir():
		return "a directory"
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeCharDevice != 0:
		return "a character device"
	case mode&fs.ModeDevice != 0:
		return "a device"
	case mode&fs.ModeSymlink != 0:
		return "a symbolic link"
	default:
		return "an irregular file"
	}
}

// Open opens the regular file at path for reading, as the package
// documentation describes, and returns it with its FileInfo. A path that is
// not a regular file gives a *[NotRegularError]; other errors are those of
// os.Stat and os.Open (*fs.PathError).
func Open(path string) (*os.File, fs.FileInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, nil, &NotRegularError{Mode: st.Mode()}
	}
	f, err := openNonblocking(path)
	if err != nil {
		return nil, nil, err
	}
	if st, err = f.Stat(); err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, &NotRegularError{Mode: st.Mode()}
	}
	return f, st, nil
}

// ReadFile returns the contents of the regular file at path (see [Open]),
// refusing with a *[TooLargeError] a file of more than max bytes, before
// reading it or, for a file that grows while it is read, as soon as it
// passes max.
func ReadFile(path string, max int64) ([]byte, error) {
	f, st, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > max {
		return nil, &TooLargeError{Max: max, Size: st.Size()}
	}
	buf := bytes.NewBuffer(make([]byte, 0, st.Size()+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(f, max+1)); err != nil {
		return nil, err
	}
	if int64(buf.Len()) > max {
		return nil, &TooLargeError{Max: max, Size: int64(buf.Len())}
	}
	return buf.Bytes(), nil
}
