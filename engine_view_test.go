package vaultgraph_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/vaultgraph/vaultgraph/vault"
)

func TestWholeGraph(t *testing.T) {
	e := openTestVault(t)
	g, err := e.WholeGraph(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	st, err := e.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Nodes) != st.Notes || len(g.Edges) != st.Edges {
		t.Errorf("WholeGraph = %d notes, %d links; Status says %d, %d", len(g.Nodes), len(g.Edges), st.Notes, st.Edges)
	}
	sum := 0.0
	for _, n := range g.Nodes {
		sum += n.PageRank
	}
	if sum < 0.99 || sum > 1.01 {
		t.Errorf("PageRank sums to %f, want 1", sum)
	}
}

func TestNoteLinks(t *testing.T) {
	e := openTestVault(t)
	links, id, err := e.NoteLinks(context.Background(), "home")
	if err != nil || id != "Home.md" {
		t.Fatalf("NoteLinks(home) = %q, %v", id, err)
	}
	want := map[string]vault.Status{"Alpha Plan": vault.Resolved, "Missing Note": vault.Broken, "Diagram.png": vault.Attachment}
	for _, l := range links {
		if st, ok := want[l.Target]; ok {
			if l.Status != st {
				t.Errorf("link %q: status %s, want %s", l.Target, l.Status, st)
			}
			if l.Target == "Alpha Plan" && l.ID != "Archive/Alpha Plan.md" {
				t.Errorf("[[Alpha Plan]] resolves to %q, want Archive/Alpha Plan.md", l.ID)
			}
			if l.Target == "Diagram.png" && l.File != "Diagram.png" {
				t.Errorf("![[Diagram.png]] finds %q", l.File)
			}
			delete(want, l.Target)
		}
	}
	if len(want) > 0 {
		t.Errorf("links not found: %v", want)
	}
	if _, id, err := e.NoteLinks(context.Background(), "Nowhere"); id != "" || err != nil {
		t.Errorf("NoteLinks(Nowhere) = %q, %v; want \"\", nil", id, err)
	}
}

func TestBacklinks(t *testing.T) {
	e := openTestVault(t)
	back, id, err := e.Backlinks(context.Background(), "Home", 0)
	if err != nil || id != "Home.md" {
		t.Fatalf("Backlinks(Home) = %q, %v", id, err)
	}
	seen := map[string]bool{}
	for _, b := range back {
		key := fmt.Sprint(b.ID, ":", b.Line)
		if seen[key] {
			t.Errorf("backlink %s line %d listed twice", b.ID, b.Line)
		}
		seen[key] = true
		if b.ID == "Notes/Café Menu.md" && b.Text != "Back to [[Home]]." {
			t.Errorf("Café Menu's backlink text = %q", b.Text)
		}
	}
	if len(back) < 5 {
		t.Errorf("Backlinks(Home) = %d, want the lines of at least 5 notes", len(back))
	}
	if limited, _, _ := e.Backlinks(context.Background(), "Home", 2); len(limited) != 2 {
		t.Errorf("Backlinks(Home, 2) = %d backlinks", len(limited))
	}
}
