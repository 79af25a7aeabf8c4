package storage

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"example.com/tinytsdb/encoding"
)

// SeriesID identifies one series (a metric name plus a tag set) inside a
// [Table]. Ids are dense and start at 0.
type SeriesID uint32

// SeriesMeta is the identity of a series.
type SeriesMeta struct {
	Metric string
	Tags   []encoding.Tag // sorted by Key
}

// Tag returns the value of the tag with the given key, or "".
// The key "__name__" returns the metric name.
func (m *SeriesMeta) Tag(key string) string {
	if key == nameKey {
		return m.Metric
	}
	for _, t := range m.Tags {
		if t.Key == key {
			return t.Value
		}
	}
	return ""
}

// String returns the canonical key of the series, metric{k=v,...}.
func (m *SeriesMeta) String() string {
	return string(appendKey(nil, m.Metric, m.Tags))
}

const nameKey = "__name__"

// MatchOp is the comparison a [Matcher] performs.
type MatchOp int

const (
	MatchEqual    MatchOp = iota // key="value"
	MatchNotEqual                // key!="value"
	MatchRegexp                  // key=~"regexp", anchored at both ends
)

func (op MatchOp) String() string {
	switch op {
	case MatchEqual:
		return "="
	case MatchNotEqual:
		return "!="
	case MatchRegexp:
		return "=~"
	}
	return fmt.Sprintf("MatchOp(%d)", int(op))
}

// Matcher selects series by one tag.
type Matcher struct {
	Key   string
	Op    MatchOp
	Value string
	re    *regexp.Regexp // only for MatchRegexp
}

// NewMatcher returns a matcher; it fails if op is MatchRegexp and value is
// not a valid regular expression.
func NewMatcher(key string, op MatchOp, value string) (Matcher, error) {
	m := Matcher{Key: key, Op: op, Value: value}
	if op == MatchRegexp {
		re, err := regexp.Compile("^(?:" + value + ")$")
		if err != nil {
			return m, fmt.Errorf("tag %s: %w", key, err)
		}
		m.re = re
	}
	return m, nil
}

// Matches reports whether the tag value v satisfies the matcher.
func (m *Matcher) Matches(v string) bool {
	switch m.Op {
	case MatchEqual:
		return v == m.Value
	case MatchNotEqual:
		return v != m.Value
	case MatchRegexp:
		return m.re.MatchString(v)
	}
	return false
}

func (m Matcher) String() string {
	return fmt.Sprintf("%s%s%q", m.Key, m.Op, m.Value)
}

// index maps series keys to ids and "key=value" pairs to posting lists.
// It is not safe for concurrent use; Table guards it.
type index struct {
	ids      map[string]SeriesID
	series   []SeriesMeta          // by id
	postings map[string][]SeriesID // "key=value" → ids, ascending
}

func newIndex() index {
	return index{ids: make(map[string]SeriesID), postings: make(map[string][]SeriesID)}
}

// appendKey appends the canonical series key metric{k=v,...} to dst.
func appendKey(dst []byte, metric string, tags []encoding.Tag) []byte {
	dst = append(dst, metric...)
	dst = append(dst, '{')
	for i, t := range tags {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, t.Key...)
		dst = append(dst, '=')
		dst = append(dst, t.Value...)
	}
	return append(dst, '}')
}

// getOrCreate returns the id of the row's series, registering it first if
// needed. keyBuf is scratch space, returned for reuse.
func (ix *index) getOrCreate(r *encoding.Row, keyBuf []byte) (SeriesID, []byte) {
	keyBuf = appendKey(keyBuf[:0], r.Metric, r.Tags)
	if id, ok := ix.ids[string(keyBuf)]; ok {
		return id, keyBuf
	}
	// Copy the strings: the row's point into a request body.
	key := string(keyBuf)
	meta := SeriesMeta{Metric: strings.Clone(r.Metric), Tags: make([]encoding.Tag, len(r.Tags))}
	for i, t := range r.Tags {
		meta.Tags[i] = encoding.Tag{Key: strings.Clone(t.Key), Value: strings.Clone(t.Value)}
	}
	id := SeriesID(len(ix.series))
	ix.series = append(ix.series, meta)
	ix.ids[key] = id
	ix.addPosting(nameKey+"="+meta.Metric, id)
	for _, t := range meta.Tags {
		ix.addPosting(t.Key+"="+t.Value, id)
	}
	return id, keyBuf
}

func (ix *index) addPosting(pair string, id SeriesID) {
	// New ids are always the largest, so appending keeps the list sorted.
	ix.postings[pair] = append(ix.postings[pair], id)
}

// search returns the ids of series named metric that satisfy all
// matchers, in ascending order. Equality matchers are answered from the
// posting lists; the others filter the candidates.
func (ix *index) search(metric string, ms []Matcher) []SeriesID {
	ids := ix.postings[nameKey+"="+metric]
	shared := true // ids still aliases a posting list
	var rest []*Matcher
	for i := range ms {
		m := &ms[i]
		if m.Op != MatchEqual || m.Value == "" {
			rest = append(rest, m)
			continue
		}
		ids = intersect(ids, ix.postings[m.Key+"="+m.Value])
		shared = false
	}
	if len(rest) == 0 {
		if shared {
			return slices.Clone(ids)
		}
		return ids
	}
	out := make([]SeriesID, 0, len(ids))
	for _, id := range ids {
		meta := &ix.series[id]
		ok := true
		for _, m := range rest {
			if !m.Matches(meta.Tag(m.Key)) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, id)
		}
	}
	return out
}

// intersect returns the ids present in both ascending lists.
func intersect(a, b []SeriesID) []SeriesID {
	out := make([]SeriesID, 0, min(len(a), len(b)))
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}
