package store

import (
	"context"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strconv"
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

// TestLinkRowAllocs: storing a link row allocates little (insertLinks
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

// TestInsertLinksStatements: a note's links are written up to 16 rows a
// statement (linkRowsPerInsert: one statement for most notes), and read
// back as written whatever the split.
func TestInsertLinksStatements(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	for _, tc := range []struct {
		give int   // links of the note
		want []int // rows of the statements prepared
	}{{1, []int{1}}, {8, []int{8}}, {16, []int{16}}, {17, []int{1, 16}}, {35, []int{3, 16}}} {
		n := tc.give
		s.wmu.Lock()
		s.dropWriteConn() // the statements the last case kept
		s.wmu.Unlock()
		w, end, err := s.beginWriter(ctx, "test")
		if err != nil {
			t.Fatal(err)
		}
		id := fmt.Sprintf("N%d.md", n)
		if err := w.upsert(manyLinksRec(id, n)); err != nil {
			end()
			t.Fatal(err)
		}
		var got []int
		for q := 1; q <= linkRowsPerInsert; q++ {
			if _, ok := w.raw[insertLinksSQL[q]]; ok {
				got = append(got, q)
			}
		}
		if err := s.commitWrite(ctx, w.tx); err != nil {
			end()
			t.Fatal(err)
		}
		end()
		if !slices.Equal(got, tc.want) {
			t.Errorf("%d links: statements prepared for %v rows, want %v", n, got, tc.want)
		}
		checkLinkRows(t, s, manyLinksRec(id, n))
	}
}

// TestWriteStatementsKept: the driver statements a write prepares stay
// prepared for the next write, on the store's write connection, unless
// the write did not commit.
func TestWriteStatementsKept(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	if err := s.Apply(ctx, &Batch{Upserts: []*Record{manyLinksRec("A.md", 8)}}); err != nil {
		t.Fatal(err)
	}
	kept := func() bool {
		w, end, err := s.beginWriter(ctx, "test")
		if err != nil {
			t.Fatal(err)
		}
		defer end() // no commit
		_, ok := w.raw[insertLinksSQL[8]]
		return ok
	}
	if !kept() {
		t.Error("the next write prepares the statement of 8 link rows again")
	}
	if kept() {
		t.Error("a write that did not commit left its connection's statements to the next")
	}
	if err := s.Apply(ctx, &Batch{Upserts: []*Record{manyLinksRec("B.md", 8)}}); err != nil {
		t.Fatal(err)
	}
	checkLinkRows(t, s, manyLinksRec("B.md", 8))
}

// checkLinkRows fails t unless the links of r are stored as r has them.
func checkLinkRows(t *testing.T, s *Store, r *Record) {
	t.Helper()
	var got []vault.Link
	err := queryStrings(context.Background(), s.db, `SELECT kind, target, start, end, target_start, target_end, line
		FROM link_rows WHERE source = '`+r.Note.ID+`' ORDER BY seq`, func(v ...string) {
		n := make([]int, 5)
		for i := range n {
			n[i], _ = strconv.Atoi(v[2+i])
		}
		got = append(got, vault.Link{Kind: vault.LinkKind(v[0]), Target: v[1], Start: n[0], End: n[1], TargetStart: n[2], TargetEnd: n[3], Line: n[4]})
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, r.Note.Links) {
		t.Errorf("links of %s = %+v, want %+v", r.Note.ID, got, r.Note.Links)
	}
}
