// Package storage keeps tinytsdb's data in memory.
//
// A [Table] is split into time partitions (one hour by default). Inside a
// partition every series has a small uncompressed head buffer; when the
// head is full it is sorted and sealed into an immutable compressed
// [Block]. When a series collects too many blocks they are merged
// (compacted) into one. A tag index maps metric names and tag pairs to
// series ids.
package storage

import (
	"fmt"
	"slices"
	"sort"
	"sync"

	"example.com/tinytsdb/encoding"
)

// Options configures a [Table]. The zero value is valid: zero fields take
// the defaults documented on each field.
type Options struct {
	// PartitionDuration is the width of a time partition in milliseconds;
	// 0 means one hour.
	PartitionDuration int64
	// BlockSize is the number of points a head buffer holds before it is
	// sealed into a block; 0 means 256.
	BlockSize int
	// MaxBlocks is the number of blocks a series may have in one partition
	// before they are merged; 0 means 8.
	MaxBlocks int
}

func (o Options) withDefaults() Options {
	if o.PartitionDuration <= 0 {
		o.PartitionDuration = 3600 * 1000
	}
	if o.BlockSize <= 0 {
		o.BlockSize = 256
	}
	if o.MaxBlocks <= 0 {
		o.MaxBlocks = 8
	}
	return o
}

// Block is an immutable compressed run of points of one series, sorted by
// timestamp.
type Block struct {
	MinTs, MaxTs int64
	Count        int
	Timestamps   []byte // MarshalTimestamps
	Values       []byte // MarshalValues
}

func newBlock(ts []int64, vs []float64) *Block {
	return &Block{
		MinTs:      ts[0],
		MaxTs:      ts[len(ts)-1],
		Count:      len(ts),
		Timestamps: encoding.MarshalTimestamps(nil, ts),
		Values:     encoding.MarshalValues(nil, vs),
	}
}

// decode appends the block's points to ts and vs.
func (b *Block) decode(ts []int64, vs []float64) ([]int64, []float64, error) {
	ts, err := encoding.UnmarshalTimestamps(ts, b.Timestamps, b.Count)
	if err != nil {
		return ts, vs, fmt.Errorf("block [%d, %d]: %w", b.MinTs, b.MaxTs, err)
	}
	vs, err = encoding.UnmarshalValues(vs, b.Values, b.Count)
	if err != nil {
		return ts, vs, fmt.Errorf("block [%d, %d]: %w", b.MinTs, b.MaxTs, err)
	}
	return ts, vs, nil
}

type series struct {
	headTs []int64
	headVs []float64
	blocks []*Block // ascending MinTs once compacted; may overlap before
}

type partition struct {
	start, end int64 // [start, end)
	series     map[SeriesID]*series
}

// Table is an in-memory time-series table. It is safe for concurrent use.
type Table struct {
	opts Options

	mu     sync.RWMutex
	index  index
	parts  []*partition // ascending by start
	keyBuf []byte
	points int64
	merges int64
}

// NewTable returns an empty table.
func NewTable(opts Options) *Table {
	return &Table{opts: opts.withDefaults(), index: newIndex()}
}

// AddRows stores rows. Rows of the same series may arrive in any order;
// a later row with the same timestamp as an earlier one shadows it after
// compaction. AddRows copies everything it keeps, so rows may be reused.
func (t *Table) AddRows(rows []encoding.Row) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	var p *partition
	for i := range rows {
		r := &rows[i]
		if r.Timestamp < 0 {
			return fmt.Errorf("row %d (%s): negative timestamp %d", i, r.Metric, r.Timestamp)
		}
		var id SeriesID
		id, t.keyBuf = t.index.getOrCreate(r, t.keyBuf)
		if p == nil || r.Timestamp < p.start || r.Timestamp >= p.end {
			p = t.partitionFor(r.Timestamp)
		}
		s := p.series[id]
		if s == nil {
			s = &series{}
			p.series[id] = s
		}
		s.headTs = append(s.headTs, r.Timestamp)
		s.headVs = append(s.headVs, r.Value)
		if len(s.headTs) >= t.opts.BlockSize {
			s.seal()
			if len(s.blocks) > t.opts.MaxBlocks {
				if err := s.merge(); err != nil {
					return err
				}
				t.merges++
			}
		}
	}
	t.points += int64(len(rows))
	return nil
}

