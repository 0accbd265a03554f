package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/internal/testutil"
	"github.com/vaultgraph/vaultgraph/web"
)

// open opens an engine on a copy of testvault and serves its web app.
func open(t *testing.T, o web.Options) (*vaultgraph.Engine, *httptest.Server, string) {
	t.Helper()
	dir := testutil.CopyTestVault(t)
	e := vaultgraph.New(vaultgraph.Options{Vault: dir, Index: filepath.Join(t.TempDir(), "index.db")})
	if err := e.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	srv := httptest.NewServer(web.New(e, o))
	t.Cleanup(srv.Close)
	return e, srv, dir
}

func get(t *testing.T, srv *httptest.Server, path string, v any) *http.Response {
	t.Helper()
	res, err := http.Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if v != nil && res.StatusCode == http.StatusOK {
		if err := json.NewDecoder(res.Body).Decode(v); err != nil {
			t.Fatalf("GET %s: decode: %v", path, err)
		}
	}
	return res
}

func TestNotePage(t *testing.T) {
	_, srv, _ := open(t, web.Options{})
	var n struct {
		ID, Title, HTML string
		Tags            []string
		Broken          []string
		Links           []struct{ ID string }
		Backlinks       []struct {
			ID, Context string
			Line        int
		}
	}
	if res := get(t, srv, "/api/note?id=Home", &n); res.StatusCode != http.StatusOK {
		t.Fatalf("GET /api/note?id=Home = %d", res.StatusCode)
	}
	for _, want := range []string{
		`href="#/note/Archive%2FAlpha%20Plan.md"`,                // a bare name, resolved as the graph resolves it
		`href="#/note/Projects%2FAlpha%20Plan.md"`,               // path-qualified, with an alias
		`href="#/note/Notes%2FCaf%C3%A9%20Menu.md"`,              // a %20-encoded markdown link
		`href="#/missing/Missing%20Note"`,                        // a broken link, marked
		`<img src="/api/file?note=Home.md&amp;path=Diagram.png"`, // an embedded image
		`target="_blank"`,                                        // an external link
	} {
		if !strings.Contains(n.HTML, want) {
			t.Errorf("Home's HTML lacks %s:\n%s", want, n.HTML)
		}
	}
	if strings.Contains(n.HTML, `href="#/tag/x"`) {
		t.Errorf("example.com/#x is no tag, but links to one:\n%s", n.HTML)
	}
	if n.ID != "Home.md" || len(n.Backlinks) < 5 || len(n.Broken) == 0 {
		t.Errorf("note = %s, %d backlinks, broken %v", n.ID, len(n.Backlinks), n.Broken)
	}
	// Each backlink carries the engine's context (as get_neighbors gives
	// it): the sentence holding the link, the link in **bold**, not the
	// whole line it is on.
	want := map[string]string{
		"Notes/Café Menu.md":     "Back to **[[Home]]**.",
		"Projects/Alpha Plan.md": "See **[[Home]]** and [[Notes/Meeting Notes]].", // line: "The plan for project alpha. See ..."
	}
	for _, b := range n.Backlinks {
		if w, ok := want[b.ID]; ok {
			if b.Context != w || b.Line <= 0 {
				t.Errorf("backlink from %s = line %d, %q; want %q", b.ID, b.Line, b.Context, w)
			}
			delete(want, b.ID)
		}
	}
	if len(want) > 0 {
		t.Errorf("backlinks %+v lack %v", n.Backlinks, want)
	}
	if res := get(t, srv, "/api/note?id=Nowhere", nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("GET a missing note = %d, want 404", res.StatusCode)
	}
}

