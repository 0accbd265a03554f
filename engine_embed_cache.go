package vaultgraph

import (
	"container/list"
	"sync"
)

// ChunkVectorCache is how many chunk vectors rescore keeps in memory
// (about 2 KiB each with the builtin model): the chunks that searches
// score again most often are not embedded again from their files while
// their notes stay the same: searches for related words share most of
// their candidates.
const ChunkVectorCache = 4096

// chunkKey names one chunk of one version of a note, embedded by one
// model in chunks of one size: the same key is always the same vector.
type chunkKey struct {
	model, id, hash string
	chars, chunk    int
}

// chunkSlot is where a chunk's vector is kept: one place per chunk of a
// note, whatever its version. Hashing the note ID and the chunk alone
// costs a lookup a third of hashing the whole chunkKey (the note's hash
// is 64 bytes), and a note's new version takes its old vectors' places.
type chunkSlot struct {
	id    string
	chunk int
}

// chunkCache holds the chunk vectors rescore made, the least recently
// used dropped first. Safe for concurrent use.
type chunkCache struct {
	mu     sync.Mutex
	order  list.List // of *chunkEntry, most recently used first
	bySlot map[chunkSlot]*list.Element
	// hits and misses count the lookups, for tests.
	hits, misses int
}

type chunkEntry struct {
	key chunkKey
	vec []float32
}

// get returns the vector of key, if it is kept.
func (c *chunkCache) get(key chunkKey) ([]float32, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.bySlot[chunkSlot{key.id, key.chunk}]
	if !ok || el.Value.(*chunkEntry).key != key {
		c.misses++
		return nil, false
	}
	c.hits++
	c.order.MoveToFront(el)
	return el.Value.(*chunkEntry).vec, true
}

// put keeps vec as the vector of key, in place of the vector of another
// version of the same chunk, dropping the least recently used vectors
// past ChunkVectorCache.
func (c *chunkCache) put(key chunkKey, vec []float32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bySlot == nil {
		c.bySlot = map[chunkSlot]*list.Element{}
	}
	slot := chunkSlot{key.id, key.chunk}
	if el, ok := c.bySlot[slot]; ok {
		if ent := el.Value.(*chunkEntry); ent.key != key {
			ent.key, ent.vec = key, vec
		}
		c.order.MoveToFront(el)
		return
	}
	c.bySlot[slot] = c.order.PushFront(&chunkEntry{key: key, vec: vec})
	for c.order.Len() > ChunkVectorCache {
		last := c.order.Back()
		k := last.Value.(*chunkEntry).key
		delete(c.bySlot, chunkSlot{k.id, k.chunk})
		c.order.Remove(last)
	}
}
