package encoding

import (
	"fmt"
	"strconv"
	"strings"
)

// Tag is one key=value pair of a series.
type Tag struct {
	Key, Value string
}

// Row is one parsed line of the line protocol:
//
//	metric[,key=value...] value [timestamp]
//
// for example
//
//	cpu_usage,host=h01,region=eu 0.64 1700000000000
//
// Timestamps are Unix milliseconds; a missing timestamp is returned as 0
// and the caller decides which clock to use. Keys and values may not contain
// spaces, commas or '=' (there is no escaping).
type Row struct {
	Metric    string
	Tags      []Tag // sorted by Key; keys are unique
	Value     float64
	Timestamp int64
}

// ParseLine parses a single line of line protocol. The returned row's
// strings point into line.
func ParseLine(line string) (Row, error) {
	var r Row
	_, err := parseLine(&r, line, nil)
	return r, err
}

// Parse parses newline-separated rows from data and appends them to dst.
// Empty lines and lines starting with '#' are skipped. On error it returns
// the rows parsed so far and an error naming the 1-based line number.
// The returned rows' strings point into data.
func Parse(dst []Row, data string) ([]Row, error) {
	// All rows share one backing array of tags to save allocations.
	tags := make([]Tag, 0, 4*strings.Count(data, "\n")+4)
	lineNo := 0
	for len(data) > 0 {
		lineNo++
		line := data
		if i := strings.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = ""
		}
		line = strings.TrimSuffix(line, "\r")
		if line == "" || line[0] == '#' {
			continue
		}
		var r Row
		var err error
		if tags, err = parseLine(&r, line, tags); err != nil {
			return dst, fmt.Errorf("line %d: %w", lineNo, err)
		}
		dst = append(dst, r)
	}
	return dst, nil
}

// parseLine fills r from line. Tags are appended to tagBuf and r.Tags is a
// sub-slice of the result, which is returned for reuse by the next line.
func parseLine(r *Row, line string, tagBuf []Tag) ([]Tag, error) {
	head, rest, ok := strings.Cut(line, " ")
	if !ok {
		return tagBuf, fmt.Errorf("missing value in %q", line)
	}
	metric, tagStr, hasTags := strings.Cut(head, ",")
	if !validName(metric) {
		return tagBuf, fmt.Errorf("invalid metric name %q", metric)
	}
	r.Metric = metric
	start := len(tagBuf)
	for hasTags {
		var pair string
		pair, tagStr, hasTags = strings.Cut(tagStr, ",")
		k, v, ok := strings.Cut(pair, "=")
		if !ok || !validName(k) || v == "" {
			return tagBuf, fmt.Errorf("invalid tag %q in %q", pair, line)
		}
		tagBuf = append(tagBuf, Tag{Key: k, Value: v})
	}
	tags := tagBuf[start:len(tagBuf):len(tagBuf)]
	if err := sortTags(tags); err != nil {
		return tagBuf, fmt.Errorf("%v in %q", err, line)
	}
	if len(tags) > 0 {
		r.Tags = tags
	}

	valStr, tsStr, hasTs := strings.Cut(strings.TrimLeft(rest, " "), " ")
	v, err := strconv.ParseFloat(valStr, 64)
	if err != nil {
		return tagBuf, fmt.Errorf("invalid value %q: %w", valStr, err)
	}
	r.Value = v
	if tsStr = strings.TrimSpace(tsStr); hasTs && tsStr != "" {
		ts, err := strconv.ParseInt(tsStr, 10, 64)
		if err != nil {
			return tagBuf, fmt.Errorf("invalid timestamp %q: %w", tsStr, err)
		}
		r.Timestamp = ts
	}
	return tagBuf, nil
}

// sortTags sorts tags by key with an insertion sort (rows rarely have more
// than a handful of tags) and rejects duplicate keys.
func sortTags(tags []Tag) error {
	for i := 1; i < len(tags); i++ {
		for j := i; j > 0 && tags[j].Key < tags[j-1].Key; j-- {
			tags[j], tags[j-1] = tags[j-1], tags[j]
		}
	}
	for i := 1; i < len(tags); i++ {
		if tags[i].Key == tags[i-1].Key {
			return fmt.Errorf("duplicate tag key %q", tags[i].Key)
		}
	}
	return nil
}

// validName reports whether s matches [a-zA-Z_:][a-zA-Z0-9_:]*.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c == ':':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// AppendRow appends r in line protocol, without a trailing newline.
func AppendRow(dst []byte, r *Row) []byte {
	dst = append(dst, r.Metric...)
	for _, t := range r.Tags {
		dst = append(dst, ',')
		dst = append(dst, t.Key...)
		dst = append(dst, '=')
		dst = append(dst, t.Value...)
	}
	dst = append(dst, ' ')
	dst = strconv.AppendFloat(dst, r.Value, 'g', -1, 64)
	if r.Timestamp != 0 {
		dst = append(dst, ' ')
		dst = strconv.AppendInt(dst, r.Timestamp, 10)
	}
	return dst
}
