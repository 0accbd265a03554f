package embed

import (
	"context"
	"math"
	"math/bits"
	"sync"
	"unsafe"
)

// BuiltinDim is the dimension of the builtin embedder's vectors.
const BuiltinDim = 512

// BuiltinModel is the builtin embedder's Model(). The version changes
// whenever the features, weights or hash change, so that stored vectors
// made by an older definition are recomputed rather than compared.
const BuiltinModel = "builtin-hash-v1-512"

// Feature groups and their weights in the final vector. Each group is
// L2-normalised on its own before mixing, so the weights (not the number
// of features, which for trigrams is about five times the number of words)
// set each group's share: whole words count most, trigrams make
// "planning" close to "plan" and survive typos, bigrams reward phrases.
const (
	groupWord = iota
	groupBigram
	groupTrigram
	numGroups
)

var groupWeight = [numGroups]float64{groupWord: 1.0, groupBigram: 0.5, groupTrigram: 0.7}

// joinedWeight scales the feature of two adjacent words written as one
// ("back up" → "backup"), counted with the words.
const joinedWeight = 0.5

// Builtin is the offline embedder: feature hashing of words, word bigrams
// (each also as one joined word, so "back up" meets "backup") and
// character trigrams into BuiltinDim signed buckets. It needs no
// download and no server, and it is lexical, not semantic: texts are close
// when they share words or parts of words, not when they mean the same
// thing in other words ("car" is not close to "automobile"). Use a real
// model (ollama, openai, model2vec) for semantic search.
//
// Weights. Each feature f counts (1 + ln tf(f)) × idf(f). The idf is a
// fixed prior, not statistics of the vault: stop words of English, French,
// German, Spanish, Italian, Portuguese and Dutch weigh 0.2, one-letter
// words 0.3, numbers 0.6, lone kana 0.5, other words 1; a bigram weighs
// the geometric mean of its two words (the joined word half that), a
// trigram the weight of its word.
// A vault-fitted idf was rejected: document vectors are stored in SQLite,
// and idf learned from the corpus changes with every edit, so either every
// stored vector goes stale (re-embedding the vault after each change) or
// query and document vectors are weighted differently and drift apart.
// Per-bucket document frequencies are no substitute either: with 512
// buckets almost every bucket occurs in almost every note. A fixed prior
// keeps the function pure: the same text gives the same vector on every
// machine and after every restart, query and document vectors are made the
// same way, and only a new BuiltinModel version invalidates stored
// vectors. Corpus idf still counts in hybrid search through the keyword
// side (FTS5 BM25).
//
// Text is folded before features are taken: Unicode compatibility forms
// (ligatures, full-width letters), lower case, and accents removed from
// Latin, Greek and Cyrillic letters (é→e, ß→ss, ø→o); Han and kana
// characters are words of their own, so their bigrams are character
// bigrams. Features are hashed with 64-bit FNV-1a and a murmur3
// finaliser: the low 9 bits pick the bucket, the top bit the sign, so
// colliding features cancel rather than pile up.
type Builtin struct{}

var _ Embedder = (*Builtin)(nil)

// NewBuiltin returns the builtin embedder. It holds no state.
func NewBuiltin() *Builtin { return &Builtin{} }

// Model returns BuiltinModel.
func (*Builtin) Model() string { return BuiltinModel }

// Dimension returns BuiltinDim.
func (*Builtin) Dimension() int { return BuiltinDim }

// Embed returns one vector per text, spread across cores for large
// batches. A text without any letter or digit gives the zero vector.
func (b *Builtin) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return embedLocal(ctx, texts, b.Vector)
}

// Vector embeds one text.
func (b *Builtin) Vector(text string) []float32 {
	return b.VectorTo(make([]float32, BuiltinDim), text)
}

// VectorTo embeds one text into dst, which must hold BuiltinDim floats
// (what it holds is overwritten), and returns it: for a caller that is
// done with each vector before it makes the next.
func (*Builtin) VectorTo(dst []float32, text string) []float32 {
	st := builtinPool.Get().(*builtinState)
	defer builtinPool.Put(st)
	return st.vector(dst, text)
}

