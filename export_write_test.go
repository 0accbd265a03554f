package vaultgraph

// Test-only hooks for the write tests (engine_write_test.go,
// engine_rename_test.go).

// SetCommitFailAt sets the fault hook (commit.Options.FailAt) that
// every file commit of e's writes is given; nil removes it. It waits for a
// write in progress to finish.
func (e *Engine) SetCommitFailAt(f func(step string, n int) error) {
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	e.commitOpts.FailAt = f
}
