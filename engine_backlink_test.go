package vaultgraph_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestLinkContexts(t *testing.T) {
	dir := makeVault(t, map[string]string{
		"Beta.md":  "# Beta\n",
		"A.md":     "---\nrelated: \"[[Beta]]\"\n---\nFirst. Then [[Beta]] is named here. Last.\n",
		"B.md":     "---\nrelated:\n  - \"[[Beta]]\"\n---\nNo body link.\n",
		"Stale.md": "Old [[Beta]] text.\n",
		"None.md":  "No link at all.\n",
	})
	e := openWriter(t, dir, false)
	// Stale.md changes on disk after it was indexed: its ranges are stale.
	if err := os.WriteFile(filepath.Join(dir, "Stale.md"), []byte("New text, then [[Beta]].\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := e.LinkContexts(context.Background(), "Beta.md", []string{"A.md", "B.md", "Stale.md", "None.md", "Gone.md", "Beta.md"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"A.md": "Then **[[Beta]]** is named here.",
		"B.md": `related: "**[[Beta]]**"`,
	}
	if len(got) != len(want) {
		t.Errorf("LinkContexts = %q, want %q", got, want)
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("LinkContexts[%s] = %q, want %q", id, got[id], w)
		}
	}
}
