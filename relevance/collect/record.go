package collect

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mbopt/mbopt/internal/atomicfile"
	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/relevance/manifest"
)

// This file records what a collection produced in Out: the manifest's
// entries, the files they name with their hashes, and the logs of the
// runs that failed.

// finish records entry e, replacing any earlier entry with its ID, and
// rewrites the manifest when e changed it; in the first phase of a sharded
// run it queues e for the partition instead.
func (c *collector) finish(e manifest.Entry, reused bool) {
	if c.deferEntry(e, reused) {
		return
	}
	if e.Status != manifest.StatusOK {
		// A profile left by an earlier run must not pass for this one's.
		os.Remove(filepath.Join(c.out, manifest.ProfileName(c.m.Module, e.Package, e.Name)))
		os.Remove(filepath.Join(c.out, manifest.FunctionsName(c.m.Module, e.Package, e.Name)))
	}
	c.mu.Lock()
	if i, ok := c.index[e.ID]; ok {
		if c.m.Benchmarks[i] != e {
			c.m.Benchmarks[i] = e
			c.writeManifestLocked()
		}
	} else {
		c.index[e.ID] = len(c.m.Benchmarks)
		c.m.Benchmarks = append(c.m.Benchmarks, e)
		c.writeManifestLocked()
	}
	c.seen[e.ID] = true
	c.done++
	d := c.done
	total := max(c.total, d)
	c.mu.Unlock()
	c.emit(Event{Kind: EventFinish, Package: e.Package, Name: e.Name, Entry: &e, Reused: reused, Done: d, Total: total})
}

// dropVanished removes the entries of benchmarks this run was asked about
// but did not find: their package matches Patterns, Bench selects them and
// Skip does not, and they are not below a top-level benchmark whose
// sub-benchmarks could not all be discovered. Every other entry stays as
// it was.
func (c *collector) dropVanished() {
	dir, _ := filepath.Abs(c.cfg.Dir)
	inPatterns := packageMatcher(c.cfg.patterns(), dir, c.m.Module, c.modDir)
	keep := c.m.Benchmarks[:0]
	for _, e := range c.m.Benchmarks {
		drop := !c.seen[e.ID] && inPatterns(e.Package) && c.selects(e.Name, false) &&
			!c.incomplete[benchname.ID(e.Package, benchname.Top(e.Name))]
		if !drop {
			keep = append(keep, e)
		}
	}
	c.m.Benchmarks = keep
}

// logBase returns the log file base name for entry e.
func logBase(mod string, e manifest.Entry) string {
	return strings.TrimSuffix(manifest.ProfileName(mod, e.Package, e.Name), ".pprof")
}

// writeLog writes command and output to logs/base.log and returns its path
// relative to the output directory, or "" when writing fails.
func (c *collector) writeLog(base, command string, output []byte) string {
	rel := filepath.Join("logs", base+".log")
	if err := os.MkdirAll(filepath.Join(c.out, "logs"), 0o755); err != nil {
		return ""
	}
	data := append([]byte("$ "+command+"\n"), output...)
	if err := atomicfile.WriteFile(filepath.Join(c.out, rel), data); err != nil {
		return ""
	}
	return filepath.ToSlash(rel)
}

func (c *collector) writeManifest() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writeManifestLocked()
}

func (c *collector) writeManifestLocked() error {
	err := c.m.Write(c.out)
	for i, e := range c.m.Benchmarks { // Write sorts
		c.index[e.ID] = i
	}
	return err
}

// writeRecorded writes file in Out atomically with write, and returns the
// hex SHA-256 of what it wrote, as the manifest records it; what names the
// file in the error.
func (c *collector) writeRecorded(file, what string, write func(io.Writer) error) (string, error) {
	path := filepath.Join(c.out, file)
	if err := atomicfile.Write(path, write); err != nil {
		return "", fmt.Errorf("writing %s: %w", what, err)
	}
	hash, err := hashFile(path)
	return strings.TrimPrefix(hash, "sha256:"), err
}

// hashFile returns "sha256:" and the hex SHA-256 of file's contents.
func hashFile(file string) (string, error) {
	f, err := os.Open(file)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// shorten keeps the first maxErrorLines lines of s.
func shorten(s string) string {
	ls := strings.Split(s, "\n")
	if len(ls) > maxErrorLines {
		ls = append(ls[:maxErrorLines], "...")
	}
	return strings.Join(ls, "\n")
}
