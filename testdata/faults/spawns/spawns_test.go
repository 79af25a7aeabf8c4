package spawns

import (
	"os/exec"
	"testing"
)

var sink int

// BenchmarkSpawn starts a long sleep in the background, does not wait for
// it, and succeeds: the sleep outlives the benchmark unless its process
// group is killed.
func BenchmarkSpawn(b *testing.B) {
	if err := exec.Command("sleep", "300").Start(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		sink++
	}
}
