package textfold

import (
	"fmt"
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
