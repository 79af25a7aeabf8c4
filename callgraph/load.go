package callgraph

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/google/pprof/profile"
	"github.com/mbopt/mbopt/internal/regfile"
)

// FileError is an error about one input file. Its message starts with the
// file's path and ends, when one is known, with a hint on how to fix it.
type FileError struct {
	// Path is the file's path as given.
	Path string
	// Err is what is wrong with it.
	Err error
	// Hint says how to fix it; "" when there is no advice.
	Hint string
}

// Error returns "path: err", followed by " (hint)" when there is a hint.
func (e *FileError) Error() string {
	if e.Hint == "" {
		return fmt.Sprintf("%s: %v", e.Path, e.Err)
	}
	return fmt.Sprintf("%s: %v (%s)", e.Path, e.Err, e.Hint)
}

// Unwrap returns Err, so errors.Is sees e.g. fs.ErrNotExist.
func (e *FileError) Unwrap() error { return e.Err }

// ErrNotRegular is wrapped by the error for a profile path that is not a
// regular file: a directory, a named pipe (FIFO), a device or a socket. Such
// paths are refused without being read (a FIFO would block forever).
var ErrNotRegular = regfile.ErrNotRegular

// Limits bounds how much of a profile file is read, so that a huge file or
// a small gzip file that expands enormously (a "gzip bomb") fails fast with
// a [*LimitError] instead of exhausting memory. A zero or negative field
// means the same field of [DefaultLimits].
type Limits struct {
	// MaxFileBytes is the size of the largest profile file read, in bytes
	// as stored (gzip-compressed for the profiles Go writes). A larger file
	// is refused from its size alone, before any of it is read.
	MaxFileBytes int64
	// MaxDecodedBytes is the size of the largest decompressed profile, in
	// bytes. Decompression stops as soon as it is exceeded.
	MaxDecodedBytes int64
}

// DefaultLimits are the limits used where a [Limits] field is zero:
// 256 MiB per file and 256 MiB decompressed.
//
// CPU profiles of large applications, production captures and default.pgo
// files included, are a few to a few tens of MB compressed and compress
// about 3–10 to 1, so the defaults leave an order of magnitude of headroom.
// Decoding a profile takes several times its decompressed size in memory,
// so a 256 MiB profile already needs a gigabyte or more; the limits keep a
// bad input from costing more than that. Refusing a profile over the
// decompressed limit costs time in proportion to the limit (decompressing
// up to it, about a second for the default) but memory only up to a fixed
// 32 MiB.
var DefaultLimits = Limits{MaxFileBytes: 256 << 20, MaxDecodedBytes: 256 << 20}

// orDefault returns l with every unset field taken from DefaultLimits.
func (l Limits) orDefault() Limits {
	if l.MaxFileBytes <= 0 {
		l.MaxFileBytes = DefaultLimits.MaxFileBytes
	}
	if l.MaxDecodedBytes <= 0 {
		l.MaxDecodedBytes = DefaultLimits.MaxDecodedBytes
	}
	return l
}

// LimitError reports a profile that exceeds one of its [Limits].
type LimitError struct {
	// Limit names the exceeded field of [Limits]: "MaxFileBytes" or
	// "MaxDecodedBytes".
	Limit string
	// Max is the limit in effect, in bytes.
	Max int64
	// Size is the size found, in bytes: the file's size for
	// MaxFileBytes; for MaxDecodedBytes decompression stops at the limit,
	// so Size is only known to exceed Max and is Max+1.
	Size int64
}

// Error says which limit was exceeded and names the [Limits] field that
// sets it: "file is 300 MiB, over the 256 MiB limit (Limits.MaxFileBytes)".
func (e *LimitError) Error() string {
	if e.Limit == "MaxDecodedBytes" {
		return fmt.Sprintf("profile decompresses to more than the %s limit (Limits.MaxDecodedBytes)", formatBytes(e.Max))
	}
	return fmt.Sprintf("file is %s, over the %s limit (Limits.MaxFileBytes)", formatBytes(e.Size), formatBytes(e.Max))
}

