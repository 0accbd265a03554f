package vault

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// walkAhead is filepath.WalkDir(root, fn): the same calls of fn, in the
// same order, with the same errors. It only reads ahead: goroutines list
// the folders that descend accepts and, in them, take the metadata
// (DirEntry.Info) of the files that stat accepts, while fn handles what
// is already read. On a large vault most of a scan is those system
// calls, and they run on every core. A folder fn walks that was not read
// ahead is read when fn reaches it; one read ahead that fn skips costs
// only the read.
func walkAhead(root string, fn fs.WalkDirFunc, descend func(dir string) bool, stat func(name string) bool) error {
	info, err := os.Lstat(root)
	if err != nil {
		return fn(root, nil, err)
	}
	first := ""
	if info.IsDir() && descend(root) {
		first = root
	}
	r := newReadAhead(first, descend, stat)
	defer r.stop()
	err = r.walk(root, fs.FileInfoToDirEntry(info), fn)
	if errors.Is(err, filepath.SkipDir) || errors.Is(err, filepath.SkipAll) {
		return nil
	}
	return err
}

// walk is filepath's walkDir, reading folders through r.
func (r *readAhead) walk(path string, d fs.DirEntry, fn fs.WalkDirFunc) error {
	if err := fn(path, d, nil); err != nil || !d.IsDir() {
		if errors.Is(err, filepath.SkipDir) && d.IsDir() {
			err = nil // the folder is skipped, the walk goes on
		}
		return err
	}
	dirs, err := r.read(path)
	if err != nil {
		// The second call, to report the error.
		if err = fn(path, d, err); err != nil {
			if errors.Is(err, filepath.SkipDir) && d.IsDir() {
				err = nil
			}
			return err
		}
	}
	// filepath.Join cleans what it joins; a clean folder and an entry's
	// name need only the separator between them (a Clean per file
	// spared).
	sep := string(filepath.Separator)
	plain := filepath.Clean(path) == path && !strings.HasSuffix(path, sep)
	for _, d1 := range dirs {
		p := path + sep + d1.Name()
		if !plain {
			p = filepath.Join(path, d1.Name())
		}
		if err := r.walk(p, d1, fn); err != nil {
			if errors.Is(err, filepath.SkipDir) {
				break
			}
			return err
		}
	}
	return nil
}

// folder is one folder read ahead, ready once done is closed.
type folder struct {
	dir     string
	done    chan struct{}
	entries []fs.DirEntry
	err     error
}

// readAhead lists folders on its goroutines before the walk reaches them.
type readAhead struct {
	descend func(string) bool
	stat    func(string) bool

	mu      sync.Mutex
	wake    *sync.Cond
	todo    []*folder          // folders to read, a stack
	folders map[string]*folder // read or to read, until the walk takes them
	busy    int                // goroutines reading a folder
	stopped bool
	wg      sync.WaitGroup
}

// maxReaders bounds the goroutines of a readAhead.
const maxReaders = 4

// newReadAhead starts reading ahead from the folder first ("" for
// none: the goroutines end at once).
func newReadAhead(first string, descend, stat func(string) bool) *readAhead {
	r := &readAhead{descend: descend, stat: stat, folders: map[string]*folder{}}
	r.wake = sync.NewCond(&r.mu)
	if first != "" {
		r.queue(first)
	}
	n := min(max(runtime.GOMAXPROCS(0), 2), maxReaders)
	r.wg.Add(n)
	for range n {
		go r.run()
	}
	return r
}

// queue adds a folder to read; the caller holds r.mu, or owns r alone.
func (r *readAhead) queue(dir string) {
	f := &folder{dir: dir, done: make(chan struct{})}
	r.folders[dir] = f
	r.todo = append(r.todo, f)
}

// run reads folders until there are none left to read or r stops.
func (r *readAhead) run() {
	defer r.wg.Done()
	r.mu.Lock()
	defer r.mu.Unlock()
	for {
		for len(r.todo) == 0 && r.busy > 0 && !r.stopped {
			r.wake.Wait()
		}
		if len(r.todo) == 0 || r.stopped {
			r.wake.Broadcast()
			return
		}
		f := r.todo[len(r.todo)-1]
		r.todo = r.todo[:len(r.todo)-1]
		dir := f.dir
		r.busy++
		r.mu.Unlock()
		f.entries, f.err = r.list(dir)
		var subs []string
		for _, d := range f.entries {
			if d.IsDir() {
				if p := filepath.Join(dir, d.Name()); r.descend(p) {
					subs = append(subs, p)
				}
			}
		}
		r.mu.Lock()
		r.busy--
		// Deepest last on the stack: the walk reaches the first
		// folders first.
		for i := len(subs) - 1; i >= 0; i-- {
			r.queue(subs[i])
		}
		close(f.done)
		r.wake.Broadcast()
	}
}

// list is os.ReadDir, with the metadata of the files r.stat accepts
// taken at once.
func (r *readAhead) list(dir string) ([]fs.DirEntry, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dirs, err := f.ReadDir(-1)
	slices.SortFunc(dirs, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	var at []int
	var names []string
	for i, d := range dirs {
		if d.Type().IsRegular() && r.stat(d.Name()) {
			at = append(at, i)
			names = append(names, d.Name())
		}
	}
	lstatEach(f, dir, names, func(i int, info fs.FileInfo, err error) {
		dirs[at[i]] = statEntry{DirEntry: dirs[at[i]], info: info, err: err}
	})
	return dirs, err
}

// read returns a folder's entries as os.ReadDir does: read ahead when it
// was queued, now otherwise.
func (r *readAhead) read(dir string) ([]fs.DirEntry, error) {
	r.mu.Lock()
	f := r.folders[dir]
	delete(r.folders, dir)
	r.mu.Unlock()
	if f == nil {
		return os.ReadDir(dir)
	}
	<-f.done
	return f.entries, f.err
}

// stop ends the goroutines; folders queued but not read are dropped.
func (r *readAhead) stop() {
	r.mu.Lock()
	r.stopped = true
	r.wake.Broadcast()
	r.mu.Unlock()
	r.wg.Wait()
}

// statEntry is a DirEntry whose Info was taken ahead.
type statEntry struct {
	fs.DirEntry
	info fs.FileInfo
	err  error
}

// Info returns the metadata taken when the folder was read.
func (e statEntry) Info() (fs.FileInfo, error) { return e.info, e.err }

// lstatFallback is lstatEach by os.Lstat: where the system offers no
// fstatat, and where the folder's descriptor cannot be used.
func lstatFallback(dir string, names []string, each func(int, fs.FileInfo, error)) {
	for i, name := range names {
		info, err := os.Lstat(filepath.Join(dir, name))
		each(i, info, err)
	}
}
