package web

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/graph"
)

// noteRef is a note as lists show it.
type noteRef struct {
	ID    string   `json:"id"`
	Title string   `json:"title"`
	Tags  []string `json:"tags,omitempty"`
}

func (s *Server) status(w http.ResponseWriter, r *http.Request) (any, error) {
	st, err := s.e.Status(r.Context())
	if err != nil {
		return nil, err
	}
	return map[string]any{"vault": path.Base(st.Vault), "notes": st.Notes, "links": st.Links,
		"brokenLinks": st.BrokenLinks, "tags": st.Tags, "watcher": st.Watcher}, nil
}

// searchHit is one search result with its snippet as safe HTML.
type searchHit struct {
	noteRef
	Score   float64 `json:"score"`
	Snippet string  `json:"snippet"`
}

func (s *Server) search(w http.ResponseWriter, r *http.Request) (any, error) {
	q := r.URL.Query()
	limit, _ := strconv.Atoi(q.Get("limit"))
	res, err := s.e.SearchPage(r.Context(), vaultgraph.SearchQuery{Query: q.Get("q"),
		Mode: vaultgraph.SearchMode(q.Get("mode")), Limit: limit, Tags: list(r, "tags"), Folder: q.Get("folder")})
	if err != nil {
		return nil, err
	}
	hits := make([]searchHit, 0, len(res.Hits))
	for _, h := range res.Hits {
		n, err := s.e.GetNode(r.Context(), h.ID, false)
		if err != nil {
			return nil, err
		}
		if n == nil {
			continue // removed since the search
		}
		hits = append(hits, searchHit{noteRef: noteRef{ID: n.ID, Title: n.Title, Tags: n.Tags},
			Score: h.Score, Snippet: SnippetHTML(h.Snippet)})
	}
	return map[string]any{"hits": hits, "total": res.Total, "warnings": res.Warnings}, nil
}

// notePage is everything the note page shows.
type notePage struct {
	ID         string                `json:"id"`
	Title      string                `json:"title"`
	Tags       []string              `json:"tags"`
	Aliases    []string              `json:"aliases,omitempty"`
	Properties []property            `json:"properties"`
	HTML       string                `json:"html"`
	Links      []vaultgraph.LinkInfo `json:"links"`
	Broken     []string              `json:"broken"`
	Backlinks  []vaultgraph.Backlink `json:"backlinks"`
	Warnings   []string              `json:"warnings,omitempty"`
	Modified   time.Time             `json:"modified"`
	Hash       string                `json:"hash"`
}

// property is a frontmatter property as text.
type property struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// maxBacklinks bounds the backlinks a note page lists.
const maxBacklinks = 500

func (s *Server) note(w http.ResponseWriter, r *http.Request) (any, error) {
	ctx := r.Context()
	links, id, err := s.e.NoteLinks(ctx, r.URL.Query().Get("id"))
	if err != nil {
		return nil, err
	}
	if id == "" {
		return nil, fmt.Errorf("note %q: %w", r.URL.Query().Get("id"), errNotFound)
	}
	n, err := s.e.GetNode(ctx, id, false)
	if err != nil || n == nil {
		return nil, fmt.Errorf("note %q: %w", id, errNotFound)
	}
	body, err := s.e.Content(ctx, id)
	if err != nil {
		return nil, err
	}
	html, err := renderPage(ctx, s.e, id, body, links, n.Tags)
	if err != nil {
		return nil, err
	}
	back, _, err := s.e.Backlinks(ctx, id, maxBacklinks)
	if err != nil {
		return nil, err
	}
	p := notePage{ID: id, Title: n.Title, Tags: n.Tags, Aliases: n.Aliases, HTML: html, Links: n.Links,
		Broken: nonNil(n.Broken), Backlinks: back, Warnings: n.Warnings, Modified: n.Modified, Hash: n.Hash,
		Properties: []property{}}
	for _, pr := range n.Properties {
		p.Properties = append(p.Properties, property{Key: pr.Key, Value: propText(pr.Value)})
	}
	return p, nil
}

func (s *Server) graph(w http.ResponseWriter, r *http.Request) (any, error) {
	g, err := s.e.WholeGraph(r.Context())
	if err != nil {
		return nil, err
	}
	// The whole graph is the one large answer (about 300 bytes a note):
	// compressed (writeJSON) for a client that takes gzip.
	if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Vary", "Accept-Encoding")
	}
	return g, nil
}

// maxAround bounds a graph patch; a larger change reloads the whole graph.
const maxAround = 500

// around answers the page's patch of its global graph after a change:
// Engine.GraphAround of the ids asked for (repeated id parameters), and
// the highest PageRank of the vault now (maxPagerank), the scale of the
// nodes' sizes, which a change moves for every note.
func (s *Server) around(w http.ResponseWriter, r *http.Request) (any, error) {
	ids := r.URL.Query()["id"]
	if len(ids) == 0 || len(ids) > maxAround {
		return nil, fmt.Errorf("graph notes: give 1 to %d id parameters, not %d: %w", maxAround, len(ids), vaultgraph.ErrInvalid)
	}
	notes, missing, err := s.e.GraphAround(r.Context(), ids)
	if err != nil {
		return nil, err
	}
	top, err := s.e.HubsPage(r.Context(), graph.PageRank, vaultgraph.PageQuery{Limit: 1})
	if err != nil {
		return nil, err
	}
	maxPR := 0.0
	if len(top.Hubs) > 0 {
		maxPR = top.Hubs[0].Score
	}
	return map[string]any{"notes": notes, "missing": missing, "maxPagerank": maxPR}, nil
}

