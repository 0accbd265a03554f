package slab

import (
	"testing"
	"unsafe"
)

// TestTake: small lists follow each other in one chunk, each capped;
// a large one and an empty one are made on their own.
func TestTake(t *testing.T) {
	var pool []int
	a, b := Take(&pool, 3, 16), Take(&pool, 4, 16)
	if len(a) != 3 || cap(a) != 3 || len(b) != 4 || cap(b) != 4 {
		t.Fatalf("lists %d/%d and %d/%d long/room, want 3/3 and 4/4", len(a), cap(a), len(b), cap(b))
	}
	if unsafe.Pointer(unsafe.SliceData(b)) != unsafe.Add(unsafe.Pointer(unsafe.SliceData(a)), 3*unsafe.Sizeof(a[0])) {
		t.Error("the second list does not follow the first in the chunk")
	}
	a = append(a, 9)
	if b[0] != 0 {
		t.Errorf("appending to the first list wrote %d into the second", b[0])
	}
	if c := Take(&pool, 0, 16); c == nil || len(c) != 0 {
		t.Errorf("Take 0 = %#v, want an empty list, not nil", c)
	}
	if big := Take(&pool, 5, 16); len(big) != 5 || len(pool) != 16-7 {
		t.Errorf("a list over a quarter of the chunk took %d items from it, want none", 16-7-len(pool))
	}
	Take(&pool, 4, 16)
	Take(&pool, 4, 16)
	if d := Take(&pool, 4, 16); len(d) != 4 || len(pool) != 12 {
		t.Errorf("a list that does not fit left %d items in the pool, want a new chunk with 12", len(pool))
	}
}
