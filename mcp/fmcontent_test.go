package mcp

// Tests of content that carries its own frontmatter, through the tools
// layer: a note read as the vaultgraph://note/{id} resource, edited and
// sent back as update_node content is written byte for byte.

import (
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/vaultgraph/vaultgraph/vault"
)

// readNote reads a note resource's text.
func readNote(t *testing.T, ts *testServer, uri string) string {
	t.Helper()
	res, err := ts.client.ReadResource(context.Background(), mcpgo.ReadResourceRequest{Params: mcpgo.ReadResourceParams{URI: uri}})
	if err != nil || len(res.Contents) != 1 {
		t.Fatalf("resources/read %s = %v, %v", uri, res, err)
	}
	c, ok := res.Contents[0].(mcpgo.TextResourceContents)
	if !ok {
		t.Fatalf("resources/read %s = %T, want text", uri, res.Contents[0])
	}
	return c.Text
}

// editLastLine appends " (edited)" to the last line of text that holds a
// letter and is no fence or "---" line, keeping its line ending.
func editLastLine(t *testing.T, text string) string {
	t.Helper()
	lines := strings.SplitAfter(text, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		line := strings.TrimRight(lines[i], "\r\n")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "```") || strings.HasPrefix(line, "---") {
			continue
		}
		lines[i] = line + " (edited)" + lines[i][len(line):]
		return strings.Join(lines, "")
	}
	t.Fatalf("no line to edit in %q", text)
	return ""
}

func TestUpdateNodeWholeTextRoundTrip(t *testing.T) {
	ts := newTestServer(t)
	// A note with a byte-order mark and CRLF lines, as some editors save.
	ts.write(t, "create_node", map[string]any{"title": "Windows Note", "content": "\uFEFF---\r\ntags: [win]\r\nstatus: draft\r\n---\r\n# Windows\r\n\r\nText #inline.\r\n"})
	uris := listResources(t, ts)
	if len(uris) != 14 {
		t.Fatalf("resources/list = %v, want testvault's 13 notes and Windows Note", uris)
	}
	for _, uri := range uris {
		t.Run(uri, func(t *testing.T) {
			text := readNote(t, ts, uri)
			id, err := url.PathUnescape(strings.TrimPrefix(uri, NoteURIPrefix))
			if err != nil {
				t.Fatal(err)
			}
			before := ts.callJSON(t, "get_node", map[string]any{"id": id, "detail": "full"})
			want := editLastLine(t, text)
			w := ts.write(t, "update_node", map[string]any{"id": before["id"], "content": want})
			file, found := "", false
			for rel, content := range snapshot(t, ts.dir) {
				if vault.NFC(rel) == w.ID { // Café Menu.md is decomposed on disk
					file, found = content, true
				}
			}
			if !found {
				t.Fatalf("no file for %s", w.ID)
			}
			if file != want {
				t.Fatalf("%s after update_node with its read text edited =\n%q\nwant\n%q", w.ID, file, want)
			}
			if got := readNote(t, ts, uri); got != want {
				t.Errorf("resources/read after the update = %q, want %q", got, want)
			}
			after := ts.callJSON(t, "get_node", map[string]any{"id": id, "detail": "full"})
			if !strings.Contains(after["content"].(string), "(edited)") {
				t.Errorf("get_node content = %q, want the edited line in the body", after["content"])
			}
			for _, key := range []string{"title", "tags", "properties"} {
				if g, b := jsonText(t, after[key]), jsonText(t, before[key]); g != b {
					t.Errorf("%s after the round trip = %s, want %s as before", key, g, b)
				}
			}
		})
	}
}

func TestCreateNodeWholeTextWarnings(t *testing.T) {
	ts := newTestServer(t)
	w := ts.write(t, "create_node", map[string]any{
		"title": "X", "content": "---\ntags: [x]\nstatus: draft\n---\nBody",
		"tags": []string{"y"}, "properties": map[string]any{"status": "done"},
	})
	for _, want := range []string{
		"tags [x] from the content's frontmatter replaced by tags [y]",
		"status draft from the content's frontmatter replaced by status done",
	} {
		if !slices.Contains(w.Warnings, want) {
			t.Errorf("create_node warnings = %q, want %q", w.Warnings, want)
		}
	}
	if got, want := ts.file(t, "X.md"), "---\ntags:\n  - y\nstatus: done\n---\nBody\n"; got != want {
		t.Errorf("X.md = %q, want %q", got, want)
	}
	w = ts.write(t, "update_node", map[string]any{"id": "X", "tags": []string{"z"}, "content": "Body #y #z\n"})
	if !slices.Contains(w.Warnings, "#y is written in the body and stays") || slices.Contains(w.Warnings, "#z is written in the body and stays") {
		t.Errorf("update_node warnings = %q, want the inline #y named", w.Warnings)
	}
	text := ts.wantError(t, "INVALID_PARAMS", "update_node", map[string]any{"id": "X", "content": "---\ntags: [x\n---\nBody"})
	if !strings.Contains(text, "malformed YAML") || !strings.Contains(text, "nothing was written") {
		t.Errorf("update_node with malformed frontmatter = %q, want the problem named", text)
	}
}

// jsonText is v in JSON, to compare decoded answers.
func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
