// Package proctab finds, in Linux's process table (/proc), the processes a
// test started, so that the test can check that none outlives what should
// have ended it: the test marks its processes with an environment setting
// (Tag) that they pass on to theirs, and Tagged lists the ones running.
package proctab

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

// Tag returns an environment setting, MBOPT_TEST_TAG=…, unique to the
// test, to give the processes it starts. It skips the test where there is
// no /proc to read the process table from.
func Tag(tb testing.TB) string {
	tb.Helper()
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		tb.Skip("needs /proc to read the process table")
	}
	return "MBOPT_TEST_TAG=" + strings.ReplaceAll(tb.Name(), "/", "_") + "-" + rand.Text()
}

// Tagged returns the running processes (not zombies, not this one) whose
// environment holds tag and whose command line contains match (any, when
// match is empty), as "pid command line", after waiting up to wait for
// there to be none.
func Tagged(tag, match string, wait time.Duration) []string {
	var found []string
	for deadline := time.Now().Add(wait); ; time.Sleep(50 * time.Millisecond) {
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
			if stat, _ := os.ReadFile(filepath.Join("/proc", d.Name(), "stat")); bytes.Contains(stat, []byte(") Z ")) {
				continue
			}
			cmdline, _ := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
			line := string(bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}))
			if strings.Contains(line, match) {
				found = append(found, fmt.Sprintf("%d %s", pid, line))
			}
		}
		if len(found) == 0 || time.Now().After(deadline) {
			return found
		}
	}
}
