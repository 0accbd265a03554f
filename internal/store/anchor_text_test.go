package store

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph/vault"
)

// anchorVault returns the records of n notes that link to each other
// with display text and words after each link, and all to Hub.md: more
// links to Hub than MaxAnchorLinks, so that which of them count matters.
func anchorVault(n int) []*Record {
	var out []*Record
	for i := range n {
		id := fmt.Sprintf("N%03d.md", i)
		body := fmt.Sprintf("Read [[Hub|centre %d]] before lunch. Then [[N%03d|step w%d]] follows quickly.", i, (i*7+3)%n, i)
		note := &vault.Note{ID: id, Title: strings.TrimSuffix(id, ".md")}
		for _, target := range []string{"Hub", fmt.Sprintf("N%03d", (i*7+3)%n)} {
			start := strings.Index(body, "[["+target)
			end := start + strings.Index(body[start:], "]]") + 2
			alias := body[start+2+len(target)+1 : end-2]
			note.Links = append(note.Links, vault.Link{Kind: vault.KindWiki, Target: target, Alias: alias, Start: start, End: end})
		}
		out = append(out, &Record{Note: note, Path: id, Body: body,
			Resolved: []string{"Hub.md", note.Links[1].Target + ".md"}, Status: []vault.Status{vault.Resolved, vault.Resolved}})
	}
	hub := &vault.Note{ID: "Hub.md", Title: "Hub"}
	return append(out, &Record{Note: hub, Path: "Hub.md", Body: "The middle of everything."})
}

