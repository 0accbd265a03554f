package vaultgraph_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/vaultgraph/vaultgraph"
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
	// The context is the engine's one rule (LinkContexts, as get_neighbors
	// gives it): the sentence holding the first link, not its whole line.
	want := map[string]struct {
		line    int
		context string
	}{
		"Notes/Café Menu.md":     {8, "Back to **[[Home]]**."},
		"Projects/Alpha Plan.md": {14, "See **[[Home]]** and [[Notes/Meeting Notes]]."},
		"Notes/Broken YAML.md":   {7, "The note is still indexed, without properties, and links to **[[Home]]**."},
	}
	var ids []string
	for _, b := range back {
		ids = append(ids, b.ID)
		if w, ok := want[b.ID]; ok {
			if b.Line != w.line || b.Context != w.context {
				t.Errorf("Backlinks(Home)[%s] = line %d, %q; want line %d, %q", b.ID, b.Line, b.Context, w.line, w.context)
			}
			delete(want, b.ID)
		}
	}
	if len(want) > 0 {
		t.Errorf("Backlinks(Home) lacks %v", want)
	}
	if !slices.IsSorted(ids) || len(slices.Compact(slices.Clone(ids))) != len(ids) {
		t.Errorf("Backlinks(Home) = %q, want each linking note once, sorted", ids)
	}
	contexts, err := e.LinkContexts(context.Background(), "Home.md", ids)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range back {
		if b.Context != contexts[b.ID] {
			t.Errorf("Backlinks(Home)[%s].Context = %q, LinkContexts says %q", b.ID, b.Context, contexts[b.ID])
		}
	}
	if len(back) < 5 {
		t.Errorf("Backlinks(Home) = %d, want at least 5 notes", len(back))
	}
	if limited, _, _ := e.Backlinks(context.Background(), "Home", 2); len(limited) != 2 {
		t.Errorf("Backlinks(Home, 2) = %d backlinks", len(limited))
	}
}

func TestGraphAround(t *testing.T) {
	e := openTestVault(t)
	ctx := context.Background()
	g, err := e.WholeGraph(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, ed := range g.Edges {
		s, d := g.Nodes[ed[0]].ID, g.Nodes[ed[1]].ID
		out[s] = append(out[s], d)
	}
	notes, missing, err := e.GraphAround(ctx, []string{"Projects/Beta.md", "Nowhere.md"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(missing, []string{"Nowhere.md"}) {
		t.Errorf("GraphAround missing = %v, want [Nowhere.md]", missing)
	}
	got := map[string]bool{}
	for _, n := range notes {
		got[n.ID] = true
		if !slices.Equal(n.Out, out[n.ID]) && len(n.Out)+len(out[n.ID]) > 0 {
			t.Errorf("GraphAround: %s links to %v, WholeGraph says %v", n.ID, n.Out, out[n.ID])
		}
	}
	want := []string{"Projects/Beta.md"}
	for s, ts := range out {
		if slices.Contains(ts, "Projects/Beta.md") {
			want = append(want, s)
		}
	}
	for _, id := range want {
		if !got[id] {
			t.Errorf("GraphAround(Beta) lacks %s (Beta or a note linking to it); got %v", id, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("GraphAround(Beta) = %d notes %v, want %d %v", len(got), got, len(want), want)
	}
}

func TestSection(t *testing.T) {
	e := openTestVault(t)
	ctx := context.Background()
	body, err := e.Content(ctx, "Projects/Beta.md")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		desc, give, want string
		err              error
	}{
		{desc: "a heading, the last of its level: to the end", give: "Goals", want: body[strings.Index(body, "## Goals"):]},
		{desc: "a block", give: "^block1", want: "Ship the beta. ^block1"},
		{desc: "no such heading", give: "Nope", err: vaultgraph.ErrNotFound},
	}
	for _, tt := range tests {
		got, err := e.Section(ctx, "Projects/Beta.md", tt.give)
		if !errors.Is(err, tt.err) || got != tt.want {
			t.Errorf("%s: Section(Beta, %q) = %q, %v; want %q, %v", tt.desc, tt.give, got, err, tt.want, tt.err)
		}
	}
	whole, err := e.Section(ctx, "Projects/Beta.md", "")
	if err != nil || whole != body {
		t.Errorf("Section(Beta, \"\") = %q, %v; want the body %q", whole, err, body)
	}
	if _, err := e.Section(ctx, "Nowhere.md", "Goals"); !errors.Is(err, vaultgraph.ErrNotFound) {
		t.Errorf("Section of a missing note: %v, want ErrNotFound", err)
	}
}
