// Package spawns has a benchmark that leaves a process behind.
package spawns
