package embed

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/vaultgraph/vaultgraph/internal/slab"
)

// ErrDimension: a vector's length differs from the index's dimension.
var ErrDimension = errors.New("vector dimension mismatch")

// Index is an in-memory vector index searched by brute force: every
// chunk vector sits in one contiguous matrix, and a search scores all
// rows, split across runtime.GOMAXPROCS goroutines. At vault scale (up to
// a few hundred thousand chunks) this is exact and fast enough that an
// approximate index would only add memory and error.
//
// Vectors are expected to be L2-normalised, so scores are cosine
// similarities. With quantize, rows are stored as int8 with one float32
// scale per row: 4× less memory, scores within 0.01 of float32, but in
// pure Go (no SIMD) a scan is about 1.5× slower, so quantize to save
// memory, not time.
// Search may run concurrently with other searches; updates take a write
// lock.
type Index struct {
	mu       sync.RWMutex
	dim      int
	quantize bool

	f32   []float32  // rows × dim, when !quantize
	q     []int8     // rows × dim, when quantize
	scale []float32  // per row, when quantize
	sp    sparseRows // when made by NewSparseIndex

	rowNote  []int32 // the note slot of each row
	rowChunk []int32 // the chunk number of each row

	notes []noteSlot // by slot; id == "" marks a free slot
	free  []int32
	byID  map[string]int32
	// rowSlab is the room the row lists of notes added next are cut
	// from (rowList, slab.Take).
	rowSlab []int32
}

type noteSlot struct {
	id   string
	rows []int32
}

// Hit is a note found by Search, with its best chunk.
type Hit struct {
	NoteID string
	Chunk  int
	Score  float32
}

// NewIndex returns an empty index for vectors of dim floats; dim 0 means
// "learn it from the first Add".
func NewIndex(dim int, quantize bool) *Index {
	return &Index{dim: dim, quantize: quantize, byID: make(map[string]int32)}
}

// Len is the number of vectors (chunks) in the index.
func (x *Index) Len() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.rowNote)
}

// NoteCount is the number of notes with vectors in the index.
func (x *Index) NoteCount() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.byID)
}

// Notes returns the IDs of the notes in the index, sorted.
func (x *Index) Notes() []string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return slices.Sorted(maps.Keys(x.byID))
}

// Add appends chunk vectors to a note; they are numbered after the note's
// existing chunks. The vectors are copied.
func (x *Index) Add(noteID string, vecs [][]float32) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.add(noteID, vecs)
}

// Replace sets a note's chunk vectors, numbered from 0; no vectors removes
// the note.
func (x *Index) Replace(noteID string, vecs [][]float32) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if err := x.checkDims(vecs); err != nil {
		return err
	}
	x.remove(noteID)
	return x.add(noteID, vecs)
}

// Remove drops a note's vectors and reports whether it had any.
func (x *Index) Remove(noteID string) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.remove(noteID)
}

func (x *Index) checkDims(vecs [][]float32) error {
	dim := x.dim
	for i, v := range vecs {
		if dim == 0 {
			dim = len(v)
		}
		if len(v) != dim || dim == 0 {
			return fmt.Errorf("%w: vector %d has %d floats, the index %d", ErrDimension, i, len(v), dim)
		}
	}
	return nil
}

func (x *Index) add(noteID string, vecs [][]float32) error {
	if err := x.checkDims(vecs); err != nil {
		return err
	}
	if len(vecs) == 0 {
		return nil
	}
	if x.dim == 0 {
		x.dim = len(vecs[0])
	}
	slot, ok := x.byID[noteID]
	if !ok {
		if n := len(x.free); n > 0 {
			slot, x.free = x.free[n-1], x.free[:n-1]
			x.notes[slot] = noteSlot{id: noteID}
		} else {
			slot = int32(len(x.notes))
			x.notes = append(x.notes, noteSlot{id: noteID})
		}
		x.byID[noteID] = slot
	}
	ns := &x.notes[slot]
	if ns.rows == nil {
		ns.rows = x.rowList(len(vecs))
	}
	for _, v := range vecs {
		row := int32(len(x.rowNote))
		x.rowNote = append(x.rowNote, slot)
		x.rowChunk = append(x.rowChunk, int32(len(ns.rows)))
		ns.rows = append(ns.rows, row)
		if x.sp.terms > 0 {
			x.sp.add(v)
		} else if x.quantize {
			s := quantizeRow(v)
			x.scale = append(x.scale, s)
			for _, f := range v {
				x.q = append(x.q, quantizeValue(f, s))
			}
		} else {
			x.f32 = append(x.f32, v...)
		}
	}
	return nil
}

// rowSlabChunk is the number of rows in one chunk of Index.rowSlab.
const rowSlabChunk = 4096

// rowList returns an empty list with room for n rows, cut from
// x.rowSlab: a list allocated for each note left holes in the heap. The
// room is capped, so that a note given more rows later moves its list
// rather than write into the next note's.
func (x *Index) rowList(n int) []int32 {
	return slab.Take(&x.rowSlab, n, rowSlabChunk)[:0]
}

