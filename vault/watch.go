package vault

import (
	"cmp"
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Polling intervals: DefaultPoll is the safety rescan while events
// arrive; FallbackPoll is used when the OS gives no events at all (no
// inotify watches left, a file system without notifications).
const (
	DefaultPoll  = 60 * time.Second
	FallbackPoll = 2 * time.Second
)

// WatchOptions configure a Watcher. Zero values take the defaults.
type WatchOptions struct {
	// Quiet and MaxDelay are the debounce timings (see Debouncer).
	Quiet, MaxDelay time.Duration
	// Poll is how often a full rescan is asked for even when events
	// arrive. Negative disables it.
	Poll time.Duration
	// Logger receives problems; nil discards them.
	Logger *slog.Logger
	// Running, if set, is called once when the watcher is running: its
	// watches are in place and what changed before is applied (the
	// Engine also waits for its rename index). A server uses it to give
	// back the memory that start-up left behind.
	Running func()
}

// Change is a debounced batch of changes seen by a Watcher.
type Change struct {
	// Paths are vault-relative paths (forward slashes, spelled as the
	// file system spells them) of files and folders that were created,
	// written, removed or renamed. A removed or renamed folder is
	// reported once, by its own path. A change of permissions or times
	// alone is not reported (the poll's Rescan catches a changed time).
	Paths []string
	// Rescan asks for a comparison of the whole vault with the index:
	// events may have been lost (queue overflow) or the poll is due.
	Rescan bool
}

// Watcher follows a vault's changes with fsnotify: it watches every
// folder (adding watches for new ones at once), skips ignored paths,
// debounces per path and reports batches. One goroutine, Run, owns all of
// its state.
type Watcher struct {
	root string
	ig   *Ignore
	opts WatchOptions
	log  *slog.Logger
}

// NewWatcher returns a Watcher for the vault at root. It does no I/O.
func NewWatcher(root string, ig *Ignore, opts WatchOptions) *Watcher {
	opts.Poll = cmp.Or(opts.Poll, DefaultPoll)
	return &Watcher{root: root, ig: ig, opts: opts, log: cmp.Or(opts.Logger, slog.New(slog.DiscardHandler))}
}

// Run watches until ctx is done, sending each batch on out. Its first
// Change is a Rescan, sent once the watches are in place, so that nothing
// changed before then is missed. It returns when ctx ends. When the OS
// cannot watch the vault it logs why and falls back to polling (a Rescan
// at once, then every FallbackPoll).
func (w *Watcher) Run(ctx context.Context, out chan<- Change) {
	fallback := func(msg string, err error) {
		w.log.Warn(msg, "err", err, "every", FallbackPoll)
		w.poll(ctx, out, FallbackPoll)
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		fallback("file watcher unavailable, polling instead", err)
		return
	}
	defer fw.Close()
	dirs := map[string]bool{} // the folders watched, by absolute path
	if err := w.addTree(fw, dirs, w.root, nil); err != nil {
		fw.Close()
		fallback("cannot watch every folder, polling instead", err)
		return
	}

	deb := NewDebouncer(w.opts.Quiet, w.opts.MaxDelay)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var pollC <-chan time.Time
	if w.opts.Poll > 0 {
		t := time.NewTicker(w.opts.Poll)
		defer t.Stop()
		pollC = t.C
	}
	// The first Change is a Rescan, sent once every folder is watched: it
	// catches what changed before (since the caller last looked).
	rescan := true
	arm := func() {
		if rescan {
			timer.Reset(0) // a rescan waits for no debounce
		} else if d, ok := deb.Next(time.Now()); ok {
			timer.Reset(d)
		}
	}
	arm()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-fw.Events:
			if !ok {
				return
			}
			w.event(fw, dirs, deb, ev)
			arm()
		case err, ok := <-fw.Errors:
			if !ok {
				return
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				w.log.Warn("file events overflowed; rescanning the vault")
			} else {
				w.log.Warn("file watcher", "err", err)
			}
			rescan = true
			arm()
		case <-pollC:
			rescan = true
			arm()
		case <-timer.C:
			c := Change{Paths: deb.Due(time.Now()), Rescan: rescan}
			rescan = false
			if len(c.Paths) > 0 || c.Rescan {
				select {
				case out <- c:
				case <-ctx.Done():
					return
				}
			}
			arm()
		}
	}
}

// event files one fsnotify event with the debouncer. dirs are the watched
// folders. A folder removed or renamed loses its watches and those of
// every folder below it (inotify would otherwise go on reporting their
// events under the old paths). A new folder gets watches at once and
// everything already in it is reported, since files created right after
// the mkdir race the new watch.
func (w *Watcher) event(fw *fsnotify.Watcher, dirs map[string]bool, deb *Debouncer, ev fsnotify.Event) {
	rel, ok := w.rel(ev.Name)
	if !ok {
		return
	}
	now := time.Now()
	if (ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)) && dirs[ev.Name] {
		prefix := ev.Name + string(filepath.Separator)
		for d := range dirs {
			if d == ev.Name || strings.HasPrefix(d, prefix) {
				_ = fw.Remove(d) // fails when the kernel already dropped it
				delete(dirs, d)
			}
		}
	}
	if ev.Has(fsnotify.Create) {
		if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() {
			if w.ig.Skip(rel, true) {
				return // an ignored folder ("Templates/" in userIgnoreFilters)
			}
			err := w.addTree(fw, dirs, ev.Name, func(r string) { deb.Add(r, now) })
			if err != nil && !errors.Is(err, fs.ErrNotExist) { // gone already: its removal follows
				w.log.Warn("watch new folder", "path", rel, "err", err)
			}
		}
	}
	if ev.Op == fsnotify.Chmod {
		return // permissions or times only: the content is the same
	}
	deb.Add(rel, now)
}

// rel returns the vault-relative path of an absolute one (spelled as the
// file system spells it, so that it can be opened), and false for the
// root itself and ignored paths.
func (w *Watcher) rel(abs string) (string, bool) {
	r, err := filepath.Rel(w.root, abs)
	if err != nil || r == "." {
		return "", false
	}
	r = filepath.ToSlash(r)
	if w.ig.Skip(r, false) {
		return "", false
	}
	return r, true
}

// addTree watches dir and every folder below it that is not ignored,
// recording them in dirs, and calls found (when non-nil) with each file
// already there.
func (w *Watcher) addTree(fw *fsnotify.Watcher, dirs map[string]bool, dir string, found func(rel string)) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			return nil // gone or unreadable: the scanner reports it
		}
		rel, ok := w.rel(p)
		if !ok && p != w.root {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			if found != nil {
				found(rel)
			}
			return nil
		}
		if w.ig.Skip(rel, true) {
			return fs.SkipDir
		}
		if err := fw.Add(p); err != nil {
			if p != dir && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipDir // gone already: its removal is reported
			}
			return err
		}
		dirs[p] = true
		return nil
	})
}

// poll asks for a rescan at once, then every interval until ctx ends.
func (w *Watcher) poll(ctx context.Context, out chan<- Change, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case out <- Change{Rescan: true}:
		case <-ctx.Done():
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
