package proctab

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A tagged process is listed while it runs, when its command line holds
// match, and no longer once it has been killed and reaped.
func TestTagged(t *testing.T) {
	tag := Tag(t)
	cmd := exec.Command("sleep", "30")
	cmd.Env = append(os.Environ(), tag)
	require.NoError(t, cmd.Start())
	pid := strconv.Itoa(cmd.Process.Pid)
	for _, tc := range []struct {
		match string
		want  int
	}{
		{"", 1},
		{"sleep 30", 1},
		{"no such command line", 0},
	} {
		got := Tagged(tag, tc.match, 0)
		require.Len(t, got, tc.want, "match %q", tc.match)
		if tc.want > 0 {
			assert.True(t, strings.HasPrefix(got[0], pid+" sleep 30"), got[0])
		}
	}
	assert.Empty(t, Tagged(Tag(t), "", 0), "another tag finds nothing")
	require.NoError(t, cmd.Process.Kill())
	_ = cmd.Wait()
	assert.Empty(t, Tagged(tag, "", 5*time.Second))
}
