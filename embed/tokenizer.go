package embed

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"unicode/utf8"
)

// Tokenizer is the part of a Hugging Face tokenizer.json that a static
// embedding model needs: the normalizer, the pre-tokenizer and the model
// (WordPiece, Unigram or WordLevel), plus the added tokens. It encodes
// like the tokenizers library with add_special_tokens=false; no
// post-processor, truncation or padding. Byte-level BPE models are not
// supported (ErrFormat).
//
// Supported normalizers: BertNormalizer, Lowercase, NFC, NFD, NFKC, NFKD,
// StripAccents, Strip, Replace, Prepend, Sequence, and Precompiled (the
// SentencePiece character map, approximated by NFKC). Pre-tokenizers:
// BertPreTokenizer, Whitespace, WhitespaceSplit, Metaspace, Punctuation,
// Digits, Sequence.
type Tokenizer struct {
	norm    normalizer
	pre     preTokenizer
	model   tokenModel
	vocab   map[string]int
	tokens  []string // by id; "" where no token has the id
	unk     int      // id of the unknown token, or -1
	added   []addedToken
	special map[int]bool // added tokens marked special
}

type addedToken struct {
	content string
	id      int
}

// tokenModel splits one pre-tokenized word into token ids.
type tokenModel interface {
	encode(dst []int, word string) []int
}

