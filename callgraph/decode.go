package callgraph

import (
	"bufio"
	"compress/gzip"
	"io"
	"unsafe"

	"github.com/google/pprof/profile"
	"github.com/mbopt/mbopt/internal/bitset"
	"github.com/mbopt/mbopt/internal/regfile"
)

// decoder is the lean pprof decoder behind [Table.Load]. It decodes the
// fields a footprint needs (sample types, samples, locations' lines,
// functions' names and the string table) straight from the decompressed
// protobuf, without building a profile.Profile, and checks everything
// profile.ParseData and the graph builder would check, so that it succeeds
// exactly when they would, with the same functions; everything else
// (legacy formats, and every input that is an error) is left to [Load] by
// returning false. Wire-level decoding follows google/pprof's
// profile/proto.go and profile/encode.go field by field: a known field of
// the wrong wire type is an error, unknown fields are skipped, a repeated
// scalar field keeps its last value.
//
// Its slices are scratch space reused from one profile to the next.
type decoder struct {
	gz   *gzip.Reader
	br   *bufio.Reader
	lr   io.LimitedReader
	data []byte // the decompressed profile

	strs     []span   // the string table, as spans of data
	refs     []int64  // string indices postDecode resolves, checked once the table is complete
	types    []vtype  // sample types
	mapIDs   []uint64 // mapping ids
	funcs    []pbFunc // functions
	locs     []pbLoc  // locations
	lines    []uint64 // function ids of the locations' lines, location after location
	samples  [][]byte // sample messages, decoded once the sample types are known
	values   []int64  // one sample's values
	funcIdx  idIndex  // function id → index in funcs
	locIdx   idIndex  // location id → index in locs
	seen     []bool   // scratch for duplicate ids
	locUsed  []bool   // locations on some sample's stack
	usedLocs []int32  // their indices
	funcUsed []bool   // functions of those locations' lines
	usedFns  []int32  // their indices
	others   []string // names of a footprint's functions not in the table's graph (views of data)
	// The Profile message's scalar fields that matter: all but
	// timeNanos and durationNanos are string indices.
	dropFrames, keepFrames, timeNanos, durationNanos int64
	periodType, periodUnit, defaultType, docURL      int64
}

// span is a string of the string table: data[start:end].
type span struct{ start, end int }

// vtype is a ValueType: string indices of its type and unit.
type vtype struct{ typ, unit int64 }

// pbFunc is a Function's id and the string indices of its names.
type pbFunc struct {
	id        uint64
	name, sys int64
}

// pbLoc is a Location's id and its lines, lines[first:first+n].
type pbLoc struct {
	id       uint64
	first, n int32
}

// maxKeptBuffer is the largest decompressed buffer a decoder keeps for the
// next profile; larger ones are dropped after use.
const maxKeptBuffer = 16 << 20

// release drops what the decoder should not keep between profiles.
func (d *decoder) release() {
	if cap(d.data) > maxKeptBuffer {
		d.data = nil
	}
	if d.br != nil {
		d.br.Reset(nil)
	}
	d.lr.R = nil
	clear(d.others)
	d.others = d.others[:0]
	clear(d.samples)
	d.samples = d.samples[:0]
}

// footprint reads the profile at path into a footprint over t; false means
// the caller must use [Load] (see decoder).
func (d *decoder) footprint(t *Table, path string, opts Options) (*Footprint, bool) {
	lim := opts.Limits.orDefault()
	if !d.read(path, lim) {
		return nil, false
	}
	return d.decode(t, opts.AllowNonCPU, opts.AllowEmpty)
}

// read reads and decompresses the regular file at path into d.data within
// lim; false means it could not (Load then reports why).
func (d *decoder) read(path string, lim Limits) bool {
	f, st, err := regfile.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	if st.Size() > lim.MaxFileBytes {
		return false
	}
	if d.br == nil {
		d.br = bufio.NewReaderSize(f, 32<<10)
	} else {
		d.br.Reset(f)
	}
	return d.fill(d.br, st.Size(), lim)
}

// fill reads the size bytes of a profile file from r into d.data,
// decompressing them if they are gzipped as parseData decides (at least 18
// bytes starting with the gzip magic number), within lim; false means it
// could not (Load then reports why).
func (d *decoder) fill(r *bufio.Reader, size int64, lim Limits) bool {
	var src io.Reader = r
	max := min(lim.MaxDecodedBytes, lim.MaxFileBytes)
	magic, _ := r.Peek(2)
	gzipped := len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b
	if gzipped && size < 18 {
		return false // not gzip to parseData, but gzip to profile.ParseData: an error
	}
	if gzipped {
		var err error
		if d.gz == nil {
			d.gz, err = gzip.NewReader(r)
		} else {
			err = d.gz.Reset(r)
		}
		if err != nil {
			return false
		}
		// Past eagerDecoded a gzipped profile is left to Load, which
		// counts the rest without keeping it: a gzip bomb then costs this
		// decoder no more memory than Load's own eager buffer.
		src, max = d.gz, min(lim.MaxDecodedBytes, eagerDecoded)
	}
	d.lr = io.LimitedReader{R: src, N: max + 1}
	d.data = d.data[:0]
	if cap(d.data) == 0 {
		d.data = make([]byte, 0, min(max+1, 4*size+512))
	}
	for {
		if len(d.data) == cap(d.data) {
			// Grow by doubling, but never past max+1 bytes.
			next := min(2*int64(cap(d.data))+512, max+1)
			if next <= int64(len(d.data)) {
				next = int64(len(d.data)) + 1 // the limited reader reports EOF
			}
			grown := make([]byte, len(d.data), next)
			copy(grown, d.data)
			d.data = grown
		}
		n, err := d.lr.Read(d.data[len(d.data):cap(d.data)])
		d.data = d.data[:len(d.data)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return false
		}
	}
	if int64(len(d.data)) > max {
		d.data = nil // a bomb's buffer is not kept for the next profile
		return false
	}
	// parseData refuses to decompress a second gzip layer.
	return !gzipped || len(d.data) < 2 || d.data[0] != 0x1f || d.data[1] != 0x8b
}

