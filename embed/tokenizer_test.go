package embed

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

func mustTokenizer(t testing.TB, js string) *Tokenizer {
	t.Helper()
	tok, err := ParseTokenizer([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestWordPiece(t *testing.T) {
	tok := mustTokenizer(t, wordPieceJSON())
	tests := []struct {
		desc, give, want string
	}{
		{"lower-case, punctuation split off", "Hello, World!", "hello , world !"},
		{"continuations", "playing unbelievable", "play ##ing un ##believ ##able"},
		{"accents stripped", "Café", "cafe"},
		{"a word that cannot be split is one [UNK]", "playingx xyz", "[UNK] [UNK]"},
		{"special tokens in the text", "[CLS] hello[SEP]", "[CLS] hello [SEP]"},
		{"CJK ideographs are words", "好hello", "[UNK] hello"},
		{"control characters dropped, whitespace kinds", "hel\u200blo\tworld\u00a0!", "hello world !"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if got := strings.Join(tok.tokenTexts(tt.give), " "); got != tt.want {
				t.Errorf("tokenTexts(%q) = %q, want %q", tt.give, got, tt.want)
			}
		})
	}
	if tok.unk != 1 || !tok.special[2] || tok.special[4] || tok.VocabSize() != len(synthVocab) {
		t.Errorf("unk = %d, VocabSize = %d", tok.unk, tok.VocabSize())
	}
}

func TestWordPieceLongWord(t *testing.T) {
	js := strings.Replace(wordPieceJSON(), `"max_input_chars_per_word":100`, `"max_input_chars_per_word":5`, 1)
	tok := mustTokenizer(t, js)
	if got := strings.Join(tok.tokenTexts("hello playing"), " "); got != "hello [UNK]" {
		t.Errorf("tokenTexts = %q, want words over 5 characters unknown", got)
	}
}

func TestUnigram(t *testing.T) {
	tok := mustTokenizer(t, unigramJSON(false))
	tests := []struct {
		give, want string
	}{
		{"Hello world", "▁hello▁world"}, // one multi-word token beats two
		{"NEW   York", "▁new▁york"},     // spaces squeezed
		{"hello zz", "▁hello ▁ [UNK]"},  // unknown characters fused
		{"hello!", "▁hello ▁!"},         // punctuation spaced by the normalizer
		{"hell", "▁ h e l l"},           // falls back to characters
		{"", ""},
	}
	for _, tt := range tests {
		if got := strings.Join(tok.tokenTexts(tt.give), " "); got != tt.want {
			t.Errorf("tokenTexts(%q) = %q, want %q", tt.give, got, tt.want)
		}
	}
	split := mustTokenizer(t, unigramJSON(true))
	if got := strings.Join(split.tokenTexts("hello world"), " "); got != "▁hello ▁world" {
		t.Errorf("split Metaspace: tokenTexts = %q, want ▁hello ▁world", got)
	}
}

func TestPreTokenizers(t *testing.T) {
	tests := []struct {
		pre, give, want string
	}{
		{`{"type":"Whitespace"}`, "Hi, you_2 there!!", "Hi|,|you_2|there|!!"},
		{`{"type":"WhitespaceSplit"}`, " a  b\tc ", "a|b|c"},
		{`{"type":"Punctuation"}`, "a,b", "a|,|b"},
		{`{"type":"Digits","individual_digits":true}`, "a12", "a|1|2"},
		{`{"type":"Digits","individual_digits":false}`, "a12b", "a|12|b"},
		{`{"type":"Metaspace","replacement":"▁","add_prefix_space":true}`, "a b", "▁a|▁b"},
		{`{"type":"Metaspace","replacement":"▁","prepend_scheme":"never","split":true}`, "a b", "a|▁b"},
		{`{"type":"Sequence","pretokenizers":[{"type":"WhitespaceSplit"},{"type":"Digits","individual_digits":true}]}`, "ab 12", "ab|1|2"},
	}
	for _, tt := range tests {
		p, err := parsePreTokenizer([]byte(tt.pre))
		if err != nil {
			t.Fatalf("%s: %v", tt.pre, err)
		}
		if got := strings.Join(p(tt.give, true), "|"); got != tt.want {
			t.Errorf("%s(%q) = %q, want %q", tt.pre, tt.give, got, tt.want)
		}
	}
}

func TestNormalizers(t *testing.T) {
	tests := []struct {
		norm, give, want string
	}{
		{`{"type":"Lowercase"}`, "ÀB", "àb"},
		{`{"type":"Sequence","normalizers":[{"type":"NFD"},{"type":"StripAccents"}]}`, "Àé", "Ae"},
		{`{"type":"NFKC"}`, "ﬁ", "fi"},
		{`{"type":"Strip","strip_left":true,"strip_right":true}`, "  a  ", "a"},
		{`{"type":"Prepend","prepend":"▁"}`, "a", "▁a"},
		{`{"type":"BertNormalizer","lowercase":false}`, "Àb", "Àb"},
		{`{"type":"BertNormalizer","lowercase":true,"strip_accents":false}`, "Àb", "àb"},
		{`null`, "Ab", "Ab"},
	}
	for _, tt := range tests {
		n, err := parseNormalizer([]byte(tt.norm))
		if err != nil {
			t.Fatalf("%s: %v", tt.norm, err)
		}
		if got := n(tt.give); got != tt.want {
			t.Errorf("%s(%q) = %q, want %q", tt.norm, tt.give, got, tt.want)
		}
	}
}

func TestTokenizerErrors(t *testing.T) {
	tests := []struct{ desc, give string }{
		{"not JSON", `{"model":`},
		{"BPE", `{"model":{"type":"BPE","vocab":{"a":0},"merges":["a b"]}}`},
		{"byte-level pre-tokenizer", `{"pre_tokenizer":{"type":"ByteLevel"},"model":{"type":"WordPiece","vocab":{"a":0}}}`},
		{"unknown normalizer", `{"normalizer":{"type":"Fancy"},"model":{"type":"WordPiece","vocab":{"a":0}}}`},
		{"bad regex", `{"normalizer":{"type":"Replace","pattern":{"Regex":"("},"content":""},"model":{"type":"WordPiece","vocab":{"a":0}}}`},
		{"negative id", `{"model":{"type":"WordPiece","vocab":{"a":-1}}}`},
		{"no model", `{}`},
	}
	for _, tt := range tests {
		if _, err := ParseTokenizer([]byte(tt.give)); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: ParseTokenizer error = %v, want ErrFormat", tt.desc, err)
		}
	}
}

func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"Hello, World!", "playing unbelievable", "Café [CLS]", "好", "hello zz", "\x00\xff", "▁▁ new york"} {
		f.Add(s)
	}
	toks := []*Tokenizer{mustTokenizer(f, wordPieceJSON()), mustTokenizer(f, unigramJSON(false)), mustTokenizer(f, unigramJSON(true))}
	f.Fuzz(func(t *testing.T, s string) {
		for _, tok := range toks[1:] {
			if u := tok.model.(*unigram); utf8.ValidString(s) {
				if got, want := fmt.Sprint(u.encode([]int{}, s)), fmt.Sprint(refUnigram(u, s)); got != want {
					t.Fatalf("unigram encode(%q) = %s, reference %s", s, got, want)
				}
			}
		}
		for _, tok := range toks {
			ids := tok.Encode(s)
			for _, id := range ids {
				if id < -1 || id >= tok.VocabSize() {
					t.Fatalf("Encode(%q) gave id %d of %d", s, id, tok.VocabSize())
				}
			}
			if utf8.ValidString(s) && strings.TrimSpace(s) != "" && len(ids) == 0 && tok == toks[1] {
				// Metaspace always leaves something for Unigram to cover,
				// unless normalization removed every character.
				if n := tok.norm(s); strings.TrimSpace(n) != "" {
					t.Fatalf("Encode(%q) gave no tokens", s)
				}
			}
		}
	})
}

