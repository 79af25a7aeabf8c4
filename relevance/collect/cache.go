package collect

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mbopt/mbopt/internal/atomicfile"
	"github.com/mbopt/mbopt/relevance/manifest"
)

// CacheFile is the name of the discovery cache in the output directory; see
// the package documentation.
const CacheFile = ".mbopt-discovery.json"

// cacheVersion is the schema version of CacheFile; a file with another
// version is ignored.
const cacheVersion = 1

// A discoveryCache remembers what the test binaries told about their
// benchmarks, keyed by the binary's hash: -test.list's top-level names
// and the discovery runs' outcomes. A binary with the same hash gives the
// same answers, so a rerun need not ask again.
type discoveryCache struct {
	Version int `json:"version"`
	// Lists holds -test.list results.
	Lists []cachedList `json:"lists"`
	// Discoveries holds discovery run results.
	Discoveries []cachedDiscovery `json:"discoveries"`
}

// A cachedList is the -test.list output of one test binary.
type cachedList struct {
	Package string   `json:"package"`
	Binary  string   `json:"test_binary"`
	Names   []string `json:"names"`
}

// A cachedDiscovery is the outcome of discovering top-level benchmark Top
// of a test binary with a Skip pattern: the leaves to profile, the entries
// decided by the discovery runs (failures, skips, crashes), and whether
// discovery gave up before seeing every sub-benchmark.
type cachedDiscovery struct {
	Package    string           `json:"package"`
	Binary     string           `json:"test_binary"`
	Top        string           `json:"top"`
	Skip       string           `json:"skip,omitempty"`
	Leaves     []string         `json:"leaves"`
	Entries    []manifest.Entry `json:"entries,omitempty"`
	Incomplete bool             `json:"incomplete,omitempty"`
}

// loadCache reads dir's cache; a missing or unreadable one is empty.
func loadCache(dir string) *discoveryCache {
	c := &discoveryCache{Version: cacheVersion}
	data, err := os.ReadFile(filepath.Join(dir, CacheFile))
	if err != nil {
		return c
	}
	var read discoveryCache
	if json.Unmarshal(data, &read) != nil || read.Version != cacheVersion {
		return c
	}
	return &read
}

func (c *discoveryCache) list(bin string) ([]string, bool) {
	for _, l := range c.Lists {
		if l.Binary == bin {
			return l.Names, true
		}
	}
	return nil, false
}

func (c *discoveryCache) discovery(bin, top, skip string) (cachedDiscovery, bool) {
	for _, d := range c.Discoveries {
		if d.Binary == bin && d.Top == top && d.Skip == skip {
			return d, true
		}
	}
	return cachedDiscovery{}, false
}

// merge returns the cache to write after a run that built the packages in
// built (import path → binary hash): this run's results, and the old
// results of packages it did not build. Entries are sorted, so the file
// does not depend on scheduling.
func merge(old, cur *discoveryCache, built map[string]string) *discoveryCache {
	out := &discoveryCache{Version: cacheVersion}
	for _, l := range old.Lists {
		if _, ok := built[l.Package]; !ok {
			out.Lists = append(out.Lists, l)
		}
	}
	for _, d := range old.Discoveries {
		if _, ok := built[d.Package]; !ok {
			out.Discoveries = append(out.Discoveries, d)
		}
	}
	out.Lists = append(out.Lists, cur.Lists...)
	out.Discoveries = append(out.Discoveries, cur.Discoveries...)
	slices.SortFunc(out.Lists, func(a, b cachedList) int {
		return strings.Compare(a.Package+"\x00"+a.Binary, b.Package+"\x00"+b.Binary)
	})
	slices.SortFunc(out.Discoveries, func(a, b cachedDiscovery) int {
		return strings.Compare(a.Package+"\x00"+a.Binary+"\x00"+a.Top+"\x00"+a.Skip, b.Package+"\x00"+b.Binary+"\x00"+b.Top+"\x00"+b.Skip)
	})
	return out
}

// write writes the cache to dir atomically.
func (c *discoveryCache) write(dir string) error {
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(dir, CacheFile), append(data, '\n'))
}
