package vaultgraph_test

// Hostile paths: ids, folders and titles that try to leave the vault, in
// every tool that takes one, and symlinks out of the vault.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vaultgraph/vaultgraph"
)

// outsideTree is the part of top's tree that is not the vault.
func outsideTree(t testing.TB, top string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for k, v := range fileTree(t, top) {
		if k != "vault" && !strings.HasPrefix(k, "vault/") && !strings.HasPrefix(k, "<mode> vault/") {
			out[k] = v
		}
	}
	return out
}

// TestHostileToolPaths sends every hostile path to every tool parameter
// that names a note, a folder or a title. Reads answer null, an empty
// list or INVALID_PARAMS and never show a file outside the vault; writes
// are refused (INVALID_PARAMS, NODE_NOT_FOUND, NODE_EXISTS) or land inside
// the vault under a portable name; nothing outside the vault changes.
func TestHostileToolPaths(t *testing.T) {
	// Reads share one vault and one engine with an index (search needs
	// it); each write gets a vault of its own, as a write may succeed (a
	// title is cleaned into a name).
	readTop, readDir, outside := escapeVault(t)
	hostileEscapeFiles(t, readTop, readDir)
	readEngine := vaultgraph.New(vaultgraph.Options{Vault: readDir, Index: filepath.Join(t.TempDir(), "index.db")})
	if err := readEngine.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer readEngine.Close()
	reads := newHostileTools(readEngine)
	if text, _ := reads.call(t, "search", map[string]any{"query": "classified", "mode": "keyword", "format": "json"}); !strings.Contains(text, `"total":0`) && !strings.Contains(text, "nodes\":[]") && strings.Contains(text, "Secret") {
		t.Fatalf("search(classified) finds the outside note without any hostile input: %.300q", text)
	}
	for _, s := range hostilePaths(filepath.ToSlash(outside)) {
		for i, hc := range hostileCalls {
			t.Run(fmt.Sprintf("%s#%d/%.40q", hc.tool, i, s), func(t *testing.T) {
				top, dir, h := readTop, readDir, reads
				if hc.write {
					top, dir, _ = escapeVault(t)
					hostileEscapeFiles(t, top, dir)
					e := vaultgraph.New(vaultgraph.Options{Vault: dir, NoIndex: true})
					if err := e.Open(context.Background()); err != nil {
						t.Fatal(err)
					}
					defer e.Close()
					h = newHostileTools(e)
				}
				args := hc.args(s)
				before := outsideTree(t, top)
				vaultBefore := noteFiles(t, dir)
				text, isErr := h.call(t, hc.tool, args)
				if strings.Contains(text, hostileSecret) {
					t.Errorf("%s(%.80q) shows a file outside the vault: %.300q", hc.tool, s, text)
				}
				if d := treeDiff(outsideTree(t, top), before); d != "" {
					t.Errorf("%s(%.80q) CHANGED FILES OUTSIDE THE VAULT:\n%s", hc.tool, s, d)
				}
				if isErr {
					switch code := errorCode(text); code {
					case "INVALID_PARAMS", "NODE_NOT_FOUND", "NODE_EXISTS":
					default:
						t.Errorf("%s(%.80q) = %q, want INVALID_PARAMS, NODE_NOT_FOUND or NODE_EXISTS", hc.tool, s, hostileClip(text))
					}
					if d := treeDiff(noteFiles(t, dir), vaultBefore); d != "" {
						t.Errorf("%s(%.80q) failed (%.100s) but changed the vault:\n%.2000s", hc.tool, s, text, d)
					}
				}
				if !hc.write {
					if d := treeDiff(noteFiles(t, dir), vaultBefore); d != "" {
						t.Errorf("read %s(%.80q) changed the vault:\n%.2000s", hc.tool, s, d)
					}
					return
				}
				checkPortableTree(t, dir, hc.tool, s, text)
				if l := leftovers(t, dir); len(l) > 0 {
					t.Errorf("%s(%.80q) left %q", hc.tool, s, l)
				}
				// The engine still answers.
				if text, isErr := h.call(t, "get_node", map[string]any{"id": "Kept", "format": "json"}); isErr || !strings.Contains(text, `"id":"Folder/Kept.md"`) {
					t.Errorf("after %s(%.80q): get_node(Kept) = %.200q", hc.tool, s, text)
				}
			})
		}
	}
}

// hostileEscapeFiles adds a note to an escapeVault vault and puts the
// secret into the outside note.
func hostileEscapeFiles(t *testing.T, top, dir string) {
	t.Helper()
	write(t, dir, "Folder/Kept.md", "# Kept\n[[Inside]]\n")
	write(t, top, "outside/Secret.md", "# Secret\n"+hostileSecret+" classified\n")
}