// benchUnigram builds a Unigram tokenizer.json with a vocabulary of
// made-up words and multi-word tokens, like model2vec's.
func benchUnigram(b testing.TB, n int) *Tokenizer {
	r := rand.New(rand.NewPCG(3, 3))
	syl := strings.Fields("ka lo mi ne ru sa ta vo pe li an or en is ul tra con ver sto ple")
	seen := map[string]bool{}
	var sb strings.Builder
	sb.WriteString(`{"normalizer":{"type":"Lowercase"},"pre_tokenizer":{"type":"Metaspace","replacement":"▁","prepend_scheme":"always","split":false},"model":{"type":"Unigram","unk_id":0,"vocab":[["[UNK]",0]`)
	for _, s := range syl {
		fmt.Fprintf(&sb, `,[%q,-8],[%q,-7]`, s, "▁"+s)
	}
	for len(seen) < n {
		var w strings.Builder
		for range 1 + r.IntN(3+r.IntN(2)*8) {
			if r.IntN(6) == 0 {
				w.WriteString("▁")
			}
			w.WriteString(syl[r.IntN(len(syl))])
		}
		tok := "▁" + w.String()
		if !seen[tok] {
			seen[tok] = true
			fmt.Fprintf(&sb, `,[%q,%g]`, tok, -float64(len(tok))/3)
		}
	}
	sb.WriteString(`]}}`)
	tok, err := ParseTokenizer([]byte(sb.String()))
	if err != nil {
		b.Fatal(err)
	}
	return tok
}