func TestSanitize(t *testing.T) {
	body := "<script>alert(1)</script>\n<img src=x onerror=alert(2)>\n<a href=\"javascript:alert(3)\">a</a>\n" +
		"[md](javascript:alert(4))\n<iframe src=\"https://evil.example\"></iframe>\n<svg onload=alert(5)></svg>\n" +
		"<div style=\"background:url(javascript:alert(6))\" onclick=\"alert(7)\">d</div>\n[[<script>alert(8)</script>]]\n" +
		"<form action=\"https://evil.example\"><input name=x></form>\n<b>kept</b>"
	html, err := web.RenderNote("Evil.md", body, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"<script", "onerror", "onload", "onclick", "=\"javascript:", "<iframe", "<svg", "style=", "<form"} {
		if strings.Contains(strings.ToLower(html), bad) {
			t.Errorf("rendered HTML keeps %q:\n%s", bad, html)
		}
	}
	if !strings.Contains(html, "<b>kept</b>") {
		t.Errorf("harmless HTML was dropped:\n%s", html)
	}
	if got := web.SnippetHTML("a **<script>x</script>** b"); got != "a <mark>&lt;script&gt;x&lt;/script&gt;</mark> b" {
		t.Errorf("SnippetHTML = %q", got)
	}
}

func TestFile(t *testing.T) {
	_, srv, dir := open(t, web.Options{})
	if err := os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("no"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := get(t, srv, "/api/file?note=Home.md&path=Diagram.png", nil)
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "image/png" || !strings.Contains(res.Header.Get("Content-Security-Policy"), "sandbox") {
		t.Errorf("GET Diagram.png = %d %q %q", res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Content-Security-Policy"))
	}
	for _, p := range []string{"Home.md", "secret.txt", "../etc/passwd", "/etc/passwd", "Projects/Beta.md"} {
		q := url.Values{"note": {"Home.md"}, "path": {p}}.Encode()
		if res := get(t, srv, "/api/file?"+q, nil); res.StatusCode != http.StatusNotFound {
			t.Errorf("GET file %q = %d, want 404 (only the images a note links)", p, res.StatusCode)
		}
	}
}

func TestReads(t *testing.T) {
	_, srv, _ := open(t, web.Options{})
	// Go's client asks for gzip and unpacks it: the compressed answer
	// decodes to the same graph.
	var g vaultgraph.GraphData
	if res := get(t, srv, "/api/graph", &g); !res.Uncompressed {
		t.Errorf("GET /api/graph was not compressed")
	}
	if len(g.Nodes) != 13 || len(g.Edges) == 0 {
		t.Errorf("graph: %d notes, %d links", len(g.Nodes), len(g.Edges))
	}
	var p struct {
		Path   []struct{ ID string }
		Length int
	}
	get(t, srv, "/api/path?"+url.Values{"from": {"Deep Note"}, "to": {"東京 Trip"}}.Encode(), &p)
	if p.Length != 3 || len(p.Path) != 4 || p.Path[3].ID != "Notes/東京 Trip.md" {
		t.Errorf("path = %+v", p)
	}
	var s struct {
		Hits []struct{ ID, Snippet string }
	}
	get(t, srv, "/api/search?q=cafe&folder=Notes", &s)
	if len(s.Hits) == 0 || !strings.Contains(s.Hits[len(s.Hits)-1].Snippet+s.Hits[0].Snippet, "<mark>") {
		t.Errorf("search = %+v", s)
	}
	for _, h := range s.Hits {
		if !strings.HasPrefix(h.ID, "Notes/") {
			t.Errorf("search in folder Notes found %s", h.ID)
		}
	}
	var local struct {
		Nodes []struct {
			ID    string
			Depth int
		}
	}
	get(t, srv, "/api/local?id=Beta&depth=2", &local)
	if len(local.Nodes) < 5 || local.Nodes[0].ID != "Projects/Beta.md" {
		t.Errorf("local graph = %+v", local)
	}
	var hubs vaultgraph.HubPage
	get(t, srv, "/api/hubs?metric=pagerank", &hubs)
	if len(hubs.Hubs) == 0 || hubs.Metric != "pagerank" {
		t.Errorf("hubs = %+v", hubs)
	}
	if res := get(t, srv, "/api/hubs?metric=nonsense", nil); res.StatusCode != http.StatusBadRequest {
		t.Errorf("hubs with a bad metric = %d, want 400", res.StatusCode)
	}
}

func TestGuardAndHeaders(t *testing.T) {
	guard := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != "Bearer T" {
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			h.ServeHTTP(w, r)
		})
	}
	_, srv, _ := open(t, web.Options{Guard: guard})
	res := get(t, srv, "/", nil)
	if res.StatusCode != http.StatusOK || !strings.Contains(res.Header.Get("Content-Security-Policy"), "script-src 'self'") {
		t.Errorf("GET / = %d, CSP %q: the page is public, with a policy", res.StatusCode, res.Header.Get("Content-Security-Policy"))
	}
	if res := get(t, srv, "/api/status", nil); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("GET /api/status without the token = %d, want 401", res.StatusCode)
	}
	res2, err := http.Post(srv.URL+"/api/status", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	res2.Body.Close()
	if res2.StatusCode != http.StatusNotFound {
		t.Errorf("POST = %d, want 404 (read-only)", res2.StatusCode)
	}
}

