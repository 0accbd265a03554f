package embed

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// closeTo reports whether two vectors agree to 1e-6.
func closeTo(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(float64(a[i]-b[i])) > 1e-6 {
			return false
		}
	}
	return true
}

func TestModel2VecVectors(t *testing.T) {
	third := float32(1.0 / 3)
	r2 := float32(1 / math.Sqrt2)
	tests := []struct {
		desc, give string
		want       []float32 // computed by hand from synthRows
	}{
		{"two words", "Hello world", []float32{r2, r2, 0, 0}},
		{"punctuation tokens count", "Hello, World!", []float32{.5, .5, .5, .5}},
		{"subwords", "unbelievable", []float32{-third, 2 * third, 2 * third, 0}}, // (-1,2,2,0)/3
		{"repeats weigh", "hello hello world", []float32{2 / float32(math.Sqrt(5)), 1 / float32(math.Sqrt(5)), 0, 0}},
		{"unknown and special tokens skipped", "Café xyz [CLS] [SEP]", []float32{.5, .5, .5, .5}},
		{"nothing known: zero vector", "xyz qqq", []float32{0, 0, 0, 0}},
		{"play + ing", "playing", []float32{.5, .5, .5, .5}},
	}
	for _, dtype := range []string{"F32", "F16"} {
		m, err := LoadModel2Vec(synthModel(t, dtype))
		if err != nil {
			t.Fatal(err)
		}
		if m.Dimension() != 4 || m.Model() != "model2vec:potion-synth" {
			t.Errorf("Dimension = %d, Model = %q", m.Dimension(), m.Model())
		}
		for _, tt := range tests {
			t.Run(dtype+"/"+tt.desc, func(t *testing.T) {
				if got := m.Vector(tt.give); !closeTo(got, tt.want) {
					t.Errorf("Vector(%q) = %v, want %v", tt.give, got, tt.want)
				}
			})
		}
		var in []string
		for _, tt := range tests {
			in = append(in, tt.give)
		}
		in = append(in, in...)
		vecs, err := m.Embed(context.Background(), append(in, in...))
		if err != nil || len(vecs) != 4*len(tests) {
			t.Fatalf("Embed: %d vectors, %v", len(vecs), err)
		}
		for i, v := range vecs {
			if !closeTo(v, tests[i%len(tests)].want) {
				t.Errorf("Embed[%d] = %v, want %v", i, v, tests[i%len(tests)].want)
			}
		}
	}
}

func TestModel2VecWeightsAndMapping(t *testing.T) {
	// Vocabulary quantization: 14 tokens share 3 rows through "mapping";
	// "weights" scales each token.
	rows := [][]float32{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}
	mapping := make([]byte, 0, 4*len(synthVocab))
	weights := make([][]float32, 1)
	for i := range synthVocab {
		mapping = binary.LittleEndian.AppendUint32(mapping, uint32(i%3))
		weights[0] = append(weights[0], 1)
	}
	weights[0][4] = 3 // hello → row 1, weight 3
	// world (5) → row 2, weight 1
	dir := writeModel(t, wordPieceJSON(),
		testTensor{"embeddings", "F32", []int{3, 4}, f32Bytes(rows)},
		testTensor{"mapping", "I32", []int{len(synthVocab)}, mapping},
		testTensor{"weights", "F64", []int{len(synthVocab)}, f64Bytes(weights[0])},
	)
	m, err := LoadModel2Vec(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := Normalize([]float32{0, 3, 1, 0})
	if got := m.Vector("hello world"); !closeTo(got, want) {
		t.Errorf("Vector = %v, want %v", got, want)
	}
}

func f64Bytes(v []float32) []byte {
	var b []byte
	for _, x := range v {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(float64(x)))
	}
	return b
}

func TestModel2VecUnigram(t *testing.T) {
	// ids: 0 [UNK], 1 ▁hello, 2 ▁world, 3 ▁hello▁world, 4 ▁, ...
	rows := make([][]float32, 13)
	for i := range rows {
		rows[i] = []float32{float32(i), 1}
	}
	m, err := LoadModel2Vec(writeModel(t, unigramJSON(false), testTensor{"embeddings", "F32", []int{13, 2}, f32Bytes(rows)}))
	if err != nil {
		t.Fatal(err)
	}
	// "hello zz" → ▁hello (1), ▁ (4), [UNK] dropped: (1+4, 2).
	if got, want := m.Vector("hello zz"), Normalize([]float32{5, 2}); !closeTo(got, want) {
		t.Errorf("Vector = %v, want %v", got, want)
	}
}

