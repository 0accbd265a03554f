// Package testutil holds the helpers that the tests of several packages
// share: copies of testvault/ in temporary folders, vaults made from a map
// of files, dumps and diffs of a folder tree and a fake embedding server.
//
// It imports the standard library only, so that any package's tests,
// internal or external, may use it; only _test.go files import it
// (scripts/check-deps.sh checks this).
package testutil
