package graph

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// ErrEncoding is bytes that [Decode] cannot read as a graph.
var ErrEncoding = errors.New("graph: bad encoding")

// AppendBinary appends the whole graph to b, slot by slot, in the form
// [Decode] reads: a start-up can then take the graph as it was instead of
// building it again from every link. PageRank scores are not kept.
func (g *Graph) AppendBinary(b []byte) []byte {
	g.mu.RLock()
	defer g.mu.RUnlock()
	b = binary.AppendUvarint(b, uint64(len(g.nodes)))
	b = binary.AppendUvarint(b, uint64(g.edges))
	for i := range g.nodes {
		n := &g.nodes[i]
		b = appendString(b, n.id)
		if n.id == "" {
			continue // a free slot
		}
		b = binary.AppendUvarint(b, uint64(len(n.tags)))
		for _, t := range n.tags {
			b = appendString(b, t)
		}
		for _, l := range [][]int32{n.out, n.outSorted, n.in} {
			b = appendSlots(b, l)
		}
	}
	b = appendSlots(b, g.live)
	return appendSlots(b, g.free)
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func appendSlots(b []byte, l []int32) []byte {
	b = binary.AppendUvarint(b, uint64(len(l)))
	for _, u := range l {
		b = binary.AppendUvarint(b, uint64(u))
	}
	return b
}

// Decode returns the graph [Graph.AppendBinary] wrote into b. It keeps
// nothing of b (each tag is kept once, however many nodes carry it).
// Damaged bytes give ErrEncoding, never a graph that breaks its own
// invariants' bounds.
func Decode(b []byte) (*Graph, error) {
	d := &decoder{b: b, seen: map[string]int32{}}
	slots := d.count()
	g := &Graph{tags: make(map[string]map[int32]struct{})}
	g.edges = d.count()
	g.nodes = make([]node, slots)
	g.index = make(map[string]int32, slots)
	for i := range g.nodes {
		n := &g.nodes[i]
		if n.id = string(d.bytes()); n.id == "" {
			continue
		}
		before := len(g.index)
		if g.index[n.id] = int32(i); len(g.index) == before {
			d.fail() // the ID was there already
		}
		if k := d.count(); k > 0 {
			n.tags = make([]string, k)
			for j := range n.tags {
				n.tags[j] = d.tag(int32(i))
			}
		}
		n.out, n.outSorted, n.in = d.slots(slots), d.slots(slots), d.slots(slots)
	}
	d.tagSets(g)
	g.live = d.slots(slots)
	g.free = d.slots(slots)
	if d.err == nil && (len(d.b) != 0 || len(g.live) != len(g.index) || len(g.live)+len(g.free) != slots) {
		d.fail()
	}
	for pos, u := range g.live {
		if d.err != nil {
			break
		}
		if g.nodes[u].id == "" {
			d.fail()
		}
		g.nodes[u].livePos = int32(pos)
	}
	if d.err != nil {
		return nil, d.err
	}
	g.markOld = make([]uint32, slots)
	g.markNew = make([]uint32, slots)
	return g, nil
}

// decoder reads AppendBinary's bytes; the first damage sets err and
// every later read yields zero values.
type decoder struct {
	b     []byte
	err   error
	arena []int32 // what slots cuts its lists from
	// The tags read so far (by their number in tags), how many nodes
	// carry each, and which: the sets are made at the end, each at its
	// size.
	seen   map[string]int32
	tags   []string
	counts []int
	tagged [][][2]int32 // tag number and slot, in chunks of slotChunk
}

// slotChunk is the number of slots in one chunk of decoder.arena.
const slotChunk = 1 << 14

func (d *decoder) fail() {
	if d.err == nil {
		d.err = fmt.Errorf("%w at %d bytes from the end", ErrEncoding, len(d.b))
	}
	d.b = nil
}

// count reads a length, which cannot exceed the bytes left (every item
// takes at least one).
func (d *decoder) count() int {
	v, n := binary.Uvarint(d.b)
	if n <= 0 || v > uint64(len(d.b)) {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return int(v)
}

// bytes reads a string's bytes, which point into d.b.
func (d *decoder) bytes() []byte {
	l := d.count()
	if l > len(d.b) {
		d.fail()
	}
	if d.err != nil {
		return nil
	}
	s := d.b[:l]
	d.b = d.b[l:]
	return s
}

// tag reads a tag of the node at slot u; each tag is kept once.
func (d *decoder) tag(u int32) string {
	b := d.bytes()
	k, ok := d.seen[string(b)]
	if !ok {
		k = int32(len(d.tags))
		d.seen[string(b)] = k
		d.tags = append(d.tags, string(b))
		d.counts = append(d.counts, 0)
	}
	d.counts[k]++
	if n := len(d.tagged); n == 0 || len(d.tagged[n-1]) == cap(d.tagged[n-1]) {
		d.tagged = append(d.tagged, make([][2]int32, 0, slotChunk))
	}
	last := &d.tagged[len(d.tagged)-1]
	*last = append(*last, [2]int32{k, u})
	return d.tags[k]
}

// tagSets fills g.tags with the tags read.
func (d *decoder) tagSets(g *Graph) {
	sets := make([]map[int32]struct{}, len(d.tags))
	for k, t := range d.tags {
		sets[k] = make(map[int32]struct{}, d.counts[k])
		g.tags[t] = sets[k]
	}
	for _, chunk := range d.tagged {
		for _, p := range chunk {
			sets[p[0]][p[1]] = struct{}{}
		}
	}
}

// slots reads a list of slot numbers below max.
func (d *decoder) slots(bound int) []int32 {
	k := d.count()
	if k == 0 {
		return nil
	}
	if k > len(d.arena) {
		d.arena = make([]int32, max(k, slotChunk))
	}
	// Cut from a shared chunk, capped: an append to one node's list
	// never writes into another's.
	l := d.arena[:k:k]
	d.arena = d.arena[k:]
	for i := range l {
		v, n := binary.Uvarint(d.b)
		if n <= 0 || v >= uint64(bound) {
			d.fail()
			return nil
		}
		d.b = d.b[n:]
		l[i] = int32(v)
	}
	return l
}
