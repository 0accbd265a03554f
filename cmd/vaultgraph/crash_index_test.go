package main

import (
	"context"
	"database/sql"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// indexRows returns what an index file holds of a vault, as text: the
// notes, links and vectors (through link_rows and vector_rows, by note
// ID: the notes' keys depend on the order they were written in), each
// note's tags, the words of the full-text table and where each word of
// the anchor text is, and the meta keys; the mtime-free parts that two
// indexes of the same files share.
func indexRows(t *testing.T, path string) map[string]string {
	t.Helper()
	ctx := context.Background()
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(path)+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(ctx) // the temp table is this connection's own
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "CREATE VIRTUAL TABLE temp.anchor_tokens USING fts5vocab(main, fts_anchor, instance)"); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for name, q := range map[string]string{
		"notes":   "SELECT id, title, hash, aliases, tags, properties FROM notes ORDER BY id",
		"links":   "SELECT source, seq, target, resolved, status, context FROM link_rows ORDER BY source, seq",
		"tags":    "SELECT n.id, t.value FROM notes n, json_each(n.tags) t ORDER BY n.id, t.value",
		"vectors": "SELECT note, chunk, model, dim, hash, hex(vec) FROM vector_rows ORDER BY note, chunk",
		"fts":     "SELECT term, doc, cnt FROM fts_vocab ORDER BY term",
		"anchors": "SELECT n.id, v.col, v.offset, v.term FROM temp.anchor_tokens v JOIN notes n ON n.rowid = v.doc ORDER BY n.id, v.col, v.offset",
		"meta":    "SELECT key, key = 'vault' OR value FROM meta ORDER BY key",
	} {
		rows, err := conn.QueryContext(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		cols, _ := rows.Columns()
		var b strings.Builder
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%q\n", vals)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
		out[name] = b.String()
	}
	return out
}

// countNotes returns how many notes the index file at path holds, and
// whether its anchor text is marked stale; 0 while it cannot be read.
func countNotes(path string) (notes int, stale bool) {
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(path)+"?mode=ro")
	if err != nil {
		return 0, false
	}
	defer db.Close()
	if db.QueryRow("SELECT (SELECT count(*) FROM notes), (SELECT count(*) FROM meta WHERE key = 'anchors_stale')").Scan(&notes, &stale) != nil {
		return 0, false
	}
	return notes, stale
}

// TestCrashIndexKill kills a cold `vaultgraph index` of several chunks
// with SIGKILL once its first chunk is stored, its anchor text left for
// the end: the next `index` finishes the job, and the index then holds
// exactly what a cold index in one go writes, anchor text included.
func TestCrashIndexKill(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and indexes a vault of 4,500 notes three times")
	}
	bin := testBinary(t)
	const notes = 4500 // three chunks of the index pass
	vault := genVault(t, notes)
	want := filepath.Join(t.TempDir(), "want.db")
	if counts, _, _ := runIndex(t, vault, "--index", want); counts[1] != fmt.Sprint(notes) {
		t.Fatalf("reference index parsed %s notes, want %d", counts[1], notes)
	}

	index := filepath.Join(t.TempDir(), "index.db")
	cmd := exec.Command(bin, "index", vault, "--index", index)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	killed := false
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline) && !killed; time.Sleep(5 * time.Millisecond) {
		select {
		case err := <-done:
			t.Fatalf("index ended (%v) before its first chunk was seen stored", err)
		default:
		}
		if n, stale := countNotes(index); n > 0 && stale {
			if err := cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			killed = true
		}
	}
	if !killed {
		t.Fatal("no chunk was stored within 2 minutes")
	}
	<-done
	n, stale := countNotes(index)
	if n == 0 || n >= notes || !stale {
		t.Fatalf("the killed index holds %d notes, anchor text stale %v; want some of the %d notes, stale", n, stale, notes)
	}

	counts, _, _ := runIndex(t, vault, "--index", index)
	if got, want := strings.Join(counts, " "), fmt.Sprintf("%d %d %d 0 0", notes, notes-n, n); got != want {
		t.Errorf("index after the kill: notes, parsed, unchanged, removed, problems = %s, want %s", got, want)
	}
	got, wantRows := indexRows(t, index), indexRows(t, want)
	for name, w := range wantRows {
		if got[name] != w {
			t.Errorf("after the kill and a second index, table %s differs from a cold index in one go:\ngot  %.300s\nwant %.300s", name, got[name], w)
		}
	}
	if wantRows["anchors"] == "" || wantRows["fts"] == "" {
		t.Errorf("the reference index has no anchor text or no full-text words")
	}
}
