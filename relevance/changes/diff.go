package changes

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/mbopt/mbopt/internal/gitrev"
)

// A Status says how a file changed.
type Status string

// The statuses of a changed file.
const (
	Modified Status = "modified"
	Added    Status = "added"
	Deleted  Status = "deleted"
	Renamed  Status = "renamed"
)

// A File is a changed Go file.
type File struct {
	// Path is the file's slash-separated path relative to the
	// repository's root in the head; for a deleted file, in the base.
	Path string `json:"path"`
	// OldPath is the path in the base of a renamed file; empty otherwise.
	OldPath string `json:"old_path,omitempty"`
	// Status says how the file changed.
	Status Status `json:"status"`
	// baseLines and headLines are the changed lines: removed from the
	// base, added in the head (git diff -U0 hunks).
	baseLines, headLines []lineRange
}

// lineRange is the lines from through to, inclusive.
type lineRange struct{ from, to int }

func (r lineRange) overlaps(start, end int) bool { return r.from <= end && start <= r.to }

// diffFiles lists the Go files that differ between base and head (a
// revision, or "" for the work tree, untracked files included) with their
// changed lines, sorted by path. Renames are detected (git diff -M).
func diffFiles(ctx context.Context, top, base, head string) ([]File, error) {
	revs := []string{base}
	if head != "" {
		revs = append(revs, head)
	}
	common := []string{"-c", "core.quotePath=false", "diff", "--no-color", "--no-ext-diff", "--no-textconv", "-M", "--diff-filter=ADMR"}
	names, err := gitrev.Git(ctx, top, append(append(append(common, "--name-status", "-z"), revs...), "--", "*.go")...)
	if err != nil {
		return nil, err
	}
	files, err := parseNameStatus(names)
	if err != nil {
		return nil, err
	}
	patch, err := gitrev.Git(ctx, top, append(append(append(common, "-U0", "--src-prefix=a/", "--dst-prefix=b/"), revs...), "--", "*.go")...)
	if err != nil {
		return nil, err
	}
	hunks, err := parseHunks(patch)
	if err != nil {
		return nil, err
	}
	if len(hunks) != len(files) {
		return nil, fmt.Errorf("git diff listed %d changed Go files but printed %d patches", len(files), len(hunks))
	}
	for i := range files {
		files[i].baseLines, files[i].headLines = hunks[i].base, hunks[i].head
	}
	if head == "" {
		out, err := gitrev.Git(ctx, top, "ls-files", "--others", "--exclude-standard", "-z", "--", "*.go")
		if err != nil {
			return nil, err
		}
		for _, p := range strings.Split(string(out), "\x00") {
			if p != "" {
				files = append(files, File{Path: p, Status: Added})
			}
		}
	}
	return files, nil
}

// parseNameStatus parses git diff --name-status -z output.
func parseNameStatus(out []byte) ([]File, error) {
	fields := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	var files []File
	for i := 0; i < len(fields); {
		st := fields[i]
		if st == "" {
			break
		}
		switch st[0] {
		case 'M', 'A', 'D':
			if i+1 >= len(fields) {
				return nil, fmt.Errorf("git diff --name-status: truncated entry %q", st)
			}
			status := map[byte]Status{'M': Modified, 'A': Added, 'D': Deleted}[st[0]]
			files = append(files, File{Path: fields[i+1], Status: status})
			i += 2
		case 'R':
			if i+2 >= len(fields) {
				return nil, fmt.Errorf("git diff --name-status: truncated rename %q", st)
			}
			files = append(files, File{OldPath: fields[i+1], Path: fields[i+2], Status: Renamed})
			i += 3
		default:
			return nil, fmt.Errorf("git diff --name-status: unexpected status %q", st)
		}
	}
	return files, nil
}

type fileHunks struct{ base, head []lineRange }

// parseHunks returns, per file section of a git diff -U0 patch, in order,
// the base and head line ranges of its hunks.
func parseHunks(patch []byte) ([]fileHunks, error) {
	var out []fileHunks
	sc := bufio.NewScanner(bytes.NewReader(patch))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<30)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "diff --git "):
			out = append(out, fileHunks{})
		case strings.HasPrefix(line, "@@ ") && len(out) > 0:
			b, h, err := parseHunkHeader(line)
			if err != nil {
				return nil, err
			}
			cur := &out[len(out)-1]
			if b.to >= b.from {
				cur.base = append(cur.base, b)
			}
			if h.to >= h.from {
				cur.head = append(cur.head, h)
			}
		}
	}
	return out, sc.Err()
}

// parseHunkHeader parses "@@ -a[,b] +c[,d] @@..." into the base lines a..a+b-1
// and the head lines c..c+d-1 (empty ranges when b or d is 0).
func parseHunkHeader(line string) (base, head lineRange, err error) {
	f := strings.Fields(line)
	if len(f) < 3 || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return base, head, fmt.Errorf("git diff: bad hunk header %q", line)
	}
	if base, err = parseRange(f[1][1:]); err != nil {
		return base, head, fmt.Errorf("git diff: bad hunk header %q: %v", line, err)
	}
	if head, err = parseRange(f[2][1:]); err != nil {
		return base, head, fmt.Errorf("git diff: bad hunk header %q: %v", line, err)
	}
	return base, head, nil
}

func parseRange(s string) (lineRange, error) {
	start, count, found := strings.Cut(s, ",")
	a, err := strconv.Atoi(start)
	if err != nil {
		return lineRange{}, err
	}
	n := 1
	if found {
		if n, err = strconv.Atoi(count); err != nil {
			return lineRange{}, err
		}
	}
	return lineRange{a, a + n - 1}, nil
}
