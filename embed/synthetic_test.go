package embed

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// A tiny model2vec model written in the real formats: a WordPiece
// tokenizer.json like BERT's and a 14 × 4 embedding matrix whose rows are
// easy to add up by hand.
var synthVocab = []string{
	"[PAD]", "[UNK]", "[CLS]", "[SEP]", "hello", "world", ",", "!",
	"play", "##ing", "un", "##believ", "##able", "cafe",
}

var synthRows = [][]float32{
	{0, 0, 0, 0},     // [PAD]
	{9, 9, 9, 9},     // [UNK]: never counted
	{7, 7, 7, 7},     // [CLS]: special, never counted
	{5, 5, 5, 5},     // [SEP]
	{1, 0, 0, 0},     // hello
	{0, 1, 0, 0},     // world
	{0, 0, 1, 0},     // ,
	{0, 0, 0, 1},     // !
	{1, 1, 0, 0},     // play
	{0, 0, 1, 1},     // ##ing
	{-1, 0, 0, 0},    // un
	{0, 2, 0, 0},     // ##believ
	{0, 0, 2, 0},     // ##able
	{.5, .5, .5, .5}, // cafe
}

// wordPieceJSON is a BERT-style tokenizer.json over synthVocab.
func wordPieceJSON() string {
	vocab := map[string]int{}
	for i, t := range synthVocab {
		vocab[t] = i
	}
	v, _ := json.Marshal(vocab)
	var added []string
	for i, t := range synthVocab[:4] {
		added = append(added, fmt.Sprintf(
			`{"id":%d,"content":%q,"single_word":false,"lstrip":false,"rstrip":false,"normalized":false,"special":true}`, i, t))
	}
	return `{"version":"1.0","truncation":null,"padding":null,
	"added_tokens":[` + strings.Join(added, ",") + `],
	"normalizer":{"type":"BertNormalizer","clean_text":true,"handle_chinese_chars":true,"strip_accents":null,"lowercase":true},
	"pre_tokenizer":{"type":"BertPreTokenizer"},
	"post_processor":{"type":"TemplateProcessing","single":[{"SpecialToken":{"id":"[CLS]","type_id":0}},{"Sequence":{"id":"A","type_id":0}},{"SpecialToken":{"id":"[SEP]","type_id":0}}]},
	"decoder":{"type":"WordPiece","prefix":"##","cleanup":true},
	"model":{"type":"WordPiece","unk_token":"[UNK]","continuing_subword_prefix":"##","max_input_chars_per_word":100,"vocab":` + string(v) + `}}`
}

// unigramJSON is a tokenizer.json like the ones model2vec 0.4+ writes:
// BERT normalizer plus spacing, Metaspace without splitting, Unigram.
func unigramJSON(split bool) string {
	return `{"version":"1.0","added_tokens":[{"id":0,"content":"[UNK]","special":true,"normalized":false}],
	"normalizer":{"type":"Sequence","normalizers":[
		{"type":"BertNormalizer","clean_text":true,"handle_chinese_chars":true,"strip_accents":null,"lowercase":true},
		{"type":"Replace","pattern":{"String":"!"},"content":" ! "},
		{"type":"Replace","pattern":{"Regex":"\\s+"},"content":" "},
		{"type":"Strip","strip_left":false,"strip_right":true}]},
	"pre_tokenizer":{"type":"Metaspace","replacement":"▁","prepend_scheme":"always","split":` + fmt.Sprint(split) + `},
	"model":{"type":"Unigram","unk_id":0,"byte_fallback":false,"vocab":[
		["[UNK]",0],["▁hello",-1],["▁world",-1.5],["▁hello▁world",-2],["▁",-3],
		["h",-4],["e",-4],["l",-4],["o",-4],["▁new",-2],["▁york",-2],["▁new▁york",-2.5],["▁!",-2]]}}`
}

type testTensor struct {
	name, dtype string
	shape       []int
	data        []byte
}

func f32Bytes(rows [][]float32) []byte {
	var b []byte
	for _, r := range rows {
		for _, x := range r {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
	}
	return b
}

// f16Bytes encodes values exactly representable in half precision.
func f16Bytes(t testing.TB, rows [][]float32) []byte {
	var b []byte
	for _, r := range rows {
		for _, x := range r {
			h := float32ToHalf(x)
			if halfToFloat32(h) != x {
				t.Fatalf("%v is not exact in F16", x)
			}
			b = binary.LittleEndian.AppendUint16(b, h)
		}
	}
	return b
}

// float32ToHalf truncates to half precision (normal numbers and zero).
func float32ToHalf(f float32) uint16 {
	bits := math.Float32bits(f)
	sign := uint16(bits>>16) & 0x8000
	if bits&0x7fffffff == 0 {
		return sign
	}
	exp := int(bits>>23&0xff) - 127 + 15
	return sign | uint16(exp)<<10 | uint16(bits>>13&0x3ff)
}

// safetensorsFile lays tensors out as the reference writer does: header
// padded with spaces to a multiple of 8, tensors in name order.
func safetensorsFile(tensors []testTensor) []byte {
	sort.Slice(tensors, func(i, j int) bool { return tensors[i].name < tensors[j].name })
	hdr := map[string]any{"__metadata__": map[string]string{"format": "pt"}}
	var data []byte
	for _, t := range tensors {
		hdr[t.name] = map[string]any{"dtype": t.dtype, "shape": t.shape, "data_offsets": []int{len(data), len(data) + len(t.data)}}
		data = append(data, t.data...)
	}
	h, _ := json.Marshal(hdr)
	for len(h)%8 != 0 {
		h = append(h, ' ')
	}
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(h)))
	return append(append(out, h...), data...)
}

// writeModel writes a model folder and returns its path.
func writeModel(t testing.TB, tokenizer string, tensors ...testTensor) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "potion-synth")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"tokenizer.json":    []byte(tokenizer),
		"model.safetensors": safetensorsFile(tensors),
		"config.json":       []byte(`{"model_type":"model2vec","normalize":true,"hidden_dim":4}`),
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func synthModel(t testing.TB, dtype string) string {
	t.Helper()
	data := f32Bytes(synthRows)
	if dtype == "F16" {
		data = f16Bytes(t, synthRows)
	}
	return writeModel(t, wordPieceJSON(), testTensor{"embeddings", dtype, []int{len(synthRows), 4}, data})
}