// formatBytes formats n bytes with a binary unit: "256 MiB", "1.5 GiB",
// "600 B".
func formatBytes(n int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	v, u := float64(n), 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	if u == 0 {
		return fmt.Sprintf("%d B", n)
	}
	s := fmt.Sprintf("%.1f", v)
	s = strings.TrimSuffix(s, ".0")
	return s + " " + units[u]
}

// ReadProfile reads and parses the pprof profile at path, gzipped or not,
// within [DefaultLimits]. It is [Limits.ReadProfile] of the zero Limits.
func ReadProfile(path string) (*profile.Profile, error) {
	return Limits{}.ReadProfile(path)
}

// ReadProfile reads and parses the pprof profile at path, gzipped or not.
//
// Only regular files (or symbolic links to them) are read: any other kind
// of file is refused with an error wrapping [ErrNotRegular] before it is
// opened, and the file is opened without blocking (O_NONBLOCK on Unix) and
// checked again, so a named pipe never blocks the call. A file larger than
// l.MaxFileBytes is refused before it is read, and one that decompresses to
// more than l.MaxDecodedBytes as soon as decompression passes that size;
// both errors wrap a [*LimitError].
//
// Errors are [*FileError]s that name the file and suggest a fix. The
// profile is not validated beyond what parsing needs; [New] and [Merge] do
// that.
func (l Limits) ReadProfile(path string) (*profile.Profile, error) {
	l = l.orDefault()
	data, err := readRegular(path, l.MaxFileBytes)
	if err != nil {
		return nil, err
	}
	return l.ParseProfile(path, data)
}

