//go:build !race

package vault

// raceEnabled says the tests run with the race detector (see
// race_on_test.go).
const raceEnabled = false
