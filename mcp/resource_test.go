package mcp

// Tests of notes as MCP resources: the template, resources/read and
// notifications/resources/list_changed.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

func TestNoteResources(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	res, err := ts.client.ListResourceTemplates(ctx, mcpgo.ListResourceTemplatesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.ResourceTemplates) != 1 {
		t.Fatalf("resources/templates/list = %v, want one template", res.ResourceTemplates)
	}
	tmpl := res.ResourceTemplates[0]
	if got := tmpl.URITemplate.Raw(); got != "vaultgraph://note/{id}" || tmpl.MIMEType != "text/markdown" {
		t.Errorf("template = %s (%s), want vaultgraph://note/{id} (text/markdown)", got, tmpl.MIMEType)
	}

	read := func(uri string) (*mcpgo.ReadResourceResult, error) {
		req := mcpgo.ReadResourceRequest{}
		req.Params.URI = uri
		return ts.client.ReadResource(ctx, req)
	}
	tests := []struct {
		desc    string
		give    string
		wantURI string // the note's own URI
		file    string // in testvault
	}{
		{"percent-encoded path", NoteURI("Projects/Alpha Plan.md"), "vaultgraph://note/Projects%2FAlpha%20Plan.md", "Projects/Alpha Plan.md"},
		{"non-ASCII, decomposed on disk", "vaultgraph://note/Notes%2FCaf%C3%A9%20Menu.md", NoteURI("Notes/Café Menu.md"), "Notes/Cafe\u0301 Menu.md"},
		{"CJK", NoteURI("Notes/東京 Trip"), NoteURI("Notes/東京 Trip.md"), "Notes/東京 Trip.md"},
		{"bare name", "vaultgraph://note/beta", "vaultgraph://note/Projects%2FBeta.md", "Projects/Beta.md"},
		{"root note", "vaultgraph://note/Home.md", "vaultgraph://note/Home.md", "Home.md"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got, err := read(tt.give)
			if err != nil {
				t.Fatalf("resources/read %s = %v", tt.give, err)
			}
			want, err := os.ReadFile(filepath.Join("..", "testvault", filepath.FromSlash(tt.file)))
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Contents) != 1 {
				t.Fatalf("got %d contents, want 1", len(got.Contents))
			}
			c, ok := got.Contents[0].(mcpgo.TextResourceContents)
			if !ok {
				t.Fatalf("content is %T, want text", got.Contents[0])
			}
			if c.Text != string(want) || c.MIMEType != "text/markdown" {
				t.Errorf("text (%s) = %.60q, want the file %s", c.MIMEType, c.Text, tt.file)
			}
			if c.URI != tt.wantURI {
				t.Errorf("URI = %s, want %s", c.URI, tt.wantURI)
			}
		})
	}
	// mcp-go answers every handler error with -32603; the message says
	// what was wrong.
	for _, tt := range []struct{ uri, want string }{
		{"vaultgraph://note/Nope.md", `no note "Nope.md"`},
		{"vaultgraph://note/Ignored%2FHidden.md", `no note "Ignored/Hidden.md"`},
		{"vaultgraph://note/..%2F..%2Fetc%2Fpasswd", "contains '..'"},
		{"vaultgraph://note/%2Fetc%2Fpasswd", "absolute path"},
		{"vaultgraph://note/%zz", "resource not found"},              // mcp-go refuses the URI
		{"vaultgraph://note/Projects/Beta.md", "resource not found"}, // "/" must be encoded
	} {
		if got, err := read(tt.uri); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("resources/read %s = %v, %v, want an error saying %s", tt.uri, got, err, tt.want)
		}
	}
}

