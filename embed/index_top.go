package embed

import "sync"

type noteScore struct {
	score float32
	slot  int32
	chunk int32
}

// topNotes is a min-heap of at most k notes by their best score so far,
// with each note's position so that a better chunk updates it in place.
//
// It keeps exactly the k best notes: a note pushed out had the lowest
// score, and the heap's minimum never decreases, so a later chunk of that
// note only comes back in with a better score than it had.
//
// The positions are a table by slot (1 + the position; 0: not in the
// heap), not a map, whose writes are too slow for a heap that moves
// entries thousands of times. Tables go back to topPool cleared entry by
// entry (release), so that a search neither makes nor clears one the
// size of the index.
type topNotes struct {
	k     int
	items []noteScore
	pos   []int32
}

// topPool holds released topNotes.
var topPool = sync.Pool{New: func() any { return new(topNotes) }}

// newTopNotes returns an empty heap of at most k notes of slots below
// slots, from topPool when it has one; release gives it back.
func newTopNotes(k, slots int) *topNotes {
	t := topPool.Get().(*topNotes)
	t.k, t.items = k, t.items[:0]
	if len(t.pos) < slots {
		t.pos = make([]int32, slots)
	}
	return t
}

// release clears t's positions and puts it in topPool; t is not used
// after.
func (t *topNotes) release() {
	for _, e := range t.items {
		t.pos[e.slot] = 0
	}
	t.items = t.items[:0]
	topPool.Put(t)
}

func (t *topNotes) offer(e noteScore) {
	if i := t.pos[e.slot] - 1; i >= 0 {
		if e.score > t.items[i].score {
			t.items[i] = e
			t.down(int(i))
		}
		return
	}
	if len(t.items) < t.k {
		t.items = append(t.items, e)
		t.pos[e.slot] = int32(len(t.items))
		t.up(len(t.items) - 1)
		return
	}
	t.pos[t.items[0].slot] = 0
	t.items[0] = e
	t.pos[e.slot] = 1
	t.down(0)
}

func (t *topNotes) swap(i, j int) {
	t.items[i], t.items[j] = t.items[j], t.items[i]
	t.pos[t.items[i].slot] = int32(i + 1)
	t.pos[t.items[j].slot] = int32(j + 1)
}

func (t *topNotes) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if t.items[p].score <= t.items[i].score {
			return
		}
		t.swap(i, p)
		i = p
	}
}

func (t *topNotes) down(i int) {
	n := len(t.items)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && t.items[r].score < t.items[l].score {
			m = r
		}
		if t.items[i].score <= t.items[m].score {
			return
		}
		t.swap(i, m)
		i = m
	}
}
