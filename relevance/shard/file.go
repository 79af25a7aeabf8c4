package shard

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	"github.com/mbopt/mbopt/internal/regfile"
)

// A File is what a shard recorded of one file of its output when it wrote
// it: the Size and SHA-256 of its contents. A merge reads the file with
// [File.Copy], which checks both, so that a file truncated, replaced or
// edited after the shard wrote it is refused instead of merged. It is the
// one such check of mbopt: compare's shard record keeps a File for each
// raw file and collect's manifest the SHA-256 of each profile, and both
// merges copy their inputs with [File.Copy].
type File struct {
	// Size is the file's size in bytes; negative when it was not
	// recorded (a manifest records only the SHA-256).
	Size int64 `json:"size"`
	// SHA256 is the hex SHA-256 of the file's contents; empty when it was
	// not recorded (a manifest written before it was).
	SHA256 string `json:"sha256"`
}

// FileOf returns the File of a file whose contents are data.
func FileOf(data []byte) File {
	sum := sha256.Sum256(data)
	return File{Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:])}
}

// ErrChanged matches (with errors.Is) the error of [File.Copy] for a file
// whose size or SHA-256 is not the recorded one.
var ErrChanged = errors.New("the file changed after the shard wrote it")

// Copy copies the file at path to w and checks that it is a regular file
// (see package regfile) whose size is f.Size, when recorded, and whose
// SHA-256 is f.SHA256, when recorded. A file that differs gives an error
// matching [ErrChanged] that names path and both sizes and hashes, after
// the copy: the caller discards what w received. Other errors are those of
// opening or reading path.
func (f File) Copy(w io.Writer, path string) error {
	fh, _, err := regfile.Open(path)
	if err != nil {
		return err
	}
	defer fh.Close()
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(w, h), fh)
	if err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	got := hex.EncodeToString(h.Sum(nil))
	if (f.Size >= 0 && n != f.Size) || (f.SHA256 != "" && got != f.SHA256) {
		return fmt.Errorf("%w: %s has %d bytes with SHA-256 %.12s, but the shard recorded %s with SHA-256 %.12s (truncated, replaced or edited)",
			ErrChanged, path, n, got, sizeOf(f.Size), orNone(f.SHA256))
	}
	return nil
}

// sizeOf describes a recorded size.
func sizeOf(n int64) string {
	if n < 0 {
		return "an unrecorded size"
	}
	return fmt.Sprintf("%d bytes", n)
}

// orNone returns s, or "none" when it is empty.
func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