// decode decodes d.data into a footprint over t.
func (d *decoder) decode(t *Table, allowNonCPU, allowEmpty bool) (*Footprint, bool) {
	if !d.profile() {
		return nil, false
	}
	types, def, ok := d.checkTable()
	if !ok {
		return nil, false
	}
	if len(types) == 0 && len(d.samples) != 0 {
		return nil, false
	}
	idx, _, unit, err := sampleIndex(&profile.Profile{SampleType: types, DefaultSampleType: def}, allowNonCPU)
	if err != nil {
		return nil, false
	}
	if unit == "" {
		unit = "seconds" // as finish names a graph without unit
	}
	fp := &Footprint{Table: t, Unit: unit}
	if dur := d.durationNanos; dur > 0 {
		fp.Duration = float64(dur) * 1e-9
	}
	if len(d.samples) == 0 {
		if !allowEmpty {
			return nil, false
		}
		fp.Nodes = bitset.New(t.g.Len())
		return fp, true
	}
	countIdx := countIndex(types)
	nonZero := false
	d.locUsed = resize(d.locUsed, len(d.locs))
	d.usedLocs = d.usedLocs[:0]
	for _, s := range d.samples {
		if !d.sample(s) || len(d.values) != len(types) {
			return nil, false
		}
		raw := d.values[idx]
		if raw < 0 {
			return nil, false
		}
		nonZero = nonZero || raw != 0
		if countIdx >= 0 && d.values[countIdx] > 0 {
			fp.SamplesTaken += d.values[countIdx]
		} else if countIdx < 0 {
			fp.SamplesTaken++
		}
	}
	if len(d.usedLocs) == 0 || !nonZero && !allowEmpty {
		return nil, false
	}
	d.funcUsed = resize(d.funcUsed, len(d.funcs))
	d.usedFns = d.usedFns[:0]
	for _, k := range d.usedLocs {
		l := d.locs[k]
		for _, id := range d.lines[l.first : l.first+l.n] {
			fi := d.funcIdx.get(id) - 1 // exists: checkTable checked every line
			if !d.funcUsed[fi] {
				d.funcUsed[fi] = true
				d.usedFns = append(d.usedFns, fi)
			}
		}
	}
	fp.Nodes = bitset.New(t.g.Len())
	d.others = d.others[:0]
	for _, fi := range d.usedFns {
		fn := d.funcs[fi]
		name := d.str(fn.name)
		if name == "" {
			name = d.str(fn.sys)
		}
		if name == "" {
			continue
		}
		name = NormalizeName(name)
		if id, ok := t.g.Lookup(name); ok {
			fp.Nodes.Add(id)
		} else {
			d.others = append(d.others, name)
		}
	}
	if fp.Nodes.Len() == 0 && len(d.others) == 0 {
		return nil, false // no named frame: ErrUnsymbolized
	}
	if len(d.others) > 0 {
		fp.Others = sortedIDs(t.intern(d.others, make([]int32, 0, len(d.others))))
	}
	return fp, true
}

// str returns string i of the table as a view of d.data, valid until the
// next profile is read: the bytes are never changed while it is in use,
// and Table.intern copies the names it keeps.
func (d *decoder) str(i int64) string {
	s := d.strs[i]
	if s.start == s.end {
		return ""
	}
	return unsafe.String(&d.data[s.start], s.end-s.start)
}