func TestResourcesListChanged(t *testing.T) {
	ts := newTestServer(t)
	got := make(chan string, 16)
	ts.client.OnNotification(func(n mcpgo.JSONRPCNotification) { got <- n.Method })
	ctx := context.Background()

	wait := func(what string) {
		t.Helper()
		timeout := time.After(5 * time.Second)
		for {
			select {
			case m := <-got:
				if m == string(mcpgo.MethodNotificationResourcesListChanged) {
					return
				}
			case <-timeout:
				t.Fatalf("no %s after %s", mcpgo.MethodNotificationResourcesListChanged, what)
			}
		}
	}
	p := filepath.Join(ts.dir, "Inbox", "New Note.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("Links to [[Home]].\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := ts.engine.Sync(ctx, "Inbox/New Note.md"); err != nil {
		t.Fatal(err)
	}
	wait("a note was added")
	if uris := listResources(t, ts); len(uris) != 14 || !slices.Contains(uris, NoteURI("Inbox/New Note.md")) {
		t.Errorf("resources/list after the add = %d resources %v, want testvault's 13 and the new note", len(uris), uris)
	}
	if text, _ := ts.call(t, "get_node", map[string]any{"id": "New Note", "format": "json"}); !strings.Contains(text, `"id":"Inbox/New Note.md"`) {
		t.Errorf("get_node(New Note) = %.80q after the sync", text)
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := ts.engine.Sync(ctx, "Inbox"); err != nil {
		t.Fatal(err)
	}
	wait("a note was removed")
	if uris := listResources(t, ts); len(uris) != 13 || slices.Contains(uris, NoteURI("Inbox/New Note.md")) {
		t.Errorf("resources/list after the removal = %d resources, want testvault's 13", len(uris))
	}
}

// listResources pages through resources/list and returns every URI.
func listResources(t *testing.T, ts *testServer) []string {
	t.Helper()
	var uris []string
	req := mcpgo.ListResourcesRequest{}
	for {
		res, err := ts.client.ListResources(context.Background(), req)
		if err != nil {
			t.Fatalf("resources/list = %v", err)
		}
		for _, r := range res.Resources {
			uris = append(uris, r.URI)
		}
		if res.NextCursor == "" {
			return uris
		}
		req.Params.Cursor = res.NextCursor
	}
}

func TestResourcesListed(t *testing.T) {
	ts := newTestServer(t)
	uris := listResources(t, ts)
	if len(uris) != 13 || !slices.Contains(uris, NoteURI("Notes/Café Menu.md")) || !slices.Contains(uris, NoteURI("Home.md")) {
		t.Fatalf("resources/list = %v, want testvault's 13 notes", uris)
	}
	res, err := ts.client.ReadResource(context.Background(), mcpgo.ReadResourceRequest{Params: mcpgo.ReadResourceParams{URI: NoteURI("Projects/Beta.md")}})
	if err != nil || len(res.Contents) != 1 {
		t.Fatalf("resources/read of a listed note = %v, %v", res, err)
	}
	if text, ok := res.Contents[0].(mcpgo.TextResourceContents); !ok || !strings.Contains(text.Text, "# Beta") {
		t.Errorf("resources/read of a listed note = %+v, want Beta's file", res.Contents[0])
	}
}

// TestResourcesPaged lists more notes than a page holds: every note once,
// in order, ResourcePageSize a page, served from the Engine with nothing
// registered in mcp-go (which would keep a copy of every note).
func TestResourcesPaged(t *testing.T) {
	ts := newTestServer(t)
	ctx := context.Background()
	const added = 2*ResourcePageSize + 37
	dir := filepath.Join(ts.dir, "Many")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range added {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("Note %03d.md", i)), []byte("Links to [[Home]].\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := ts.engine.Sync(ctx, "Many"); err != nil {
		t.Fatal(err)
	}
	var uris, names []string
	var sizes []int
	req := mcpgo.ListResourcesRequest{}
	for {
		res, err := ts.client.ListResourcesByPage(ctx, req)
		if err != nil {
			t.Fatalf("resources/list = %v", err)
		}
		sizes = append(sizes, len(res.Resources))
		for _, r := range res.Resources {
			uris, names = append(uris, r.URI), append(names, r.Name)
			if r.URI != NoteURI(r.Name) || r.MIMEType != "text/markdown" {
				t.Errorf("resource %s (%s) named %q, want the URI of its name, text/markdown", r.URI, r.MIMEType, r.Name)
			}
		}
		if res.NextCursor == "" {
			break
		}
		req.Params.Cursor = res.NextCursor
	}
	if want := []int{ResourcePageSize, ResourcePageSize, added + 13 - 2*ResourcePageSize}; !slices.Equal(sizes, want) {
		t.Errorf("page sizes = %v, want %v", sizes, want)
	}
	if !slices.IsSorted(names) || len(slices.Compact(slices.Clone(names))) != len(names) {
		t.Errorf("resources/list names are not sorted and unique: %v", names)
	}
	for _, id := range []string{"Home.md", "Many/Note 000.md", fmt.Sprintf("Many/Note %03d.md", added-1), "Notes/東京 Trip.md"} {
		if !slices.Contains(uris, NoteURI(id)) {
			t.Errorf("resources/list has no %s", id)
		}
	}
	if n := len(ts.server.ListResources()); n != 0 {
		t.Errorf("mcp-go holds %d registered resources, want none (notes are listed from the Engine)", n)
	}
	last := mcpgo.ReadResourceRequest{}
	last.Params.URI = uris[len(uris)-1]
	if res, err := ts.client.ReadResource(ctx, last); err != nil || len(res.Contents) != 1 {
		t.Errorf("resources/read %s = %v, %v", last.Params.URI, res, err)
	}
	bad := mcpgo.ListResourcesRequest{}
	bad.Params.Cursor = "not base64!"
	if res, err := ts.client.ListResourcesByPage(ctx, bad); err == nil {
		t.Errorf("resources/list with a bad cursor = %v, want an error", res)
	}
}