// checkPortableTree checks that every note file in the vault has a name
// that every file system takes: no reserved names, no name over 255
// bytes, no name ending in a dot or space, valid UTF-8.
func checkPortableTree(t *testing.T, dir, tool, give, answer string) {
	t.Helper()
	for rel, v := range noteFiles(t, dir) {
		if strings.HasPrefix(v, "<symlink>") {
			continue
		}
		for _, seg := range strings.Split(rel, "/") {
			stem, _, _ := strings.Cut(seg, ".")
			switch strings.ToUpper(strings.TrimRight(stem, " ")) {
			case "CON", "PRN", "AUX", "NUL", "COM1", "COM9", "LPT1", "LPT9", "CONOUT$":
				t.Errorf("%s(%.40q) wrote %s: a reserved Windows name (answer %.200q)", tool, give, rel, answer)
			}
			if len(seg) > 255 || strings.HasSuffix(seg, ".") || strings.HasSuffix(seg, " ") || !utf8.ValidString(seg) {
				t.Errorf("%s(%.40q) wrote %.80q: not a portable name", tool, give, rel)
			}
		}
	}
}

// TestHostileSymlinks: a symlinked folder and a symlinked note pointing
// outside the vault are not indexed as notes (they are reported as
// problems), never shown, and never written through.
func TestHostileSymlinks(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "vault")
	outside := filepath.Join(top, "outside")
	write(t, outside, "Secret.md", "# Secret\n"+hostileSecret+" [[Real]]\n#secret-tag\n")
	write(t, outside, "Sub/Outside Note.md", "# Outside Note\n"+hostileSecret+"\n")
	write(t, dir, "Real.md", "# Real\n[[Leak]] [[Secret]] [[Outside Note]] [[linked/Secret]]\n")
	write(t, dir, "Other.md", "# Other\n[[Real]]\n")
	for name, target := range map[string]string{
		"Leak.md":   filepath.Join(outside, "Secret.md"),
		"linked":    outside,
		"Rel.md":    "../outside/Secret.md", // a relative symlink out
		"Inner.md":  "Real.md",              // a symlink that stays inside: followed
		"Loop.md":   "Loop.md",
		"LoopA":     "LoopB",
		"LoopB":     "LoopA",
		"Up":        "..",
		"RootLink":  ".",
		"Dangle.md": filepath.Join(top, "nowhere.md"),
	} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Skipf("no symlinks here: %v", err)
		}
	}
	index := filepath.Join(t.TempDir(), "index.db")
	e := vaultgraph.New(vaultgraph.Options{Vault: dir, Index: index})
	if err := e.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	h := newHostileTools(e)
	ctx := context.Background()

	// Only the real notes (and the inside symlink) are notes.
	res, err := e.ListNodes(ctx, vaultgraph.ListQuery{Limit: vaultgraph.MaxListLimit})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := nodeIDs(res.Nodes), []string{"Inner.md", "Other.md", "Real.md"}; !slices.Equal(got, want) {
		t.Errorf("notes = %q, want %q", got, want)
	}
	st, err := e.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	reported := map[string]string{}
	for _, p := range st.Problems {
		reported[p.Path] = p.Reason
	}
	for _, p := range []string{"Leak.md", "linked", "Rel.md", "Dangle.md"} {
		if _, ok := reported[p]; !ok {
			t.Errorf("vault_status problems = %v, want %s reported", st.Problems, p)
		}
	}
	for _, tag := range []string{"secret-tag"} {
		if text, _ := h.call(t, "search_by_tags", map[string]any{"tags": []string{tag}, "format": "json"}); !strings.Contains(text, `"total":0`) {
			t.Errorf("search_by_tags(%s) = %.300q, want nothing: the tag is in a file outside", tag, text)
		}
	}

	// Reads never show the outside files.
	reads := []struct {
		tool string
		args map[string]any
	}{
		{"get_node", map[string]any{"id": "Leak", "format": "json"}},
		{"get_node", map[string]any{"id": "Leak.md"}},
		{"get_node", map[string]any{"id": "linked/Secret"}},
		{"get_node", map[string]any{"id": "linked/Sub/Outside Note.md"}},
		{"get_node", map[string]any{"id": "Rel"}},
		{"get_node", map[string]any{"id": "Real", "depth": 1, "detail": "full", "format": "json"}},
		{"get_neighbors", map[string]any{"id": "Real", "format": "json"}},
		{"list_nodes", map[string]any{"folder": "linked", "format": "json"}},
		{"list_nodes", map[string]any{"format": "json", "detail": "full"}},
		{"search", map[string]any{"query": hostileSecret, "mode": "keyword", "format": "json"}},
		{"search", map[string]any{"query": "Secret", "mode": "keyword", "format": "json"}},
		{"list_tags", map[string]any{"format": "json"}},
		{"get_hubs", map[string]any{"format": "json"}},
		{"find_path", map[string]any{"source": "Real", "target": "Leak"}},
	}
	for _, r := range reads {
		text, isErr := h.call(t, r.tool, r.args)
		if strings.Contains(text, hostileSecret) || strings.Contains(text, "secret-tag") {
			t.Errorf("%s(%v) shows an outside file: %.300q", r.tool, r.args, text)
		}
		if isErr && errorCode(text) != "INVALID_PARAMS" {
			t.Errorf("%s(%v) = %.300q, want an answer or INVALID_PARAMS", r.tool, r.args, text)
		}
	}

	// Writes never go through a symlink out, and never remove one's
	// target.
	outsideBefore := outsideTree(t, top)
	writes := []struct {
		tool  string
		args  map[string]any
		codes []string // allowed error codes; empty: must succeed
	}{
		{"create_node", map[string]any{"title": "Leak", "content": "pwned"}, []string{"NODE_EXISTS", "INVALID_PARAMS"}},
		{"create_node", map[string]any{"title": "Rel", "content": "pwned"}, []string{"NODE_EXISTS", "INVALID_PARAMS"}},
		{"create_node", map[string]any{"title": "Dangle", "content": "pwned"}, []string{"NODE_EXISTS", "INVALID_PARAMS"}},
		{"create_node", map[string]any{"title": "Secret", "directory": "linked", "content": "pwned"}, []string{"INVALID_PARAMS"}},
		{"create_node", map[string]any{"title": "New", "directory": "linked/Sub", "content": "pwned"}, []string{"INVALID_PARAMS"}},
		{"create_node", map[string]any{"title": "New", "directory": "Up", "content": "pwned"}, []string{"INVALID_PARAMS"}},
		{"create_node", map[string]any{"title": "New", "directory": "LoopA", "content": "pwned"}, []string{"INVALID_PARAMS"}},
		{"update_node", map[string]any{"id": "Leak", "content": "pwned"}, []string{"NODE_NOT_FOUND", "INVALID_PARAMS"}},
		{"update_node", map[string]any{"id": "Leak.md", "tags": []string{"pwned"}}, []string{"NODE_NOT_FOUND", "INVALID_PARAMS"}},
		{"update_node", map[string]any{"id": "linked/Secret.md", "content": "pwned"}, []string{"NODE_NOT_FOUND", "INVALID_PARAMS"}},
		{"update_node", map[string]any{"id": "Other", "title": "Leak"}, []string{"NODE_EXISTS", "INVALID_PARAMS"}},
		{"update_node", map[string]any{"id": "Other", "title": "Rel"}, []string{"NODE_EXISTS", "INVALID_PARAMS"}},
		{"update_node", map[string]any{"id": "Other", "directory": "linked"}, []string{"INVALID_PARAMS"}},
		{"update_node", map[string]any{"id": "Other", "directory": "linked/Sub"}, []string{"INVALID_PARAMS"}},
		{"update_node", map[string]any{"id": "Other", "title": "Secret", "directory": "linked"}, []string{"INVALID_PARAMS"}},
		{"delete_node", map[string]any{"id": "Leak"}, nil},
		{"delete_node", map[string]any{"id": "Leak.md"}, nil},
		{"delete_node", map[string]any{"id": "linked/Secret.md"}, nil},
		{"delete_node", map[string]any{"id": "Rel"}, nil},
	}
	for _, w := range writes {
		vaultBefore := fileTree(t, dir)
		text, isErr := h.call(t, w.tool, w.args)
		if strings.Contains(text, hostileSecret) {
			t.Errorf("%s(%v) shows an outside file: %.300q", w.tool, w.args, text)
		}
		switch {
		case isErr && !slices.Contains(w.codes, errorCode(text)):
			t.Errorf("%s(%v) = %.300q, want one of %q", w.tool, w.args, text, w.codes)
		case !isErr && len(w.codes) > 0:
			t.Errorf("%s(%v) = %.300q, want one of %q", w.tool, w.args, text, w.codes)
		case !isErr && w.tool == "delete_node" && strings.Contains(text, "deleted: true"):
			t.Errorf("%s(%v) = %.300q, want nothing deleted", w.tool, w.args, text)
		}
		if d := treeDiff(outsideTree(t, top), outsideBefore); d != "" {
			t.Fatalf("%s(%v) = %.200q CHANGED FILES OUTSIDE THE VAULT:\n%s", w.tool, w.args, text, d)
		}
		after := fileTree(t, dir)
		delete(after, ".vaultgraph")
		delete(vaultBefore, ".vaultgraph")
		for k, v := range vaultBefore {
			if strings.HasPrefix(v, "<symlink>") && after[k] != v {
				t.Errorf("%s(%v) replaced the symlink %s (%s) with %.80q", w.tool, w.args, k, v, after[k])
			}
		}
		if isErr {
			if d := treeDiff(after, vaultBefore); d != "" {
				t.Errorf("%s(%v) failed but changed the vault:\n%s", w.tool, w.args, d)
			}
		}
	}
	// A rename of a note that the outside file links to changes nothing
	// outside either.
	if text, isErr := h.call(t, "update_node", map[string]any{"id": "Real", "title": "Real Renamed"}); isErr {
		t.Errorf("rename Real = %.300q", text)
	}
	if d := treeDiff(outsideTree(t, top), outsideBefore); d != "" {
		t.Errorf("a rename changed files outside the vault:\n%s", d)
	}
}
