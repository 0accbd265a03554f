package embed

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
)

func TestBuiltinDeterministic(t *testing.T) {
	b := NewBuiltin()
	text := "Alpha plan: ship the vault graph in Q3, then search. Café déjà vu 東京の旅行"
	v1 := b.Vector(text)
	if len(v1) != BuiltinDim || b.Dimension() != BuiltinDim {
		t.Fatalf("len = %d, Dimension = %d, want %d", len(v1), b.Dimension(), BuiltinDim)
	}
	// Same bits on every call, from any goroutine.
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				v := b.Vector(text)
				for i := range v {
					if math.Float32bits(v[i]) != math.Float32bits(v1[i]) {
						t.Errorf("component %d = %v, want %v", i, v[i], v1[i])
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	if n := l2(v1); math.Abs(n-1) > 1e-5 {
		t.Errorf("norm = %v, want 1", n)
	}
	if b.Model() != "builtin-hash-v1-512" {
		t.Errorf("Model() = %q", b.Model())
	}
}

// TestBuiltinVectorTo: VectorTo writes into the buffer it is given,
// whatever it held, the same bits Vector returns.
func TestBuiltinVectorTo(t *testing.T) {
	b := NewBuiltin()
	buf := make([]float32, BuiltinDim)
	for i := range buf {
		buf[i] = float32(i) // a buffer still holding the last vector
	}
	for _, text := range []string{"Café déjà vu 東京の旅行", "the quick brown fox", ""} {
		want := b.Vector(text)
		got := b.VectorTo(buf, text)
		if &got[0] != &buf[0] {
			t.Fatalf("VectorTo(%q) did not write into the buffer it was given", text)
		}
		for i := range want {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("VectorTo(%q)[%d] = %v, want %v (Vector)", text, i, got[i], want[i])
			}
		}
	}
}

// TestFolderReuse: one folder folds text after text as foldText folds
// each alone, whatever the texts before left in its buffers.
func TestFolderReuse(t *testing.T) {
	texts := []string{
		"Ｃａｆé DÉJÀ vu: ﬁne Straße, ΣΟΦΙΑ, 東京の旅行 が ｶﾞ and a long tail of words",
		"Short É",
		"PLAIN ASCII Text",
		"e\u0301 o\u0308",
		"",
		"ok",
	}
	var f folder
	for round := range 2 {
		for _, s := range texts {
			if got, want := string(f.fold(s)), foldText(s); got != want {
				t.Errorf("round %d: fold(%q) = %q, want %q", round, s, got, want)
			}
		}
	}
}

// TestBuiltinGolden pins a few components, so that a change to the
// features, weights or hash (which would invalidate stored vectors) fails
// here and reminds to bump BuiltinModel.
func TestBuiltinGolden(t *testing.T) {
	v := NewBuiltin().Vector("The quick brown fox jumps over the lazy dog")
	var sum, weighted float64
	for i, x := range v {
		sum += float64(x)
		weighted += float64(x) * float64(i%7+1)
	}
	const wantSum, wantWeighted = 1.1448156, 6.5865424
	if math.Abs(sum-wantSum) > 1e-5 || math.Abs(weighted-wantWeighted) > 1e-5 {
		t.Errorf("checksums = %.7f, %.7f, want %.7f, %.7f: the builtin embedding changed; bump BuiltinModel",
			sum, weighted, wantSum, wantWeighted)
	}
}

func TestBuiltinSimilarity(t *testing.T) {
	b := NewBuiltin()
	tests := []struct {
		desc            string
		give, near, far string
	}{
		{
			desc: "paraphrase sharing words",
			give: "How do I configure the backup schedule for the server?",
			near: "Server backup schedule: configure nightly backups at 2am.",
			far:  "Grandma's apple pie recipe with cinnamon and butter.",
		},
		{
			desc: "word forms via trigrams",
			give: "planning the garden",
			near: "garden plans and planting",
			far:  "quarterly tax filing",
		},
		{
			desc: "diacritics folded",
			give: "cafe resume naive",
			near: "Café résumé naïve",
			far:  "tea letter wise",
		},
		{
			desc: "stop words weigh little",
			give: "the history of the roman empire",
			near: "roman empire history",
			far:  "the history of the of the a an the",
		},
		{
			desc: "CJK character bigrams",
			give: "東京旅行",
			near: "東京での旅行の計画",
			far:  "大阪の食べ物",
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			q := b.Vector(tt.give)
			near, far := dot(q, b.Vector(tt.near)), dot(q, b.Vector(tt.far))
			if near <= far {
				t.Errorf("sim(%q, %q) = %.3f <= sim(.., %q) = %.3f", tt.give, tt.near, near, tt.far, far)
			}
		})
	}
}

