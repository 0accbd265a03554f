package vaultgraph_test

// Tests of live sync (SPEC.md "Sync"): Engine.Watch on a real vault in a
// temporary folder, driven by real file operations and real fsnotify
// events. After each step the engine and the SQLite index it wrote must
// equal a fresh full index of the same files.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph"
	"github.com/vaultgraph/vaultgraph/graph"
	"github.com/vaultgraph/vaultgraph/internal/vaultgen"
	"github.com/vaultgraph/vaultgraph/vault"
)

// watchWait bounds every wait for the watcher. Changes arrive within
// milliseconds; the bound is generous for loaded machines, and nothing
// here asserts on speed.
const watchWait = 3 * time.Second

// watchFast debounces briefly, so that the tests run quickly, and never
// polls, so that only real events can bring the engine up to date.
var watchFast = vault.WatchOptions{Quiet: 20 * time.Millisecond, MaxDelay: 100 * time.Millisecond, Poll: -1}

// watched is an engine over a vault with Watch running.
type watched struct {
	t        *testing.T
	e        *vaultgraph.Engine
	dir      string
	cancel   context.CancelFunc
	done     chan error
	stopOnce sync.Once
	err      error // what Watch returned
}

// warnLog records the warnings and errors an engine logs.
type warnLog struct {
	mu   sync.Mutex
	msgs []string
}

func (l *warnLog) Enabled(_ context.Context, level slog.Level) bool { return level >= slog.LevelWarn }
func (l *warnLog) WithAttrs([]slog.Attr) slog.Handler               { return l }
func (l *warnLog) WithGroup(string) slog.Handler                    { return l }
func (l *warnLog) Handle(_ context.Context, r slog.Record) error {
	msg := r.Level.String() + " " + r.Message
	r.Attrs(func(a slog.Attr) bool { msg += " " + a.String(); return true })
	l.mu.Lock()
	defer l.mu.Unlock()
	l.msgs = append(l.msgs, msg)
	return nil
}

func (l *warnLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.msgs)
}

// openWatched opens an engine over dir with its index in a temporary
// folder; the test fails if it logs a warning or an error.
func openWatched(t *testing.T, dir string) *vaultgraph.Engine {
	t.Helper()
	return openLogged(t, vaultgraph.Options{Vault: dir, Index: filepath.Join(t.TempDir(), "index.db")})
}

// openLogged opens an engine with opts (its Logger set here); the test
// fails if it logs a warning or an error.
func openLogged(t *testing.T, opts vaultgraph.Options) *vaultgraph.Engine {
	t.Helper()
	logs := &warnLog{}
	opts.Logger = slog.New(logs)
	e := vaultgraph.New(opts)
	if err := e.Open(context.Background()); err != nil {
		t.Fatalf("Open(%s) = %v", opts.Vault, err)
	}
	t.Cleanup(func() {
		_ = e.Close()
		for _, msg := range logs.all() {
			t.Errorf("logged: %s", msg)
		}
	})
	return e
}

// startWatching opens an engine over dir and watches it (see watch).
func startWatching(t *testing.T, dir string, opts vault.WatchOptions) *watched {
	t.Helper()
	return watch(t, openWatched(t, dir), opts)
}

