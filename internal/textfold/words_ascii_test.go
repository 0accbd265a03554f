package textfold

import (
	"testing"
	"unicode"
)

// TestASCIIWordRunes: the ASCII fast paths answer as the Unicode tables.
func TestASCIIWordRunes(t *testing.T) {
	for r := rune(0); r < 0x80; r++ {
		tables := unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r) || unicode.Is(unicode.Co, r)
		if got := IsWordRune(r); got != tables {
			t.Errorf("IsWordRune(%q) = %v, want %v", r, got, tables)
		}
		if got, want := IsASCIIWordByte(byte(r)), unicode.IsLetter(r) || unicode.IsDigit(r); got != want {
			t.Errorf("IsASCIIWordByte(%q) = %v, want %v", r, got, want)
		}
	}
}
