package textfold

import (
	"fmt"
	"slices"
	"testing"
)

func TestFold(t *testing.T) {
	tests := []struct{ desc, give, want string }{
		{"ASCII", "Plan B", "plan b"},
		{"Greek tonos", "Ελληνικά", "ελληνικα"},
		{"Greek capitals", "ΕΛΛΗΝΙΚΑ", "ελληνικα"},
		{"Greek final sigma", "Αθήνας", "αθηνασ"},
		{"Greek dialytika and tonos", "ΐ Ϋ", "ι υ"},
		{"polytonic Greek", "ᾅδης", "αδησ"},
		{"sharp s", "Straße ẞ", "strasse ss"},
		{"o with stroke", "Smørrebrød", "smorrebrod"},
		{"l with stroke", "Łódź", "lodz"},
		{"Cyrillic io", "ёлка Ёж", "елка еж"},
		{"Cyrillic short i", "йогурт", "иогурт"},
		{"ligatures and letters", "Æsir Œuvre Þór Đakovo ðe ıstanbul Ħal Ŧ", "aesir oeuvre thor dakovo de istanbul hal t"},
		{"Latin accents unicode61 folds too", "Café Ñandú Ångström", "cafe nandu angstrom"},
		{"Latin with two marks", "ǖ ǡ ệ", "u a e"},
		{"decomposed", "Cafe\u0301 Αθη\u0301να", "cafe αθηνα"},
		{"compatibility forms", "ﬁnance ａｌｐｈａ x²", "finance alpha x2"},
		{"fraction kept whole", "½", "½"},
		{"kana marks stay", "ガス ｶﾞｽ", "ガス ｶﾞｽ"},
		{"Indic marks stay", "हिन्दी", "हिन्दी"},
		{"CJK stays", "東京", "東京"},
		{"Armenian lower-cased as unicode61 does not", "Երևան", "Երևան"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if got := Fold(tt.give); got != tt.want {
				t.Errorf("Fold(%q) = %q, want %q", tt.give, got, tt.want)
			}
		})
	}
}

func ExampleFold() {
	fmt.Println(Fold("Ελληνικά, Straße, Smørrebrød, Łódź, ёлка"))
	// Output: ελληνικα, strasse, smorrebrod, lodz, елка
}

// TestFoldRunes checks that FoldRunes folds as Fold does, with the rune
// each byte comes from.
func TestFoldRunes(t *testing.T) {
	tests := []struct {
		desc, give string
		from       []int
	}{
		{"ASCII", "Plan", []int{0, 1, 2, 3}},
		{"sharp s", "Straße", []int{0, 1, 2, 3, 4, 4, 5}},
		{"decomposed", "Cafe\u0301", []int{0, 1, 2, 3}},
		{"phonetic letter's marks go, as in Fold", "ᴀ\u0301", []int{0, 0, 0}},
		{"kana marks stay", "ｶﾞ", []int{0, 0, 0, 1, 1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got := FoldRunes([]rune(tt.give))
			if want := Fold(tt.give); got.Text != want {
				t.Errorf("FoldRunes(%q).Text = %q, want %q", tt.give, got.Text, want)
			}
			if !slices.Equal(got.From, tt.from) {
				t.Errorf("FoldRunes(%q).From = %v, want %v", tt.give, got.From, tt.from)
			}
		})
	}
}

// TestSpecialFold: SpecialFold answers every letter of its table, and its
// quick answer for the runes before the table's first agrees with it.
func TestSpecialFold(t *testing.T) {
	for r, want := range specialFold {
		if got, ok := SpecialFold(r); !ok || got != want {
			t.Errorf("SpecialFold(%q) = %q, %v; want %q, true", r, got, ok, want)
		}
	}
	for r := rune(0); r < 0x250; r++ {
		_, inTable := specialFold[r]
		if _, ok := SpecialFold(r); ok != inTable {
			t.Errorf("SpecialFold(%q) ok = %v, want %v", r, ok, inTable)
		}
	}
}