// watch runs e.Watch with opts until stopped or the test ends. It returns
// once the watcher runs: its watches are in place and what changed before
// is synced.
func watch(t *testing.T, e *vaultgraph.Engine, opts vault.WatchOptions) *watched {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	w := &watched{t: t, e: e, dir: e.Root(), cancel: cancel, done: make(chan error, 1)}
	go func() { w.done <- e.Watch(ctx, opts) }()
	t.Cleanup(func() { w.stop() })
	deadline := time.Now().Add(watchWait)
	for watcherState(t, e) != "running" {
		if time.Now().After(deadline) {
			t.Fatalf("Status().Watcher = %q %v after Watch started, want running", watcherState(t, e), watchWait)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return w
}

// stop cancels Watch and returns what it returned.
func (w *watched) stop() error {
	w.stopOnce.Do(func() {
		w.cancel()
		select {
		case w.err = <-w.done:
		case <-time.After(watchWait):
			w.t.Error("Watch did not return after cancel")
		}
	})
	return w.err
}

func watcherState(t testing.TB, e *vaultgraph.Engine) string {
	t.Helper()
	s, err := e.Status(context.Background())
	if err != nil {
		t.Fatalf("Status() = %v", err)
	}
	return s.Watcher
}

// freshDumps indexes dir from scratch in a new index file and returns the
// engine's dump and the index file's.
func freshDumps(t testing.TB, dir string) (state, index string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fresh.db")
	e := vaultgraph.New(vaultgraph.Options{Vault: dir, Index: path, Rebuild: true})
	if err := e.Open(context.Background()); err != nil {
		t.Fatalf("Open(%s) = %v", dir, err)
	}
	state = e.DumpState()
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	return state, dumpIndex(t, path)
}

func dumpIndex(t testing.TB, path string) string {
	t.Helper()
	d, err := vaultgraph.DumpIndexFile(path)
	if err != nil {
		t.Fatalf("DumpIndexFile(%s) = %v", path, err)
	}
	return d
}

// dumpDiff lists the lines only in got and only in want.
func dumpDiff(got, want string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	g, w := in(got), in(want)
	var b strings.Builder
	for _, side := range []struct {
		name     string
		this, vs map[string]bool
	}{{"only after watching", g, w}, {"only in a fresh index", w, g}} {
		var lines []string
		for l := range side.this {
			if !side.vs[l] {
				lines = append(lines, l)
			}
		}
		sort.Strings(lines)
		if len(lines) > 0 {
			fmt.Fprintf(&b, "\n%s:\n  %s", side.name, strings.Join(lines, "\n  "))
		}
	}
	return b.String()
}

// settle waits until the engine, and the index it writes, equal a fresh
// full index of the vault and ok (when non-nil) holds.
func (w *watched) settle(step string, ok func() bool) {
	w.t.Helper()
	wantState, wantIndex := freshDumps(w.t, w.dir)
	indexPath := w.e.IndexPath()
	deadline := time.Now().Add(watchWait)
	for {
		okNow := ok == nil || ok()
		gotState := w.e.DumpState()
		var gotIndex string
		if okNow && gotState == wantState {
			// The index is written after the engine changes, under the
			// same sync lock DumpState waits for.
			if gotIndex = dumpIndex(w.t, indexPath); gotIndex == wantIndex {
				return
			}
		}
		if time.Now().After(deadline) {
			if gotIndex == "" {
				gotIndex = dumpIndex(w.t, indexPath)
			}
			if !okNow {
				w.t.Errorf("%s: the engine did not reflect the change within %v", step, watchWait)
			}
			if d := dumpDiff(gotState, wantState); d != "" {
				w.t.Errorf("%s: engine state differs from a fresh index:%s", step, d)
			}
			if d := dumpDiff(gotIndex, wantIndex); d != "" {
				w.t.Errorf("%s: index file differs from a fresh index:%s", step, d)
			}
			w.t.FailNow()
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// node returns the note id or nil (GetNode without content).
func (w *watched) node(id string) *vaultgraph.Node {
	w.t.Helper()
	n, err := w.e.GetNode(context.Background(), id, false)
	if err != nil {
		w.t.Fatalf("GetNode(%q) = %v", id, err)
	}
	return n
}

// has reports whether the note with exactly this ID exists (GetNode also
// finds notes by name or partial path).
func (w *watched) has(id string) bool {
	n := w.node(id)
	return n != nil && n.ID == id
}

func (w *watched) outIDs(id string) []string {
	w.t.Helper()
	nbs, _, _, err := w.e.Neighbors(context.Background(), id, graph.Out, 0)
	if err != nil {
		w.t.Fatalf("Neighbors(%q, out) = %v", id, err)
	}
	ids := nbIDs(nbs)
	sort.Strings(ids)
	return ids
}

func (w *watched) path(rel string) string { return filepath.Join(w.dir, filepath.FromSlash(rel)) }

func (w *watched) rename(from, to string) {
	w.t.Helper()
	if err := os.Rename(w.path(from), w.path(to)); err != nil {
		w.t.Fatal(err)
	}
}

// TestWatch follows a copy of testvault/ through every kind of change an
// editor, a sync tool or a shell makes, one step at a time.
func TestWatch(t *testing.T) {
	dir := copyTestVault(t)
	w := startWatching(t, dir, watchFast)
	w.settle("start", nil)

	// Create: Home's broken [[Missing Note]] resolves.
	write(t, dir, "Missing Note.md", "# Missing Note\n\nBack to [[Home]]. #found\n")
	w.settle("create", func() bool { return w.has("Missing Note.md") })
	if h := mustNode(t, w.e, "Home"); slices.Contains(h.Broken, "Missing Note") {
		t.Errorf("Home.Broken = %q after creating Missing Note.md, want it resolved", h.Broken)
	}

	// Edit the links.
	write(t, dir, "Missing Note.md", "# Missing Note\n\nNow [[Orphan]] and [[Tagged]].\n")
	w.settle("edit links", func() bool { return slices.Equal(w.outIDs("Missing Note"), []string{orphan, tagged}) })

	// Rename: the old ID goes, Home's link breaks again.
	w.rename("Missing Note.md", "Found Note.md")
	w.settle("rename", func() bool { return !w.has("Missing Note.md") && w.has("Found Note.md") })
	if h := mustNode(t, w.e, "Home"); !slices.Contains(h.Broken, "Missing Note") {
		t.Errorf("Home.Broken = %q after renaming Missing Note.md away, want Missing Note", h.Broken)
	}
	// A rename that resolves one link and breaks another.
	w.rename("Orphan.md", "Missing Note.md")
	w.settle("rename onto a broken link", func() bool { return w.has("Missing Note.md") && !w.has("Orphan.md") })
	if got := linkIDs(mustNode(t, w.e, "Home").Links); !slices.Contains(got, "Missing Note.md") {
		t.Errorf("Home links = %q, want Missing Note.md", got)
	}
	if f := mustNode(t, w.e, "Found Note"); !slices.Equal(f.Broken, []string{"Orphan"}) {
		t.Errorf("Found Note broken = %q, want [Orphan]", f.Broken)
	}

	// Atomic save: a temporary file in the same folder renamed over the
	// note.
	home := w.node("Home")
	write(t, dir, "Home.md.tmp-4913", "---\ntags: [home]\n---\n# Home\n\nSaved atomically: [[Found Note]], [[Beta]].\n")
	w.rename("Home.md.tmp-4913", "Home.md")
	w.settle("atomic save", func() bool { return slices.Equal(w.outIDs("Home"), []string{"Found Note.md", beta}) })
	if n := w.node("Home"); n.Hash == home.Hash {
		t.Errorf("Home hash %s unchanged after an atomic save", n.Hash)
	}

	// Vim's backup dance: the note is renamed to a backup, written anew,
	// and the backup deleted (after vim's "4913" probe file).
	write(t, dir, "4913", "")
	remove(t, dir, "4913")
	w.rename("Tagged.md", "Tagged.md~")
	write(t, dir, "Tagged.md", "# Tagged\n\nWritten by vim. #vim [[Home]]\n")
	remove(t, dir, "Tagged.md~")
	w.settle("vim save", func() bool {
		n := w.node("Tagged")
		return n != nil && slices.Contains(n.Tags, "vim")
	})

	// Move a folder: every note in it moves; links by name follow.
	w.rename("Notes", "Journal")
	w.settle("move folder", func() bool { return w.has("Journal/Meeting Notes.md") && !w.has("Notes/Meeting Notes.md") })
	if n := w.node("Journal/Café Menu"); n == nil || n.ID != "Journal/Café Menu.md" {
		t.Errorf("GetNode(Journal/Café Menu) = %v after the move, want the note", n)
	}
	// A folder with nested folders: later edits deep inside are seen
	// under the new path.
	w.rename("Deep", "Deeper")
	w.settle("move nested folders", func() bool { return w.has("Deeper/Nested/Folder/Deep Note.md") })
	write(t, dir, "Deeper/Nested/Folder/Deep Note.md", "# Deep Note\n\nNow links [[Found Note]].\n")
	w.settle("edit in a moved folder", func() bool {
		return slices.Equal(w.outIDs("Deeper/Nested/Folder/Deep Note"), []string{"Found Note.md"})
	})
	// Into another folder.
	w.rename("Projects", "Journal/Projects")
	w.settle("move folder into a folder", func() bool { return w.has("Journal/Projects/Beta.md") && !w.has("Projects/Beta.md") })

	// Delete a folder, then a note.
	if err := os.RemoveAll(w.path("Archive")); err != nil {
		t.Fatal(err)
	}
	w.settle("delete folder", func() bool { return !w.has("Archive/Old Ideas.md") && !w.has("Archive/Alpha Plan.md") })
	remove(t, dir, "Unclosed.md")
	w.settle("delete note", func() bool { return !w.has("Unclosed.md") })

	// A folder tree and its notes created at once.
	if err := os.MkdirAll(w.path("New/Sub/Deepest"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "New/a.md", "# A\n\n[[b]] and ![[pic.png]]\n")
	write(t, dir, "New/Sub/b.md", "# B\n\n[[a]] [[c]]\n")
	write(t, dir, "New/Sub/Deepest/c.md", "# C\n\n[[Home]] #deep\n")
	write(t, dir, "New/Sub/pic.png", "\x89PNG")
	w.settle("create folder and notes", func() bool {
		a := w.node("New/a")
		return a != nil && len(a.Attachments) == 1 && slices.Equal(w.outIDs("New/Sub/b"), []string{"New/Sub/Deepest/c.md", "New/a.md"})
	})

	// Names spelled decomposed on disk (as macOS writes them); IDs are NFC.
	write(t, dir, "Re\u0301sume\u0301.md", "# Résumé\n\n[[Home]]\n")
	w.settle("decomposed note", func() bool { return w.has("Résumé.md") })
	write(t, dir, "Cafe\u0301 Folder/Menu.md", "# Menu\n\n[[Résumé]]\n")
	w.settle("decomposed folder", func() bool { return w.has("Café Folder/Menu.md") })
	w.rename("Cafe\u0301 Folder", "Bistro")
	w.settle("rename decomposed folder", func() bool { return w.has("Bistro/Menu.md") && !w.has("Café Folder/Menu.md") })
	remove(t, dir, "Re\u0301sume\u0301.md")
	w.settle("delete decomposed note", func() bool { return !w.has("Résumé.md") })

	// A case-only rename.
	w.rename("Tagged.md", "tagged.md")
	w.settle("case-only rename", func() bool { return w.has("tagged.md") && !w.has("Tagged.md") })

	// Into an ignored folder and out of it.
	w.rename("Journal/Projects", "Ignored/Projects")
	w.settle("move into an ignored folder", func() bool { return !w.has("Journal/Projects/Beta.md") })
	w.rename("Ignored/Hidden.md", "Hidden.md")
	w.settle("move out of an ignored folder", func() bool { return w.has("Hidden.md") })

	// A burst, as from a git checkout or a sync tool: many notes in new
	// folders and edits of existing ones, then all of it deleted.
	for i := range 100 {
		write(t, dir, fmt.Sprintf("Burst/F%d/Note %d.md", i%10, i), fmt.Sprintf("# Note %d\n\n[[Note %d]] [[Home]] #burst%d\n", i, (i+1)%100, i%3))
	}
	for _, id := range []string{"Found Note.md", "Missing Note.md", "New/a.md", "Journal/Meeting Notes.md"} {
		write(t, dir, id, "# Edited in the burst\n\n[[Note 7]]\n")
	}
	w.settle("burst", func() bool { return w.has("Burst/F9/Note 99.md") })
	if err := os.RemoveAll(w.path("Burst")); err != nil {
		t.Fatal(err)
	}
	w.settle("delete the burst", func() bool { return !w.has("Burst/F9/Note 99.md") })

	// Ignored paths change nothing (settle compares with a fresh index,
	// which ignores them too).
	write(t, dir, ".obsidian/workspace.json", "{}")
	write(t, dir, "Ignored/Late.md", "[[Home]]")
	write(t, dir, ".trash/Late.md", "[[Home]]")
	w.settle("ignored paths", nil)

	// Stop: the watcher is off, and the index it left is complete: a
	// restart parses nothing and answers as a fresh index does.
	if err := w.stop(); err != nil {
		t.Errorf("Watch() = %v after cancel, want nil", err)
	}
	if got := watcherState(t, w.e); got != "off" {
		t.Errorf("Status().Watcher = %q after Watch returned, want off", got)
	}
	indexPath := w.e.IndexPath()
	if err := w.e.Close(); err != nil {
		t.Fatal(err)
	}
	wantState, wantIndex := freshDumps(t, dir)
	if d := dumpDiff(dumpIndex(t, indexPath), wantIndex); d != "" {
		t.Errorf("index file after Close differs from a fresh index:%s", d)
	}
	re := vaultgraph.New(vaultgraph.Options{Vault: dir, Index: indexPath})
	if err := re.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer re.Close()
	if r := re.Report(); r.Parsed != 0 || r.Removed != 0 || r.Rebuilt != "" {
		t.Errorf("reopening the watched index: parsed %d, removed %d, rebuilt %q; want 0, 0, none", r.Parsed, r.Removed, r.Rebuilt)
	}
	if d := dumpDiff(re.DumpState(), wantState); d != "" {
		t.Errorf("engine reopened on the watched index differs from a fresh index:%s", d)
	}
}

// Changes made while no watcher ran are found by Rescan, and by Watch as
// it starts.
func TestWatchRescan(t *testing.T) {
	dir := copyTestVault(t)
	e := openWatched(t, dir)
	edit := func(step int) {
		write(t, dir, fmt.Sprintf("Step %d.md", step), fmt.Sprintf("# Step %d\n\n[[Home]] [[Missing Note]]\n", step))
		write(t, dir, "Orphan.md", fmt.Sprintf("# Orphan\n\nStep %d: [[Step %d]]\n", step, step))
	}

	edit(1)
	write(t, dir, "Missing Note.md", "# Missing Note\n")
	remove(t, dir, "Tagged.md")
	if err := os.Rename(filepath.Join(dir, "Deep"), filepath.Join(dir, "Shallow")); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "Archive")); err != nil {
		t.Fatal(err)
	}
	rep, err := e.Rescan(context.Background())
	if err != nil {
		t.Fatalf("Rescan() = %v", err)
	}
	if rep.Parsed != 4 || rep.Removed != 4 {
		t.Errorf("Rescan() parsed %d, removed %d; want 4 (Step 1, Orphan, Missing Note, Deep Note), 4", rep.Parsed, rep.Removed)
	}
	wantState, wantIndex := freshDumps(t, dir)
	if d := dumpDiff(e.DumpState(), wantState); d != "" {
		t.Errorf("after Rescan the engine differs from a fresh index:%s", d)
	}
	if d := dumpDiff(dumpIndex(t, e.IndexPath()), wantIndex); d != "" {
		t.Errorf("after Rescan the index differs from a fresh index:%s", d)
	}
	if rep, err := e.Rescan(context.Background()); err != nil || rep.Parsed != 0 || rep.Removed != 0 {
		t.Errorf("second Rescan() = parsed %d, removed %d, %v; want nothing to do", rep.Parsed, rep.Removed, err)
	}

	// Changes made while the engine is open but not watching are caught
	// as Watch starts, with no poll.
	edit(2)
	w := watch(t, e, watchFast)
	w.settle("changes before Watch", func() bool { return w.has("Step 2.md") })
	if err := w.stop(); err != nil {
		t.Errorf("Watch() = %v after cancel, want nil", err)
	}
	edit(3)
	remove(t, dir, "Step 1.md")
	w = watch(t, e, watchFast)
	w.settle("changes between two Watch calls", func() bool { return w.has("Step 3.md") && !w.has("Step 1.md") })
}

// With a poll interval, changes no event reports (a changed modification
// time alone) reach the engine.
func TestWatchPoll(t *testing.T) {
	dir := copyTestVault(t)
	opts := watchFast
	opts.Poll = 50 * time.Millisecond
	w := startWatching(t, dir, opts)
	before := w.node("Home")
	when := time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)
	if err := os.Chtimes(w.path("Home.md"), when, when); err != nil {
		t.Fatal(err)
	}
	w.settle("chtimes", func() bool { return w.node("Home").Modified.Equal(when) })
	if after := w.node("Home"); after.Hash != before.Hash {
		t.Errorf("Home hash %s after changing its time only, want %s", after.Hash, before.Hash)
	}
}

// OnChange subscribers hear of syncs that change notes, whether the
// change comes from Sync or from the watcher, and not of those that change
// nothing.
func TestWatchOnChange(t *testing.T) {
	dir := copyTestVault(t)
	w := startWatching(t, dir, watchFast)
	calls := make(chan struct{}, 100)
	w.e.OnChange(func(vaultgraph.Change) {
		select {
		case calls <- struct{}{}:
		default:
		}
	})
	count := func() int {
		n := 0
		for {
			select {
			case <-calls:
				n++
			default:
				return n
			}
		}
	}

	syncPaths(t, w.e, "Home.md", "Orphan.md", "Nowhere.md")
	if n := count(); n != 0 {
		t.Errorf("OnChange called %d times by a Sync of unchanged files, want 0", n)
	}

	write(t, dir, "Orphan.md", "# Orphan\n\nEdited: [[Home]]\n")
	syncPaths(t, w.e, "Orphan.md")
	if n := count(); n != 1 {
		t.Errorf("OnChange called %d times by a Sync of an edited note, want 1", n)
	}
	// The watcher's echo of that edit changes nothing: a note written
	// after it is the only change heard of.
	write(t, dir, "After Echo.md", "# After the echo\n")
	w.settle("edit synced directly", func() bool { return w.has("After Echo.md") })
	if n := count(); n != 1 {
		t.Errorf("OnChange called %d times for the watcher's echo of a synced edit and a new note, want 1", n)
	}

	for _, step := range []struct {
		desc string
		do   func()
	}{
		{"create", func() { write(t, dir, "Watched.md", "# Watched\n") }},
		{"edit", func() { write(t, dir, "Watched.md", "# Watched\n\nEdited.\n") }},
		{"delete", func() { remove(t, dir, "Watched.md") }},
	} {
		step.do()
		select {
		case <-calls:
		case <-time.After(watchWait):
			t.Fatalf("%s: OnChange not called within %v", step.desc, watchWait)
		}
		w.settle(step.desc, nil)
		count()
	}
}

// A sync whose context ends after the engine changed still writes the
// index, so that the index never lags behind the engine.
func TestSyncCancelAfterParse(t *testing.T) {
	dir := copyTestVault(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e := vaultgraph.New(vaultgraph.Options{
		Vault: dir, Index: filepath.Join(t.TempDir(), "index.db"), Workers: 1,
		Progress: func(done, total int) {
			if done == total && total == 1 {
				cancel() // the last (only) note of a Sync is parsed
			}
		},
	})
	if err := e.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	write(t, dir, "Orphan.md", "# Orphan\n\n[[Home]]\n")
	err := e.Sync(ctx, "Orphan.md")
	if err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("Sync() = %v", err)
	}
	changed := slices.Equal(linkIDs(mustNode(t, e, "Orphan").Links), []string{home})
	if err == nil && !changed {
		t.Fatalf("Sync() = nil but Orphan.md was not synced")
	}
	if !changed {
		t.Skip("the cancel came before the engine changed")
	}
	_, wantIndex := freshDumps(t, dir)
	if d := dumpDiff(dumpIndex(t, e.IndexPath()), wantIndex); d != "" {
		t.Errorf("Sync() = %v changed the engine but not the index:%s", err, d)
	}
}

// BenchmarkWatchLatency measures how long an edit takes to become visible
// to queries with Watch running at its default settings: a new note is
// written and GetNode polled until it finds it. Run it with
// -benchtime=200x; it reports the median and 99th percentile in
// milliseconds.
func BenchmarkWatchLatency(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "vault")
	if _, err := vaultgen.Generate(dir, vaultgen.Config{Notes: 2000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	e := vaultgraph.New(vaultgraph.Options{Vault: dir, Index: filepath.Join(b.TempDir(), "index.db")})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := e.Open(ctx); err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	done := make(chan error, 1)
	go func() { done <- e.Watch(ctx, vault.WatchOptions{}) }()
	for s, _ := e.Status(ctx); s.Watcher != "running"; s, _ = e.Status(ctx) {
		time.Sleep(time.Millisecond)
	}
	var lat []time.Duration
	for i := 0; b.Loop(); i++ {
		id := fmt.Sprintf("lat-%d", i)
		start := time.Now()
		if err := os.WriteFile(filepath.Join(dir, id+".md"), []byte("# Latency\n\n[[Home]]\n"), 0o644); err != nil {
			b.Fatal(err)
		}
		for {
			n, err := e.GetNode(ctx, id, false)
			if err != nil {
				b.Fatal(err)
			}
			if n != nil {
				break
			}
			if time.Since(start) > 10*time.Second {
				b.Fatalf("%s not visible after 10s", id)
			}
			time.Sleep(200 * time.Microsecond)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	cancel()
	<-done
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(0, "ns/op")
}

// Closing the engine under a running Watch ends it at the next change.
func TestWatchClosed(t *testing.T) {
	dir := copyTestVault(t)
	w := startWatching(t, dir, watchFast)
	if err := w.e.Close(); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "After Close.md", "# After\n")
	select {
	case err := <-w.done:
		w.stopOnce.Do(func() {})
		if !errors.Is(err, vaultgraph.ErrClosed) {
			t.Errorf("Watch() = %v after Close and a change, want ErrClosed", err)
		}
	case <-time.After(watchWait):
		t.Fatal("Watch still running after Close and a change")
	}
}

// The watcher reports a new folder and the files found in it: each file
// is parsed once.
func TestSyncFolderAndItsFiles(t *testing.T) {
	dir := copyTestVault(t)
	var mu sync.Mutex
	totals := map[int]bool{}
	e := vaultgraph.New(vaultgraph.Options{
		Vault: dir, Index: filepath.Join(t.TempDir(), "index.db"),
		Progress: func(_, total int) {
			mu.Lock()
			totals[total] = true
			mu.Unlock()
		},
	})
	if err := e.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	mu.Lock()
	clear(totals)
	mu.Unlock()
	write(t, dir, "New/a.md", "[[b]]")
	write(t, dir, "New/Sub/b.md", "[[a]]")
	syncPaths(t, e, "New", "New/a.md", "New/Sub", "New/Sub/b.md", "New/a.md")
	mu.Lock()
	defer mu.Unlock()
	if !maps.Equal(totals, map[int]bool{2: true}) {
		t.Errorf("Sync of a new folder and its files parsed %v files at once, want 2", slices.Sorted(maps.Keys(totals)))
	}
	if got := linkIDs(mustNode(t, e, "New/a.md").Links); !slices.Equal(got, []string{"New/Sub/b.md"}) {
		t.Errorf("New/a.md links = %q, want [New/Sub/b.md]", got)
	}
}
