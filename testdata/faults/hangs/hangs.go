// Package hangs has a benchmark that never returns.
package hangs
