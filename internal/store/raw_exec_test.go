package store

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph/vault"
)

// manyLinksRec is a note of n links to notes that do not exist, their
// byte ranges in its body.
func manyLinksRec(id string, n int) *Record {
	var b strings.Builder
	note := &vault.Note{ID: id, Title: strings.TrimSuffix(id, ".md")}
	for i := range n {
		target := fmt.Sprintf("Target %d", i)
		start := b.Len()
		fmt.Fprintf(&b, "[[%s]] ", target)
		note.Links = append(note.Links, vault.Link{Kind: vault.KindWiki, Target: target, Start: start, End: start + len(target) + 4,
			TargetStart: start + 2, TargetEnd: start + 2 + len(target), Line: 1})
	}
	return &Record{Note: note, Path: id, Body: b.String(), Resolved: make([]string, n), Status: make([]vault.Status, n)}
}

// bytesPerRun returns the bytes f allocates, the least of five runs.
func bytesPerRun(f func()) int {
	least := -1
	for range 5 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		if n := int(after.TotalAlloc - before.TotalAlloc); least < 0 || n < least {
			least = n
		}
	}
	return least
}

// TestLinkRowAllocs: storing a link row allocates little (insertLink
// hands it to the driver in slices the writer reuses; through
// database/sql each row allocated its arguments again and converted each
// int), and the rows read back as written.
func TestLinkRowAllocs(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	const links = 400
	recs := []*Record{manyLinksRec("A.md", links), manyLinksRec("B.md", links)}
	for _, r := range recs {
		p, err := Prepare(r.Note, r.Body)
		if err != nil {
			t.Fatal(err)
		}
		r.Prepared = p
	}
	write := func(n *Record, add bool) {
		if err := s.Apply(ctx, &Batch{Upserts: []*Record{n}}); err != nil {
			t.Fatal(err)
		}
	}
	write(recs[0], true)
	withLinks := bytesPerRun(func() { write(recs[0], false) })
	recs[1].Note.Links, recs[1].Resolved, recs[1].Status = nil, nil, nil
	p, _ := Prepare(recs[1].Note, recs[1].Body)
	recs[1].Prepared = p
	write(recs[1], true)
	without := bytesPerRun(func() { write(recs[1], false) })
	t.Logf("bytes per link row = %d", (withLinks-without)/links)
	if perLink := (withLinks - without) / links; perLink > 600 {
		t.Errorf("bytes allocated per link row = %d, want at most 600", perLink)
	}
	var n int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM links l JOIN notes s ON s.doc = l.source WHERE s.id = 'A.md' AND l.target LIKE 'Target %' AND l.end - l.start = length(l.target) + 4").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != links {
		t.Errorf("link rows of A.md read back = %d, want %d", n, links)
	}
}