// remove deletes a note's rows by moving the matrix's last rows into
// their places, so the matrix stays contiguous.
func (x *Index) remove(noteID string) bool {
	slot, ok := x.byID[noteID]
	if !ok {
		return false
	}
	rows := x.notes[slot].rows
	slices.SortFunc(rows, func(a, b int32) int { return cmp.Compare(b, a) })
	for _, r := range rows {
		last := int32(len(x.rowNote) - 1)
		if r != last {
			x.moveRow(last, r)
		}
		x.truncate(int(last))
	}
	delete(x.byID, noteID)
	x.notes[slot] = noteSlot{}
	x.free = append(x.free, slot)
	return true
}

// moveRow copies row from into row to and updates its note's row list.
func (x *Index) moveRow(from, to int32) {
	d := x.dim
	if x.sp.terms > 0 {
		x.sp.move(from, to)
	} else if x.quantize {
		copy(x.q[int(to)*d:int(to+1)*d], x.q[int(from)*d:int(from+1)*d])
		x.scale[to] = x.scale[from]
	} else {
		copy(x.f32[int(to)*d:int(to+1)*d], x.f32[int(from)*d:int(from+1)*d])
	}
	x.rowNote[to], x.rowChunk[to] = x.rowNote[from], x.rowChunk[from]
	rows := x.notes[x.rowNote[from]].rows
	for i, r := range rows {
		if r == from {
			rows[i] = to
			break
		}
	}
}

// Grow makes room for rows more chunk vectors, so that loading a known
// number of them does not copy the matrix as it grows.
func (x *Index) Grow(rows int) {
	if rows <= 0 || x.dim == 0 {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.rowNote = slices.Grow(x.rowNote, rows)
	x.rowChunk = slices.Grow(x.rowChunk, rows)
	if x.sp.terms > 0 {
		x.sp.grow(rows)
	} else if x.quantize {
		x.q = slices.Grow(x.q, rows*x.dim)
		x.scale = slices.Grow(x.scale, rows)
	} else {
		x.f32 = slices.Grow(x.f32, rows*x.dim)
	}
}

// Quantized reports whether rows are stored as int8.
func (x *Index) Quantized() bool { return x.quantize }

func (x *Index) truncate(rows int) {
	x.rowNote, x.rowChunk = x.rowNote[:rows], x.rowChunk[:rows]
	if x.sp.terms > 0 {
		x.sp.truncate(rows)
	} else if x.quantize {
		x.q, x.scale = x.q[:rows*x.dim], x.scale[:rows]
	} else {
		x.f32 = x.f32[:rows*x.dim]
	}
}

func quantizeRow(v []float32) float32 {
	var m float32
	for _, f := range v {
		m = max(m, float32(math.Abs(float64(f))))
	}
	return m / 127
}

func quantizeValue(f, scale float32) int8 {
	if scale == 0 {
		return 0
	}
	return int8(max(-127, min(127, math.Round(float64(f/scale)))))
}

// minRowsPerWorker keeps small searches on one goroutine.
const minRowsPerWorker = 4096

// Search returns the k notes whose best chunk is most similar to query,
// best first (ties by note ID), each with that chunk and its score. keep,
// if not nil, is asked once per note and filters notes out before ranking.
// A query of the wrong dimension finds nothing.
func (x *Index) Search(query []float32, k int, keep func(noteID string) bool) []Hit {
	return x.search(query, k, keep, false)
}

// search is Search, or with perRow SearchChunks.
func (x *Index) search(query []float32, k int, keep func(noteID string) bool, perRow bool) []Hit {
	x.mu.RLock()
	defer x.mu.RUnlock()
	rows := len(x.rowNote)
	if k <= 0 || rows == 0 || len(query) != x.dim {
		return nil
	}
	var allowed []bool
	if keep != nil {
		allowed = make([]bool, len(x.notes))
		some := false
		for i, n := range x.notes {
			allowed[i] = n.id != "" && keep(n.id)
			some = some || allowed[i]
		}
		if !some {
			return nil
		}
	}
	workers := max(1, min(runtime.GOMAXPROCS(0), rows/minRowsPerWorker))
	parts := make([]*topNotes, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := rows*w/workers, rows*(w+1)/workers
		wg.Go(func() { parts[w] = x.scan(query, lo, hi, k, allowed, perRow) })
	}
	wg.Wait()

	best := make(map[int32]noteScore)
	for _, p := range parts {
		for _, e := range p.items {
			if b, ok := best[e.slot]; !ok || e.score > b.score {
				best[e.slot] = e
			}
		}
		p.release()
	}
	hits := make([]Hit, 0, len(best))
	for slot, e := range best {
		if perRow {
			slot = x.rowNote[slot]
		}
		hits = append(hits, Hit{NoteID: x.notes[slot].id, Chunk: int(e.chunk), Score: e.score})
	}
	slices.SortFunc(hits, func(a, b Hit) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), strings.Compare(a.NoteID, b.NoteID), a.Chunk-b.Chunk)
	})
	return hits[:min(k, len(hits))]
}