// LoadTokenizer reads a tokenizer.json file.
func LoadTokenizer(path string) (*Tokenizer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	t, err := ParseTokenizer(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// ParseTokenizer parses the JSON of a tokenizer.json file.
func ParseTokenizer(data []byte) (*Tokenizer, error) {
	var j struct {
		AddedTokens []struct {
			ID      int    `json:"id"`
			Content string `json:"content"`
			Special bool   `json:"special"`
		} `json:"added_tokens"`
		Normalizer   json.RawMessage `json:"normalizer"`
		PreTokenizer json.RawMessage `json:"pre_tokenizer"`
		Model        json.RawMessage `json:"model"`
	}
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, fmt.Errorf("%w: tokenizer.json: %v", ErrFormat, err)
	}
	t := &Tokenizer{unk: -1, special: make(map[int]bool)}
	var err error
	if t.norm, err = parseNormalizer(j.Normalizer); err != nil {
		return nil, err
	}
	if t.pre, err = parsePreTokenizer(j.PreTokenizer); err != nil {
		return nil, err
	}
	if err := t.parseModel(j.Model); err != nil {
		return nil, err
	}
	for _, a := range j.AddedTokens {
		if a.Content == "" || a.ID < 0 {
			continue
		}
		t.added = append(t.added, addedToken{content: a.Content, id: a.ID})
		if a.Special {
			t.special[a.ID] = true
		}
		if _, ok := t.vocab[a.Content]; !ok {
			t.vocab[a.Content] = a.ID
		}
	}
	t.tokens = make([]string, 0, len(t.vocab))
	for tok, id := range t.vocab {
		for len(t.tokens) <= id {
			t.tokens = append(t.tokens, "")
		}
		t.tokens[id] = tok
	}
	return t, nil
}

// VocabSize is one more than the largest token id.
func (t *Tokenizer) VocabSize() int { return len(t.tokens) }

// Encode returns the token ids of text, unknown tokens included.
func (t *Tokenizer) Encode(text string) []int {
	var ids []int
	first := true
	t.splitAdded(text, func(seg string, added int) {
		if added >= 0 {
			ids = append(ids, added)
		} else {
			for _, w := range t.pre(t.norm(seg), first) {
				if w != "" {
					ids = t.model.encode(ids, w)
				}
			}
		}
		first = false
	})
	return ids
}

// splitAdded cuts text at the added tokens (matched in the raw text,
// leftmost and then longest first) and calls fn for each piece: a plain
// segment with added = -1, or an added token with its id.
func (t *Tokenizer) splitAdded(text string, fn func(seg string, added int)) {
	for text != "" {
		at, best := -1, -1
		for i, a := range t.added {
			j := strings.Index(text, a.content)
			if j < 0 {
				continue
			}
			if at < 0 || j < at || j == at && len(a.content) > len(t.added[best].content) {
				at, best = j, i
			}
		}
		if at < 0 {
			fn(text, -1)
			return
		}
		if at > 0 {
			fn(text[:at], -1)
		}
		fn("", t.added[best].id)
		text = text[at+len(t.added[best].content):]
	}
}

func (t *Tokenizer) parseModel(raw json.RawMessage) error {
	var m struct {
		Type                    string          `json:"type"`
		UnkToken                *string         `json:"unk_token"`
		UnkID                   *int            `json:"unk_id"`
		ContinuingSubwordPrefix *string         `json:"continuing_subword_prefix"`
		MaxInputCharsPerWord    int             `json:"max_input_chars_per_word"`
		Vocab                   json.RawMessage `json:"vocab"`
		Merges                  json.RawMessage `json:"merges"`
	}
	if err := json.Unmarshal(raw, &m); err != nil || len(raw) == 0 {
		return fmt.Errorf("%w: tokenizer model: %v", ErrFormat, err)
	}
	if m.Type == "" { // old files leave the type out
		switch {
		case len(m.Merges) > 0:
			m.Type = "BPE"
		case len(m.Vocab) > 0 && m.Vocab[0] == '[':
			m.Type = "Unigram"
		case m.ContinuingSubwordPrefix != nil:
			m.Type = "WordPiece"
		default:
			m.Type = "WordLevel"
		}
	}
	switch m.Type {
	case "WordPiece", "WordLevel":
		if err := json.Unmarshal(m.Vocab, &t.vocab); err != nil {
			return fmt.Errorf("%w: %s vocab: %v", ErrFormat, m.Type, err)
		}
		for tok, id := range t.vocab {
			if id < 0 || id > 1<<24 {
				return fmt.Errorf("%w: token %q has id %d", ErrFormat, tok, id)
			}
		}
		if m.UnkToken != nil {
			if id, ok := t.vocab[*m.UnkToken]; ok {
				t.unk = id
			}
		}
		if m.Type == "WordLevel" {
			t.model = &wordLevel{vocab: t.vocab, unk: t.unk}
			return nil
		}
		wp := &wordPiece{vocab: t.vocab, unk: t.unk, prefix: "##", maxChars: m.MaxInputCharsPerWord}
		if m.ContinuingSubwordPrefix != nil {
			wp.prefix = *m.ContinuingSubwordPrefix
		}
		if wp.maxChars <= 0 {
			wp.maxChars = 100
		}
		t.model = wp
		return nil
	case "Unigram":
		var pairs []unigramPiece
		if err := json.Unmarshal(m.Vocab, &pairs); err != nil {
			return fmt.Errorf("%w: Unigram vocab: %v", ErrFormat, err)
		}
		u := newUnigram(pairs, m.UnkID)
		t.vocab, t.unk, t.model = u.vocab, u.unk, u
		return nil
	}
	return fmt.Errorf("%w: tokenizer model %q is not supported (WordPiece, Unigram and WordLevel are)", ErrFormat, m.Type)
}

// unigramPiece is one ["token", score] pair of a Unigram vocab.
type unigramPiece struct {
	token string
	score float64
}

func (p *unigramPiece) UnmarshalJSON(b []byte) error {
	var pair [2]json.RawMessage
	if err := json.Unmarshal(b, &pair); err != nil {
		return err
	}
	if err := json.Unmarshal(pair[0], &p.token); err != nil {
		return err
	}
	return json.Unmarshal(pair[1], &p.score)
}

// wordPiece is BERT's greedy longest-match-first tokenizer: a word is
// split into the longest vocabulary prefix, then the longest "##"
// continuations; a word that cannot be split entirely is one unknown token.
type wordPiece struct {
	vocab    map[string]int
	unk      int
	prefix   string
	maxChars int
}

func (m *wordPiece) encode(dst []int, w string) []int {
	if utf8.RuneCountInString(w) > m.maxChars {
		return append(dst, m.unk)
	}
	n := len(dst)
	var buf []byte
	for start := 0; start < len(w); {
		end, id := len(w), -1
		for end > start {
			var ok bool
			if start == 0 {
				id, ok = m.vocab[w[:end]]
			} else {
				buf = append(append(buf[:0], m.prefix...), w[start:end]...)
				id, ok = m.vocab[string(buf)]
			}
			if ok {
				break
			}
			id = -1
			_, size := utf8.DecodeLastRuneInString(w[start:end])
			end -= size
		}
		if id < 0 {
			return append(dst[:n], m.unk)
		}
		dst = append(dst, id)
		start = end
	}
	return dst
}

// wordLevel maps whole words to ids.
type wordLevel struct {
	vocab map[string]int
	unk   int
}

func (m *wordLevel) encode(dst []int, w string) []int {
	if id, ok := m.vocab[w]; ok {
		return append(dst, id)
	}
	return append(dst, m.unk)
}

// unigram is SentencePiece's Unigram model: the segmentation of a word
// with the highest total log-probability (Viterbi). Characters no token
// covers become the unknown token, consecutive unknowns fused into one.
//
// Candidate tokens at each position are found by walking the vocabulary
// sorted byte-wise: extending the match by one byte narrows the range of
// tokens sharing the prefix, and the walk stops as soon as it is empty
// (a trie without the memory of one).
type unigram struct {
	vocab    map[string]int
	scores   []float64
	unk      int
	unkScore float64
	sorted   []string // distinct tokens, byte-wise order
	ids      []int32  // ids of sorted
}

func newUnigram(pairs []unigramPiece, unk *int) *unigram {
	u := &unigram{vocab: make(map[string]int, len(pairs)), scores: make([]float64, len(pairs)), unk: -1}
	minScore := math.Inf(1)
	for id, p := range pairs {
		if _, dup := u.vocab[p.token]; !dup && p.token != "" {
			u.vocab[p.token] = id
			u.sorted = append(u.sorted, p.token)
		}
		u.scores[id] = p.score
		minScore = min(minScore, p.score)
	}
	if math.IsInf(minScore, 1) {
		minScore = 0
	}
	u.unkScore = minScore - 10 // the tokenizers library's kUnkPenalty
	if unk != nil && *unk >= 0 && *unk < len(pairs) {
		u.unk = *unk
	}
	sort.Strings(u.sorted)
	u.ids = make([]int32, len(u.sorted))
	for i, tok := range u.sorted {
		u.ids[i] = int32(u.vocab[tok])
	}
	return u
}

func (m *unigram) encode(dst []int, w string) []int {
	type node struct {
		score float64
		start int // byte where the last token starts, -1 if unreachable
		id    int
	}
	best := make([]node, len(w)+1)
	for i := 1; i <= len(w); i++ {
		best[i].start = -1
	}
	offer := func(start, end, id int, score float64) {
		if best[end].start < 0 || score > best[end].score {
			best[end] = node{score: score, start: start, id: id}
		}
	}
	for start := 0; start < len(w); {
		_, size := utf8.DecodeRuneInString(w[start:])
		base := best[start].score
		single := false
		lo, hi := 0, len(m.sorted)
		for end := start + 1; end <= len(w) && lo < hi; end++ {
			depth, c := end-start-1, w[end-1]
			// Tokens in [lo, hi) share w[start:end-1]; the one equal to
			// it, if any, comes first. Keep those whose next byte is c.
			lo += sort.Search(hi-lo, func(i int) bool {
				t := m.sorted[lo+i]
				return len(t) > depth && t[depth] >= c
			})
			hi = lo + sort.Search(hi-lo, func(i int) bool {
				t := m.sorted[lo+i]
				return len(t) > depth && t[depth] > c
			})
			if lo < hi && len(m.sorted[lo]) == end-start {
				id := int(m.ids[lo])
				if end == start+size {
					single = true
				}
				offer(start, end, id, base+m.scores[id])
			}
		}
		if !single {
			offer(start, start+size, m.unk, base+m.unkScore)
		}
		start += size
	}
	var rev []int
	for end := len(w); end > 0; {
		nd := best[end]
		if nd.start < 0 { // cannot happen: every character has a path
			break
		}
		if !(nd.id == m.unk && len(rev) > 0 && rev[len(rev)-1] == m.unk) {
			rev = append(rev, nd.id)
		}
		end = nd.start
	}
	for i := len(rev) - 1; i >= 0; i-- {
		dst = append(dst, rev[i])
	}
	return dst
}
