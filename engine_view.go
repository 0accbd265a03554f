package vaultgraph

import (
	"context"

	"github.com/vaultgraph/vaultgraph/vault"
)

// The reads of this file serve a person looking at the vault (the web
// app): the whole graph at once, a note's links as resolved, and the notes
// that link to a note with the sentence of each link.

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
		n := e.notes[id].note
		out.Nodes = append(out.Nodes, GraphNode{ID: id, Title: n.Title, Tags: nonNil(n.Tags),
			PageRank: e.graph.PageRankOf(id), InDegree: e.graph.InDegree(id), OutDegree: e.graph.OutDegree(id)})
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
	out := make([]NoteLink, 0, len(ns.note.Links))
	for i, l := range ns.note.Links {
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
