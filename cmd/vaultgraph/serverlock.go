package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
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
// Several servers on one index share the mark: each keeps it fresh
// (writing it again if another removed it), and only the one whose
// process ID it holds removes it.
func heartbeat(ctx context.Context, index string) error {
	p := heartbeatPath(index)
	mark := fmt.Appendf(nil, "%d\n", os.Getpid())
	if err := os.WriteFile(p, mark, 0o644); err != nil {
		return fmt.Errorf("mark index as served: %w", err)
	}
	go func() {
		t := time.NewTicker(heartbeatEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				removeHeartbeat(index)
				return
			case now := <-t.C:
				if err := os.Chtimes(p, now, now); errors.Is(err, fs.ErrNotExist) {
					_ = os.WriteFile(p, mark, 0o644)
				}
			}
		}
	}()
	return nil
}

// removeHeartbeat removes index's mark if this process wrote it last.
func removeHeartbeat(index string) {
	p := heartbeatPath(index)
	if b, err := os.ReadFile(p); err == nil && strings.TrimSpace(string(b)) == strconv.Itoa(os.Getpid()) {
		_ = os.Remove(p)
	}
}
