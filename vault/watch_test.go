package vault

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph/internal/testutil"
)

// waitFor bounds every wait for an event. Events come within
// milliseconds; the bound is generous for loaded machines (with 3 s,
// TestWatchIgnored failed once at a load average of 20), and nothing
// here asserts on speed.
const waitFor = 15 * time.Second

// fastWatch debounces briefly, so that the tests run quickly, and never
// polls, so that only real events are seen.
var fastWatch = WatchOptions{Quiet: 20 * time.Millisecond, MaxDelay: 100 * time.Millisecond, Poll: -1}

// watchRun is a Watcher running on a temporary vault.
type watchRun struct {
	t        *testing.T
	root     string
	out      chan Change
	cancel   context.CancelFunc
	done     chan struct{} // closed when Run returns
	sentinel int
	stopOnce sync.Once
}

// startWatch runs a Watcher on root until the test ends, and returns once
// its watches are in place (its first Change, the initial Rescan).
func startWatch(t *testing.T, root string, opts WatchOptions) *watchRun {
	t.Helper()
	ig, err := LoadIgnore(root)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	w := &watchRun{t: t, root: root, out: make(chan Change, 100), cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(w.done)
		NewWatcher(root, ig, opts).Run(ctx, w.out)
	}()
	t.Cleanup(func() { w.stop() })
	select {
	case c := <-w.out:
		if !c.Rescan || len(c.Paths) != 0 {
			t.Fatalf("first Change = %+v, want the initial Rescan", c)
		}
	case <-w.done:
		t.Fatal("Run returned before its first Change")
	case <-time.After(waitFor):
		t.Fatal("no initial Rescan from Run")
	}
	return w
}

// stop cancels Run and waits for it to return.
func (w *watchRun) stop() {
	w.stopOnce.Do(func() {
		w.cancel()
		select {
		case <-w.done:
		case <-time.After(waitFor):
			w.t.Error("Run did not return after cancel")
		}
	})
}

// wait receives changes until every path in want was reported, and returns
// every path reported meanwhile, sorted.
func (w *watchRun) wait(want ...string) []string {
	w.t.Helper()
	seen := map[string]bool{}
	missing := func() []string {
		var m []string
		for _, p := range want {
			if !seen[p] {
				m = append(m, p)
			}
		}
		return m
	}
	deadline := time.After(waitFor)
	for len(missing()) > 0 {
		select {
		case c := <-w.out:
			for _, p := range c.Paths {
				seen[p] = true
			}
		case <-w.done:
			w.t.Fatalf("Run returned while waiting for %q", missing())
		case <-deadline:
			w.t.Fatalf("no event for %q within %v; seen %q", missing(), waitFor, keys(seen))
		}
	}
	return keys(seen)
}

