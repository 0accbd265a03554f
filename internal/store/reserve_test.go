package store

import (
	"context"
	"slices"
	"testing"
)

// TestReserveDocs: a pass reserves the keys of the notes it will write;
// a link to a reserved note not yet written is stored with its key, not
// as pending, and the note is inserted under it. A reserved note never
// written reads as resolving to nothing, and its key is never given to
// another note, in this process or after a restart.
func TestReserveDocs(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	old := sampleRecord("Old.md")
	old.Note.Links, old.Resolved, old.Status = nil, nil, nil
	if err := s.Apply(ctx, &Batch{Upserts: []*Record{old}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Apply(ctx, &Batch{Reserve: []string{"Old.md", "A.md", "Later.md", "Never.md"}, Meta: map[string]string{"consistent": "0"}}); err != nil {
		t.Fatal(err)
	}
	a := sampleRecord("A.md")
	a.Resolved[0] = "Later.md"
	if err := s.Apply(ctx, &Batch{Upserts: []*Record{a}}); err != nil {
		t.Fatal(err)
	}
	// One link to Later.md, written with Later.md's key before the note.
	links := column(t, s, "SELECT l.resolved FROM links l JOIN notes n ON n.doc = l.source WHERE n.id = 'A.md' AND l.seq = 0")
	pending := column(t, s, "SELECT name FROM pending")
	if len(pending) != 0 || !slices.Equal(links, []string{"3"}) {
		t.Errorf("before Later.md is written: pending %q, link's resolved %q; want no pending note and Later.md's reserved key 3", pending, links)
	}
	later := sampleRecord("Later.md")
	later.Note.Links, later.Resolved, later.Status = nil, nil, nil
	never := sampleRecord("Never.md")
	never.Note.Links, never.Resolved, never.Status = nil, nil, nil
	a.Resolved[0] = "Never.md"
	if err := s.Apply(ctx, &Batch{Upserts: []*Record{later}, Relinks: []*Record{a}, Meta: map[string]string{"consistent": "1"}}); err != nil {
		t.Fatal(err)
	}
	docs := column(t, s, "SELECT id || ' ' || doc FROM notes ORDER BY doc")
	if want := []string{"Old.md 1", "A.md 2", "Later.md 3"}; !slices.Equal(docs, want) {
		t.Errorf("notes' keys = %q, want %q", docs, want)
	}
	snap, err := s.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range snap.Notes {
		if r.Note.ID == "A.md" && r.Resolved[0] != "" {
			t.Errorf("A.md's link to Never.md, never written, loads as resolved to %q, want nothing", r.Resolved[0])
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s, err = Open(ctx, path); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Apply(ctx, &Batch{Upserts: []*Record{never}}); err != nil {
		t.Fatal(err)
	}
	if got := column(t, s, "SELECT doc FROM notes WHERE id = 'Never.md'"); !slices.Equal(got, []string{"5"}) {
		t.Errorf("Never.md written after the pass and a restart has key %q, want 5: the reserved 4 is never given again", got)
	}
}

// column returns the one column query gives, as text.
func column(t *testing.T, s *Store, query string) []string {
	t.Helper()
	var out []string
	if err := queryStrings(context.Background(), s.db, query, func(v ...string) { out = append(out, v[0]) }); err != nil {
		t.Fatal(err)
	}
	return out
}
