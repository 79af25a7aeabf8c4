package covdata

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// This file reads the binary coverage data of a GOCOVERDIR in process: the
// meta-data files (covmeta.<hash>: every instrumented package's functions
// and coverable units) and the counter files (covcounters.<hash>.<pid>.<time>:
// one counter per unit, for the functions that ran), in the layout of the
// Go toolchain's internal/coverage packages (file format version 1, Go 1.20
// and later), which cannot be imported. [Counters.WriteText] prints what
// `go tool covdata textfmt` prints for the same directory, byte for byte;
// the tests hold the two to that on every fixture.

// A Unit is one coverable unit (a basic block) of an instrumented
// function, with its counter.
type Unit struct {
	// Package is the import path of the unit's package.
	Package string
	// File is the source file as the coverage data names it: the package's
	// import path, "/", and the file's base name.
	File string
	// Func is the function's name as the coverage data records it: for a
	// function literal, the name of the function around it.
	Func string
	// Literal says whether the unit lies in a function literal.
	Literal bool
	// StartLine, StartCol, EndLine and EndCol delimit the unit (1-based,
	// byte columns), and Stmts is its number of statements.
	StartLine, StartCol, EndLine, EndCol, Stmts uint32
	// Count is how often the unit ran (in set mode, 1 when it ran at all),
	// summed over every counter file of the directory.
	Count uint32
}

// Counters are the coverage counters of one coverage data directory, every
// unit of every instrumented package, run or not.
type Counters struct {
	// Mode is the counter mode of the build: "set", "count" or "atomic".
	Mode string
	// Units are sorted as `go tool covdata textfmt` prints them: by
	// package, then file, start line, end line, start column, end column
	// and statements.
	Units []Unit
}

// The magic numbers, versions and sizes of the format.
var (
	metaMagic    = [4]byte{0, 'c', 'v', 'm'}
	counterMagic = [4]byte{0, 'c', 'w', 'm'}
)

const (
	formatVersion     = 1
	metaHeaderSize    = 56 // magic, version, length, entries, hash, string table offset and length, mode, granularity, padding
	pkgHeaderSize     = 44 // length, name, path, module, hash, padding, files, functions
	counterHeaderSize = 32 // magic, version, meta hash, flavor, big endian, padding
	segmentHeaderSize = 16 // functions, string table length, args length
	footerSize        = 16 // magic, padding, segments, padding
	flavorRaw         = 1
	flavorULEB        = 2
	maxCoverFileBytes = 1 << 30
)

// counterModes names the counter modes by their code in a meta-data file.
var counterModes = map[byte]string{1: "set", 2: "count", 3: "atomic"}

var (
	metaFileRE    = regexp.MustCompile(`^covmeta\.(\S+)$`)
	counterFileRE = regexp.MustCompile(`^covcounters\.(\S+)\.(\d+)\.(\d+)+$`)
)

