package store

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"sync"
)

// A note's snippet for a search is made from its temp.snip row (which
// fillSnip makes from the note's row and body) and the search's terms,
// and from nothing else: FTS5's snippet() looks at that row alone. So a
// snippet made once is kept, under the note's rowid and the terms, with
// a digest of all it was made from, and a later search with the same
// terms takes it when the note's row and body give the same digest.

// SnipMemoSize bounds the snippets kept (snipMemo).
const SnipMemoSize = 4096

// snipSource is what fillSnip made a temp.snip row of: the note's ID and
// a digest of its row's fields and body.
type snipSource struct {
	id     string
	digest [sha256.Size]byte
}

// snipDigest is the digest of the fields a note's temp.snip row and its
// snippet are made of, each with its length.
func snipDigest(fields ...string) [sha256.Size]byte {
	h := sha256.New()
	var n [binary.MaxVarintLen64]byte
	for _, f := range fields {
		h.Write(n[:binary.PutUvarint(n[:], uint64(len(f)))])
		h.Write([]byte(f))
	}
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out
}

// snipKey names a kept snippet: the note's rowid and the search's terms
// (snipTermsKey).
type snipKey struct {
	doc   int64
	terms string
}

// snipKept is a kept snippet and the digest of what it was made from.
type snipKept struct {
	digest  [sha256.Size]byte
	snippet string
}

// snipMemo keeps the snippets KeywordSnippets made, at most SnipMemoSize;
// when full, an arbitrary one goes for each new one.
type snipMemo struct {
	mu   sync.Mutex
	kept map[snipKey]snipKept
}

// snipTermsKey is what of terms a snippet depends on: their match
// expression and how each is highlighted.
func snipTermsKey(terms []Term) string {
	return fmt.Sprintf("%s\x00%+v", matchExpr(terms, "OR"), terms)
}

// get returns the snippet kept for src, the row doc, under terms.
func (m *snipMemo) get(doc int64, terms string, src snipSource) (string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k, ok := m.kept[snipKey{doc, terms}]
	return k.snippet, ok && k.digest == src.digest
}

// put keeps snippet, made from src (the row doc) for terms.
func (m *snipMemo) put(doc int64, terms string, src snipSource, snippet string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	key := snipKey{doc, terms}
	if m.kept == nil {
		m.kept = map[snipKey]snipKept{}
	}
	if _, ok := m.kept[key]; !ok && len(m.kept) >= SnipMemoSize {
		for k := range m.kept {
			delete(m.kept, k)
			break
		}
	}
	m.kept[key] = snipKept{digest: src.digest, snippet: snippet}
}
