package vaultgraph

import (
	"testing"

	"github.com/vaultgraph/vaultgraph/internal/store"
)

// TestEmbedContentIsBodyOf: the text an index pass embeds, cut from the
// full-text body, is the text the background embedder reads (bodyOf).
func TestEmbedContentIsBodyOf(t *testing.T) {
	tests := []struct {
		desc, id, src string
		bodyStart     int
	}{
		{"plain", "a.md", "Hello [[b]]\n", 0},
		{"after frontmatter", "a.md", "---\ntags: [x]\n---\n\r\n\nBody text\n", 18},
		{"only line breaks", "a.md", "---\nx: 1\n---\n\r\n\r\n", 12},
		{"empty", "a.md", "", 0},
		{"invalid UTF-8", "a.md", "\n\nbad \xff\xfe bytes \xc3", 0},
		{"invalid at the start", "a.md", "\xff\r\nrest", 0},
		{"drawing", "d.excalidraw.md", "---\nexcalidraw-plugin: parsed\n---\ntext", 33},
		{"start past the end", "a.md", "short", 99},
		{"start at the end", "a.md", "short", 5},
	}
	for _, tt := range tests {
		src := []byte(tt.src)
		body := store.IndexedBody(tt.id, src, tt.bodyStart)
		if got, want := embedContent(src, tt.bodyStart, body), bodyOf(src, tt.bodyStart); got != want {
			t.Errorf("%s: embedContent = %q, want %q (bodyOf)", tt.desc, got, want)
		}
	}
}
