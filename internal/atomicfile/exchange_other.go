//go:build !linux

package atomicfile

// exchange swaps directories a and b with two renames.
func exchange(a, b string) error { return renameSwap(a, b) }