// partitionFor returns the partition holding ts, creating it if needed.
func (t *Table) partitionFor(ts int64) *partition {
	i := sort.Search(len(t.parts), func(i int) bool { return t.parts[i].end > ts })
	if i < len(t.parts) && t.parts[i].start <= ts {
		return t.parts[i]
	}
	start := ts - ts%t.opts.PartitionDuration
	p := &partition{start: start, end: start + t.opts.PartitionDuration, series: make(map[SeriesID]*series)}
	t.parts = append(t.parts, nil)
	copy(t.parts[i+1:], t.parts[i:])
	t.parts[i] = p
	return p
}

// seal sorts the head buffer and turns it into a block.
func (s *series) seal() {
	if len(s.headTs) == 0 {
		return
	}
	sortPoints(s.headTs, s.headVs)
	s.blocks = append(s.blocks, newBlock(s.headTs, s.headVs))
	s.headTs = s.headTs[:0]
	s.headVs = s.headVs[:0]
}

// merge replaces all blocks by one, sorted and without duplicate
// timestamps (the later write wins).
func (s *series) merge() error {
	if len(s.blocks) < 2 {
		return nil
	}
	n := 0
	for _, b := range s.blocks {
		n += b.Count
	}
	ts := make([]int64, 0, n)
	vs := make([]float64, 0, n)
	var err error
	for _, b := range s.blocks {
		if ts, vs, err = b.decode(ts, vs); err != nil {
			return err
		}
	}
	sortPoints(ts, vs)
	ts, vs = dedup(ts, vs)
	s.blocks = append(s.blocks[:0], newBlock(ts, vs))
	clear(s.blocks[1:cap(s.blocks)])
	return nil
}

// dedup removes points with repeated timestamps from sorted ts, keeping the
// last one of each run.
func dedup(ts []int64, vs []float64) ([]int64, []float64) {
	if len(ts) < 2 {
		return ts, vs
	}
	j := 0
	for i := 1; i < len(ts); i++ {
		if ts[i] == ts[j] {
			vs[j] = vs[i]
			continue
		}
		j++
		ts[j], vs[j] = ts[i], vs[i]
	}
	return ts[:j+1], vs[:j+1]
}

// Compact seals every head buffer and merges the blocks of every series,
// so that each series has at most one block per partition. It returns the
// number of series merged.
func (t *Table) Compact() (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	merged := 0
	for _, p := range t.parts {
		for _, s := range p.series {
			s.seal()
			if len(s.blocks) > 1 {
				if err := s.merge(); err != nil {
					return merged, err
				}
				merged++
			}
		}
	}
	t.merges += int64(merged)
	return merged, nil
}

// DropBefore deletes all partitions that end at or before ts and returns
// how many it deleted. Series stay in the index even if they have no data
// left.
func (t *Table) DropBefore(ts int64) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for n < len(t.parts) && t.parts[n].end <= ts {
		for _, s := range t.parts[n].series {
			t.points -= int64(len(s.headTs))
			for _, b := range s.blocks {
				t.points -= int64(b.Count)
			}
		}
		n++
	}
	clear(t.parts[:n])
	t.parts = t.parts[n:]
	return n
}

// Search returns the ids of the series of metric that satisfy all
// matchers, in ascending order.
func (t *Table) Search(metric string, ms []Matcher) []SeriesID {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.index.search(metric, ms)
}

// Meta returns the identity of series id. It panics if id is unknown.
func (t *Table) Meta(id SeriesID) SeriesMeta {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.index.series[id]
}

