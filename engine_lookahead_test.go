package vaultgraph_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/vaultgraph/vaultgraph"
)

// TestLookaheadUnparsableFoldsAlike: a cold index of several chunks
// resolves links against the notes it is about to parse; when the first
// of two notes whose paths fold alike ("A.md", "a.md") cannot be parsed,
// the other takes the name, as it does when only it is in the vault, also
// in the links of a note parsed before it ("0 Linker.md").
func TestLookaheadUnparsableFoldsAlike(t *testing.T) {
	const chunk = 10
	dir, _ := ixVault(t, 3*chunk, 5)
	files := map[string]string{
		"A.md":        "\x00\x01\x02 not text",
		"a.md":        "# small a\n",
		"0 Linker.md": "See [[a]] and [[A]].\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opts := vaultgraph.Options{Index: ixIndexPath(t)}
	vaultgraph.WithIndexChunkSize(&opts, chunk)
	e := ixOpen(t, dir, opts)
	if r := e.Report(); r.Problems != 1 {
		t.Errorf("Report().Problems = %d, want 1 (A.md)", r.Problems)
	}
	n, err := e.GetNode(context.Background(), "0 Linker.md", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(n.Links) != 1 || n.Links[0].ID != "a.md" || len(n.Broken) != 0 {
		t.Errorf("GetNode(0 Linker.md): links %+v, broken %q; want both links to a.md", n.Links, n.Broken)
	}
}
