package vaultgraph

import (
	"fmt"
	"testing"
)

// TestChunkCacheVersions: a vector is found only under the very key it
// was kept under (model, note, version, chunk size and chunk), and a new
// version of a note's chunk takes the old version's place instead of
// keeping both.
func TestChunkCacheVersions(t *testing.T) {
	var c chunkCache
	old := chunkKey{model: "m", id: "a.md", hash: "h1", chars: 100, chunk: 2}
	c.put(old, []float32{1})
	for _, k := range []chunkKey{
		{model: "m2", id: "a.md", hash: "h1", chars: 100, chunk: 2},
		{model: "m", id: "a.md", hash: "h1", chars: 200, chunk: 2},
		{model: "m", id: "a.md", hash: "h1", chars: 100, chunk: 1},
		{model: "m", id: "b.md", hash: "h1", chars: 100, chunk: 2},
	} {
		if v, ok := c.get(k); ok {
			t.Errorf("get(%+v) = %v, want not kept", k, v)
		}
	}
	edited := old
	edited.hash = "h2"
	c.put(edited, []float32{2})
	if v, ok := c.get(old); ok {
		t.Errorf("the old version's vector is still kept: %v", v)
	}
	if v, ok := c.get(edited); !ok || v[0] != 2 {
		t.Errorf("get(new version) = %v, %v; want [2], true", v, ok)
	}
	if n := c.order.Len(); n != 1 {
		t.Errorf("%d vectors kept for one chunk of one note, want 1", n)
	}
}

// BenchmarkChunkCacheGet looks up kept vectors of chunks of notes with
// IDs and hashes of realistic lengths.
func BenchmarkChunkCacheGet(b *testing.B) {
	var c chunkCache
	keys := make([]chunkKey, 2048)
	for i := range keys {
		keys[i] = chunkKey{model: "builtin-hash-v3", id: fmt.Sprintf("Projects/Area %d/Some note title %d.md", i%40, i),
			hash: fmt.Sprintf("%064x", i*7919), chars: 1200, chunk: i % 3}
		c.put(keys[i], []float32{float32(i)})
	}
	i := 0
	for b.Loop() {
		c.get(keys[i%len(keys)])
		i++
	}
}
