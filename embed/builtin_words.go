package embed

import (
	"strings"
	"unicode/utf8"
	"unsafe"
)

// maxCachedWords is how many distinct words a wordCache keeps before it
// starts again empty. Words repeat (Zipf): a few thousand make most of
// any text.
const maxCachedWords = 8192

// wordCache keeps, across the texts one builtinState embeds, what a
// word's features cost to make and never change: its hashes as a word
// and as the first word of a bigram, its weight and its trigrams' hashes.
// It is exact (each entry is checked against the word itself) and
// bounded (maxCachedWords). A cold index embeds every chunk of the
// vault, and most of a chunk's words were met in the chunks before.
type wordCache struct {
	hashTable // a word's hash hw to 1 + its index in infos
	infos     []wordInfo
	tris      []trigram // the trigrams of every word, each word's a range
}

// wordInfo is one word of a wordCache.
type wordInfo struct {
	text       string // a copy: the texts embedded are not kept
	hw, hb     uint64 // hashes as a word feature ('w') and as a bigram's first word ('b')
	weight     float32
	tri0, tri1 int32 // its trigrams: tris[tri0:tri1]
	// stamp is the text (builtinState.stamp) in which the word was last
	// counted, and uniq its index in that text's builtinState.uniq.
	stamp uint32
	uniq  int32
}

// trigram is a trigram feature's hash and its mix64.
type trigram struct{ h, m uint64 }

// startText empties c when it holds maxCachedWords words or more, so
// that it stays bounded; it is called before a text, never during one
// (the text's words point into it).
func (c *wordCache) startText() {
	if c.keys != nil && len(c.infos) < maxCachedWords {
		return
	}
	c.reset(2 * maxCachedWords)
	clear(c.infos) // drop the copies of the words
	c.infos, c.tris = c.infos[:0], c.tris[:0]
}

// word returns the index in c.infos of the folded word text, whose word
// hash is hw, adding it when it is new.
func (c *wordCache) word(hw uint64, text string) int32 {
	mask := len(c.keys) - 1
	i := int(mix64(hw)) & mask
	for ; c.vals[i] != 0; i = (i + 1) & mask {
		if v := c.vals[i]; c.keys[i] == hw && c.infos[v-1].text == text {
			return v - 1
		}
	}
	j := int32(len(c.infos))
	t0 := int32(len(c.tris))
	c.tris = appendTrigrams(c.tris, text)
	c.infos = append(c.infos, wordInfo{text: strings.Clone(text), hw: hw, hb: hashString(fnvOffset, 'b', text),
		weight: wordWeight(text), tri0: t0, tri1: int32(len(c.tris))})
	c.set(i, hw, j+1)
	return j
}

// appendTrigrams appends the character trigrams of a word framed by
// boundary markers: "plan" gives ␂pl, pla, lan, an␃.
func appendTrigrams(dst []trigram, w string) []trigram {
	var offs [64]int
	at := offs[:0]
	buf := make([]byte, 0, 64)
	buf = append(append(append(buf, 0x02), w...), 0x03)
	for i := 0; i < len(buf); {
		at = append(at, i)
		if buf[i] < utf8.RuneSelf {
			i++
			continue
		}
		_, n := utf8.DecodeRune(buf[i:])
		i += n
	}
	at = append(at, len(buf))
	for i := 0; i+3 < len(at); i++ {
		h := hashString(fnvOffset, 't', unsafe.String(&buf[at[i]], at[i+3]-at[i]))
		dst = append(dst, trigram{h: h, m: mix64(h)})
	}
	return dst
}
