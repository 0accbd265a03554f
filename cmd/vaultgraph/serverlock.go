package main

import (
	"context"
	"fmt"
	"os"
	"time"
)

// A running server marks its index with a heartbeat file next to it,
// touched every heartbeatEvery; a command that finds a fresh one trusts
// the index instead of scanning the vault itself. A file older than
// heartbeatStale is left over from a server that died.
const (
	heartbeatEvery = 5 * time.Second
	heartbeatStale = 3 * heartbeatEvery
)

func heartbeatPath(index string) string { return index + ".serve" }

// serverRunning reports whether a server is keeping index current.
func serverRunning(index string) bool {
	fi, err := os.Stat(heartbeatPath(index))
	return err == nil && time.Since(fi.ModTime()) < heartbeatStale
}

// heartbeat marks index as served until ctx ends, then removes the mark.
func heartbeat(ctx context.Context, index string) error {
	p := heartbeatPath(index)
	if err := os.WriteFile(p, fmt.Appendf(nil, "%d\n", os.Getpid()), 0o644); err != nil {
		return fmt.Errorf("mark index as served: %w", err)
	}
	go func() {
		t := time.NewTicker(heartbeatEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				os.Remove(p)
				return
			case now := <-t.C:
				_ = os.Chtimes(p, now, now)
			}
		}
	}()
	return nil
}
