package vaultgraph

import (
	"container/list"
	"sync"
)

// ChunkVectorCache is how many chunk vectors rescore keeps in memory
// (about 2 KiB each with the builtin model): the chunks that searches
// score again most often are not embedded again from their files while
// their notes stay the same. Searches for related words share most of
// their candidates: under make load (64 different queries) this cut the
// CPU of rescoring by about three quarters.
const ChunkVectorCache = 4096

// chunkKey names one chunk of one version of a note, embedded by one
// model in chunks of one size: the same key is always the same vector.
type chunkKey struct {
	model, id, hash string
	chars, chunk    int
}

// chunkCache holds the chunk vectors rescore made, the least recently
// used dropped first. Safe for concurrent use.
type chunkCache struct {
	mu    sync.Mutex
	order list.List // of *chunkEntry, most recently used first
	byKey map[chunkKey]*list.Element
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
	el, ok := c.byKey[key]
	if !ok {
		c.misses++
		return nil, false
	}
	c.hits++
	c.order.MoveToFront(el)
	return el.Value.(*chunkEntry).vec, true
}

// put keeps vec as the vector of key, dropping the least recently used
// vectors past ChunkVectorCache.
func (c *chunkCache) put(key chunkKey, vec []float32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byKey == nil {
		c.byKey = map[chunkKey]*list.Element{}
	}
	if el, ok := c.byKey[key]; ok {
		c.order.MoveToFront(el)
		return
	}
	c.byKey[key] = c.order.PushFront(&chunkEntry{key: key, vec: vec})
	for c.order.Len() > ChunkVectorCache {
		last := c.order.Back()
		delete(c.byKey, last.Value.(*chunkEntry).key)
		c.order.Remove(last)
	}
}
