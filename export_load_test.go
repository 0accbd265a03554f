package vaultgraph

// Test-only hooks for engine_load_test.go.

// SetIndexChunkSize sets how many notes an index pass parses and writes
// per transaction (normally 2,000) and returns a func that restores it.
// Tests that call it must not run in parallel with other Opens.
func SetIndexChunkSize(n int) (restore func()) {
	old := chunkSize
	chunkSize = n
	return func() { chunkSize = old }
}
