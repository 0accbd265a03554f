package store

import "sync"

// The lengths sizesSince reads by rowid (the rows written since the kept
// lengths' state) are kept too, each with the newest origin of the
// index as it was read, rather than read again by every search until
// patchSizes reads every newer row. A row written again after that read
// has a higher origin than any of that state, so a kept length answers
// while the segments the row is found in are no newer.

// maxKeptLens bounds the lengths lenCache keeps (about 48 bytes each).
const maxKeptLens = 16384

// lenKey names a kept length: a row of a table, in the index of
// generation gen (readTx.low).
type lenKey struct {
	table    string
	gen, doc int64
}

// keptLen is a row's length and the newest origin of the index when it
// was read.
type keptLen struct {
	size   int32
	origin int64
}

// lenCache keeps the lengths sizesSince read; when full, it starts
// over.
type lenCache struct {
	mu   sync.Mutex
	lens map[lenKey]keptLen
}

// get returns the length of the row k, if kept from a read at which the
// row was as it is when found in segments no newer than origin.
func (c *lenCache) get(k lenKey, origin int64) (int32, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	l, ok := c.lens[k]
	return l.size, ok && origin <= l.origin
}

// put keeps size, the length of row k read when the newest origin of
// the index was origin.
func (c *lenCache) put(k lenKey, size int32, origin int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lens == nil || len(c.lens) >= maxKeptLens {
		c.lens = map[lenKey]keptLen{}
	}
	c.lens[k] = keptLen{size: size, origin: origin}
}

// forget drops every length kept.
func (c *lenCache) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lens = nil
}
