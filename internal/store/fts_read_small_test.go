package store

import (
	"context"
	"slices"
	"testing"
)

// TestSmallSegmentDecodedOnce: a small segment's rows are decoded once,
// every token of it, and kept whole: the reads of its tokens (as a
// search asks them: its words, their forms, in turn) replay them, and
// keep no read of their own; and they find what is there.
func TestSmallSegmentDecodedOnce(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if err := s.Apply(ctx, &Batch{Upserts: benchNotes(200)}); err != nil {
		t.Fatal(err)
	}
	if err := s.Apply(ctx, &Batch{Upserts: []*Record{bodyNote(900, "alpha beta gamma alphabet")}}); err != nil {
		t.Fatal(err)
	}
	f, done := ftsReaderOf(t, s)
	defer done()
	newest := f.segs[0]
	if !small(newest) {
		t.Fatalf("the newest segment has %d pages, want a small one", newest.last-newest.first+1)
	}
	id, _ := newest.ident()
	for _, tt := range []struct {
		token          string
		prefix, found  bool
		wantTokensSeen []string
	}{
		{"alpha", false, true, []string{"alpha"}},
		{"alpha", true, true, []string{"alpha", "alphabet"}},
		{"gamma", false, true, []string{"gamma"}},
		{"absent", false, false, nil},
		{"zzz", true, false, nil},
		{"bet", false, false, nil},
	} {
		var seen []string
		ok, err := f.scanKept(ctx, newest, tt.token, tt.prefix, nil, func(tok string, p *ftsPosting) bool {
			if len(seen) == 0 || seen[len(seen)-1] != tok {
				seen = append(seen, tok)
			}
			return true
		})
		if err != nil || !ok || !slices.Equal(seen, tt.wantTokensSeen) {
			t.Errorf("scanKept(%q, prefix %v) = %v, %v, tokens %q; want true, nil, %q", tt.token, tt.prefix, ok, err, seen, tt.wantTokensSeen)
		}
	}
	c := &s.ranks.segs
	c.mu.Lock()
	defer c.mu.Unlock()
	whole, own := 0, 0
	for k, r := range c.reads {
		if k.seg != id || k.table != "fts" {
			continue
		}
		switch {
		case k.whole && r.rows:
			whole++
			if !slices.Contains(r.toks, "beta") || !slices.Contains(r.toks, "alphabet") {
				t.Errorf("the segment kept whole has tokens %q, want every token of it", r.toks)
			}
		case k.tombs == 0:
			own++
		}
	}
	if whole != 1 || own != 0 {
		t.Errorf("the small segment is kept whole %d times, and %d reads of it on their own; want 1 and 0", whole, own)
	}
}
