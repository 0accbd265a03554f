package vault

import (
	"path"
	"strings"

	"github.com/vaultgraph/vaultgraph/internal/textfold"
)

// NFC returns s in Unicode normalisation form C, so that a name typed on
// Linux and the same name stored decomposed by macOS compare equal.
func NFC(s string) string { return textfold.NFC(s) }

// Fold returns the key under which names and paths are matched: NFC and
// lower case, as Obsidian matches link targets case-insensitively.
func Fold(s string) string { return strings.ToLower(NFC(s)) }

func equalFold(a, b string) bool {
	if textfold.IsASCII(a) && textfold.IsASCII(b) {
		return strings.EqualFold(a, b) // what Fold gives ASCII, without a copy
	}
	return Fold(a) == Fold(b)
}

// TrimMD removes a ".md" extension in any letter case.
func TrimMD(p string) string {
	if len(p) >= 3 && strings.EqualFold(p[len(p)-3:], ".md") {
		return p[:len(p)-3]
	}
	return p
}

// HasMD reports whether p ends in ".md" in any letter case.
func HasMD(p string) bool { return len(p) >= 3 && strings.EqualFold(p[len(p)-3:], ".md") }

// Dir returns the folder of a vault path, "" for the vault root.
func Dir(id string) string {
	d := path.Dir(id)
	if d == "." || d == "/" {
		return ""
	}
	return d
}

// BaseName returns the last element of a vault path without ".md".
func BaseName(id string) string { return TrimMD(path.Base(id)) }
