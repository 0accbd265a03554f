package embed

// scanBatch is the number of rows scan scores before it ranks them.
const scanBatch = 64

// scan scores rows [lo, hi) and keeps the k best notes among them, or
// with perRow the k best rows (each under its row number as slot). It
// scores the allowed rows a batch at a time, then ranks them in order:
// the scores are those of one row at a time, the batch only lets a
// sparse index score several rows together (sparseRows.dots). The
// caller releases the heap it returns.
func (x *Index) scan(query []float32, lo, hi, k int, allowed []bool, perRow bool) *topNotes {
	slots := len(x.notes)
	if perRow {
		slots = len(x.rowNote)
	}
	t := newTopNotes(k, slots)
	var rows [scanBatch]int32
	var scores [scanBatch]float32
	for r := lo; r < hi; {
		n := 0
		for ; r < hi && n < scanBatch; r++ {
			if allowed == nil || allowed[x.rowNote[r]] {
				rows[n] = int32(r)
				n++
			}
		}
		x.score(query, rows[:n], scores[:n])
		for i, r := range rows[:n] {
			s := scores[i]
			if len(t.items) == k && s <= t.items[0].score {
				continue // also not better than the note's own entry
			}
			slot := x.rowNote[r]
			if perRow {
				slot = r
			}
			t.offer(noteScore{score: s, slot: slot, chunk: x.rowChunk[r]})
		}
	}
	return t
}

// score sets out[i] to the score of row rows[i] for query.
func (x *Index) score(query []float32, rows []int32, out []float32) {
	if x.sp.terms > 0 {
		x.sp.dots(rows, out, query)
		return
	}
	d := x.dim
	for i, r := range rows {
		if x.quantize {
			out[i] = dot(x.q[int(r)*d:int(r+1)*d], query) * x.scale[r]
		} else {
			out[i] = dot(x.f32[int(r)*d:int(r+1)*d], query)
		}
	}
}
