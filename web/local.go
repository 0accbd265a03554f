package web

import (
	"fmt"
	"net/http"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/graph"
)

// localData is the graph around one note: the notes within depth links of
// it (either way) and the links between them.
type localData struct {
	Center string     `json:"center"`
	Nodes  []localRef `json:"nodes"`
	Edges  [][2]int   `json:"edges"`
	// Cut is set when the neighbourhood had more than maxLocal notes.
	Cut bool `json:"cut,omitempty"`
}

// localRef is a note of a local graph and its distance from the centre.
type localRef struct {
	noteRef
	Depth int `json:"depth"`
}

// localGraph walks Engine.Neighbors breadth first from id.
func localGraph(r *http.Request, e *vaultgraph.Engine, id string, depth int) (*localData, error) {
	ctx := r.Context()
	start, _, err := e.Lookup(id)
	if err != nil {
		return nil, err
	}
	if start == "" {
		return nil, fmt.Errorf("note %q: %w", id, errNotFound)
	}
	root, err := e.GetNode(ctx, start, false)
	if err != nil || root == nil {
		return nil, fmt.Errorf("note %q: %w", id, errNotFound)
	}
	out := &localData{Center: start, Edges: [][2]int{}}
	at := map[string]int{}
	links := map[string][]vaultgraph.LinkInfo{}
	add := func(n *vaultgraph.Node, d int) bool {
		if _, ok := at[n.ID]; ok {
			return true
		}
		if len(out.Nodes) >= maxLocal {
			out.Cut = true
			return false
		}
		at[n.ID] = len(out.Nodes)
		links[n.ID] = n.Links
		out.Nodes = append(out.Nodes, localRef{noteRef: noteRef{ID: n.ID, Title: n.Title, Tags: n.Tags}, Depth: d})
		return true
	}
	add(root, 0)
	frontier := []string{start}
	for d := 1; d <= depth && !out.Cut; d++ {
		var next []string
		for _, f := range frontier {
			if out.Cut {
				break
			}
			nb, _, _, err := e.Neighbors(ctx, f, graph.Both, 0)
			if err != nil {
				return nil, err
			}
			for _, n := range nb {
				_, seen := at[n.ID]
				if !add(n.Node, d) {
					break
				}
				if !seen {
					next = append(next, n.ID)
				}
			}
		}
		frontier = next
	}
	for _, n := range out.Nodes {
		for _, l := range links[n.ID] {
			if j, ok := at[l.ID]; ok {
				out.Edges = append(out.Edges, [2]int{at[n.ID], j})
			}
		}
	}
	return out, nil
}
