package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestHeartbeatShared checks that a server leaving does not remove the
// mark of another server on the same index, and removes its own.
func TestHeartbeatShared(t *testing.T) {
	index := filepath.Join(t.TempDir(), "index.db")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := heartbeat(ctx, index); err != nil {
		t.Fatal(err)
	}
	if !serverRunning(index) {
		t.Fatal("serverRunning = false after heartbeat")
	}
	// Another server (another process ID) took the mark over.
	if err := os.WriteFile(heartbeatPath(index), []byte("999999999\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	removeHeartbeat(index)
	if !serverRunning(index) {
		t.Error("removeHeartbeat removed another server's mark")
	}
	if err := os.WriteFile(heartbeatPath(index), []byte("1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := heartbeat(ctx, index); err != nil {
		t.Fatal(err)
	}
	removeHeartbeat(index)
	if _, err := os.Stat(heartbeatPath(index)); !os.IsNotExist(err) {
		t.Errorf("removeHeartbeat left this server's own mark: %v", err)
	}
}
