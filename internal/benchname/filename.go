package benchname

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// FileName returns s as a file name of at most max bytes (max ≥ 2):
// every byte other than an ASCII letter, digit or one of "-_.=+," becomes
// "_" (so it holds no separator, space, control character or non-ASCII
// letter), a name that would be empty or start with "." or "-" gets a
// leading "_", every ".." becomes "__", and the name is cut to max bytes.
// It is the one rule by which mbopt names a file after a benchmark, a
// series or a package (profiles, function sets, logs, test binaries,
// figures, dashboard pages): a name that a benchmark's author chose cannot
// leave the directory, hide the file, pass for a flag or be too long.
// Distinct strings may share a FileName; [UniqueFileName] tells them
// apart.
func FileName(s string, max int) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("-_.=+,", c) >= 0:
		default:
			b[i] = '_'
		}
	}
	if len(b) == 0 || b[0] == '-' || b[0] == '.' {
		b = append([]byte{'_'}, b...)
	}
	for i := 0; i+1 < len(b); i++ {
		if b[i] == '.' && b[i+1] == '.' {
			b[i], b[i+1] = '_', '_'
		}
	}
	return string(b[:min(len(b), max)])
}

// UniqueFileName returns [FileName](s, max), "-" and the first 8 hex
// digits of the SHA-256 of key: files named after distinct keys (such as
// benchmark ids) get distinct names, however alike FileName makes them,
// but for a hash collision.
func UniqueFileName(s, key string, max int) string {
	sum := sha256.Sum256([]byte(key))
	return FileName(s, max) + "-" + hex.EncodeToString(sum[:4])
}
