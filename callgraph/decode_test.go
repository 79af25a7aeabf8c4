package callgraph

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// leanLimits are the limits of the lean decoder's comparisons: equal file
// and decoded limits, so that plain data (checked against both by the lean
// decoder, against the decoded one by ParseProfile) meets the same limit.
var leanLimits = Limits{MaxFileBytes: 16 << 20, MaxDecodedBytes: 16 << 20}

// leanOptions are the option sets every comparison runs with.
var leanOptions = []Options{
	{},
	{AllowNonCPU: true},
	{AllowEmpty: true},
	{AllowNonCPU: true, AllowEmpty: true},
}

// protoPath reports whether profile.ParseData would decode data (within
// lim) as a protobuf, not fall back to a legacy format: the gzip
// decompression parseData does succeeds without a second gzip layer, and
// profile.ParseUncompressed accepts the result. The lean decoder must
// succeed on every such profile that Load accepts.
func protoPath(data []byte, lim Limits) bool {
	raw := data
	if len(data) >= 18 && data[0] == 0x1f && data[1] == 0x8b {
		var err error
		if raw, err = gunzip(data, lim.MaxDecodedBytes, eagerDecoded); err != nil {
			return false
		}
		if len(raw) >= 2 && raw[0] == 0x1f && raw[1] == 0x8b {
			return false
		}
	} else if int64(len(data)) > lim.MaxDecodedBytes {
		return false
	}
	_, err := profile.ParseUncompressed(raw)
	return err == nil
}

// checkLean decodes data with the lean decoder and with ParseProfile and
// New (NoEdges), and fails t unless they agree: when the lean decoder
// succeeds, the reference succeeds with the same functions, Unit,
// SamplesTaken and Duration; when the reference succeeds on a protobuf
// (protoPath), so does the lean decoder. It reports whether the lean
// decoder succeeded.
func checkLean(t *testing.T, tab *Table, data []byte, opts Options) bool {
	t.Helper()
	opts.Limits = leanLimits
	d := new(decoder)
	var fp *Footprint
	ok := d.fill(bufio.NewReader(bytes.NewReader(data)), int64(len(data)), leanLimits)
	if ok {
		fp, ok = d.decode(tab, opts.AllowNonCPU, opts.AllowEmpty)
	}
	p, err := leanLimits.ParseProfile("lean.pprof", data)
	var g *Graph
	if err == nil {
		o := opts
		o.NoEdges = true
		g, err = New(p, o)
	}
	switch {
	case ok && err != nil:
		t.Fatalf("%+v: the lean decoder accepts a profile Load refuses with %v", opts, err)
	case ok:
		want := tab.Footprint(g)
		if got, want := fp.Names(), want.Names(); !slices.Equal(got, want) {
			t.Fatalf("%+v: lean decoder's functions\n%q\nwant (New's nodes)\n%q", opts, got, want)
		}
		if fp.Len() != g.Len() || fp.Unit != g.Unit || fp.SamplesTaken != g.SamplesTaken || fp.Duration != g.Duration {
			t.Fatalf("%+v: lean decoder: %d functions, unit %q, %d samples taken, duration %v; New: %d, %q, %d, %v",
				opts, fp.Len(), fp.Unit, fp.SamplesTaken, fp.Duration, g.Len(), g.Unit, g.SamplesTaken, g.Duration)
		}
	case err == nil && protoPath(data, leanLimits):
		t.Fatalf("%+v: the lean decoder refuses a protobuf profile Load accepts", opts)
	}
	return ok
}

