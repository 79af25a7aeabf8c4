package atomicfile

import (
	"os"
	"path/filepath"
)

// Overwrites returns the first of inputs that writing output would
// change, and "" when it changes none. Output changes an input when both
// resolve to the same path (symbolic links followed, as [Resolve] does
// for the last element and the directories above it; relative paths made
// absolute) or name the same existing file (a hard link). An output that
// is a device or a pipe (/dev/stdout) is written in place and changes no
// input; an input that does not exist yet (a database's -wal file) is
// still compared by path.
//
// This is the one rule every command with -o or --out applies to the
// files it reads: writing a result over its own input destroys the input.
func Overwrites(output string, inputs ...string) string {
	outPath, outInfo := canonical(output)
	if outPath == "" || outInfo != nil && !outInfo.Mode().IsRegular() && !outInfo.IsDir() {
		return ""
	}
	for _, in := range inputs {
		inPath, inInfo := canonical(in)
		if inPath == "" {
			continue
		}
		if inPath == outPath || outInfo != nil && inInfo != nil && os.SameFile(outInfo, inInfo) {
			return in
		}
	}
	return ""
}

// canonical returns the absolute path that writing path changes, with
// the directories above it resolved too, and its file info (nil when it
// does not exist); "" when path cannot be resolved.
func canonical(path string) (string, os.FileInfo) {
	if path == "" {
		return "", nil
	}
	target, info, err := Resolve(path)
	if err != nil {
		return "", nil
	}
	abs, err := filepath.Abs(target)
	if err != nil {
		return "", nil
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(dir, filepath.Base(abs))
	}
	return abs, info
}