// maxLocal bounds the notes of a local graph.
const maxLocal = 400

func (s *Server) local(w http.ResponseWriter, r *http.Request) (any, error) {
	depth, _ := strconv.Atoi(r.URL.Query().Get("depth"))
	if depth < 1 || depth > 2 {
		depth = 1
	}
	return localGraph(r, s.e, r.URL.Query().Get("id"), depth)
}

func (s *Server) path(w http.ResponseWriter, r *http.Request) (any, error) {
	q := r.URL.Query()
	p, warnings, err := s.e.FindPath(r.Context(), q.Get("from"), q.Get("to"), q.Get("directed") == "true")
	if err != nil {
		return nil, err
	}
	out := map[string]any{"path": nil, "warnings": warnings}
	if p != nil {
		refs := make([]noteRef, 0, len(p.Path))
		for _, id := range p.Path {
			n, err := s.e.GetNode(r.Context(), id, false)
			if err != nil {
				return nil, err
			}
			if n != nil {
				refs = append(refs, noteRef{ID: n.ID, Title: n.Title})
			}
		}
		out["path"], out["length"] = refs, p.Length
	}
	return out, nil
}

func (s *Server) hubs(w http.ResponseWriter, r *http.Request) (any, error) {
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	if limit <= 0 {
		limit = 50
	}
	return s.e.HubsPage(r.Context(), graph.Metric(r.URL.Query().Get("metric")), vaultgraph.PageQuery{Limit: min(limit, 200)})
}

func (s *Server) tags(w http.ResponseWriter, r *http.Request) (any, error) {
	return s.e.ListTags(r.Context())
}

// maxTagNotes bounds a tag answer (the graph's tag filter asks for all).
const maxTagNotes = 100000

func (s *Server) tag(w http.ResponseWriter, r *http.Request) (any, error) {
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	if limit <= 0 || limit > maxTagNotes {
		limit = 1000
	}
	nodes, total, err := s.e.SearchByTags(r.Context(), list(r, "tags"), false, limit)
	if err != nil {
		return nil, err
	}
	refs := make([]noteRef, 0, len(nodes))
	for _, n := range nodes {
		refs = append(refs, noteRef{ID: n.ID, Title: n.Title, Tags: n.Tags})
	}
	return map[string]any{"notes": refs, "total": total}, nil
}

func (s *Server) folders(w http.ResponseWriter, r *http.Request) (any, error) {
	g, err := s.e.WholeGraph(r.Context())
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, n := range g.Nodes {
		for d := path.Dir(n.ID); d != "." && !seen[d]; d = path.Dir(d) {
			seen[d] = true
		}
	}
	return nonNil(slices.Sorted(maps.Keys(seen))), nil
}

// propText is a property value as the page shows it (a list: its items).
func propText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case time.Time:
		if x.Hour() == 0 && x.Minute() == 0 && x.Second() == 0 {
			return x.Format(time.DateOnly)
		}
		return x.Format(time.RFC3339)
	case []any:
		parts := make([]string, 0, len(x))
		for _, item := range x {
			parts = append(parts, propText(item))
		}
		return strings.Join(parts, ", ")
	case map[string]any:
		b, _ := json.Marshal(x)
		return string(b)
	}
	return fmt.Sprint(v)
}

// localData is the notes within depth links of one note, and their links.
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

// imageTypes are the attachments the app shows, by extension; any other
// file is refused, so that no page of the vault is served as HTML.
var imageTypes = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
	".webp": "image/webp", ".bmp": "image/bmp", ".avif": "image/avif", ".svg": "image/svg+xml",
}

// fileCSP keeps a served image inert even when opened on its own (an SVG
// with a script runs nothing).
const fileCSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

// file serves the image a link of a note resolves to: ?note=ID&path=FILE.
func (s *Server) file(w http.ResponseWriter, r *http.Request) (any, error) {
	q := r.URL.Query()
	links, id, err := s.e.NoteLinks(r.Context(), q.Get("note"))
	if err != nil {
		return nil, err
	}
	want := q.Get("path")
	if id == "" || !slices.ContainsFunc(links, func(l vaultgraph.NoteLink) bool { return l.File != "" && l.File == want }) {
		return nil, fmt.Errorf("file %q: %w: no link of note %q finds it", want, errNotFound, q.Get("note"))
	}
	ctype, ok := imageTypes[strings.ToLower(path.Ext(want))]
	if !ok {
		return nil, fmt.Errorf("file %q: %w: only images are shown", want, errNotFound)
	}
	root, err := os.OpenRoot(s.e.Root())
	if err != nil {
		return nil, fmt.Errorf("file %q: %w", want, err)
	}
	defer root.Close()
	f, err := root.Open(want)
	if err != nil {
		return nil, fmt.Errorf("file %q: %w", want, errNotFound)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("file %q: %w", want, errNotFound)
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Security-Policy", fileCSP)
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeContent(w, r, "", fi.ModTime(), f)
	return nil, nil
}