// vector is VectorTo with st as its scratch space, left reset.
func (st *builtinState) vector(dst []float32, text string) []float32 {
	defer st.reset() // drop references to text before pooling

	// The folded text is read only during this call: st.reset drops
	// every string cut from it.
	folded := st.fold.fold(text)
	st.words = appendWords(st.words, unsafe.String(unsafe.SliceData(folded), len(folded)))
	st.countWords()
	for _, u := range st.uniq {
		st.add(groupWord, u.hw, u.weight, u.n)
		info := &st.cache.infos[u.info]
		for _, t := range st.cache.tris[info.tri0:info.tri1] {
			st.addMixed(groupTrigram, t.h, t.m, u.weight, u.n)
		}
	}
	for _, f := range st.feats {
		v := float64(f.w) // most features occur once: 1 + log(1) is 1
		switch {
		case f.n > 1 && f.n < uint32(len(tfScale)):
			v *= tfScale[f.n]
		case f.n > 1:
			v *= 1 + math.Log(float64(f.n))
		}
		if f.m>>63 != 0 {
			v = -v
		}
		b := f.m & (BuiltinDim - 1)
		st.acc[f.g][b] += v
		st.used[f.g][b/64] |= 1 << (b % 64)
	}
	return st.mix(dst[:BuiltinDim])
}

// tfScale holds 1 + ln(n), the weight of a feature that occurs n times,
// for the small n most features have: the same values, made once.
var tfScale = func() (t [256]float64) {
	for n := range t {
		t[n] = 1 + math.Log(float64(n))
	}
	return t
}()

// countWords counts each distinct word of st.words (st.uniq, in order of
// first occurrence) and adds the features of each pair of adjacent
// words: their bigram, and the two written as one word.
func (st *builtinState) countWords() {
	st.cache.startText()
	if st.stamp++; st.stamp == 0 { // wrapped: no word may look counted
		for i := range st.cache.infos {
			st.cache.infos[i].stamp = 0
		}
		st.stamp = 1
	}
	prev := int32(-1) // the previous word's index in st.uniq
	for i := range st.words {
		w := &st.words[i]
		c := st.cache.word(hashString(fnvOffset, 'w', w.text), w.text)
		info := &st.cache.infos[c]
		w.weight = info.weight
		j := info.uniq
		if info.stamp == st.stamp {
			st.uniq[j].n++
		} else {
			j = int32(len(st.uniq))
			info.stamp, info.uniq = st.stamp, j
			st.uniq = append(st.uniq, wordCount{word: *w, n: 1, hw: info.hw, hb: info.hb, info: c})
		}
		if i > 0 && !w.afterBreak {
			p := &st.uniq[prev]
			bw := float32(math.Sqrt(float64(p.weight * w.weight)))
			st.add(groupBigram, hashString(p.hb, 0, w.text), bw, 1)
			// The two words written together: "back up" meets "backup".
			st.add(groupWord, hashMore(p.hw, w.text), bw*joinedWeight, 1)
		}
		prev = j
	}
}

// mix writes into out the sum of the groups' bucket sums, each
// L2-normalised and weighted, and normalises it. Only the buckets a
// feature fell in are read, in increasing order: the buckets left out
// hold zero, which adds nothing to a sum, so the result is the same to
// the bit as a loop over every bucket.
func (st *builtinState) mix(out []float32) []float32 {
	clear(out)
	var all [BuiltinDim / 64]uint64
	for g := range st.acc {
		acc, used := &st.acc[g], &st.used[g]
		var sum float64
		for i := range eachBit(used) {
			sum += acc[i] * acc[i]
		}
		for k, u := range used {
			all[k] |= u
		}
		if sum == 0 {
			continue
		}
		scale := groupWeight[g] / math.Sqrt(sum)
		for i := range eachBit(used) {
			out[i] += float32(acc[i] * scale)
		}
	}
	// Normalize(out), over the buckets used.
	var sum float64
	for i := range eachBit(&all) {
		sum += float64(out[i]) * float64(out[i])
	}
	if sum == 0 {
		return out
	}
	inv := 1 / math.Sqrt(sum)
	for i := range eachBit(&all) {
		out[i] = float32(float64(out[i]) * inv)
	}
	return out
}

// eachBit yields the index of each bit set in used, in increasing order.
func eachBit(used *[BuiltinDim / 64]uint64) func(func(int) bool) {
	return func(yield func(int) bool) {
		for k, u := range used {
			for u != 0 {
				if !yield(k*64 + bits.TrailingZeros64(u)) {
					return
				}
				u &= u - 1
			}
		}
	}
}