// profile decodes the Profile message's fields other than samples, whose
// messages it keeps in d.samples.
func (d *decoder) profile() bool {
	d.strs, d.refs, d.types, d.mapIDs = d.strs[:0], d.refs[:0], d.types[:0], d.mapIDs[:0]
	d.funcs, d.locs, d.lines, d.samples = d.funcs[:0], d.locs[:0], d.lines[:0], d.samples[:0]
	d.usedLocs = d.usedLocs[:0]
	d.dropFrames, d.keepFrames, d.timeNanos, d.durationNanos = 0, 0, 0, 0
	d.periodType, d.periodUnit, d.defaultType, d.docURL = 0, 0, 0, 0
	if len(d.data) == 0 {
		return false
	}
	var vals [10]uint64
	for p := (pb{b: d.data}); p.more(); {
		num, typ, u, data, ok := p.field()
		if !ok {
			return false
		}
		if num >= 1 && num <= 6 || num == 11 {
			if typ != 2 {
				return false
			}
		}
		switch num {
		case 1: // sample_type
			vals = [10]uint64{}
			if !scalars(data, vals[:2]) {
				return false
			}
			d.types = append(d.types, vtype{int64(vals[0]), int64(vals[1])})
		case 2: // sample
			d.samples = append(d.samples, data)
		case 3: // mapping: id, start, limit, offset, filename, build_id, 4 bools
			vals = [10]uint64{}
			if !scalars(data, vals[:10]) {
				return false
			}
			d.mapIDs = append(d.mapIDs, vals[0])
			d.refs = append(d.refs, int64(vals[4]), int64(vals[5]))
		case 4: // location
			if !d.location(data) {
				return false
			}
		case 5: // function: id, name, system_name, filename, start_line
			vals = [10]uint64{}
			if !scalars(data, vals[:5]) {
				return false
			}
			d.funcs = append(d.funcs, pbFunc{id: vals[0], name: int64(vals[1]), sys: int64(vals[2])})
			d.refs = append(d.refs, int64(vals[3]))
		case 6: // string_table; its first string must be ""
			d.strs = append(d.strs, span{p.i - len(data), p.i})
			if d.strs[0].start != d.strs[0].end {
				return false
			}
		case 7, 8, 10, 12, 14, 15: // drop_frames, keep_frames, duration, period, default_sample_type, doc_url
			if typ != 0 {
				return false
			}
			switch v := int64(u); num {
			case 7:
				d.dropFrames = v
			case 8:
				d.keepFrames = v
			case 10:
				d.durationNanos = v
			case 14:
				d.defaultType = v
			case 15:
				d.docURL = v
			}
		case 9: // time_nanos: a second non-zero one means concatenated profiles
			if d.timeNanos != 0 || typ != 0 {
				return false
			}
			d.timeNanos = int64(u)
		case 11: // period_type
			vals = [10]uint64{}
			if !scalars(data, vals[:2]) {
				return false
			}
			d.periodType, d.periodUnit = int64(vals[0]), int64(vals[1])
		case 13: // comment
			if !varints(typ, u, data, func(u uint64) bool { d.refs = append(d.refs, int64(u)); return true }) {
				return false
			}
		}
	}
	return true
}

// location decodes a Location message.
func (d *decoder) location(b []byte) bool {
	l := pbLoc{first: int32(len(d.lines))}
	for p := (pb{b: b}); p.more(); {
		num, typ, u, data, ok := p.field()
		if !ok {
			return false
		}
		switch num {
		case 1, 2, 3, 5: // id, mapping_id, address, is_folded
			if typ != 0 {
				return false
			}
			if num == 1 {
				l.id = u
			}
		case 4: // line: function_id, line, column
			var vals [3]uint64
			if typ != 2 || !scalars(data, vals[:]) {
				return false
			}
			d.lines = append(d.lines, vals[0])
		}
	}
	l.n = int32(len(d.lines)) - l.first
	d.locs = append(d.locs, l)
	return true
}

// sample decodes a Sample message: its locations are marked used in
// d.locUsed and d.usedLocs, its values go to d.values, its labels' string
// indices are checked as postDecode resolves them.
func (d *decoder) sample(b []byte) bool {
	d.values = d.values[:0]
	n := int64(len(d.strs))
	for p := (pb{b: b}); p.more(); {
		num, typ, u, data, ok := p.field()
		if !ok {
			return false
		}
		switch num {
		case 1: // location_id
			if typ == 2 {
				for q := (pb{b: data}); q.more(); {
					id, ok := q.varint()
					if !ok || !d.useLocation(id) {
						return false
					}
				}
			} else if typ != 0 || !d.useLocation(u) {
				return false
			}
		case 2: // value
			if typ == 2 {
				for q := (pb{b: data}); q.more(); {
					v, ok := q.varint()
					if !ok {
						return false
					}
					d.values = append(d.values, int64(v))
				}
			} else if typ == 0 {
				d.values = append(d.values, int64(u))
			} else {
				return false
			}
		case 3: // label: key, str, num, num_unit
			var v [4]uint64
			if typ != 2 || !scalars(data, v[:]) {
				return false
			}
			// postDecode resolves the key, then the string value if
			// there is one, else the unit of a numeric value.
			key, str, unit := int64(v[0]), int64(v[1]), int64(v[3])
			if key < 0 || key >= n || str != 0 && (str < 0 || str >= n) || str == 0 && unit != 0 && (unit < 0 || unit >= n) {
				return false
			}
		}
	}
	return true
}

// useLocation marks the location of id used; false if there is none.
func (d *decoder) useLocation(id uint64) bool {
	k := d.locIdx.get(id) - 1
	if k < 0 {
		return false
	}
	if !d.locUsed[k] {
		d.locUsed[k] = true
		d.usedLocs = append(d.usedLocs, k)
	}
	return true
}