// ReadCounters reads the coverage data directory dir (the covmeta.* and
// covcounters.* files a program built with -cover writes to its
// GOCOVERDIR) without running any command. Counters of several runs in one
// directory are summed (in set mode, or'ed), as `go tool covdata` does;
// counter files without their meta-data file are ignored, as it ignores
// them.
//
// ReadCounters fails when dir is not a directory, when it holds no
// meta-data file (the error wraps [ErrNoData]), when a file is not valid
// coverage data of format version 1, or when the meta-data files disagree
// on the counter mode. Every error names the directory or the file.
func ReadCounters(dir string) (*Counters, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: not a coverage data directory (a GOCOVERDIR written by a program built with -cover): %w", dir, err)
	}
	metas := map[string]string{} // hash tag -> file
	var tags []string
	for _, e := range ents {
		if m := metaFileRE.FindStringSubmatch(e.Name()); m != nil {
			metas[m[1]] = filepath.Join(dir, e.Name())
			tags = append(tags, m[1])
		}
	}
	if len(metas) == 0 {
		return nil, fmt.Errorf("%s: %w (was the program built with -cover, and did it exit normally? counters are written at exit)", dir, ErrNoData)
	}
	counters := map[string][]string{}
	for _, e := range ents {
		if m := counterFileRE.FindStringSubmatch(e.Name()); m != nil && metas[m[1]] != "" {
			counters[m[1]] = append(counters[m[1]], filepath.Join(dir, e.Name()))
		}
	}
	slices.SortFunc(tags, func(a, b string) int { return strings.Compare(metas[a], metas[b]) })
	c := &Counters{}
	type key struct {
		pkg, file, fn     string
		lit               bool
		sl, sc, el, ec, n uint32
	}
	sums := map[key]uint32{}
	for _, tag := range tags {
		meta, err := readMeta(metas[tag])
		if err != nil {
			return nil, err
		}
		if c.Mode == "" {
			c.Mode = meta.mode
		} else if c.Mode != meta.mode {
			return nil, fmt.Errorf("%s: counter mode %s, but another meta-data file of the directory has %s (data of different builds mixed in one directory)", metas[tag], meta.mode, c.Mode)
		}
		files := counters[tag]
		slices.Sort(files)
		got := map[[2]uint32][]uint32{} // package and function index -> merged counters
		for _, f := range files {
			if err := readCounterFile(f, meta, c.Mode, got); err != nil {
				return nil, err
			}
		}
		for pi, p := range meta.pkgs {
			for fi, fn := range p.funcs {
				ctrs := got[[2]uint32{uint32(pi), uint32(fi)}]
				for ui, u := range fn.units {
					var n uint32
					if ui < len(ctrs) {
						n = ctrs[ui]
					}
					k := key{p.path, fn.file, fn.name, fn.lit, u[0], u[1], u[2], u[3], u[4]}
					prev, seen := sums[k]
					sums[k] = merge(c.Mode, prev, n)
					if !seen {
						c.Units = append(c.Units, Unit{Package: p.path, File: fn.file, Func: fn.name, Literal: fn.lit,
							StartLine: u[0], StartCol: u[1], EndLine: u[2], EndCol: u[3], Stmts: u[4]})
					}
				}
			}
		}
	}
	for i := range c.Units {
		u := &c.Units[i]
		u.Count = sums[key{u.Package, u.File, u.Func, u.Literal, u.StartLine, u.StartCol, u.EndLine, u.EndCol, u.Stmts}]
	}
	slices.SortStableFunc(c.Units, func(a, b Unit) int {
		return cmp.Or(strings.Compare(a.Package, b.Package), strings.Compare(a.File, b.File),
			cmp.Compare(a.StartLine, b.StartLine), cmp.Compare(a.EndLine, b.EndLine),
			cmp.Compare(a.StartCol, b.StartCol), cmp.Compare(a.EndCol, b.EndCol), cmp.Compare(a.Stmts, b.Stmts))
	})
	return c, nil
}

// Grown returns the counters of c that grew since base, the counters of
// a run of the same program with fewer iterations: a copy of c in which
// each unit's Count is its growth over the same unit in base, or 0 where
// it did not grow. A unit of c that base lacks counts in full. Run a
// benchmark at two iteration counts above one, and what grew is what runs
// per iteration, its timed loop; what did not is its setup and
// validation, which run the same number of times at both counts (twice:
// go test runs a benchmark at b.N = 1 before the count asked for, except
// with b.Loop, once), and the parts of the loop that run a constant number
// of times. In set mode nothing can grow: Grown of set-mode counters is
// all zeros.
func (c *Counters) Grown(base *Counters) *Counters {
	type key struct {
		pkg, file, fn     string
		lit               bool
		sl, sc, el, ec, n uint32
	}
	before := make(map[key]uint32, len(base.Units))
	for _, u := range base.Units {
		before[key{u.Package, u.File, u.Func, u.Literal, u.StartLine, u.StartCol, u.EndLine, u.EndCol, u.Stmts}] = u.Count
	}
	out := &Counters{Mode: c.Mode, Units: make([]Unit, len(c.Units))}
	for i, u := range c.Units {
		b := before[key{u.Package, u.File, u.Func, u.Literal, u.StartLine, u.StartCol, u.EndLine, u.EndCol, u.Stmts}]
		switch {
		case c.Mode == "set":
			u.Count = 0
		case u.Count > b:
			u.Count -= b
		default:
			u.Count = 0
		}
		out.Units[i] = u
	}
	return out
}

// merge combines two counts of one unit: or'ed in set mode, otherwise
// summed, saturating.
func merge(mode string, a, b uint32) uint32 {
	if mode == "set" {
		if a != 0 || b != 0 {
			return 1
		}
		return 0
	}
	if s := uint64(a) + uint64(b); s <= math.MaxUint32 {
		return uint32(s)
	}
	return math.MaxUint32
}

