package vault

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/yuin/goldmark/text"
	"go.abhg.dev/goldmark/hashtag"
)

// TestParseASCIITag: where parseASCII answers, it answers as the
// Obsidian variant of goldmark-hashtag (the tag and how far it reads), on
// lines of ASCII letters, digits, punctuation and spaces with accents,
// combining marks, emoji, keycaps and other spaces among them; and it
// answers for a tag of ASCII followed by ASCII.
func TestParseASCIITag(t *testing.T) {
	parts := []string{"a", "Z", "9", "0", " ", "\t", "\r\n", "\n", "-", "_", "/", ".", ",", "#", "*", "!", "'", "\"", "(", ")",
		"[", "]", "`", "~", "é", "\u0301", "\u00a0", "🙂", "\ufe0f\u20e3", "東", "\u200d", "ß", "\u2003"}
	inner := &hashtag.Parser{Variant: hashtag.ObsidianVariant}
	r := rand.New(rand.NewPCG(4, 5))
	answered := 0
	for range 50000 {
		var b strings.Builder
		b.WriteByte('#')
		for range r.IntN(8) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		src := []byte(b.String())
		got := text.NewReader(src)
		line, seg := got.PeekLine()
		n, ok := parseASCII(got, line, seg)
		if !ok {
			continue
		}
		answered++
		want := text.NewReader(src)
		wn := inner.Parse(nil, want, nil)
		gotTag, wantTag := "<nil>", "<nil>"
		if n != nil {
			gotTag = string(n.(*hashtag.Node).Tag)
		}
		if wn != nil {
			wantTag = string(wn.(*hashtag.Node).Tag)
		}
		_, gs := got.Position()
		_, ws := want.Position()
		if gotTag != wantTag || gs != ws {
			t.Fatalf("parseASCII(%+q) = %q at %v, want %q at %v", src, gotTag, gs, wantTag, ws)
		}
	}
	if answered < 10000 {
		t.Errorf("parseASCII answered %d of 50000 lines, want most", answered)
	}
	for _, s := range []string{"#tag", "#project/alpha rest", "#a-b_c.", "#2024x,"} {
		r := text.NewReader([]byte(s))
		line, seg := r.PeekLine()
		if _, ok := parseASCII(r, line, seg); !ok {
			t.Errorf("parseASCII(%q) left it to goldmark-hashtag, want an answer", s)
		}
	}
}
