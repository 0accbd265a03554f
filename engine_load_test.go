package vaultgraph_test

// Tests of the incremental SQLite index (SPEC.md "Sync", issue 3): warm
// start, incremental re-index, kill-and-restart, unusable index files,
// NoIndex and TrustIndex. Every incremental result is compared with a
// clean full index of the same files, both as the engine answers and as
// the index file stores it.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/internal/store"
	"github.com/vaultgraph/vaultgraph/internal/testutil"
	"github.com/vaultgraph/vaultgraph/internal/vaultgen"
)

// ixVault generates a vault of n notes with the given seed in a temporary
// folder.
func ixVault(t testing.TB, n int, seed uint64) (string, vaultgen.Stats) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "vault")
	st, err := vaultgen.Generate(dir, vaultgen.Config{Notes: n, Seed: seed})
	if err != nil {
		t.Fatalf("generate a %d-note vault: %v", n, err)
	}
	return dir, st
}

// ixIndexPath is a fresh index file path in a temporary folder.
func ixIndexPath(t testing.TB) string {
	t.Helper()
	return filepath.Join(t.TempDir(), "idx", "index.db")
}

// ixOpen opens an engine on dir with opts and closes it when the test
// ends (closing twice is harmless).
func ixOpen(t testing.TB, dir string, opts vaultgraph.Options) *vaultgraph.Engine {
	t.Helper()
	opts.Vault = dir
	e := vaultgraph.New(opts)
	if err := e.Open(context.Background()); err != nil {
		t.Fatalf("Open(%s, index %s) = %v", dir, opts.Index, err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e
}

// ixState is everything a client can ask an engine, in comparable form.
type ixState struct {
	Nodes  map[string]string   // ID -> GetNode as JSON
	Out    map[string][]string // graph edges
	In     map[string][]string
	Status string // Status as JSON, without the fields that vary per run
}

func ixAnswers(t testing.TB, e *vaultgraph.Engine) ixState {
	t.Helper()
	ctx := context.Background()
	st := ixState{Nodes: map[string]string{}, Out: map[string][]string{}, In: map[string][]string{}}
	g := e.Graph()
	for _, id := range g.IDs() {
		n, err := e.GetNode(ctx, id, false)
		if err != nil || n == nil {
			t.Fatalf("GetNode(%q) = %v, %v; the graph has it", id, n, err)
		}
		b, err := json.Marshal(n)
		if err != nil {
			t.Fatal(err)
		}
		st.Nodes[id] = string(b)
		st.Out[id] = g.Out(id)
		st.In[id] = g.In(id)
	}
	s, err := e.Status(ctx)
	if err != nil {
		t.Fatalf("Status() = %v", err)
	}
	if s.Notes != len(st.Nodes) {
		t.Errorf("Status().Notes = %d, the graph has %d", s.Notes, len(st.Nodes))
	}
	s.Index, s.IndexBytes, s.LastSync, s.LoadTimeMs, s.Watcher = "", 0, time.Time{}, 0, ""
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	st.Status = string(b)
	return st
}

// ixCompare reports how got differs from want, a few notes at most.
func ixCompare(t testing.TB, what string, got, want ixState) {
	t.Helper()
	if got.Status != want.Status {
		t.Errorf("%s: Status()\n got  %s\n want %s", what, got.Status, want.Status)
	}
	var diffs []string
	for id, w := range want.Nodes {
		g, ok := got.Nodes[id]
		switch {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("%q missing, want %s", id, w))
		case g != w:
			diffs = append(diffs, fmt.Sprintf("%q\n  got  %s\n  want %s", id, g, w))
		case !slices.Equal(got.Out[id], want.Out[id]) || !slices.Equal(got.In[id], want.In[id]):
			diffs = append(diffs, fmt.Sprintf("%q edges out %q in %q, want out %q in %q", id, got.Out[id], got.In[id], want.Out[id], want.In[id]))
		}
	}
	for id := range got.Nodes {
		if _, ok := want.Nodes[id]; !ok {
			diffs = append(diffs, fmt.Sprintf("%q present, want it absent", id))
		}
	}
	sort.Strings(diffs)
	if len(diffs) > 0 {
		t.Errorf("%s: %d notes differ, for example:\n%s", what, len(diffs), strings.Join(diffs[:min(5, len(diffs))], "\n"))
	}
}

// ixDump is the content of an index file, in comparable form.
type ixDump struct {
	Notes       map[string]string // ID -> its rows in notes, links, tags and fts
	FTSRows     int
	Attachments string
	Problems    string
	Meta        map[string]string
}

// ixDumpIndex reads the index file at path with plain SQL (no engine may
// have it open).
func ixDumpIndex(t testing.TB, path string) ixDump {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(path)+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // the temporary table below is the connection's
	if _, err := db.Exec(vaultgraph.FTSInstances); err != nil {
		t.Fatal(err)
	}
	// rows returns each row as text, its first column apart.
	rows := func(query string) [][2]string {
		t.Helper()
		rs, err := db.Query(query)
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		defer rs.Close()
		cols, _ := rs.Columns()
		var out [][2]string
		for rs.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rs.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for _, v := range vals[1:] {
				if bs, ok := v.([]byte); ok {
					v = string(bs)
				}
				fmt.Fprintf(&b, " %q", fmt.Sprint(v))
			}
			out = append(out, [2]string{fmt.Sprint(vals[0]), b.String()})
		}
		if err := rs.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	d := ixDump{Notes: map[string]string{}, Meta: map[string]string{}}
	for _, r := range rows("SELECT id, path, title, hash, size, mtime, body_start, aliases, tags, properties, warnings FROM notes") {
		d.Notes[r[0]] = "note" + r[1]
	}
	const links = "SELECT source, seq, kind, target, fragment, alias, property, start, end, target_start, target_end, line, resolved, status FROM link_rows ORDER BY source, seq"
	for _, r := range rows(links) {
		d.Notes[r[0]] += "\nlink_rows" + r[1]
	}
	tokens, err := vaultgraph.FTSTokensByDoc(db)
	if err != nil {
		t.Fatal(err)
	}
	nr, err := db.Query("SELECT id, title, doc FROM notes")
	if err != nil {
		t.Fatal(err)
	}
	for nr.Next() {
		var id, title string
		var doc int64
		if err := nr.Scan(&id, &title, &doc); err != nil {
			t.Fatal(err)
		}
		tok, ok := tokens[doc]
		if !ok {
			tok = "<nil>"
		}
		d.Notes[id] += fmt.Sprintf("\nfts %q %q", title, tok)
	}
	nr.Close() // the one connection is needed below
	if err := nr.Err(); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows("SELECT count(*), 0 FROM fts") {
		d.FTSRows, _ = strconv.Atoi(r[0])
	}
	for _, r := range rows("SELECT path, 0 FROM attachments ORDER BY path") {
		d.Attachments += r[0] + "\n"
	}
	for _, r := range rows("SELECT path, reason FROM problems ORDER BY path") {
		d.Problems += r[0] + r[1] + "\n"
	}
	for _, r := range rows("SELECT key, value FROM meta") {
		d.Meta[r[0]] = r[1]
	}
	return d
}

// ixCompareDumps reports how the index file got differs from want.
func ixCompareDumps(t testing.TB, what string, got, want ixDump) {
	t.Helper()
	var diffs []string
	for id, w := range want.Notes {
		if g := got.Notes[id]; g != w {
			diffs = append(diffs, fmt.Sprintf("rows of %q\n  got  %.2000s\n  want %.2000s", id, g, w))
		}
	}
	for id := range got.Notes {
		if _, ok := want.Notes[id]; !ok {
			diffs = append(diffs, fmt.Sprintf("rows of %q present, want none", id))
		}
	}
	sort.Strings(diffs)
	if len(diffs) > 0 {
		t.Errorf("%s: the index rows of %d notes differ, for example:\n%s", what, len(diffs), strings.Join(diffs[:min(3, len(diffs))], "\n"))
	}
	if got.FTSRows != want.FTSRows || got.FTSRows != len(got.Notes) {
		t.Errorf("%s: %d full-text rows for %d notes, want %d", what, got.FTSRows, len(got.Notes), want.FTSRows)
	}
	if got.Attachments != want.Attachments {
		t.Errorf("%s: attachments %q, want %q", what, got.Attachments, want.Attachments)
	}
	if got.Problems != want.Problems {
		t.Errorf("%s: problems %q, want %q", what, got.Problems, want.Problems)
	}
	if fmt.Sprint(got.Meta) != fmt.Sprint(want.Meta) {
		t.Errorf("%s: meta %v, want %v", what, got.Meta, want.Meta)
	}
}

// ixFull indexes dir from scratch (Rebuild, into a new index file) and
// returns the answers and the index file's content: the reference an
// incremental index must equal.
func ixFull(t testing.TB, dir string, set ...func(*vaultgraph.Options)) (ixState, ixDump) {
	t.Helper()
	if len(set) > 0 {
		return ixFullIndex(t, dir, set...) // the memo is of default options
	}
	key := ixFingerprint(t, dir)
	ixFullMu.Lock()
	ref, ok := ixFullMemo[key]
	ixFullMu.Unlock()
	if ok {
		return ref.state, ref.dump
	}
	st, dump := ixFullIndex(t, dir)
	ixFullMu.Lock()
	ixFullMemo[key] = ixRef{st, dump}
	ixFullMu.Unlock()
	return st, dump
}

// ixRef is a clean full index's answers and dump, kept by ixFull.
type ixRef struct {
	state ixState
	dump  ixDump
}

// ixFullMemo keeps the reference of each vault state already indexed from
// scratch: a test that checks the same unchanged files several times (and
// the full index plus its full-text dump is most of such a test's time
// under -race) computes the reference once.
var (
	ixFullMu   sync.Mutex
	ixFullMemo = map[string]ixRef{}
)

// ixFingerprint names the exact state of every file under dir: path, size,
// modification time and content. Two calls give the same text only when a
// full index of dir would read the same files.
func ixFingerprint(t testing.TB, dir string) string {
	t.Helper()
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00", dir)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%v\x00%d\x00%d\x00", p, info.Mode(), info.Size(), info.ModTime().UnixNano())
		if info.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h.Write(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// ixFullIndex does ixFull's work without the memo, with the options set
// changes.
func ixFullIndex(t testing.TB, dir string, set ...func(*vaultgraph.Options)) (ixState, ixDump) {
	t.Helper()
	path := ixIndexPath(t)
	opts := vaultgraph.Options{Index: path, Rebuild: true}
	for _, f := range set {
		f(&opts)
	}
	e := ixOpen(t, dir, opts)
	r := e.Report()
	if r.Parsed != r.Notes+r.Problems || r.Unchanged != 0 {
		t.Errorf("full index: Report() parsed %d, unchanged %d, want %d, 0", r.Parsed, r.Unchanged, r.Notes+r.Problems)
	}
	st := ixAnswers(t, e)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	return st, ixDumpIndex(t, path)
}

// ixCheckIndex closes e and checks that it answers, and that its index
// file holds, what a clean full index of the same vault does (opened with
// the options set changes).
func ixCheckIndex(t testing.TB, what string, e *vaultgraph.Engine, set ...func(*vaultgraph.Options)) {
	t.Helper()
	got := ixAnswers(t, e)
	path := e.IndexPath()
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	want, wantDump := ixFull(t, e.Root(), set...)
	ixCompare(t, what, got, want)
	ixCompareDumps(t, what, ixDumpIndex(t, path), wantDump)
}

// ixReport checks the counts of a Report.
func ixReport(t testing.TB, what string, r vaultgraph.IndexReport, notes, parsed, unchanged, removed int) {
	t.Helper()
	if r.Notes != notes || r.Parsed != parsed || r.Unchanged != unchanged || r.Removed != removed {
		t.Errorf("%s: Report() notes %d, parsed %d, unchanged %d, removed %d; want %d, %d, %d, %d",
			what, r.Notes, r.Parsed, r.Unchanged, r.Removed, notes, parsed, unchanged, removed)
	}
}

// TestIndexWarmStart: a second Open on an unchanged vault loads everything
// from the index, parses nothing, and answers exactly as the first.
func TestIndexWarmStart(t *testing.T) {
	dir, gen := ixVault(t, 120, 1)
	path := ixIndexPath(t)

	e1 := ixOpen(t, dir, vaultgraph.Options{Index: path})
	r1 := e1.Report()
	ixReport(t, "cold", r1, 120, 120, 0, 0)
	if r1.Rebuilt != "" {
		t.Errorf("cold: Report().Rebuilt = %q for a new index file, want empty", r1.Rebuilt)
	}
	if r1.Links != gen.Links || r1.BrokenLinks != gen.BrokenLinks {
		t.Errorf("cold: Report() links %d, broken %d; generated %d, %d", r1.Links, r1.BrokenLinks, gen.Links, gen.BrokenLinks)
	}
	first := ixAnswers(t, e1)
	if err := e1.Close(); err != nil {
		t.Fatal(err)
	}
	dump1 := ixDumpIndex(t, path)

	var progress atomic.Int64
	e2 := ixOpen(t, dir, vaultgraph.Options{Index: path, Progress: func(int, int) { progress.Add(1) }})
	r2 := e2.Report()
	ixReport(t, "warm", r2, 120, 0, 120, 0)
	if r2.Links != r1.Links || r2.BrokenLinks != r1.BrokenLinks || r2.Problems != 0 || r2.Rebuilt != "" {
		t.Errorf("warm: Report() = %+v, cold was %+v", r2, r1)
	}
	if n := progress.Load(); n != 0 {
		t.Errorf("warm: Progress called %d times, want never (nothing to parse)", n)
	}
	ixCompare(t, "warm start", ixAnswers(t, e2), first)
	if err := e2.Close(); err != nil {
		t.Fatal(err)
	}
	// A warm start on an unchanged vault leaves the index as it was.
	ixCompareDumps(t, "index after a warm start", ixDumpIndex(t, path), dump1)
}

// TestIndexIncremental: after editing 1% of the notes, deleting and adding
// a few, the next Open parses exactly those and ends equal to a full index,
// including the links of unchanged notes whose targets appeared or went.
func TestIndexIncremental(t *testing.T) {
	const notes = 200
	dir, _ := ixVault(t, notes, 2)
	// Links to files of no attachment type: broken until the file exists.
	write(t, dir, "Odd Links.md", "[[data.xyz]] and [[Old/old.dat]]\n")
	write(t, dir, "Old/old.dat", "old data")
	path := ixIndexPath(t)
	e := ixOpen(t, dir, vaultgraph.Options{Index: path})
	ids := e.Graph().IDs()
	sort.Strings(ids)

	// Delete three notes that other notes link to, so that unchanged notes
	// get broken links.
	var deleted []string
	for _, id := range ids {
		if len(deleted) < 3 && e.Graph().InDegree(id) > 0 {
			deleted = append(deleted, id)
		}
	}
	// Add a note named after a broken link target, so that unchanged notes'
	// broken links resolve.
	var brokenTarget string
	for _, id := range ids {
		n := mustNode(t, e, id)
		if len(n.Broken) > 0 && !strings.Contains(n.Broken[0], "/") {
			brokenTarget = n.Broken[0]
			break
		}
	}
	if brokenTarget == "" {
		t.Fatal("the generated vault has no broken link to a bare name")
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}

	// Touch 1%: one rewritten with new content, one with a new mtime only.
	var touched []string
	for _, id := range ids {
		if len(touched) < notes/100 && !slices.Contains(deleted, id) {
			touched = append(touched, id)
		}
	}
	for i, id := range touched {
		p := filepath.Join(dir, filepath.FromSlash(id))
		if i == 0 {
			f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(f, "\nEdited: see [[%s]] and #edited-tag-%d\n", ixName(ids[len(ids)-1]), i)
			f.Close()
		} else {
			old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, id := range deleted {
		remove(t, dir, id)
	}
	// Attachments gone and new: links to them change status, not target
	// (an attachment is no note).
	write(t, dir, "data.xyz", "data")
	remove(t, dir, "Old/old.dat")
	remove(t, dir, "image-1.png")
	write(t, dir, "Added/new-image.png", "not really a PNG")
	write(t, dir, "Added/Embeds.md", "![[new-image.png]] ![[image-2.png]] ![[image-1.png]]\n")
	write(t, dir, brokenTarget+".md", "# Now it exists\n\nBack to [["+ixName(ids[0])+"]].\n")
	write(t, dir, "Added/New One.md", "---\ntags: [fresh]\n---\nLinks to [["+ixName(deleted[0])+"]] (deleted) and [[New Two]].\n")
	write(t, dir, "Added/New Two.md", "# Two\n\n#fresh [[New One]]\n")

	e = ixOpen(t, dir, vaultgraph.Options{Index: path})
	// The note whose time alone changed has the same content hash: it is
	// read but not parsed, and counts as unchanged.
	ixReport(t, "after edits", e.Report(), notes+2, len(touched)-1+4, notes+1-len(touched)-len(deleted)+1, len(deleted))
	if n, _ := e.GetNode(context.Background(), brokenTarget, false); n == nil || n.InDegree == 0 {
		t.Errorf("GetNode(%q) = %+v, want the new note with the links that were broken", brokenTarget, n)
	}
	n := mustNode(t, e, "Odd Links")
	if !slices.Equal(n.Attachments, []string{"data.xyz"}) || !slices.Equal(n.Broken, []string{"Old/old.dat"}) {
		t.Errorf("Odd Links: attachments %q, broken %q; want [data.xyz], [Old/old.dat]", n.Attachments, n.Broken)
	}
	ixCheckIndex(t, "incremental index", e)
}

// TestIndexSameBytesNewMtime: a file rewritten with identical bytes but a
// new modification time. Its size or time differs from the index, so it is
// read; its content hash is the same, so it is not parsed, and nothing but
// its modification time (and, lacking a "created" property, its creation
// date) changes.
func TestIndexSameBytesNewMtime(t *testing.T) {
	dir, _ := ixVault(t, 80, 3)
	path := ixIndexPath(t)
	e := ixOpen(t, dir, vaultgraph.Options{Index: path})
	id := e.Graph().IDs()[7]
	before := ixAnswers(t, e)
	e.Close()

	p := filepath.Join(dir, filepath.FromSlash(id))
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, src, 0o644); err != nil {
		t.Fatal(err)
	}
	mt := time.Now().Add(time.Hour).Truncate(time.Second)
	if err := os.Chtimes(p, mt, mt); err != nil {
		t.Fatal(err)
	}

	e = ixOpen(t, dir, vaultgraph.Options{Index: path})
	ixReport(t, "same bytes", e.Report(), 80, 0, 80, 0)
	n := mustNode(t, e, id)
	var old vaultgraph.Node
	if err := json.Unmarshal([]byte(before.Nodes[id]), &old); err != nil {
		t.Fatal(err)
	}
	if n.Hash != old.Hash || !n.Modified.Equal(mt) {
		t.Errorf("%s: hash %s, modified %v; want hash %s unchanged, modified %v", id, n.Hash, n.Modified, old.Hash, mt)
	}
	after := ixAnswers(t, e)
	for _, st := range []*ixState{&before, &after} {
		var node vaultgraph.Node
		if err := json.Unmarshal([]byte(st.Nodes[id]), &node); err != nil {
			t.Fatal(err)
		}
		node.Modified, node.Created = time.Time{}, time.Time{}
		b, _ := json.Marshal(node)
		st.Nodes[id] = string(b)
	}
	ixCompare(t, "same bytes, new mtime", after, before)
	ixCheckIndex(t, "same bytes, new mtime", e)
}

// TestIndexKillAndRestart: an index cancelled after its first chunk was
// written keeps that work; the next Open finishes it and the result equals
// a clean full index. The vault is 6,000 notes in chunks of 2,000 scaled
// down by 33 (SQLite is slow under -race): cancelled once 1.25 chunks are
// parsed, with the first chunk written.
func TestIndexKillAndRestart(t *testing.T) {
	const chunk = 60
	notes := 3 * chunk
	chunked := func(o *vaultgraph.Options) { vaultgraph.WithIndexChunkSize(o, chunk) }
	dir, _ := ixVault(t, notes, 4)
	path := ixIndexPath(t)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Cancel while the third chunk is parsed: the parser hands a chunk
	// over only when the one before was taken, so by then the first chunk
	// is being written or written (a step writes even when ctx ends), and
	// the third cannot be. Cancelling in the second chunk could come
	// before the first was taken, while the pass's first transactions
	// run (it did, under load).
	opts := vaultgraph.Options{Vault: dir, Index: path, Progress: func(done, total int) {
		if done >= 2*chunk+chunk/4 {
			cancel()
		}
	}}
	chunked(&opts)
	e := vaultgraph.New(opts)
	err := e.Open(ctx)
	if !errors.Is(err, context.Canceled) {
		e.Close()
		t.Fatalf("Open cancelled mid-way = %v, want context.Canceled", err)
	}
	if _, err := e.GetNode(context.Background(), "x", false); !errors.Is(err, vaultgraph.ErrClosed) {
		t.Errorf("GetNode after a failed Open = %v, want ErrClosed", err)
	}
	kept := ixDumpIndex(t, path)
	if n := len(kept.Notes); n < chunk || n >= notes {
		t.Errorf("the interrupted index holds %d notes, want at least the first chunk (%d) and not all %d", n, chunk, notes)
	}
	if kept.Meta["consistent"] == "1" {
		t.Errorf("the interrupted index is marked consistent")
	}

	opts = vaultgraph.Options{Index: path}
	chunked(&opts)
	e = ixOpen(t, dir, opts)
	r := e.Report()
	if r.Unchanged != len(kept.Notes) || r.Parsed != notes-r.Unchanged || r.Notes != notes || r.Removed != 0 {
		t.Errorf("restart: Report() notes %d, parsed %d, unchanged %d, removed %d; want %d, %d, %d, 0",
			r.Notes, r.Parsed, r.Unchanged, r.Removed, notes, notes-len(kept.Notes), len(kept.Notes))
	}
	ixCheckIndex(t, "restarted index", e, chunked)
}

// TestIndexUnusable: a corrupt, truncated or newer-schema index file is set
// aside (index.db.broken-*), rebuilt from the files with a log line, and
// the answers are right.
func TestIndexUnusable(t *testing.T) {
	dir, _ := ixVault(t, 50, 5)
	want, _ := ixFull(t, dir)
	realIndex := func(t *testing.T, path string) {
		e := ixOpen(t, dir, vaultgraph.Options{Index: path})
		if err := e.Close(); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		give func(t *testing.T, path string)
	}{
		{"garbage", func(t *testing.T, path string) {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			garbage := bytes.Repeat([]byte("this is not an SQLite database\x00\xff"), 4096)
			if err := os.WriteFile(path, garbage, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"truncated", func(t *testing.T, path string) {
			realIndex(t, path)
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(path, fi.Size()/2); err != nil {
				t.Fatal(err)
			}
		}},
		{"newer schema", func(t *testing.T, path string) {
			realIndex(t, path)
			db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(path))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Exec("PRAGMA user_version = 99"); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := ixIndexPath(t)
			tt.give(t, path)
			var log bytes.Buffer
			logger := slog.New(slog.NewTextHandler(&log, nil))
			e := ixOpen(t, dir, vaultgraph.Options{Index: path, Logger: logger})
			r := e.Report()
			if r.Rebuilt == "" {
				t.Errorf("Report().Rebuilt is empty, want the reason the index was rebuilt")
			}
			ixReport(t, "rebuilt", r, 50, 50, 0, 0)
			if !strings.Contains(log.String(), "index rebuilt") {
				t.Errorf("log = %q, want a line saying the index was rebuilt", log.String())
			}
			if m, _ := filepath.Glob(path + ".broken-*"); len(m) == 0 {
				t.Errorf("no %s.broken-* file next to the index", filepath.Base(path))
			}
			ixCompare(t, "rebuilt index", ixAnswers(t, e), want)
			e.Close()
			// The rebuilt index is a good one: the next start is warm.
			e = ixOpen(t, dir, vaultgraph.Options{Index: path})
			if r := e.Report(); r.Rebuilt != "" || r.Parsed != 0 {
				t.Errorf("Open after the rebuild: Report() rebuilt %q, parsed %d; want a warm start", r.Rebuilt, r.Parsed)
			}
			ixCompare(t, "warm start on the rebuilt index", ixAnswers(t, e), want)
		})
	}
}

// TestIndexOtherVault: an index file written for another vault is brought
// to this one: every note parsed again, the other vault's notes dropped,
// and the result equal to a fresh index.
func TestIndexOtherVault(t *testing.T) {
	a, _ := ixVault(t, 40, 6)
	b, _ := ixVault(t, 50, 7)
	path := ixIndexPath(t)
	ixOpen(t, a, vaultgraph.Options{Index: path}).Close()

	e := ixOpen(t, b, vaultgraph.Options{Index: path})
	r := e.Report()
	if !strings.Contains(r.Rebuilt, "belonged") || !strings.Contains(r.Rebuilt, filepath.Base(filepath.Dir(a))) {
		t.Errorf("Report().Rebuilt = %q, want it to name the other vault %s", r.Rebuilt, a)
	}
	ixReport(t, "other vault", r, 50, 50, 0, 40)
	ixCheckIndex(t, "index of another vault", e)

	e = ixOpen(t, a, vaultgraph.Options{Index: path})
	ixReport(t, "back to the first vault", e.Report(), 40, 40, 0, 50)
	ixCheckIndex(t, "index of another vault, again", e)
}

// TestIndexNoIndex: NoIndex parses every note every time and writes no
// file.
func TestIndexNoIndex(t *testing.T) {
	dir, _ := ixVault(t, 60, 8)
	want, _ := ixFull(t, dir)
	path := ixIndexPath(t)
	for range 2 {
		e := ixOpen(t, dir, vaultgraph.Options{Index: path, NoIndex: true})
		ixReport(t, "NoIndex", e.Report(), 60, 60, 0, 0)
		if s, _ := e.Status(context.Background()); s.Index != "memory" || s.IndexBytes != 0 {
			t.Errorf("NoIndex: Status() index %q, %d bytes; want memory, 0", s.Index, s.IndexBytes)
		}
		ixCompare(t, "NoIndex", ixAnswers(t, e), want)
		e.Close()
	}
	for _, p := range []string{filepath.Dir(path), filepath.Join(dir, vaultgraph.IndexDir)} {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("NoIndex created %s (stat: %v)", p, err)
		}
	}
}

// TestIndexTrust: with TrustIndex and a complete index, Open neither scans
// nor parses; the files' changes are seen by the next normal Open. An
// incomplete index is not trusted.
func TestIndexTrust(t *testing.T) {
	dir, _ := ixVault(t, 60, 9)
	write(t, dir, "Binary.md", "\x00\x01binary") // a problem, kept across opens
	path := ixIndexPath(t)
	e := ixOpen(t, dir, vaultgraph.Options{Index: path})
	ids := e.Graph().IDs()
	want := ixAnswers(t, e)
	e.Close()

	write(t, dir, "Brand New.md", "# New\n\n[["+ixName(ids[0])+"]]\n")
	remove(t, dir, ids[1])
	stored := ixDumpIndex(t, path)
	for range 2 { // the first trusting reader must not spoil the index for the second
		e = ixOpen(t, dir, vaultgraph.Options{Index: path, TrustIndex: true})
		ixReport(t, "TrustIndex", e.Report(), 60, 0, 60, 0)
		if n, _ := e.GetNode(context.Background(), "Brand New", false); n != nil {
			t.Errorf("TrustIndex: GetNode(Brand New) = %s, want nil (not scanned)", n.ID)
		}
		ixCompare(t, "TrustIndex", ixAnswers(t, e), want)
		e.Close()
	}
	// A trusting reader does not write to the index it trusts.
	ixCompareDumps(t, "index after TrustIndex readers", ixDumpIndex(t, path), stored)

	e = ixOpen(t, dir, vaultgraph.Options{Index: path})
	// Binary.md is no note, so it is read again each time.
	ixReport(t, "normal Open after TrustIndex", e.Report(), 60, 2, 59, 1)
	if n, _ := e.GetNode(context.Background(), "Brand New", false); n == nil {
		t.Errorf("GetNode(Brand New) = nil after a normal Open")
	}
	ixCheckIndex(t, "normal Open after TrustIndex", e)

	// An index not marked complete (as after an interrupted index) is
	// compared with the files even with TrustIndex.
	s, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Apply(context.Background(), &store.Batch{Meta: map[string]string{"consistent": "0"}}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	write(t, dir, "Another.md", "# Another\n")
	e = ixOpen(t, dir, vaultgraph.Options{Index: path, TrustIndex: true})
	ixReport(t, "TrustIndex on an incomplete index", e.Report(), 61, 2, 60, 0)
	ixCheckIndex(t, "TrustIndex on an incomplete index", e)
}

// ixName is a note's name as a wikilink spells it: its base name without
// ".md".
func ixName(id string) string { return strings.TrimSuffix(path.Base(id), ".md") }

// TestIndexGraphCache: a start on an unchanged vault takes the graph from
// the graph cache the start before wrote, and answers exactly as a clean
// full index does; after edits made while no process ran, and with a
// damaged cache file, the graph is built again and the answers stay the
// same.
func TestIndexGraphCache(t *testing.T) {
	gen, _ := ixVault(t, 300, 7)
	for _, dir := range []string{testutil.CopyTestVault(t), gen} {
		t.Run(filepath.Base(filepath.Dir(dir)), func(t *testing.T) {
			path := ixIndexPath(t)
			open := func(what string, cached bool) {
				t.Helper()
				e := ixOpen(t, dir, vaultgraph.Options{Index: path})
				if got := e.GraphFromCache(); got != cached {
					t.Errorf("%s: GraphFromCache() = %v, want %v", what, got, cached)
				}
				state := e.DumpState()
				full := ixOpen(t, dir, vaultgraph.Options{NoIndex: true})
				if want := full.DumpState(); state != want {
					t.Errorf("%s: DumpState differs from a NoIndex engine's:\n%s", what, testutil.Clip(lineDiff(state, want)))
				}
				ixCheckIndex(t, what, e)
			}
			open("cold", false)
			// The cold pass's Close kept the caches (keepCaches).
			if _, err := os.Stat(path + ".graph"); err != nil {
				t.Fatalf("no graph cache after a cold index: %v", err)
			}
			open("first warm start", true)
			open("warm start from the graph cache", true)

			ids := ixNoteFiles(t, dir)
			edit := filepath.Join(dir, ids[1])
			b, err := os.ReadFile(edit)
			if err != nil {
				t.Fatal(err)
			}
			link := "\n\nSee [[" + ixName(ids[2]) + "]].\n"
			if err := os.WriteFile(edit, append(b, link...), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(filepath.Join(dir, ids[3])); err != nil {
				t.Fatal(err)
			}
			open("after edits", false) // its sync wrote the index; its Close kept the caches
			open("after edits, warm", true)
			open("after edits, from the graph cache", true)

			g, err := os.ReadFile(path + ".graph")
			if err != nil {
				t.Fatal(err)
			}
			g[len(g)/2] ^= 0x55
			if err := os.WriteFile(path+".graph", g, 0o644); err != nil {
				t.Fatal(err)
			}
			open("damaged graph cache", false)
			open("graph cache written again", true)
		})
	}
}

// ixNoteFiles lists the vault's notes (vault-relative, slash-separated),
// sorted.
func ixNoteFiles(t testing.TB, dir string) []string {
	t.Helper()
	var ids []string
	for p := range testutil.Files(t, dir) {
		if strings.HasSuffix(p, ".md") && !strings.HasPrefix(p, ".") {
			ids = append(ids, p)
		}
	}
	sort.Strings(ids)
	return ids
}

// lineDiff lists the lines only one of a and b has.
func lineDiff(a, b string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for l := range strings.Lines(s) {
			m[l] = true
		}
		return m
	}
	ma, mb := in(a), in(b)
	var out []string
	for l := range ma {
		if !mb[l] {
			out = append(out, "+ "+l)
		}
	}
	for l := range mb {
		if !ma[l] {
			out = append(out, "- "+l)
		}
	}
	sort.Strings(out)
	return strings.Join(out, "")
}

// TestIndexReservedUnparsable: a cold index of several chunks reserves
// the keys of every note it will write; a note linked to but never
// written (binary content) leaves no link resolving to its key: the
// index, read back, answers as the engine that wrote it, with those links
// broken, and holds what a clean full index does.
func TestIndexReservedUnparsable(t *testing.T) {
	const chunk = 40
	chunked := func(o *vaultgraph.Options) { vaultgraph.WithIndexChunkSize(o, chunk) }
	dir, _ := ixVault(t, 3*chunk, 3)
	if err := os.WriteFile(filepath.Join(dir, "Zeta Binary.md"), []byte("\x00\x01\x02 not text"), 0o644); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	linked := 0
	for _, de := range entries {
		if de.IsDir() || !strings.HasSuffix(de.Name(), ".md") || de.Name() == "Zeta Binary.md" || linked == 3 {
			continue
		}
		f, err := os.OpenFile(filepath.Join(dir, de.Name()), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.WriteString("\nSee [[Zeta Binary]].\n")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Fatal(err)
		}
		linked++
	}
	path := ixIndexPath(t)
	opts := vaultgraph.Options{Index: path}
	chunked(&opts)
	cold := ixOpen(t, dir, opts)
	if r := cold.Report(); r.Problems != 1 || r.BrokenLinks == 0 {
		t.Fatalf("cold index: Report() problems %d, broken links %d; want the binary note as a problem and broken links to it", r.Problems, r.BrokenLinks)
	}
	want := ixAnswers(t, cold)
	if err := cold.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(path)+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var links, wrong int
	if err := db.QueryRow(`SELECT count(*), count(*) FILTER (WHERE resolved IS NOT NULL OR status IS NOT 'broken')
		FROM link_rows WHERE target = 'Zeta Binary'`).Scan(&links, &wrong); err != nil {
		t.Fatal(err)
	}
	if links != linked || wrong != 0 {
		t.Errorf("the index holds %d links to the unparsable note, %d of them not stored as broken; want %d, 0", links, wrong, linked)
	}
	warm := ixOpen(t, dir, opts)
	ixCompare(t, "read back after a cold index with an unparsable note", ixAnswers(t, warm), want)
	ixCheckIndex(t, "cold index with an unparsable note", warm, chunked)
}