// WriteText writes c in the text format of `go test -coverprofile` and `go
// tool covdata textfmt`: a "mode:" line, then one line per unit,
// "file:startline.startcol,endline.endcol statements count".
func (c *Counters) WriteText(w io.Writer) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "mode: %s\n", c.Mode)
	for _, u := range c.Units {
		fmt.Fprintf(&b, "%s:%d.%d,%d.%d %d %d\n", u.File, u.StartLine, u.StartCol, u.EndLine, u.EndCol, u.Stmts, u.Count)
	}
	_, err := w.Write(b.Bytes())
	return err
}

// A meta is one decoded meta-data file.
type meta struct {
	mode string
	pkgs []metaPkg
}

type metaPkg struct {
	path  string
	funcs []metaFunc
}

type metaFunc struct {
	name, file string
	lit        bool
	units      [][5]uint32 // start line, start column, end line, end column, statements
}

// errCorrupt is wrapped by the errors of data that does not decode.
var errCorrupt = errors.New("not valid coverage data (truncated, or written by another Go version?)")

// readMeta decodes the meta-data file name.
func readMeta(name string) (*meta, error) {
	data, err := readCoverFile(name)
	if err != nil {
		return nil, err
	}
	fail := func(what string) error { return fmt.Errorf("%s: meta-data file: %s: %w", name, what, errCorrupt) }
	if len(data) < metaHeaderSize || [4]byte(data[:4]) != metaMagic {
		return nil, fail("no meta-data header")
	}
	le := binary.LittleEndian
	if v := le.Uint32(data[4:]); v > formatVersion {
		return nil, fmt.Errorf("%s: meta-data file version %d, this mbopt reads version %d (data of a newer Go?)", name, v, formatVersion)
	}
	entries := le.Uint64(data[16:])
	mode, ok := counterModes[data[48]]
	if !ok {
		return nil, fail(fmt.Sprintf("counter mode %d", data[48]))
	}
	if entries > uint64(len(data)-metaHeaderSize)/16 {
		return nil, fail("package table")
	}
	m := &meta{mode: mode, pkgs: make([]metaPkg, entries)}
	for i := range m.pkgs {
		off := le.Uint64(data[metaHeaderSize+8*i:])
		n := le.Uint64(data[metaHeaderSize+8*(int(entries)+i):])
		if off > uint64(len(data)) || n > uint64(len(data))-off {
			return nil, fail(fmt.Sprintf("package %d lies outside the file", i))
		}
		p, err := decodePackage(data[off : off+n])
		if err != nil {
			return nil, fail(fmt.Sprintf("package %d: %v", i, err))
		}
		m.pkgs[i] = p
	}
	return m, nil
}

// decodePackage decodes one package's meta-data blob.
func decodePackage(b []byte) (metaPkg, error) {
	var p metaPkg
	le := binary.LittleEndian
	if len(b) < pkgHeaderSize {
		return p, errors.New("short header")
	}
	pathIdx := le.Uint32(b[8:])
	nfuncs := le.Uint32(b[40:])
	if uint64(nfuncs) > uint64(len(b)-pkgHeaderSize)/4 {
		return p, errors.New("function table")
	}
	r := &reader{b: b, off: pkgHeaderSize + 4*int(nfuncs)}
	strs := r.strings()
	str := func(i uint64) string {
		if i >= uint64(len(strs)) {
			r.err = true
			return ""
		}
		return strs[i]
	}
	p.path = str(uint64(pathIdx))
	p.funcs = make([]metaFunc, nfuncs)
	for i := range p.funcs {
		off := le.Uint32(b[pkgHeaderSize+4*i:])
		if int64(off) >= int64(len(b)) {
			return p, fmt.Errorf("function %d lies outside the package", i)
		}
		r.off = int(off)
		nunits := r.uleb()
		fn := metaFunc{name: str(r.uleb()), file: str(r.uleb())}
		if nunits > uint64(len(b)) {
			return p, fmt.Errorf("function %d: %d units", i, nunits)
		}
		fn.units = make([][5]uint32, nunits)
		for k := range fn.units {
			for j := range fn.units[k] {
				fn.units[k][j] = uint32(r.uleb())
			}
		}
		fn.lit = r.uleb() != 0
		if r.err {
			return p, fmt.Errorf("function %d is truncated", i)
		}
		p.funcs[i] = fn
	}
	if r.err {
		return p, errors.New("string table")
	}
	return p, nil
}