// anchorDump returns every token of fts_anchor with the note, column
// and position it is at, one per line, sorted.
func anchorDump(t *testing.T, s *Store) string {
	t.Helper()
	ctx := context.Background()
	conn, err := s.db.Conn(ctx) // a temp table is the connection's own
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "CREATE VIRTUAL TABLE IF NOT EXISTS temp.anchor_tokens USING fts5vocab(main, fts_anchor, instance)"); err != nil {
		t.Fatal(err)
	}
	rows, err := conn.QueryContext(ctx, `SELECT n.id, v.col, v.offset, v.term FROM temp.anchor_tokens v
		JOIN notes n ON n.rowid = v.doc ORDER BY n.id, v.col, v.offset`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var id, col, term string
		var offset int
		if err := rows.Scan(&id, &col, &offset, &term); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %s %d %s\n", id, col, offset, term)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// metaHas reports whether the index has the meta key.
func metaHas(t *testing.T, s *Store, key string) bool {
	t.Helper()
	var n int
	if err := s.db.QueryRow("SELECT count(*) FROM meta WHERE key = ?", key).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n > 0
}

// TestDeferAnchors: batches with DeferAnchors leave the anchor text
// alone, marked stale; the next batch without it, in this process or
// after a restart, writes the anchor text of every note exactly as
// batches that refreshed it one note at a time did.
func TestDeferAnchors(t *testing.T) {
	ctx := context.Background()
	recs := anchorVault(45)
	apply := func(s *Store, b *Batch) {
		t.Helper()
		if err := s.Apply(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	ref, _ := openTemp(t)
	apply(ref, &Batch{Upserts: recs[:20]})
	apply(ref, &Batch{Upserts: recs[20:]})
	want := anchorDump(t, ref)
	if !strings.Contains(want, "Hub.md title") || !strings.Contains(want, "quickly") {
		t.Fatalf("the reference anchor text lacks the hub's display texts or the words after a link:\n%.500s", want)
	}

	for _, restart := range []bool{false, true} {
		s, path := openTemp(t)
		apply(s, &Batch{Upserts: recs[:10], DeferAnchors: true})
		apply(s, &Batch{Upserts: recs[10:30], DeferAnchors: true})
		apply(s, &Batch{Upserts: recs[30:], DeferAnchors: true})
		if got := anchorDump(t, s); got != "" {
			t.Errorf("restart %v: deferred batches wrote anchor text:\n%.300s", restart, got)
		}
		if !metaHas(t, s, metaAnchorsStale) {
			t.Errorf("restart %v: after deferred batches, meta has no %s", restart, metaAnchorsStale)
		}
		if restart { // as after a process killed between two batches
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			var err error
			if s, err = Open(ctx, path); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
		}
		apply(s, &Batch{Meta: map[string]string{"consistent": "1"}})
		if got := anchorDump(t, s); got != want {
			t.Errorf("restart %v: anchor text after the last batch differs from one written note by note:\ngot  %.400s\nwant %.400s", restart, got, want)
		}
		if metaHas(t, s, metaAnchorsStale) {
			t.Errorf("restart %v: meta still has %s after the last batch", restart, metaAnchorsStale)
		}
	}
}

// linkedRecord is the record of note id whose body is given: each
// [[Target|alias]] in it is a link, resolved to Target.md unless the
// target is in broken.
func linkedRecord(id, body string, broken ...string) *Record {
	note := &vault.Note{ID: id, Title: strings.TrimSuffix(id, ".md")}
	r := &Record{Note: note, Path: id, Body: body}
	for at := 0; ; {
		start := strings.Index(body[at:], "[[")
		if start < 0 {
			break
		}
		start += at
		end := start + strings.Index(body[start:], "]]") + 2
		target, alias, _ := strings.Cut(body[start+2:end-2], "|")
		note.Links = append(note.Links, vault.Link{Kind: vault.KindWiki, Target: target, Alias: alias, Start: start, End: end})
		if slices.Contains(broken, target) {
			r.Resolved, r.Status = append(r.Resolved, ""), append(r.Status, vault.Broken)
		} else {
			r.Resolved, r.Status = append(r.Resolved, target+".md"), append(r.Status, vault.Resolved)
		}
		at = end
	}
	return r
}

// TestAnchorsAfterEdits: after each live write the anchor text of every
// note is the one a fresh index of the same notes has, and a write
// works out again only the anchor text of the notes whose incoming links
// it changed: none for an edit that leaves every link and the words
// after it as they were, however many notes link to its targets.
func TestAnchorsAfterEdits(t *testing.T) {
	ctx := context.Background()
	notes := map[string]*Record{}
	for _, r := range anchorVault(45) {
		notes[r.Note.ID] = r
	}
	s, _ := openTemp(t)
	if err := s.Apply(ctx, &Batch{Upserts: slices.Collect(maps.Values(notes))}); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		desc  string
		give  Batch
		wantN int64 // notes whose anchor text is worked out again
	}{
		{"words added after the links' sentences", Batch{Upserts: []*Record{
			linkedRecord("N005.md", "Read [[Hub|centre 5]] before lunch. Then [[N038|step w5]] follows quickly. A new line.")}}, 0},
		{"the words after a link to the hub", Batch{Upserts: []*Record{
			linkedRecord("N005.md", "Read [[Hub|centre 5]] after dinner. Then [[N038|step w5]] follows quickly. A new line.")}}, 1},
		{"a link's display text", Batch{Upserts: []*Record{
			linkedRecord("N005.md", "Read [[Hub|middle 5]] after dinner. Then [[N038|step w5]] follows quickly. A new line.")}}, 1},
		{"a link moved to another note", Batch{Upserts: []*Record{
			linkedRecord("N005.md", "Read [[Hub|middle 5]] after dinner. Then [[N039|step w5]] follows quickly. A new line.")}}, 2},
		{"a link no longer resolves", Batch{Relinks: []*Record{
			linkedRecord("N005.md", "Read [[Hub|middle 5]] after dinner. Then [[N039|step w5]] follows quickly. A new line.", "N039")}}, 1},
		{"a note linking to two notes deleted", Batch{Deletes: []string{"N006.md"}}, 2},
		{"a linked note deleted, its link broken", Batch{Deletes: []string{"N013.md"}, Relinks: []*Record{
			linkedRecord("N040.md", "Read [[Hub|centre 40]] before lunch. Then [[N013|step w40]] follows quickly.", "N013")}}, 2},
		{"the linked note back", Batch{
			Upserts: []*Record{linkedRecord("N013.md", "Back again, see [[Hub|the hub]]. Nothing else.")},
			Relinks: []*Record{linkedRecord("N040.md", "Read [[Hub|centre 40]] before lunch. Then [[N013|step w40]] follows quickly.")}}, 2},
		{"a note linking to a note written after it in the batch", Batch{Upserts: []*Record{
			linkedRecord("N050.md", "Ahead of [[N051|the next one]] by far."), linkedRecord("N051.md", "Last.")}}, 2},
	}
	for _, step := range steps {
		before := s.anchorRows.Load()
		if err := s.Apply(ctx, &step.give); err != nil {
			t.Fatalf("%s: %v", step.desc, err)
		}
		for _, r := range slices.Concat(step.give.Upserts, step.give.Relinks) {
			notes[r.Note.ID] = r
		}
		for _, id := range step.give.Deletes {
			delete(notes, id)
		}
		if got := s.anchorRows.Load() - before; got != step.wantN {
			t.Errorf("%s: anchor text of %d notes worked out again, want %d", step.desc, got, step.wantN)
		}
		fresh, _ := openTemp(t)
		if err := fresh.Apply(ctx, &Batch{Upserts: slices.Collect(maps.Values(notes))}); err != nil {
			t.Fatal(err)
		}
		if got, want := anchorDump(t, s), anchorDump(t, fresh); got != want {
			t.Errorf("%s: anchor text differs from a fresh index's:\ngot  %.600s\nwant %.600s", step.desc, got, want)
		}
	}
}

// TestRefreshAllAnchorsOrder: the anchor text rewritten whole takes a
// hub's first MaxAnchorLinks links by source note ID, also when the
// notes were written in another order (their docs then do not follow
// their IDs) and when the links are read in several ranges of targets.
func TestRefreshAllAnchorsOrder(t *testing.T) {
	ctx := context.Background()
	recs := anchorVault(45)
	ref, _ := openTemp(t)
	if err := ref.Apply(ctx, &Batch{Upserts: recs}); err != nil {
		t.Fatal(err)
	}
	want := anchorDump(t, ref)
	s, _ := openTemp(t)
	s.anchorRowsPerScan = 7
	reversed := slices.Clone(recs)
	slices.Reverse(reversed)
	for i := 0; i < len(reversed); i += 10 {
		if err := s.Apply(ctx, &Batch{Upserts: reversed[i:min(i+10, len(reversed))], DeferAnchors: true}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Apply(ctx, &Batch{Meta: map[string]string{"consistent": "1"}}); err != nil {
		t.Fatal(err)
	}
	if got := anchorDump(t, s); got != want {
		t.Errorf("anchor text rewritten whole after notes written in reverse differs from one written note by note:\ngot  %.400s\nwant %.400s", got, want)
	}
}

// TestAnchorScanPlan: the links are read for the anchor text in the order
// they are stored, not through links_to (a random read of the table per
// link).
func TestAnchorScanPlan(t *testing.T) {
	s, _ := openTemp(t)
	if err := s.Apply(context.Background(), &Batch{Upserts: anchorVault(45)}); err != nil {
		t.Fatal(err)
	}
	rows, err := s.db.Query("EXPLAIN QUERY PLAN "+anchorScan, 1, 100)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if got := strings.Join(plan, "; "); got != "SCAN links" {
		t.Errorf("plan of anchorScan = %q, want %q", got, "SCAN links")
	}
}