// ReadRange appends the points of series id with minTs <= ts <= maxTs to
// dstTs and dstVs, sorted by timestamp. Points with equal timestamps are
// all returned.
func (t *Table) ReadRange(id SeriesID, minTs, maxTs int64, dstTs []int64, dstVs []float64) ([]int64, []float64, error) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	start := len(dstTs)
	var scratchTs []int64
	var scratchVs []float64
	i := sort.Search(len(t.parts), func(i int) bool { return t.parts[i].end > minTs })
	for ; i < len(t.parts) && t.parts[i].start <= maxTs; i++ {
		s := t.parts[i].series[id]
		if s == nil {
			continue
		}
		for _, b := range s.blocks {
			if b.MaxTs < minTs || b.MinTs > maxTs {
				continue
			}
			var err error
			scratchTs, scratchVs, err = b.decode(scratchTs[:0], scratchVs[:0])
			if err != nil {
				return dstTs, dstVs, fmt.Errorf("series %d: %w", id, err)
			}
			dstTs, dstVs = appendInRange(dstTs, dstVs, scratchTs, scratchVs, minTs, maxTs)
		}
		dstTs, dstVs = appendInRange(dstTs, dstVs, s.headTs, s.headVs, minTs, maxTs)
	}
	sortPoints(dstTs[start:], dstVs[start:])
	return dstTs, dstVs, nil
}

func appendInRange(dstTs []int64, dstVs []float64, ts []int64, vs []float64, minTs, maxTs int64) ([]int64, []float64) {
	for i, t := range ts {
		if t >= minTs && t <= maxTs {
			dstTs = append(dstTs, t)
			dstVs = append(dstVs, vs[i])
		}
	}
	return dstTs, dstVs
}

// Export calls fn once per series and partition with all its points,
// sorted by timestamp, in ascending partition and series id order. fn must
// not keep the slices. Export holds the read lock while it runs.
func (t *Table) Export(fn func(meta *SeriesMeta, ts []int64, vs []float64) error) error {
	t.mu.RLock()
	defer t.mu.RUnlock()
	var ts []int64
	var vs []float64
	for _, p := range t.parts {
		ids := make([]SeriesID, 0, len(p.series))
		for id := range p.series {
			ids = append(ids, id)
		}
		sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
		for _, id := range ids {
			s := p.series[id]
			ts, vs = ts[:0], vs[:0]
			for _, b := range s.blocks {
				var err error
				if ts, vs, err = b.decode(ts, vs); err != nil {
					return err
				}
			}
			ts = append(ts, s.headTs...)
			vs = append(vs, s.headVs...)
			sortPoints(ts, vs)
			if err := fn(&t.index.series[id], ts, vs); err != nil {
				return err
			}
		}
	}
	return nil
}

// Stats describes the size of a table.
type Stats struct {
	Series     int   `json:"series"`
	Partitions int   `json:"partitions"`
	Blocks     int   `json:"blocks"`
	Points     int64 `json:"points"`
	Merges     int64 `json:"merges"`
}

// Stats returns current counters.
func (t *Table) Stats() Stats {
	t.mu.RLock()
	defer t.mu.RUnlock()
	st := Stats{Series: len(t.index.series), Partitions: len(t.parts), Points: t.points, Merges: t.merges}
	for _, p := range t.parts {
		for _, s := range p.series {
			st.Blocks += len(s.blocks)
		}
	}
	return st
}

// sortPoints sorts parallel slices by timestamp; the sort is stable so
// that later writes of a duplicate timestamp stay last.
func sortPoints(ts []int64, vs []float64) {
	if slices.IsSorted(ts) {
		return
	}
	sort.Stable(pointSorter{ts, vs})
}

type pointSorter struct {
	ts []int64
	vs []float64
}

func (p pointSorter) Len() int           { return len(p.ts) }
func (p pointSorter) Less(i, j int) bool { return p.ts[i] < p.ts[j] }
func (p pointSorter) Swap(i, j int) {
	p.ts[i], p.ts[j] = p.ts[j], p.ts[i]
	p.vs[i], p.vs[j] = p.vs[j], p.vs[i]
}