// readRegular returns the contents of the regular file at path, at most
// max bytes (see package internal/regfile), or a *FileError.
func readRegular(path string, max int64) ([]byte, error) {
	data, err := regfile.ReadFile(path, max)
	var nr *regfile.NotRegularError
	var tl *regfile.TooLargeError
	switch {
	case err == nil:
		return data, nil
	case errors.As(err, &nr):
		hint := "only regular files are read as profiles; save the profile to a file and give that"
		if nr.Mode.IsDir() {
			hint = "give a profile file, not a directory"
		}
		return nil, &FileError{Path: path, Err: err, Hint: hint}
	case errors.As(err, &tl):
		return nil, &FileError{Path: path, Err: &LimitError{Limit: "MaxFileBytes", Max: tl.Max, Size: tl.Size}}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	hint := ""
	if errors.Is(err, fs.ErrNotExist) {
		hint = "check the path"
	}
	return nil, &FileError{Path: path, Err: fmt.Errorf("reading profile: %w", err), Hint: hint}
}

// ParseProfile parses the pprof profile data read from path (used only in
// messages) within [DefaultLimits]. It is [Limits.ParseProfile] of the zero
// Limits.
func ParseProfile(path string, data []byte) (*profile.Profile, error) {
	return Limits{}.ParseProfile(path, data)
}

// ParseProfile parses the pprof profile data read from path (used only in
// messages), gzipped or not. Data that is, or decompresses to, more than
// l.MaxDecodedBytes is refused with an error wrapping a [*LimitError];
// decompression stops as soon as it passes the limit. Errors are
// [*FileError]s.
func (l Limits) ParseProfile(path string, data []byte) (*profile.Profile, error) {
	l = l.orDefault()
	if len(data) == 0 {
		return nil, &FileError{Path: path, Err: errors.New("empty file"),
			Hint: "the program that should have written it probably failed or was killed; collect it again"}
	}
	p, err := parseData(data, l.MaxDecodedBytes)
	if err != nil {
		var le *LimitError
		if errors.As(err, &le) {
			return nil, &FileError{Path: path, Err: err}
		}
		hint := "is it a pprof profile written by 'go test -cpuprofile', runtime/pprof or /debug/pprof/profile?"
		msg := err.Error()
		if strings.Contains(msg, "decompressing") || strings.Contains(msg, "unexpected EOF") || (len(data) > 2 && data[0] == 0x1f && data[1] == 0x8b) {
			hint = "the file is truncated or corrupt; collect it again"
		}
		return nil, &FileError{Path: path, Err: err, Hint: hint}
	}
	return p, nil
}

// eagerDecoded is how much of a gzipped profile parseData decompresses into
// memory before it checks the rest's size without keeping it: profiles up to
// this size are decompressed once, larger ones twice, and a "gzip bomb"
// never costs more memory than this, whatever the limit.
const eagerDecoded = 32 << 20

// parseData is profile.ParseData with the decompressed size bounded by
// max. It decompresses gzipped data itself, through an io.LimitReader, into
// a buffer sized from the gzip trailer (bounded by max, by eagerDecoded and
// by 64 times the compressed size, since the trailer is only a hint)
// instead of one io.ReadAll grows by doubling. Past eagerDecoded it only
// counts the remaining bytes, so memory stays bounded; a profile that fits
// max is then decompressed again into a buffer of its exact size.
func parseData(data []byte, max int64) (*profile.Profile, error) {
	if len(data) < 18 || data[0] != 0x1f || data[1] != 0x8b {
		if int64(len(data)) > max {
			return nil, &LimitError{Limit: "MaxDecodedBytes", Max: max, Size: int64(len(data))}
		}
		return profile.ParseData(data)
	}
	raw, err := gunzip(data, max, eagerDecoded)
	if err != nil {
		return nil, err
	}
	if len(raw) >= 2 && raw[0] == 0x1f && raw[1] == 0x8b {
		// ParseData would not decompress twice: given data, it
		// decompresses the outer layer (known to be within max) and fails
		// on the inner gzip, which must not be decompressed unbounded.
		return profile.ParseData(data)
	}
	return profile.ParseData(raw)
}

// gunzip decompresses data, failing with a [*LimitError] when the result
// exceeds max bytes. It keeps at most eager bytes in memory until it knows
// the size fits; see parseData.
func gunzip(data []byte, max, eager int64) ([]byte, error) {
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("decompressing profile: %v", err)
	}
	eager = min(max, eager)
	// ISIZE, the last member's uncompressed size mod 2^32: only a hint.
	size := int64(binary.LittleEndian.Uint32(data[len(data)-4:]))
	var buf bytes.Buffer
	buf.Grow(int(min(size, 64*int64(len(data)), eager+1)) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(gz, eager+1)); err != nil {
		return nil, fmt.Errorf("decompressing profile: %v", err)
	}
	if int64(buf.Len()) <= eager {
		return buf.Bytes(), nil
	}
	// Larger than eager: count the rest without keeping it.
	rest, err := io.Copy(io.Discard, io.LimitReader(gz, max+1-int64(buf.Len())))
	if err != nil {
		return nil, fmt.Errorf("decompressing profile: %v", err)
	}
	total := int64(buf.Len()) + rest
	if total > max {
		return nil, &LimitError{Limit: "MaxDecodedBytes", Max: max, Size: total}
	}
	buf = bytes.Buffer{} // let the first part go before the second pass
	if err := gz.Reset(bytes.NewReader(data)); err != nil {
		return nil, fmt.Errorf("decompressing profile: %v", err)
	}
	out := make([]byte, total)
	if _, err := io.ReadFull(gz, out); err != nil {
		return nil, fmt.Errorf("decompressing profile: %v", err)
	}
	return out, nil
}

// Load reads the profiles at paths within opts.Limits and builds one graph
// from them (see [Merge]). Every error about a file is a [*FileError]
// naming it; with no path at all, Load fails like Merge with an error
// wrapping [ErrNoProfile].
func Load(paths []string, opts Options) (*Graph, error) {
	if len(paths) == 0 {
		return nil, ErrNoProfile
	}
	b, err := newBuilder(opts)
	if err != nil {
		return nil, err
	}
	for _, path := range paths {
		p, err := opts.Limits.ReadProfile(path)
		if err != nil {
			return nil, err
		}
		// ReadProfile's parser validated p already.
		if err := b.add(p, true); err != nil {
			return nil, &FileError{Path: path, Err: err}
		}
	}
	return b.finish(), nil
}