func TestModel2VecTruncation(t *testing.T) {
	m, err := LoadModel2Vec(synthModel(t, "F32"))
	if err != nil {
		t.Fatal(err)
	}
	// 512 "hello" then many "world": only the first 512 tokens count.
	text := strings.Repeat("hello ", 512) + strings.Repeat("world ", 100)
	if got := m.Vector(text); !closeTo(got, []float32{1, 0, 0, 0}) {
		t.Errorf("Vector = %v, want only hello", got)
	}
}

func TestModel2VecLoadErrors(t *testing.T) {
	good := f32Bytes(synthRows)
	tests := []struct {
		desc    string
		dir     func(t *testing.T) string
		wantErr error
	}{
		{"missing folder", func(t *testing.T) string { return filepath.Join(t.TempDir(), "nope") }, ErrModelNotFound},
		{"missing tokenizer", func(t *testing.T) string {
			d := synthModel(t, "F32")
			os.Remove(filepath.Join(d, "tokenizer.json"))
			return d
		}, ErrModelNotFound},
		{"no embeddings tensor", func(t *testing.T) string {
			return writeModel(t, wordPieceJSON(), testTensor{"other", "F32", []int{14, 4}, good})
		}, ErrFormat},
		{"integer embeddings", func(t *testing.T) string {
			return writeModel(t, wordPieceJSON(), testTensor{"embeddings", "I32", []int{14, 4}, good})
		}, ErrFormat},
		{"1-D embeddings", func(t *testing.T) string {
			return writeModel(t, wordPieceJSON(), testTensor{"embeddings", "F32", []int{56}, good})
		}, ErrFormat},
		{"fewer rows than tokens", func(t *testing.T) string {
			return writeModel(t, wordPieceJSON(), testTensor{"embeddings", "F32", []int{7, 8}, good})
		}, ErrFormat},
		{"truncated weights file", func(t *testing.T) string {
			d := synthModel(t, "F32")
			p := filepath.Join(d, "model.safetensors")
			b, _ := os.ReadFile(p)
			os.WriteFile(p, b[:len(b)-10], 0o644)
			return d
		}, ErrFormat},
		{"mapping out of range", func(t *testing.T) string {
			return writeModel(t, wordPieceJSON(),
				testTensor{"embeddings", "F32", []int{14, 4}, good},
				testTensor{"mapping", "I64", []int{1}, binary.LittleEndian.AppendUint64(nil, 99)})
		}, ErrFormat},
		{"NaN in embeddings", func(t *testing.T) string {
			bad := f32Bytes(synthRows)
			binary.LittleEndian.PutUint32(bad[4:], math.Float32bits(float32(math.NaN())))
			return writeModel(t, wordPieceJSON(), testTensor{"embeddings", "F32", []int{14, 4}, bad})
		}, ErrFormat},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if _, err := LoadModel2Vec(tt.dir(t)); !errors.Is(err, tt.wantErr) {
				t.Errorf("LoadModel2Vec error = %v, want %v", err, tt.wantErr)
			}
		})
	}
}

func TestNewModel2Vec(t *testing.T) {
	dir := synthModel(t, "F32")
	e, err := New("model2vec:"+dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if e.Dimension() != 4 {
		t.Errorf("Dimension = %d", e.Dimension())
	}

	// A Hugging Face name is looked up in the cache.
	cache := t.TempDir()
	pulled := filepath.Join(cache, "minishlab", "potion-synth")
	os.MkdirAll(filepath.Dir(pulled), 0o755)
	if err := os.Rename(dir, pulled); err != nil {
		t.Fatal(err)
	}
	if _, err := New("model2vec:minishlab/potion-synth", Options{CacheDir: cache}); err != nil {
		t.Errorf("New by name: %v", err)
	}
	_, err = New("model2vec:minishlab/potion-base-8M", Options{CacheDir: cache})
	if !errors.Is(err, ErrModelNotFound) || !strings.Contains(err.Error(), "vaultgraph model pull minishlab/potion-base-8M") {
		t.Errorf("New of a model not pulled: %v", err)
	}
	if _, err := New("model2vec:../../etc", Options{CacheDir: cache}); !errors.Is(err, ErrModelNotFound) {
		t.Errorf("New of a bad name: %v", err)
	}
}

func TestNewSpecs(t *testing.T) {
	e, err := New("", Options{})
	if err != nil || e.Model() != BuiltinModel {
		t.Errorf(`New("") = %v, %v`, e, err)
	}
	if e, err := New(" Builtin ", Options{}); err != nil || e.Model() != BuiltinModel {
		t.Errorf(`New("Builtin") = %v, %v`, e, err)
	}
	if e, err := New("none", Options{}); e != nil || err != nil {
		t.Errorf(`New("none") = %v, %v, want nil, nil`, e, err)
	}
	for _, bad := range []string{"cohere:x", "builtin:v2", "gpt"} {
		if _, err := New(bad, Options{}); !errors.Is(err, ErrUnknownProvider) {
			t.Errorf("New(%q) error = %v, want ErrUnknownProvider", bad, err)
		}
	}
}

// hubServer serves model files under /{name}/resolve/main/{file}.
func hubServer(t *testing.T, files map[string][]byte) (*httptest.Server, *atomic.Int32) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		b, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	t.Setenv(EnvHubEndpoint, srv.URL)
	return srv, &hits
}

