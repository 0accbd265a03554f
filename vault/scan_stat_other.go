//go:build !(linux || darwin)

package vault

import (
	"io/fs"
	"os"
)

// lstatEach calls each with os.Lstat of every name in the folder dir.
func lstatEach(_ *os.File, dir string, names []string, each func(int, fs.FileInfo, error)) {
	lstatFallback(dir, names, each)
}