func TestEvents(t *testing.T) {
	e, srv, dir := open(t, web.Options{})
	res, err := http.Get(srv.URL + "/api/events")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type = %q", ct)
	}
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	if err := os.WriteFile(filepath.Join(dir, "Projects", "Beta.md"), []byte("# Beta\n\nchanged\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Rescan(context.Background()); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(10 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("the stream ended")
			}
			if strings.HasPrefix(l, "data:") {
				if !strings.Contains(l, `"edited":["Projects/Beta.md"]`) {
					t.Errorf("event %s, want Beta edited", l)
				}
				return
			}
		case <-deadline:
			t.Fatal("no event within 10s of an edit")
		}
	}
}

func TestAround(t *testing.T) {
	e, srv, dir := open(t, web.Options{})
	note := "A new note linking to [[Beta]].\n"
	if err := os.WriteFile(filepath.Join(dir, "Newcomer.md"), []byte(note), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Rescan(context.Background()); err != nil {
		t.Fatal(err)
	}
	var a struct {
		Notes []struct {
			ID       string
			PageRank float64
			Out      []string
		}
		Missing     []string
		MaxPageRank float64
	}
	q := url.Values{"id": {"Newcomer.md", "Gone, with a comma.md"}}.Encode()
	if res := get(t, srv, "/api/around?"+q, &a); res.StatusCode != http.StatusOK {
		t.Fatalf("GET /api/around = %d", res.StatusCode)
	}
	if len(a.Notes) != 1 || a.Notes[0].ID != "Newcomer.md" || len(a.Notes[0].Out) != 1 || a.Notes[0].Out[0] != "Projects/Beta.md" || a.Notes[0].PageRank <= 0 {
		t.Errorf("around(Newcomer) = %+v, want Newcomer linking to Projects/Beta.md", a.Notes)
	}
	if len(a.Missing) != 1 || a.Missing[0] != "Gone, with a comma.md" {
		t.Errorf("missing = %v", a.Missing)
	}
	// The scale of the sizes: the highest PageRank the whole graph gives
	// now, with the new note.
	var whole struct{ Nodes []struct{ PageRank float64 } }
	get(t, srv, "/api/graph", &whole)
	maxPR := 0.0
	for _, n := range whole.Nodes {
		maxPR = max(maxPR, n.PageRank)
	}
	if a.MaxPageRank != maxPR || maxPR == 0 {
		t.Errorf("around's maxPagerank = %v, want the graph's highest PageRank %v", a.MaxPageRank, maxPR)
	}
	if res := get(t, srv, "/api/around", nil); res.StatusCode != http.StatusBadRequest {
		t.Errorf("GET /api/around without ids = %d, want 400", res.StatusCode)
	}
}