func TestBuiltinFolding(t *testing.T) {
	b := NewBuiltin()
	for _, pair := range [][2]string{
		{"Ångström Straße Øresund Łódź", "angstrom strasse oresund lodz"},
		{"ＦＵＬＬ ｗｉｄｔｈ ﬁle", "full width file"},
		{"ÉLAN", "elan"},
	} {
		got := dot(b.Vector(pair[0]), b.Vector(pair[1]))
		if got < 0.999 {
			t.Errorf("sim(%q, %q) = %.4f, want 1", pair[0], pair[1], got)
		}
	}
	// Japanese voicing marks change the word; they are kept.
	if got := foldText("がぎ"); got != "がぎ" {
		t.Errorf("foldText(がぎ) = %q, want がぎ", got)
	}
}

func TestBuiltinEmpty(t *testing.T) {
	b := NewBuiltin()
	for _, s := range []string{"", "   ", "!!! ---"} {
		v := b.Vector(s)
		if l2(v) != 0 {
			t.Errorf("Vector(%q) has norm %v, want the zero vector", s, l2(v))
		}
	}
	vecs, err := b.Embed(context.Background(), []string{"a b", "c"})
	if err != nil || len(vecs) != 2 {
		t.Fatalf("Embed = %d vectors, %v", len(vecs), err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := b.Embed(ctx, []string{"x"}); err == nil {
		t.Error("Embed with a cancelled context succeeded")
	}
}

func TestWords(t *testing.T) {
	tests := []struct {
		give string
		want string
	}{
		{"Hello, world!", "hello |world"},
		{"state-of-the-art", "state of the art"},
		{"東京タワー", "東 京 タ ワ ー"},
		{"x2 = 42.5", "x2 |42 |5"},
	}
	for _, tt := range tests {
		var parts []string
		for _, w := range appendWords(nil, foldText(tt.give)) {
			p := w.text
			if w.afterBreak {
				p = "|" + p
			}
			parts = append(parts, p)
		}
		if got := strings.Join(parts, " "); got != tt.want {
			t.Errorf("words(%q) = %q, want %q", tt.give, got, tt.want)
		}
	}
}

func l2(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

// benchText makes a note of about n bytes of text whose word
// frequencies follow Zipf's law over a vocabulary of 5,000 made-up words,
// with a sentence end every dozen words or so.
func benchText(r *rand.Rand, n int) string {
	syllables := strings.Fields("ka lo mi ne ru sa ta vo pe li an or en is ul tra con ver sto ple")
	vocab := make([]string, 5000)
	vr := rand.New(rand.NewPCG(7, 7))
	for i := range vocab {
		var w strings.Builder
		for range 1 + vr.IntN(4) {
			w.WriteString(syllables[vr.IntN(len(syllables))])
		}
		vocab[i] = w.String()
	}
	z := rand.NewZipf(r, 1.1, 1, uint64(len(vocab)-1))
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(vocab[z.Uint64()])
		if r.IntN(12) == 0 {
			b.WriteString(". ")
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

func BenchmarkBuiltinEmbed(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	texts := make([]string, 256)
	for i := range texts {
		texts[i] = benchText(r, 2048)
	}
	e := NewBuiltin()
	b.SetBytes(2048)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		e.Vector(texts[i%len(texts)])
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "notes/s")
}

// BenchmarkBuiltinEmbedBatch embeds batches of 256 notes through Embed,
// which spreads them across cores.
func BenchmarkBuiltinEmbedBatch(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	texts := make([]string, 256)
	for i := range texts {
		texts[i] = benchText(r, 2048)
	}
	e := NewBuiltin()
	for b.Loop() {
		if _, err := e.Embed(context.Background(), texts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(texts))/b.Elapsed().Seconds(), "notes/s")
}

// foldText is s folded by a folder of its own.
func foldText(s string) string {
	var f folder
	return string(f.fold(s))
}
