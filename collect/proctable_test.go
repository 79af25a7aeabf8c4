package collect_test

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// processTag returns an environment variable setting unique to the test.
// Collect passes Config.Env to every process it starts and they pass it to
// theirs, so processesWith finds all of them in the process table.
func processTag(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("needs /proc to read the process table")
	}
	return "MBOPT_TEST_TAG=" + strings.ReplaceAll(t.Name(), "/", "_") + "-" + rand.Text()
}

// processesWith returns the running processes (not zombies) whose
// environment holds tag, waiting up to 5s for them to end first.
func processesWith(t *testing.T, tag string) []string {
	t.Helper()
	var found []string
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		found = found[:0]
		dirs, _ := os.ReadDir("/proc")
		for _, d := range dirs {
			pid, err := strconv.Atoi(d.Name())
			if err != nil || pid == os.Getpid() {
				continue
			}
			env, err := os.ReadFile(filepath.Join("/proc", d.Name(), "environ"))
			if err != nil || !bytes.Contains(env, []byte(tag+"\x00")) {
				continue
			}
			stat, _ := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
			if s := string(stat); strings.Contains(s, ") Z ") {
				continue
			}
			cmdline, _ := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
			found = append(found, fmt.Sprintf("%d %s", pid, bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '})))
		}
		if len(found) == 0 || time.Now().After(deadline) {
			return found
		}
	}
}
