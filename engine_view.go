package vaultgraph

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/vaultgraph/vaultgraph/vault"
)

// GraphData is the whole link graph: every note and every edge.
type GraphData struct {
	Nodes []GraphNode `json:"nodes"`
	// Edges are pairs of indexes into Nodes, source then target.
	Edges [][2]int `json:"edges"`
}

// GraphNode is one note of GraphData.
type GraphNode struct {
	ID        string   `json:"id"`
	Title     string   `json:"title"`
	Tags      []string `json:"tags"`
	PageRank  float64  `json:"pagerank"`
	InDegree  int      `json:"inDegree"`
	OutDegree int      `json:"outDegree"`
}

// WholeGraph returns every note (sorted by ID) with its tags, PageRank and
// degrees, and every link between two notes once.
func (e *Engine) WholeGraph(ctx context.Context) (*GraphData, error) {
	if err := e.readLock(); err != nil {
		return nil, err
	}
	defer e.mu.RUnlock()
	ids := e.graph.IDs()
	at := make(map[string]int, len(ids))
	out := &GraphData{Nodes: make([]GraphNode, 0, len(ids)), Edges: [][2]int{}}
	for i, id := range ids {
		at[id] = i
		out.Nodes = append(out.Nodes, e.graphNode(id))
	}
	for i, id := range ids {
		for _, t := range e.graph.Out(id) {
			if j, ok := at[t]; ok {
				out.Edges = append(out.Edges, [2]int{i, j})
			}
		}
	}
	return out, nil
}

// graphNode is note id as GraphData gives it (caller holds e.mu; the note
// exists).
func (e *Engine) graphNode(id string) GraphNode {
	n := e.notes[id].note
	return GraphNode{ID: id, Title: n.Title, Tags: nonNil(n.Tags),
		PageRank: e.graph.PageRankOf(id), InDegree: e.graph.InDegree(id), OutDegree: e.graph.OutDegree(id)}
}

// GraphNote is a note of the graph with the notes it links to.
type GraphNote struct {
	GraphNode
	Out []string `json:"out"`
}

// GraphAround brings a copy of the whole graph (WholeGraph) up to date
// after a change to the notes ids (exact IDs): it returns those of them
// that exist and every note that links to one of them, each with all the
// notes it links to now (sorted by ID), and the ids no note has. Replacing
// the links of each note returned by its Out, and dropping the missing,
// leaves no link touching ids out of date.
func (e *Engine) GraphAround(ctx context.Context, ids []string) ([]GraphNote, []string, error) {
	if err := e.readLock(); err != nil {
		return nil, nil, err
	}
	defer e.mu.RUnlock()
	var around, missing []string
	for _, id := range ids {
		if _, ok := e.notes[id]; !ok {
			missing = append(missing, id)
			continue
		}
		around = append(around, id)
		around = append(around, e.graph.In(id)...)
	}
	slices.Sort(around)
	notes := []GraphNote{}
	for _, id := range slices.Compact(around) {
		if _, ok := e.notes[id]; !ok {
			continue
		}
		out := []string{}
		for _, t := range e.graph.Out(id) {
			if _, ok := e.notes[t]; ok {
				out = append(out, t)
			}
		}
		notes = append(notes, GraphNote{GraphNode: e.graphNode(id), Out: out})
	}
	return notes, nonNil(missing), nil
}

// NoteLink is one link written in a note, with what it resolves to.
type NoteLink struct {
	Kind     vault.LinkKind `json:"kind"`
	Target   string         `json:"target"`
	Fragment string         `json:"fragment,omitempty"`
	Line     int            `json:"line"`
	// Status is resolved, broken, attachment or self.
	Status vault.Status `json:"status"`
	// ID is the note the link resolves to (Status resolved).
	ID string `json:"id,omitempty"`
	// File is the vault path of the attachment the link finds (Status
	// attachment, when the file exists).
	File string `json:"file,omitempty"`
}

// NoteLinks returns the links of note id (any form Lookup accepts) in file
// order, resolved as the graph resolves them, and the note's exact ID; ""
// when no note matches.
func (e *Engine) NoteLinks(ctx context.Context, id string) ([]NoteLink, string, error) {
	if err := e.readLock(); err != nil {
		return nil, "", err
	}
	defer e.mu.RUnlock()
	found, _, err := e.lookup(id)
	if err != nil || found == "" {
		return nil, "", err
	}
	ns := e.notes[found]
	out := make([]NoteLink, 0, ns.linkLen())
	for i, l := range ns.eachLink() {
		nl := NoteLink{Kind: l.Kind, Target: l.Target, Fragment: l.Fragment, Line: l.Line,
			Status: ns.status[i], ID: ns.resolved[i]}
		if nl.Status == vault.Attachment {
			if f, ok := e.index.ResolveFile(found, l); ok && f.Exists {
				nl.File = f.Path
			}
		}
		out = append(out, nl)
	}
	return out, found, nil
}

// Section returns the part of note id (an exact ID) that fragment (a
// link's "Heading", "H1#H2" or "^block") names, as an embed of it shows it
// (vault.Parser.Section), or the note's body (Content) when fragment is
// "". It wraps ErrNotFound when the note or that part does not exist.
func (e *Engine) Section(ctx context.Context, id, fragment string) (string, error) {
	if vault.SplitAnchor(fragment) == nil {
		return e.Content(ctx, id)
	}
	file, err := e.fileOf(id)
	if err != nil {
		return "", err
	}
	src, ok, err := readFile(file.path)
	if err != nil {
		return "", fmt.Errorf("section of %s: %w", id, err)
	}
	if !ok {
		return "", fmt.Errorf("section of %s: %w", id, ErrNotFound)
	}
	start, end, ok := e.parser.Section(id, src, fragment)
	if !ok {
		return "", fmt.Errorf("section %q of %s: %w", fragment, id, ErrNotFound)
	}
	return strings.ToValidUTF8(string(src[start:end]), "\uFFFD"), nil
}

// Backlink is a note that links to another, with the context of its
// first link to it: what get_neighbors gives an incoming neighbour.
type Backlink struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// Line is the line of that first link.
	Line int `json:"line"`
	// Context is the sentence, list item or table row holding that link,
	// the link in **bold** (LinkContexts); "" when the note's file changed
	// since it was indexed.
	Context string `json:"context"`
}

// Backlinks returns the notes that link to note id, sorted by ID, at most
// limit of them (0: all), each with the context of its first link to id,
// and the note's exact ID ("" when no note matches).
func (e *Engine) Backlinks(ctx context.Context, id string, limit int) ([]Backlink, string, error) {
	if err := e.readLock(); err != nil {
		return nil, "", err
	}
	found, _, err := e.lookup(id)
	if err != nil || found == "" {
		e.mu.RUnlock()
		return nil, "", err
	}
	var from []string
	for _, src := range e.graph.In(found) {
		if _, ok := e.notes[src]; ok && src != found && (limit <= 0 || len(from) < limit) {
			from = append(from, src)
		}
	}
	spots := e.linkSpots(found, from)
	out := make([]Backlink, 0, len(from))
	for _, src := range from {
		out = append(out, Backlink{ID: src, Title: e.notes[src].note.Title, Line: spots[src].lineNo})
	}
	e.mu.RUnlock()
	contexts, err := spotContexts(ctx, spots)
	if err != nil {
		return nil, "", err
	}
	for i := range out {
		out[i].Context = contexts[out[i].ID]
	}
	return out, found, nil
}
