package vaultgraph

// Test-only hooks for engine_load_test.go.

// WithIndexChunkSize sets how many notes o's index passes parse and write
// per transaction (normally 2,000).
func WithIndexChunkSize(o *Options, n int) {
	test := o.testOptions()
	test.chunkSize = n
	o.test = &test
}