// builtinState is the scratch space of one Vector call, pooled.
type builtinState struct {
	idx   hashTable
	feats []feature
	words []word
	uniq  []wordCount
	// cache keeps the words met in the texts before; stamp numbers the
	// texts (countWords).
	cache wordCache
	stamp uint32
	fold  folder
	// acc holds each group's bucket sums, used which buckets a feature
	// fell in; reset clears only those.
	acc  [numGroups][BuiltinDim]float64
	used [numGroups][BuiltinDim / 64]uint64
}

type wordCount struct {
	word
	n uint32
	// hw and hb are the word's hash as a word feature ('w') and as the
	// first word of a bigram ('b').
	hw, hb uint64
	info   int32 // the word in builtinState.cache
}

type feature struct {
	m uint64 // the feature's hash, mixed (mix64): bucket and sign
	n uint32
	w float32
	g uint8
}

var builtinPool = sync.Pool{New: func() any {
	st := &builtinState{}
	st.reset()
	return st
}}

func (st *builtinState) reset() {
	st.idx.reset(1024)
	for g := range st.used {
		for i := range eachBit(&st.used[g]) {
			st.acc[g][i] = 0
		}
		clear(st.used[g][:])
	}
	st.feats = st.feats[:0]
	st.words = st.words[:0]
	st.uniq = st.uniq[:0]
}

// add counts n occurrences of a feature. Features keep the order of
// their first occurrence, so the sums above are done in the same order
// every time and the vector is bit-for-bit reproducible.
func (st *builtinState) add(g uint8, h uint64, w float32, n uint32) {
	st.addMixed(g, h, mix64(h), w, n)
}

// addMixed is add for a feature whose mix64 is m.
func (st *builtinState) addMixed(g uint8, h, m uint64, w float32, n uint32) {
	slot := st.idx.find(h, m)
	if i := st.idx.vals[slot]; i > 0 {
		f := &st.feats[i-1]
		f.n += n
		f.w = max(f.w, w)
		return
	}
	st.feats = append(st.feats, feature{m: m, n: n, w: w, g: g})
	st.idx.set(slot, h, int32(len(st.feats)))
}

const (
	fnvOffset uint64 = 14695981039346656037
	fnvPrime  uint64 = 1099511628211
)

// hashString continues an FNV-1a hash with a tag byte and then s.
func hashString(h uint64, tag byte, s string) uint64 {
	return hashMore((h^uint64(tag))*fnvPrime, s)
}

// hashMore continues an FNV-1a hash with s.
func hashMore(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * fnvPrime
	}
	return h
}

// mix64 is murmur3's 64-bit finaliser: every input bit affects the bucket
// and the sign.
func mix64(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// hashTable maps 64-bit hashes to int32 values (feature hashes to 1 +
// their index in feats, word hashes to 1 + their index in a wordCache):
// open addressing with linear probing, faster than a Go map for this
// load.
type hashTable struct {
	keys []uint64
	vals []int32 // 0 = empty
	used int
}

// reset empties t, with room for at least n slots (a power of two).
func (t *hashTable) reset(n int) {
	if len(t.keys) < n {
		t.keys, t.vals = make([]uint64, n), make([]int32, n)
	}
	clear(t.vals)
	t.used = 0
}

// find returns the slot holding h, whose mix64 is m, or the empty slot
// where it belongs.
func (t *hashTable) find(h, m uint64) int {
	mask := len(t.keys) - 1
	i := int(m) & mask
	for t.vals[i] != 0 && t.keys[i] != h {
		i = (i + 1) & mask
	}
	return i
}

// set puts h and v in slot, and doubles the table when it is half full.
// Keys need not be distinct (a wordCache tells equal hashes apart).
func (t *hashTable) set(slot int, h uint64, v int32) {
	t.keys[slot], t.vals[slot] = h, v
	t.used++
	if t.used*2 <= len(t.keys) {
		return
	}
	keys, vals := t.keys, t.vals
	t.keys, t.vals = make([]uint64, 2*len(keys)), make([]int32, 2*len(vals))
	mask := len(t.keys) - 1
	for k, v := range vals {
		if v != 0 {
			i := int(mix64(keys[k])) & mask
			for t.vals[i] != 0 {
				i = (i + 1) & mask
			}
			t.keys[i], t.vals[i] = keys[k], v
		}
	}
}