// sync writes a new sentinel note and waits for it: any path reported for
// an earlier operation is reported no later than the sentinel, so the
// paths returned are all that earlier operations produced.
func (w *watchRun) sync() []string {
	w.t.Helper()
	w.sentinel++
	name := fmt.Sprintf("sentinel-%d.md", w.sentinel)
	writeFile(w.t, w.root, name, "sentinel")
	seen := w.wait(name)
	return slices.DeleteFunc(seen, func(p string) bool { return p == name })
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// writeFile is testutil.WriteFile.
func writeFile(t testing.TB, root, rel, content string) { testutil.WriteFile(t, root, rel, content) }

func appendFile(t testing.TB, root, rel, content string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(root, filepath.FromSlash(rel)), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(content); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func mustDo(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestWatchFiles(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "Notes/old.md", "old")
	w := startWatch(t, root, fastWatch)
	at := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }

	writeFile(t, root, "a.md", "# A\n")
	w.wait("a.md")

	appendFile(t, root, "a.md", "more [[b]]\n")
	w.wait("a.md")

	mustDo(t, os.Rename(at("a.md"), at("b.md")))
	w.wait("a.md", "b.md")

	mustDo(t, os.Rename(at("b.md"), at("Notes/b.md")))
	w.wait("b.md", "Notes/b.md")

	writeFile(t, root, "Notes/image.png", "\x89PNG")
	w.wait("Notes/image.png")

	mustDo(t, os.Remove(at("Notes/b.md")))
	w.wait("Notes/b.md")

	writeFile(t, root, "Notes/old.md", "new")
	w.wait("Notes/old.md")

	// A decomposed name is reported as the file system spells it, so that
	// the path can be opened.
	writeFile(t, root, "Notes/Cafe\u0301.md", "# Café\n")
	seen := w.sync()
	if len(seen) != 1 {
		t.Errorf("creating Notes/Cafe\u0301.md reported %+q, want one path", seen)
	}
	for _, p := range seen {
		if _, err := os.Stat(at(p)); err != nil {
			t.Errorf("reported %+q for a new file with a decomposed name; os.Stat: %v", p, err)
		}
	}
}

// Files created right after their folder race the folder's new watch:
// they must be reported all the same, at any depth.
func TestWatchNewFolders(t *testing.T) {
	root := t.TempDir()
	w := startWatch(t, root, fastWatch)

	mustDo(t, os.Mkdir(filepath.Join(root, "New"), 0o755))
	var want []string
	for i := range 20 {
		p := fmt.Sprintf("New/%02d.md", i)
		writeFile(t, root, p, "note")
		want = append(want, p)
	}
	w.wait(append(want, "New")...)

	mustDo(t, os.MkdirAll(filepath.Join(root, "A", "B", "C", "D"), 0o755))
	writeFile(t, root, "A/B/C/D/deep.md", "deep")
	writeFile(t, root, "A/B/mid.md", "mid")
	writeFile(t, root, "A/top.png", "top")
	w.wait("A", "A/B/C/D/deep.md", "A/B/mid.md", "A/top.png")

	// The new folders are watched: later edits deep down are seen.
	appendFile(t, root, "A/B/C/D/deep.md", " edited")
	w.wait("A/B/C/D/deep.md")
	writeFile(t, root, "A/B/C/later.md", "later")
	w.wait("A/B/C/later.md")
	writeFile(t, root, "New/later.md", "later")
	w.wait("New/later.md")
}

// A renamed folder is reported by its old and new paths; afterwards the
// events below it carry the new paths, however deep.
func TestWatchFolderRename(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	writeFile(t, root, "Old/top.md", "top")
	writeFile(t, root, "Old/Sub/Deeper/n.md", "n")
	w := startWatch(t, root, fastWatch)
	at := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }

	mustDo(t, os.Rename(at("Old"), at("Renamed")))
	w.wait("Old", "Renamed")

	appendFile(t, root, "Renamed/Sub/Deeper/n.md", " edited")
	seen := w.wait("Renamed/Sub/Deeper/n.md")
	writeFile(t, root, "Renamed/Sub/new.md", "new")
	seen = append(seen, w.wait("Renamed/Sub/new.md")...)
	seen = append(seen, w.sync()...)
	for _, p := range seen {
		if strings.HasPrefix(p, "Old/") {
			t.Errorf("after renaming Old to Renamed, an edit below it was reported as %q", p)
		}
	}

	// Out of the vault: reported once, then nothing from there.
	mustDo(t, os.Rename(at("Renamed"), filepath.Join(outside, "Gone")))
	w.wait("Renamed")
	writeFile(t, outside, "Gone/Sub/Deeper/n.md", "changed outside")
	writeFile(t, outside, "Gone/Sub/after.md", "outside")
	writeFile(t, outside, "Gone/after.md", "outside")
	if seen := w.sync(); len(seen) != 0 {
		t.Errorf("edits in a folder moved out of the vault reported %q, want nothing", seen)
	}

	// Into the vault: the folder and what it holds.
	mustDo(t, os.Rename(filepath.Join(outside, "Gone"), at("Back")))
	w.wait("Back", "Back/after.md", "Back/Sub/after.md", "Back/Sub/Deeper/n.md")
	appendFile(t, root, "Back/Sub/Deeper/n.md", " again")
	w.wait("Back/Sub/Deeper/n.md")

	// Deleted: reported by its path (and maybe its files'), then gone.
	mustDo(t, os.RemoveAll(at("Back")))
	w.wait("Back")
}

