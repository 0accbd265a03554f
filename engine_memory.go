package vaultgraph

import "context"

// ReleaseMemory gives back memory a server's requests brought back and
// no longer use: the process's pages of the snapshot cache file the
// engine loaded from, which its reads of the notes and links touched
// (store.Store.DropCachePages; the kernel's cache of the file keeps
// them), and the page caches of the index's idle connections
// (store.Store.ShrinkMemory). A server calls it when requests pause; a
// read after it takes what it needs from the kernel's cache.
func (e *Engine) ReleaseMemory(ctx context.Context) error {
	if err := e.readLock(); err != nil {
		return err
	}
	defer e.mu.RUnlock()
	if e.store == nil {
		return nil
	}
	e.store.DropCachePages()
	return e.store.ShrinkMemory(ctx)
}
