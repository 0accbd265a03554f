package vaultgraph_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestLookupTitlesFollowChanges looks notes up by frontmatter title and
// alias while a note is added, retitled and removed: the index of titles,
// built at the first lookup that needs it, follows every change.
func TestLookupTitlesFollowChanges(t *testing.T) {
	dir := copyTestVault(t)
	e := openVault(t, dir)
	ctx := context.Background()
	check := func(when string, want map[string]string) {
		t.Helper()
		for id, wantID := range want {
			n, err := e.GetNode(ctx, id, false)
			if err != nil {
				t.Fatalf("%s: GetNode(%q) = %v", when, id, err)
			}
			got := ""
			if n != nil {
				got = n.ID
			}
			if got != wantID {
				t.Errorf("%s: GetNode(%q) = %q, want %q", when, id, got, wantID)
			}
		}
	}
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "Inbox", "Z.md"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := e.Sync(ctx, "Inbox/Z.md"); err != nil {
			t.Fatal(err)
		}
	}
	check("before", map[string]string{"Zeta Title": "", "ZT": ""})
	if err := os.MkdirAll(filepath.Join(dir, "Inbox"), 0o755); err != nil {
		t.Fatal(err)
	}
	write("---\ntitle: Zeta Title\naliases: [ZT, zt]\n---\nBody.\n")
	check("added", map[string]string{"zeta title": "Inbox/Z.md", "ZT": "Inbox/Z.md", "Eta Title": ""})
	write("---\ntitle: Eta Title\n---\nBody.\n")
	check("retitled", map[string]string{"Zeta Title": "", "ZT": "", "eta TITLE": "Inbox/Z.md"})
	if err := os.Remove(filepath.Join(dir, "Inbox", "Z.md")); err != nil {
		t.Fatal(err)
	}
	if err := e.Sync(ctx, "Inbox"); err != nil {
		t.Fatal(err)
	}
	check("removed", map[string]string{"Eta Title": "", "Zeta Title": ""})
}
