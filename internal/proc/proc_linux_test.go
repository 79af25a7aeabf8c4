package proc

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// helperEnv makes the test binary act as a parent process for
// TestParentDeath instead of running tests.
const helperEnv = "MBOPT_PROC_HELPER"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" {
		helper()
		return
	}
	os.Exit(m.Run())
}

// helper starts "sleep 60" with Start, prints its PID, then ends threads the
// way a careless library would (a goroutine returning while locked to its
// thread) and waits to be killed.
func helper() {
	cmd := exec.Command("sleep", "60")
	if err := Start(cmd); err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	for range 20 {
		done := make(chan bool)
		go func() {
			runtime.LockOSThread()
			close(done)
		}()
		<-done
	}
	fmt.Println(cmd.Process.Pid)
	select {}
}

// alive reports whether pid names a process that is not a zombie.
func alive(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// gone waits up to 5s for pid to end.
func gone(pid int) bool {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if !alive(pid) {
			return true
		}
	}
	return false
}

// TestParentDeath kills a parent with SIGKILL: the child it started with
// Start dies too, even though the parent ended threads after starting it.
func TestParentDeath(t *testing.T) {
	parent := exec.Command(os.Args[0], "-test.run=^$")
	parent.Env = append(os.Environ(), helperEnv+"=1")
	stdout, err := parent.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, parent.Start())
	defer parent.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	child, err := strconv.Atoi(strings.TrimSpace(line))
	require.NoError(t, err, "helper said %q", line)

	time.Sleep(200 * time.Millisecond)
	require.True(t, alive(child), "the child must survive its parent's threads ending")
	require.NoError(t, parent.Process.Signal(syscall.SIGKILL))
	parent.Wait()
	assert.True(t, gone(child), "child %d still running after its parent was killed", child)
}

// TestWaitKillsGroup: a child that exits leaving a background process
// behind; Wait kills it and returns at once although the background process
// holds the output pipe.
func TestWaitKillsGroup(t *testing.T) {
	var out strings.Builder
	cmd := exec.Command("sh", "-c", "sleep 60 & echo $!")
	cmd.Stdout = &out
	start := time.Now()
	require.NoError(t, Run(cmd))
	assert.Less(t, time.Since(start), 10*time.Second)
	bg, err := strconv.Atoi(strings.TrimSpace(out.String()))
	require.NoError(t, err, "output %q", out.String())
	assert.True(t, gone(bg), "background process %d survived Wait", bg)
}

// TestCancelKillsGroup: canceling the context of an exec.CommandContext
// started with Start kills the child and its descendants.
func TestCancelKillsGroup(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, "sh", "-c", "sleep 60 & echo $!; wait")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, Start(cmd))
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	bg, err := strconv.Atoi(strings.TrimSpace(line))
	require.NoError(t, err)
	cancel()
	assert.Error(t, Wait(cmd))
	assert.True(t, gone(cmd.Process.Pid), "the child survived cancellation")
	assert.True(t, gone(bg), "the grandchild %d survived cancellation", bg)
}

// TestStartOn: a child started on a CPU may run on that CPU only, and the
// starter thread gets its CPUs back for the next child.
func TestStartOn(t *testing.T) {
	cpus := CPUs()
	if len(cpus) == 0 {
		t.Fatal("no CPUs")
	}
	allowed := func(cpu int) string {
		t.Helper()
		cmd := exec.Command("grep", "Cpus_allowed_list", "/proc/self/status")
		var out strings.Builder
		cmd.Stdout = &out
		if err := StartOn(cmd, cpu); err != nil {
			t.Fatal(err)
		}
		if err := Wait(cmd); err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(strings.TrimPrefix(out.String(), "Cpus_allowed_list:"))
	}
	last := cpus[len(cpus)-1]
	if got := allowed(last); got != strconv.Itoa(last) {
		t.Errorf("started on CPU %d: allowed %q", last, got)
	}
	if got := allowed(-1); len(cpus) > 1 && got == strconv.Itoa(last) {
		t.Errorf("the next child is still bound to CPU %d", last)
	}
}