func BenchmarkTokenizeUnigram(b *testing.B) {
	tok := benchUnigram(b, 50000)
	text := benchText(rand.New(rand.NewPCG(1, 2)), 1500)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		tok.Encode(text)
	}
}

func BenchmarkTokenizeWordPiece(b *testing.B) {
	tok := mustTokenizer(b, wordPieceJSON())
	text := benchText(rand.New(rand.NewPCG(1, 2)), 1500)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		tok.Encode(text)
	}
}

// refUnigram is the plain Viterbi over map lookups that the sorted walk
// must agree with.
func refUnigram(m *unigram, w string) []int {
	type node struct {
		score float64
		start int
		id    int
	}
	best := make([]node, len(w)+1)
	for i := 1; i <= len(w); i++ {
		best[i].start = -1
	}
	for start := 0; start < len(w); {
		_, size := utf8.DecodeRuneInString(w[start:])
		single := false
		for end := start + 1; end <= len(w); end++ {
			if id, ok := m.vocab[w[start:end]]; ok {
				single = single || end == start+size
				if s := best[start].score + m.scores[id]; best[end].start < 0 || s > best[end].score {
					best[end] = node{s, start, id}
				}
			}
		}
		if !single {
			if s := best[start].score + m.unkScore; best[start+size].start < 0 || s > best[start+size].score {
				best[start+size] = node{s, start, m.unk}
			}
		}
		start += size
	}
	var rev []int
	for end := len(w); end > 0; end = best[end].start {
		if id := best[end].id; !(id == m.unk && len(rev) > 0 && rev[len(rev)-1] == m.unk) {
			rev = append(rev, id)
		}
	}
	out := []int{}
	for i := len(rev) - 1; i >= 0; i-- {
		out = append(out, rev[i])
	}
	return out
}

func TestUnigramMatchesReference(t *testing.T) {
	tok := benchUnigram(t, 5000)
	u := tok.model.(*unigram)
	r := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		text := "▁" + strings.ReplaceAll(strings.ToLower(benchText(r, 1+r.IntN(200))), " ", "▁") + "zq"
		got := fmt.Sprint(u.encode([]int{}, text))
		if want := fmt.Sprint(refUnigram(u, text)); got != want {
			t.Fatalf("encode(%q) =\n%s\nwant\n%s", text, got, want)
		}
	}
}

// tokenTexts returns the token strings of text (unknown tokens included).
func (t *Tokenizer) tokenTexts(text string) []string {
	ids := t.Encode(text)
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = t.Token(id)
	}
	return out
}

// Token returns the text of a token id.
func (t *Tokenizer) Token(id int) string {
	if id < 0 || id >= len(t.tokens) {
		return ""
	}
	return t.tokens[id]
}
