// Package backup writes and restores snapshots of a [storage.Table].
//
// A snapshot is the 8-byte magic "TSDBSNP1" followed by a gzip stream of
// records, one per series and partition:
//
//	uvarint len(metric) metric
//	uvarint ntags { uvarint len(key) key uvarint len(value) value }
//	uvarint npoints
//	uvarint len(ts) ts   (encoding.MarshalTimestamps)
//	uvarint len(vs) vs   (encoding.MarshalValues)
//	uint32 CRC-32C of the record so far, little endian
//
// and a final record with an empty metric name.
//
// The tinytsdb server itself never takes snapshots; backups are run by an
// operator tool.
package backup

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"example.com/tinytsdb/encoding"
	"example.com/tinytsdb/storage"
)

const magic = "TSDBSNP1"

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrCorrupt is wrapped by restore errors caused by damaged data.
var ErrCorrupt = errors.New("backup: corrupt snapshot")

// Summary counts what a snapshot holds.
type Summary struct {
	Records int
	Points  int64
	Bytes   int64 // compressed size, including the header
}

// String formats s for humans, e.g. "12 records, 3400 points, 1.2 KiB".
func (s Summary) String() string {
	return fmt.Sprintf("%d records, %d points, %s", s.Records, s.Points, FormatSize(s.Bytes))
}

// FormatSize formats n bytes with a binary unit.
func FormatSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// Write writes a snapshot of t to w.
func Write(w io.Writer, t *storage.Table) (Summary, error) {
	var sum Summary
	cw := &countingWriter{w: w}
	if _, err := io.WriteString(cw, magic); err != nil {
		return sum, err
	}
	zw, err := gzip.NewWriterLevel(cw, gzip.BestSpeed)
	if err != nil {
		return sum, err
	}
	var rec []byte
	err = t.Export(func(m *storage.SeriesMeta, ts []int64, vs []float64) error {
		rec = appendRecord(rec[:0], m, ts, vs)
		sum.Records++
		sum.Points += int64(len(ts))
		_, err := zw.Write(rec)
		return err
	})
	if err != nil {
		return sum, fmt.Errorf("writing snapshot: %w", err)
	}
	if _, err := zw.Write(binary.AppendUvarint(nil, 0)); err != nil {
		return sum, err
	}
	if err := zw.Close(); err != nil {
		return sum, err
	}
	sum.Bytes = cw.n
	return sum, nil
}

