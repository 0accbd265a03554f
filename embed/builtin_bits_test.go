package embed

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// builtinBitsWant is the SHA-256 of every component's bits of the vectors
// of bitsCorpus, as the builtin embedder made them before its loops were
// made faster: a faster embedder must give the same vectors to the bit
// (stored vectors are compared with new ones, and BuiltinModel did not
// change).
const builtinBitsWant = "bacbac88db449cc445d08fcf4d4a7588865195d9b0131ce7d08109377d03bc2a"

// bitsCorpus is a few hundred texts of every kind the embedder meets:
// the test vault's notes and their chunks, Zipf-distributed made-up
// words of many lengths, and mixed scripts, accents, numbers, stop words
// and punctuation.
func bitsCorpus(t *testing.T) []string {
	t.Helper()
	var texts []string
	err := filepath.WalkDir(filepath.Join("..", "testvault"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		texts = append(texts, string(b))
		for _, c := range Chunks(filepath.Base(p), string(b), 200) {
			texts = append(texts, c.Text)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 5, 40, 300, 1200, 2048, 6000, 20000} {
		texts = append(texts, benchText(r, n))
	}
	words := strings.Fields(`The quick brown fox Café déjà vu 東京の旅行 カタカナ ひらがな 漢字 ÆØÅ straße
		Ελληνικά Кириллица 2026 #tag [[Link|alias]] back-up backup and the of le la der die 42 3.14 ﬁ Ｆｕｌｌ
		don't e-mail über naïve plan planning plans x y z 的 是 🙂 ⅷ ǅ İstanbul ΣΊΣΥΦΟΣ`)
	seps := []string{" ", "  ", "\n", ". ", ", ", "-", "/", "'", "\t", ": ", "!\n\n"}
	for range 300 {
		var b strings.Builder
		for range 1 + r.IntN(120) {
			b.WriteString(words[r.IntN(len(words))])
			b.WriteString(seps[r.IntN(len(seps))])
		}
		texts = append(texts, b.String())
	}
	return texts
}

// TestBuiltinBitsUnchanged: the vectors of bitsCorpus are the ones the
// embedder gave before it was made faster, to the bit.
func TestBuiltinBitsUnchanged(t *testing.T) {
	texts := bitsCorpus(t)
	b := NewBuiltin()
	h := sha256.New()
	var tmp [4]byte
	buf := make([]float32, BuiltinDim)
	for _, text := range texts {
		for _, x := range b.VectorTo(buf, text) {
			binary.LittleEndian.PutUint32(tmp[:], math.Float32bits(x))
			h.Write(tmp[:])
		}
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != builtinBitsWant {
		t.Errorf("vectors of %d texts hash to %s, want %s: the builtin vectors changed", len(texts), got, builtinBitsWant)
	}
}

// TestStopWordsAllWeighed: the quick test before the stop-word look-up
// lets every stop word through.
func TestStopWordsAllWeighed(t *testing.T) {
	for w := range stopWords {
		if !maybeStopWord(w) || wordWeight(w) != 0.2 {
			t.Errorf("wordWeight(%q) = %v, maybeStopWord = %v; want 0.2, true", w, wordWeight(w), maybeStopWord(w))
		}
	}
}
