package main

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
)

// TestRunPeakRSSIsTheChilds: a child started by a parent that holds a
// large heap reports its own peak RSS, not the parent's (which its
// rusage gives on Linux).
func TestRunPeakRSSIsTheChilds(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc: the rusage is all there is")
	}
	bin := testBinary(t)
	const held = 256 << 20
	ballast := make([]byte, held)
	for i := range ballast {
		ballast[i] = byte(i)
	}
	cmd := exec.Command(bin, "--help")
	cmd.Stdout, cmd.Stderr = nil, nil
	kib, err := runPeakRSS(cmd)
	if err != nil {
		t.Fatal(err)
	}
	if inflated := maxRSS(cmd.ProcessState); inflated < held>>10 {
		t.Logf("the rusage says %d KiB, not the parent's %d: this OS does not inflate it", inflated, held>>10)
	}
	if kib <= 0 || kib >= held>>11 {
		t.Errorf("runPeakRSS = %d KiB for `vaultgraph --help`; want its own peak, well under the parent's %d KiB", kib, held>>10)
	}
	runtime.KeepAlive(ballast)
}