// readCounterFile decodes the counter file name of meta m and merges its
// counters into got, by package and function index.
func readCounterFile(name string, m *meta, mode string, got map[[2]uint32][]uint32) error {
	data, err := readCoverFile(name)
	if err != nil {
		return err
	}
	fail := func(what string) error { return fmt.Errorf("%s: counter file: %s: %w", name, what, errCorrupt) }
	if len(data) < counterHeaderSize+footerSize || [4]byte(data[:4]) != counterMagic {
		return fail("no counter file header")
	}
	le := binary.LittleEndian
	if v := le.Uint32(data[4:]); v > formatVersion {
		return fmt.Errorf("%s: counter file version %d, this mbopt reads version %d (data of a newer Go?)", name, v, formatVersion)
	}
	flavor, bigEndian := data[24], data[25] != 0
	if flavor != flavorRaw && flavor != flavorULEB {
		return fail(fmt.Sprintf("counter flavor %d", flavor))
	}
	foot := data[len(data)-footerSize:]
	if [4]byte(foot[:4]) != counterMagic {
		return fail("no footer")
	}
	segments := le.Uint32(foot[8:])
	if segments == 0 {
		return fail("no segments")
	}
	r := &reader{b: data[:len(data)-footerSize], off: counterHeaderSize}
	u32 := r.uleb32
	if flavor == flavorRaw {
		u32 = func() uint32 { return r.raw32(bigEndian) }
	}
	for s := uint32(0); s < segments; s++ {
		if s > 0 {
			r.off += footerSize // each segment but the last is followed by a footer
		}
		if r.off+segmentHeaderSize > len(r.b) {
			return fail(fmt.Sprintf("segment %d is truncated", s))
		}
		nfuncs := le.Uint64(r.b[r.off:])
		skip := uint64(le.Uint32(r.b[r.off+8:])) + uint64(le.Uint32(r.b[r.off+12:])) // string table and args
		if skip > uint64(len(r.b)) {
			return fail(fmt.Sprintf("segment %d is truncated", s))
		}
		r.off += segmentHeaderSize + int(skip)
		r.off += (4 - r.off%4) % 4
		for f := uint64(0); f < nfuncs; f++ {
			nc, pkg, fn := u32(), u32(), u32()
			if r.err || uint64(nc) > uint64(len(r.b)) {
				return fail(fmt.Sprintf("segment %d is truncated", s))
			}
			var ctrs []uint32
			valid := int(pkg) < len(m.pkgs) && int(fn) < len(m.pkgs[pkg].funcs)
			k := [2]uint32{pkg, fn}
			if valid {
				ctrs = got[k]
				if len(ctrs) < int(nc) {
					ctrs = append(ctrs, make([]uint32, int(nc)-len(ctrs))...)
				}
			}
			for i := uint32(0); i < nc; i++ {
				v := u32()
				if valid {
					ctrs[i] = merge(mode, ctrs[i], v)
				}
			}
			if r.err {
				return fail(fmt.Sprintf("segment %d is truncated", s))
			}
			if valid { // go tool covdata ignores counters of unknown functions too
				got[k] = ctrs
			}
		}
	}
	return nil
}

// readCoverFile reads a coverage data file of bounded size.
func readCoverFile(name string) ([]byte, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxCoverFileBytes {
		return nil, fmt.Errorf("%s: not a regular file of at most %d bytes", name, maxCoverFileBytes)
	}
	return os.ReadFile(name)
}

// A reader decodes the variable-length parts of the format; err is set,
// and every read returns zero, once the data runs out.
type reader struct {
	b   []byte
	off int
	err bool
}

func (r *reader) uleb() uint64 {
	var v uint64
	for shift := uint(0); ; shift += 7 {
		if r.err || r.off < 0 || r.off >= len(r.b) || shift > 63 {
			r.err = true
			return 0
		}
		c := r.b[r.off]
		r.off++
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			return v
		}
	}
}

func (r *reader) uleb32() uint32 { return uint32(r.uleb()) }

func (r *reader) raw32(bigEndian bool) uint32 {
	if r.err || r.off < 0 || r.off+4 > len(r.b) {
		r.err = true
		return 0
	}
	p := r.b[r.off : r.off+4]
	r.off += 4
	if bigEndian {
		return binary.BigEndian.Uint32(p)
	}
	return binary.LittleEndian.Uint32(p)
}

// strings reads a string table: a count, then each string's length and
// bytes.
func (r *reader) strings() []string {
	n := r.uleb()
	if n > uint64(len(r.b)) {
		r.err = true
		return nil
	}
	out := make([]string, 0, n)
	for range n {
		l := r.uleb()
		if r.err || l > uint64(len(r.b)-r.off) {
			r.err = true
			return nil
		}
		out = append(out, string(r.b[r.off:r.off+int(l)]))
		r.off += int(l)
	}
	return out
}
