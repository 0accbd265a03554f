package vault

import (
	"path"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// NFC returns s in Unicode normalisation form C, so that a name typed on
// Linux and the same name stored decomposed by macOS compare equal.
func NFC(s string) string {
	if norm.NFC.IsNormalString(s) {
		return s
	}
	return norm.NFC.String(s)
}

// Fold returns the key under which names and paths are matched: NFC and
// lower case, as Obsidian matches link targets case-insensitively.
func Fold(s string) string { return strings.ToLower(NFC(s)) }

func equalFold(a, b string) bool { return Fold(a) == Fold(b) }

// trimMD removes a ".md" extension in any letter case.
func trimMD(p string) string {
	if len(p) >= 3 && strings.EqualFold(p[len(p)-3:], ".md") {
		return p[:len(p)-3]
	}
	return p
}

// hasMD reports whether p ends in ".md" in any letter case.
func hasMD(p string) bool { return len(p) >= 3 && strings.EqualFold(p[len(p)-3:], ".md") }

// Dir returns the folder of a vault path, "" for the vault root.
func Dir(id string) string {
	d := path.Dir(id)
	if d == "." || d == "/" {
		return ""
	}
	return d
}

// BaseName returns the last element of a vault path without ".md".
func BaseName(id string) string { return trimMD(path.Base(id)) }
