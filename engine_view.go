package vaultgraph

import (
	"bytes"
	"context"
	"os"
	"strings"

	"github.com/vaultgraph/vaultgraph/vault"
)

// The reads of this file serve a person looking at the vault (the web
// app): the whole graph at once, a note's links as resolved, and the lines
// that link to a note.

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

// Backlink is a link to a note from another note: the linking note and the
// line that holds the link.
type Backlink struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Line  int    `json:"line"`
	// Text is that line as written, trimmed, at most MaxBacklinkText bytes.
	Text string `json:"text"`
}

// MaxBacklinkText bounds Backlink.Text, in bytes (cut at a rune).
const MaxBacklinkText = 400

// Backlinks returns the links to note id from other notes, by linking note
// (sorted by ID) then line, one per line that links, at most limit of them
// (0: all), and the note's exact ID ("" when no note matches).
func (e *Engine) Backlinks(ctx context.Context, id string, limit int) ([]Backlink, string, error) {
	type src struct {
		path  string
		links []Backlink
	}
	var srcs []src
	if err := e.readLock(); err != nil {
		return nil, "", err
	}
	found, _, err := e.lookup(id)
	if err != nil || found == "" {
		e.mu.RUnlock()
		return nil, "", err
	}
	n := 0
	for _, from := range e.graph.In(found) {
		ns := e.notes[from]
		s := src{path: ns.path}
		for i, l := range ns.note.Links {
			dup := len(s.links) > 0 && s.links[len(s.links)-1].Line == l.Line
			if ns.resolved[i] == found && ns.status[i] == vault.Resolved && !dup && (limit <= 0 || n < limit) {
				s.links = append(s.links, Backlink{ID: from, Title: ns.note.Title, Line: l.Line})
				n++
			}
		}
		srcs = append(srcs, s)
	}
	e.mu.RUnlock()
	out := []Backlink{}
	for _, s := range srcs {
		// A file that cannot be read now (gone since) keeps its links
		// without their text; the next sync drops them.
		src, _ := os.ReadFile(s.path)
		lines := bytes.Split(src, []byte("\n"))
		for _, b := range s.links {
			if b.Line >= 1 && b.Line <= len(lines) {
				b.Text = cutText(strings.TrimSpace(string(lines[b.Line-1])), MaxBacklinkText)
			}
			out = append(out, b)
		}
	}
	return out, found, ctx.Err()
}

// cutText cuts s to at most n bytes without splitting a rune.
func cutText(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= n {
		return s
	}
	for n > 0 && !isRuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