func TestWatchIgnored(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, ".obsidian/app.json", `{"userIgnoreFilters": ["Ignored/", "Templates/", "/\\.excalidraw\\.md$/"]}`)
	writeFile(t, root, "Ignored/old.md", "old")
	writeFile(t, root, "Notes/a.md", "a")
	w := startWatch(t, root, fastWatch)
	at := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }

	writeFile(t, root, ".obsidian/workspace.json", "{}")
	writeFile(t, root, ".git/HEAD", "ref: refs/heads/main")
	writeFile(t, root, ".git/objects/ab/cdef", "blob")
	writeFile(t, root, ".hidden.md", "hidden")
	writeFile(t, root, "Notes/.a.md.swp", "swap")
	writeFile(t, root, ".trash/deleted.md", "deleted")
	writeFile(t, root, "Ignored/new.md", "new")
	writeFile(t, root, "Ignored/Sub/deep.md", "deep")
	mustDo(t, os.Remove(at("Ignored/old.md")))
	writeFile(t, root, "Templates/Daily.md", "template") // a new ignored folder
	writeFile(t, root, "Drawing.excalidraw.md", "drawing")
	mustDo(t, os.Rename(at(".hidden.md"), at(".hidden2.md")))
	if seen := w.sync(); len(seen) != 0 {
		t.Errorf("changes to ignored paths reported %q, want nothing", seen)
	}

	// A note moved into an ignored folder is gone from the vault.
	mustDo(t, os.Rename(at("Notes/a.md"), at("Ignored/a.md")))
	if seen := w.sync(); !slices.Equal(seen, []string{"Notes/a.md"}) {
		t.Errorf("moving Notes/a.md into Ignored/ reported %q, want [Notes/a.md]", seen)
	}
}

func TestWatchChmodOnly(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "a.md", "a")
	writeFile(t, root, "Folder/b.md", "b")
	w := startWatch(t, root, fastWatch)
	at := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }

	mustDo(t, os.Chmod(at("a.md"), 0o600))
	mustDo(t, os.Chmod(at("Folder"), 0o700))
	mustDo(t, os.Chtimes(at("Folder/b.md"), time.Now(), time.Now().Add(-time.Hour)))
	if seen := w.sync(); len(seen) != 0 {
		t.Errorf("chmod and chtimes reported %q, want nothing (the poll catches a changed time)", seen)
	}
}

func TestWatchPoll(t *testing.T) {
	root := t.TempDir()
	opts := fastWatch
	opts.Poll = 50 * time.Millisecond
	w := startWatch(t, root, opts)
	for range 2 {
		select {
		case c := <-w.out:
			if !c.Rescan {
				t.Errorf("Change = %+v, want a Rescan from the poll", c)
			}
		case <-time.After(waitFor):
			t.Fatal("no Rescan from the poll")
		}
	}
}

func TestWatchCancel(t *testing.T) {
	t.Run("idle", func(t *testing.T) {
		root := t.TempDir()
		w := startWatch(t, root, fastWatch)
		w.stop() // fails the test if Run does not return
	})
	t.Run("while nobody reads", func(t *testing.T) {
		root := t.TempDir()
		ig, _ := LoadIgnore(root)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			NewWatcher(root, ig, fastWatch).Run(ctx, make(chan Change))
		}()
		for i := range 5 {
			writeFile(t, root, fmt.Sprintf("n%d.md", i), "n")
			time.Sleep(30 * time.Millisecond)
		}
		cancel()
		select {
		case <-done:
		case <-time.After(waitFor):
			t.Fatal("Run did not return after cancel while blocked on its channel")
		}
	})
	t.Run("unwatchable vault", func(t *testing.T) {
		// A vault that does not exist cannot be watched: Run polls
		// instead, and still stops on cancel.
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			NewWatcher(filepath.Join(t.TempDir(), "missing"), nil, fastWatch).Run(ctx, make(chan Change, 10))
		}()
		time.Sleep(20 * time.Millisecond)
		cancel()
		select {
		case <-done:
		case <-time.After(waitFor):
			t.Fatal("Run did not return after cancel")
		}
	})
}

// lockedBuffer is a log destination safe for the watcher's goroutine.
type lockedBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Folders that vanish before the watcher gets to them (a build tool's
// temporary folders) are reported, and are no cause for a warning.
func TestWatchShortLivedFolders(t *testing.T) {
	root := t.TempDir()
	logs := &lockedBuffer{}
	opts := fastWatch
	opts.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	w := startWatch(t, root, opts)
	var want []string
	for i := range 20 {
		dir := fmt.Sprintf("tmp-%d", i)
		writeFile(t, root, dir+"/Sub/x.md", "x")
		mustDo(t, os.RemoveAll(filepath.Join(root, dir)))
		want = append(want, dir)
	}
	w.wait(want...)
	w.stop()
	if s := logs.String(); s != "" {
		t.Errorf("logged:\n%s", s)
	}
}
