//go:build race

package vault

// raceEnabled says the tests run with the race detector, under which
// sync.Pool drops a share of what is put back on purpose.
const raceEnabled = true