func appendString(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

func appendRecord(dst []byte, m *storage.SeriesMeta, ts []int64, vs []float64) []byte {
	dst = appendString(dst, m.Metric)
	dst = binary.AppendUvarint(dst, uint64(len(m.Tags)))
	for _, t := range m.Tags {
		dst = appendString(dst, t.Key)
		dst = appendString(dst, t.Value)
	}
	dst = binary.AppendUvarint(dst, uint64(len(ts)))
	mark := len(dst)
	dst = append(dst, make([]byte, binary.MaxVarintLen64)...)
	dst = encoding.MarshalTimestamps(dst, ts)
	dst = fixLength(dst, mark)
	mark = len(dst)
	dst = append(dst, make([]byte, binary.MaxVarintLen64)...)
	dst = encoding.MarshalValues(dst, vs)
	dst = fixLength(dst, mark)
	return binary.LittleEndian.AppendUint32(dst, crc32.Checksum(dst, castagnoli))
}

// fixLength replaces the MaxVarintLen64 placeholder at mark by the uvarint
// length of the bytes that follow it.
func fixLength(dst []byte, mark int) []byte {
	body := len(dst) - mark - binary.MaxVarintLen64
	var lenBuf [binary.MaxVarintLen64]byte
	k := binary.PutUvarint(lenBuf[:], uint64(body))
	copy(dst[mark+k:], dst[mark+binary.MaxVarintLen64:])
	copy(dst[mark:], lenBuf[:k])
	return dst[:mark+k+body]
}

// Restore reads a snapshot from r and adds its points to t. It stops at
// the first damaged record; errors caused by bad data wrap [ErrCorrupt].
func Restore(r io.Reader, t *storage.Table) (Summary, error) {
	var sum Summary
	head := make([]byte, len(magic))
	if _, err := io.ReadFull(r, head); err != nil || string(head) != magic {
		return sum, fmt.Errorf("%w: missing header %q", ErrCorrupt, magic)
	}
	zr, err := gzip.NewReader(r)
	if err != nil {
		return sum, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	defer zr.Close()
	rd := &recordReader{r: bufio.NewReader(zr)}
	var rows []encoding.Row
	var ts []int64
	var vs []float64
	for {
		rd.rec = rd.rec[:0]
		metric, err := rd.str()
		if err != nil {
			return sum, fmt.Errorf("%w: record %d: %v", ErrCorrupt, sum.Records, err)
		}
		if metric == "" {
			return sum, nil
		}
		if ts, vs, rows, err = rd.body(metric, ts[:0], vs[:0], rows[:0]); err != nil {
			return sum, fmt.Errorf("%w: record %d (%s): %v", ErrCorrupt, sum.Records, metric, err)
		}
		if err := t.AddRows(rows); err != nil {
			return sum, fmt.Errorf("record %d (%s): %w", sum.Records, metric, err)
		}
		sum.Records++
		sum.Points += int64(len(rows))
	}
}

// recordReader decodes records and keeps their raw bytes for the CRC.
type recordReader struct {
	r   *bufio.Reader
	rec []byte
}

func (rd *recordReader) uvarint() (uint64, error) {
	v, err := binary.ReadUvarint(rd.r)
	if err != nil {
		return 0, err
	}
	rd.rec = binary.AppendUvarint(rd.rec, v)
	return v, nil
}

func (rd *recordReader) bytes() ([]byte, error) {
	n, err := rd.uvarint()
	if err != nil {
		return nil, err
	}
	if n > 1<<26 {
		return nil, fmt.Errorf("field of %d bytes is too large", n)
	}
	start := len(rd.rec)
	rd.rec = append(rd.rec, make([]byte, n)...)
	if _, err := io.ReadFull(rd.r, rd.rec[start:]); err != nil {
		return nil, err
	}
	return rd.rec[start:], nil
}

func (rd *recordReader) str() (string, error) {
	b, err := rd.bytes()
	return string(b), err
}

func (rd *recordReader) body(metric string, ts []int64, vs []float64, rows []encoding.Row) ([]int64, []float64, []encoding.Row, error) {
	ntags, err := rd.uvarint()
	if err != nil {
		return ts, vs, rows, err
	}
	tags := make([]encoding.Tag, ntags)
	for i := range tags {
		if tags[i].Key, err = rd.str(); err != nil {
			return ts, vs, rows, err
		}
		if tags[i].Value, err = rd.str(); err != nil {
			return ts, vs, rows, err
		}
	}
	n, err := rd.uvarint()
	if err != nil {
		return ts, vs, rows, err
	}
	tsBuf, err := rd.bytes()
	if err != nil {
		return ts, vs, rows, err
	}
	tsBuf = append([]byte(nil), tsBuf...) // rd.rec may move
	vsBuf, err := rd.bytes()
	if err != nil {
		return ts, vs, rows, err
	}
	want := crc32.Checksum(rd.rec, castagnoli)
	var crc [4]byte
	if _, err := io.ReadFull(rd.r, crc[:]); err != nil {
		return ts, vs, rows, err
	}
	if got := binary.LittleEndian.Uint32(crc[:]); got != want {
		return ts, vs, rows, fmt.Errorf("checksum %08x, want %08x", got, want)
	}
	if ts, err = encoding.UnmarshalTimestamps(ts, tsBuf, int(n)); err != nil {
		return ts, vs, rows, err
	}
	if vs, err = encoding.UnmarshalValues(vs, vsBuf, int(n)); err != nil {
		return ts, vs, rows, err
	}
	for i := range ts {
		rows = append(rows, encoding.Row{Metric: metric, Tags: tags, Value: vs[i], Timestamp: ts[i]})
	}
	return ts, vs, rows, nil
}