// testdataProfiles returns every profile file (by the extensions
// analysis reads) under a testdata directory of the module.
func testdataProfiles(t testing.TB) []string {
	var files []string
	err := filepath.WalkDir("..", func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && (e.Name() == ".git" || e.Name() == "fuzz") {
			return filepath.SkipDir
		}
		if !e.Type().IsRegular() || !strings.Contains(filepath.ToSlash(path), "/testdata/") {
			return nil
		}
		for _, ext := range []string{".pprof", ".prof", ".pb.gz", ".pb"} {
			if strings.HasSuffix(path, ext) {
				files = append(files, path)
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 20 {
		t.Fatalf("found only %d profiles under testdata directories", len(files))
	}
	return files
}

// exampleTable is a table over the example application's graph, so that
// footprints have functions in it and others.
func exampleTable(t testing.TB) *Table {
	g, err := Load([]string{"../testdata/profiles/example/app.pprof"}, Options{Modules: []string{"example.com/tinytsdb"}})
	if err != nil {
		t.Fatal(err)
	}
	return NewTable(g)
}

// TestFootprintMatchesLoad cross-checks the lean decoder with
// profile.Parse on every profile under testdata, the bad ones included,
// with every combination of AllowNonCPU and AllowEmpty: Table.Load gives
// Load's error, or the footprint of Load's graph; the lean decoder
// itself succeeds exactly on the protobuf profiles Load accepts, with the
// same functions and figures.
func TestFootprintMatchesLoad(t *testing.T) {
	tab := exampleTable(t)
	lean, refused := 0, 0
	for _, path := range testdataProfiles(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, opts := range leanOptions {
			if checkLean(t, tab, data, opts) {
				lean++
			}
			opts.Limits = leanLimits
			got, err := tab.Load(path, opts)
			o := opts
			o.NoEdges = true
			g, wantErr := Load([]string{path}, o)
			if wantErr != nil {
				refused++
				if err == nil || err.Error() != wantErr.Error() {
					t.Errorf("%s %+v: Table.Load error %v, want %v", path, opts, err, wantErr)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s %+v: Table.Load: %v; Load accepts it", path, opts, err)
				continue
			}
			want := tab.Footprint(g)
			if !slices.Equal(got.Names(), want.Names()) || got.Unit != want.Unit || got.SamplesTaken != want.SamplesTaken || got.Duration != want.Duration {
				t.Errorf("%s %+v: Table.Load gives %d functions (%s, %d samples, %vs), Load's graph %d (%s, %d, %vs)", path, opts,
					got.Len(), got.Unit, got.SamplesTaken, got.Duration, want.Len(), want.Unit, want.SamplesTaken, want.Duration)
			}
		}
	}
	if lean < 100 || refused == 0 {
		t.Errorf("the lean decoder decoded %d profiles and Load refused %d: want real profiles of both kinds", lean, refused)
	}
}

// gz returns data gzipped.
func gz(data []byte) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(data)
	w.Close()
	return b.Bytes()
}

// TestLeanDecoderCases cross-checks the lean decoder on profiles that
// exercise what Go's profiles never have: other encodings of the same
// fields, ids that are not 1..n, names to normalise, labels, and each kind
// of inconsistency profile.Parse refuses.
func TestLeanDecoderCases(t *testing.T) {
	fn := func(id uint64, name string) *profile.Function { return &profile.Function{ID: id, Name: name} }
	base := func() *profile.Profile {
		f1, f2, f3 := fn(7, "main.main"), fn(9, "pkg.Map[go.shape.int]"), &profile.Function{ID: 3, SystemName: "sys.only"}
		f4 := fn(12, "")
		l1 := &profile.Location{ID: 100, Line: []profile.Line{{Function: f2}, {Function: f1}}}
		l2 := &profile.Location{ID: 5, Line: []profile.Line{{Function: f3}}}
		l3 := &profile.Location{ID: 6, Line: []profile.Line{{Function: f4}}}
		l4 := &profile.Location{ID: 8, Address: 0x1234}
		return &profile.Profile{
			SampleType:    []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
			DurationNanos: 1500000000,
			Function:      []*profile.Function{f1, f2, f3, f4},
			Location:      []*profile.Location{l1, l2, l3, l4},
			Sample: []*profile.Sample{
				{Location: []*profile.Location{l1}, Value: []int64{2, 20}, Label: map[string][]string{"k": {"v"}}},
				{Location: []*profile.Location{l3, l2, l4}, Value: []int64{1, 10}, NumLabel: map[string][]int64{"n": {3}}, NumUnit: map[string][]string{"n": {"bytes"}}},
				{Location: []*profile.Location{l4}, Value: []int64{0, 0}},
			},
		}
	}
	encode := func(p *profile.Profile) []byte {
		var b bytes.Buffer
		if err := p.WriteUncompressed(&b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	tests := []struct {
		name string
		edit func(p *profile.Profile)
		// raw edits the encoded bytes instead; nil keeps them.
		raw  func(b []byte) []byte
		lean bool // whether the lean decoder decodes it (else Load reports an error or it is a legacy profile)
	}{
		{"ids not 1..n, unnamed, system name, generics, labels", nil, nil, true},
		{"unsymbolized", func(p *profile.Profile) {
			for _, s := range p.Sample {
				s.Location = []*profile.Location{p.Location[3]}
			}
		}, nil, false},
		{"negative value", func(p *profile.Profile) { p.Sample[0].Value[1] = -1 }, nil, false},
		{"all zero", func(p *profile.Profile) {
			for _, s := range p.Sample {
				s.Value[1] = 0
			}
		}, nil, false},
		{"no samples", func(p *profile.Profile) { p.Sample = nil }, nil, false},
		{"not cpu", func(p *profile.Profile) { p.SampleType[1].Type = "alloc_space" }, nil, false},
		{"no stacks", func(p *profile.Profile) {
			for _, s := range p.Sample {
				s.Location = nil
			}
		}, nil, false},
		{"duplicate function id", func(p *profile.Profile) { p.Function[1].ID = 7 }, nil, false},
		{"duplicate location id", func(p *profile.Profile) { p.Location[1].ID = 100 }, nil, false},
		{"location id 0", func(p *profile.Profile) { p.Location[2].ID = 0 }, nil, false},
		{"too many values", func(p *profile.Profile) { p.Sample[1].Value = append(p.Sample[1].Value, 4) }, nil, false},
		{"dense ids", func(p *profile.Profile) {
			for i, f := range p.Function {
				f.ID = uint64(i + 1)
			}
			for i, l := range p.Location {
				l.ID = uint64(i + 1)
			}
		}, nil, true},
		{"empty input", nil, func([]byte) []byte { return nil }, false},
		{"truncated", nil, func(b []byte) []byte { return b[:len(b)-3] }, false},
		{"unknown field skipped", nil, func(b []byte) []byte { return append(b, 0x88, 0x08, 0x2a) }, true}, // field 129, a varint
		{"known field of the wrong wire type", nil, func(b []byte) []byte { return append(b, 10<<3|2, 0) }, false},
		{"string index out of range", nil, func(b []byte) []byte { return append(b, 14<<3, 0x7f) }, false},
		{"second time_nanos", nil, func(b []byte) []byte { return append(b, 9<<3, 1, 9<<3, 2) }, false},
		{"wire type 3", nil, func(b []byte) []byte { return append(b, 20<<3|3) }, false},
		{"first string not empty", nil, func(b []byte) []byte { return append([]byte{6<<3 | 2, 1, 'x'}, b...) }, false},
		{"text, a legacy format", nil, func([]byte) []byte { return []byte("--- contention:\ncycles/second=1\n") }, false},
	}
	tab := exampleTable(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := base()
			if tt.edit != nil {
				tt.edit(p)
			}
			data := encode(p)
			if tt.raw != nil {
				data = tt.raw(data)
			}
			for _, b := range [][]byte{data, gz(data)} {
				if got := checkLean(t, tab, b, Options{}); got != tt.lean {
					t.Errorf("lean decoder decodes it: %v, want %v", got, tt.lean)
				}
				for _, opts := range leanOptions[1:] {
					checkLean(t, tab, b, opts)
				}
			}
		})
	}
}

// FuzzFootprint compares the lean decoder with profile.Parse and New on
// arbitrary bytes (see checkLean), with the options of flags: 1
// AllowNonCPU, 2 AllowEmpty. Its seeds are every profile under a testdata
// directory of the module (gzipped as written and, when small, plain, so
// that mutations reach the protobuf; the bad-input fixtures included) and,
// in testdata/fuzz/FuzzFootprint, FuzzGraph's hand-built profiles
// (unnamed frames, inlining and recursion, negative and zero values).
func FuzzFootprint(f *testing.F) {
	for _, path := range testdataProfiles(f) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, uint8(0))
		if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
			if raw, err := io.ReadAll(mustGunzip(f, data)); err == nil && len(raw) < 64<<10 {
				f.Add(raw, uint8(3))
			}
		}
	}
	g, err := FromFunctions([]Function{{Name: "main.main"}, {Name: "runtime.main"}, {Name: "runtime.goexit"}, {Name: "main.f"}}, Options{})
	if err != nil {
		f.Fatal(err)
	}
	tab := NewTable(g)
	f.Fuzz(func(t *testing.T, data []byte, flags uint8) {
		checkLean(t, tab, data, Options{AllowNonCPU: flags&1 != 0, AllowEmpty: flags&2 != 0})
	})
}

func mustGunzip(f *testing.F, data []byte) io.Reader {
	r, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		f.Fatal(err)
	}
	return r
}
