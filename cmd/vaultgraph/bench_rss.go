package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// The peak RSS of a child process, as the bench reports it. The rusage a
// parent gets for its child (maxRSS) is not the child's alone on Linux:
// Go starts a child with vfork, and the kernel records the peak of the
// address space the child left at exec, which is the parent's. A child
// started by a bench that holds a 100,000-note engine "peaked" at the
// bench's 800 MiB even when it used 420. So the child reports its own
// peak (VmHWM, of its own address space) into a file the bench names, and
// the bench falls back to the rusage where the OS has no /proc.

// envPeakRSS names the file a command writes its peak RSS to (KiB, as
// text) as it exits; the bench sets it for the commands it times.
const envPeakRSS = "VAULTGRAPH_PEAK_RSS_FILE"

// writePeakRSS writes this process's peak RSS to path, when path is set
// and the OS says it.
func writePeakRSS(path string) {
	if path == "" {
		return
	}
	if kib := procStatusKiB(os.Getpid(), "VmHWM:"); kib >= 0 {
		_ = os.WriteFile(path, []byte(strconv.FormatInt(kib, 10)), 0o600)
	}
}

// runPeakRSS runs cmd and returns its peak RSS in KiB: what it reported
// (writePeakRSS), else its rusage's (maxRSS), -1 when neither says.
func runPeakRSS(cmd *exec.Cmd) (int64, error) {
	dir, err := os.MkdirTemp("", "vaultgraph-rss-")
	if err != nil {
		return -1, err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "peak")
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, envPeakRSS+"="+file)
	err = cmd.Run()
	if b, rerr := os.ReadFile(file); rerr == nil {
		if kib, perr := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); perr == nil {
			return kib, err
		}
	}
	return maxRSS(cmd.ProcessState), err
}
