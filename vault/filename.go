package vault

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrBadName is a note title from which no usable file name can be made:
// nothing is left once forbidden characters are removed, or what is left
// is a name Windows reserves.
var ErrBadName = errors.New("no usable file name")

// MaxFileNameBytes is the longest base name FileName returns, leaving room
// for ".md" and for the temporary and backup names the writer uses beside
// a file.
const MaxFileNameBytes = 200

// forbiddenNameChars are the characters Obsidian refuses in file names.
const forbiddenNameChars = `\/:*?"<>|#^[]`

// FileName returns the file name (without ".md") for a note titled title,
// following Obsidian's convention: words and letter case are kept; the
// characters Obsidian forbids in file names (\ / : * ? " < > | # ^ [ ])
// and control characters are removed; runs of white space become one
// space; leading and trailing spaces, leading dots (a dot-file is hidden
// from the vault) and trailing dots are trimmed; the result is NFC and at
// most MaxFileNameBytes bytes, cut between characters. Invalid UTF-8 is
// dropped. It returns an error wrapping ErrBadName when nothing is left or
// the name is reserved on Windows (CON, NUL, COM1, ...).
func FileName(title string) (string, error) {
	s := NFC(strings.ToValidUTF8(title, ""))
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			space = true
			continue
		case strings.ContainsRune(forbiddenNameChars, r), unicode.IsControl(r):
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	name := trimName(NFC(b.String()))
	if len(name) > MaxFileNameBytes {
		cut := MaxFileNameBytes
		for cut > 0 && !utf8.RuneStart(name[cut]) {
			cut--
		}
		name = trimName(name[:cut])
	}
	switch {
	case name == "":
		return "", fmt.Errorf("title %q: %w: nothing is left once the characters Obsidian forbids are removed", title, ErrBadName)
	case isReservedName(name):
		return "", fmt.Errorf("title %q: %w: %q is reserved on Windows", title, ErrBadName, name)
	}
	return name, nil
}

// trimName removes leading spaces and dots and trailing spaces and dots.
func trimName(s string) string {
	return strings.TrimRight(strings.TrimLeft(s, " ."), " .")
}