func modelFiles(t *testing.T, name string) map[string][]byte {
	dir := synthModel(t, "F16")
	files := map[string][]byte{}
	for _, f := range []string{"model.safetensors", "tokenizer.json", "config.json"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		files["/"+name+"/resolve/main/"+f] = b
	}
	return files
}

func TestPull(t *testing.T) {
	const name = "minishlab/potion-synth"
	files := modelFiles(t, name)
	srv, _ := hubServer(t, files)
	cache := t.TempDir()
	var last, total int64
	dir, err := Pull(context.Background(), name, cache, srv.Client(), func(done, tot int64) { last, total = done, tot })
	if err != nil {
		t.Fatal(err)
	}
	if dir != filepath.Join(cache, "minishlab", "potion-synth") {
		t.Errorf("Pull = %s", dir)
	}
	var size int64
	for _, b := range files {
		size += int64(len(b))
	}
	if last != size || total != size {
		t.Errorf("progress ended at %d of %d, want %d", last, total, size)
	}
	m, err := LoadModel2Vec(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Vector("hello world"); !closeTo(got, Normalize([]float32{1, 1, 0, 0})) {
		t.Errorf("pulled model: Vector = %v", got)
	}

	// Pulling again replaces the copy and leaves no temporary folders.
	if _, err := Pull(context.Background(), name, cache, srv.Client(), nil); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Join(cache, "minishlab"))
	if len(entries) != 1 || entries[0].Name() != "potion-synth" {
		t.Errorf("cache holds %v, want only potion-synth", entries)
	}
}

func TestPullErrors(t *testing.T) {
	const name = "minishlab/potion-synth"
	cache := t.TempDir()

	// config.json may be missing; the tokenizer may not.
	files := modelFiles(t, name)
	delete(files, "/"+name+"/resolve/main/config.json")
	srv, _ := hubServer(t, files)
	if _, err := Pull(context.Background(), name, cache, srv.Client(), nil); err != nil {
		t.Errorf("Pull without config.json: %v", err)
	}
	os.RemoveAll(filepath.Join(cache, "minishlab"))

	delete(files, "/"+name+"/resolve/main/tokenizer.json")
	if _, err := Pull(context.Background(), name, cache, srv.Client(), nil); !errors.Is(err, ErrModelNotFound) {
		t.Errorf("Pull without tokenizer: %v, want ErrModelNotFound", err)
	}

	// A download that is not a model is refused and nothing is installed.
	files = modelFiles(t, name)
	files["/"+name+"/resolve/main/model.safetensors"] = []byte("<html>rate limited</html>")
	srv, _ = hubServer(t, files)
	if _, err := Pull(context.Background(), name, cache, srv.Client(), nil); !errors.Is(err, ErrFormat) {
		t.Errorf("Pull of a broken model: %v, want ErrFormat", err)
	}
	if entries, _ := os.ReadDir(filepath.Join(cache, "minishlab")); len(entries) != 0 {
		t.Errorf("cache holds %v after failed pulls", entries)
	}

	// Names that would leave the cache are refused before any request.
	_, hits := hubServer(t, files)
	for _, bad := range []string{"../x", "a/../../b", "/etc/passwd", "noslash", "a/b/c"} {
		if _, err := Pull(context.Background(), bad, cache, nil, nil); err == nil {
			t.Errorf("Pull(%q) succeeded", bad)
		}
	}
	if hits.Load() != 0 {
		t.Errorf("%d requests for bad names", hits.Load())
	}

	// Cancelled.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Pull(ctx, name, cache, nil, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Pull with a cancelled context: %v", err)
	}
}
