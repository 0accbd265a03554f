package vault

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
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
}

// Change is a debounced batch of changes seen by a Watcher.
type Change struct {
	// Paths are vault-relative paths (forward slashes) of files and
	// folders that were created, written, removed or renamed. A removed
	// or renamed folder is reported once, by its own path.
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
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.Poll == 0 {
		opts.Poll = DefaultPoll
	}
	return &Watcher{root: root, ig: ig, opts: opts, log: log}
}

// Run watches until ctx is done, sending each batch on out. It returns
// nil when ctx ends. When the OS cannot watch the vault it logs why and
// falls back to polling (a Rescan every FallbackPoll).
func (w *Watcher) Run(ctx context.Context, out chan<- Change) error {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		w.log.Warn("file watcher unavailable, polling instead", "err", err, "every", FallbackPoll)
		return w.poll(ctx, out, FallbackPoll)
	}
	defer fw.Close()
	if err := w.addTree(fw, w.root, nil); err != nil {
		w.log.Warn("cannot watch every folder, polling instead", "err", err, "every", FallbackPoll)
		fw.Close()
		return w.poll(ctx, out, FallbackPoll)
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
	rescan := false
	arm := func() {
		if d, ok := deb.Next(time.Now()); ok {
			timer.Reset(d)
		} else if rescan {
			timer.Reset(0)
		}
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-fw.Events:
			if !ok {
				return nil
			}
			w.event(fw, deb, ev)
			arm()
		case err, ok := <-fw.Errors:
			if !ok {
				return nil
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
					return nil
				}
			}
			arm()
		}
	}
}

// event files one fsnotify event with the debouncer. A new folder gets
// watches at once and everything already in it is reported, since files
// created right after the mkdir race the new watch.
func (w *Watcher) event(fw *fsnotify.Watcher, deb *Debouncer, ev fsnotify.Event) {
	rel, ok := w.rel(ev.Name)
	if !ok {
		return
	}
	now := time.Now()
	if ev.Has(fsnotify.Create) {
		if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() {
			if err := w.addTree(fw, ev.Name, func(r string) { deb.Add(r, now) }); err != nil {
				w.log.Warn("watch new folder", "path", rel, "err", err)
			}
		}
	}
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		_ = fw.Remove(ev.Name) // a folder's watch; not an error for files
	}
	if ev.Op == fsnotify.Chmod {
		return // permissions only: the content is the same
	}
	deb.Add(rel, now)
}

// rel returns the vault-relative path of an absolute one, and false for
// the root itself and ignored paths.
func (w *Watcher) rel(abs string) (string, bool) {
	r, err := filepath.Rel(w.root, abs)
	if err != nil || r == "." {
		return "", false
	}
	r = NFC(filepath.ToSlash(r))
	if w.ig.Skip(r, false) {
		return "", false
	}
	return r, true
}

// addTree watches dir and every folder below it that is not ignored, and
// calls found (when non-nil) with each file already there.
func (w *Watcher) addTree(fw *fsnotify.Watcher, dir string, found func(rel string)) error {
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
			return err
		}
		return nil
	})
}

// poll asks for a rescan every interval until ctx ends.
func (w *Watcher) poll(ctx context.Context, out chan<- Change, every time.Duration) error {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
			select {
			case out <- Change{Rescan: true}:
			case <-ctx.Done():
				return nil
			}
		}
	}
}
