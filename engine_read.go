package vaultgraph

import (
	"os"
	"sync"
	"sync/atomic"

	"github.com/vaultgraph/vaultgraph/vault"
)

// Reading a cold vault waits on the disk: a file not in the page cache
// blocks the parse worker that reads it, and with one worker per core
// the cores then idle. A fileReads reads the files of a parse ahead of
// the workers on readAheadReaders goroutines of its own, at most
// readAheadFiles files ahead of the first one no worker has taken, so
// that a worker finds its file read.
const (
	readAheadReaders = 8
	readAheadFiles   = 64
)

// fileReads holds the files being read ahead for one parseAll.
type fileReads struct {
	files []vault.File
	read  []fileRead
	ready []chan struct{} // ready[i] is closed once read[i] is set
	next  atomic.Int64    // the next file to read
	slots chan struct{}   // a token for each file read and not taken
	stop  chan struct{}   // closed to end the readers early
	wg    sync.WaitGroup
}

// fileRead is the content of a file, or the error reading it.
type fileRead struct {
	src []byte
	err error
}

// readAhead starts reading files in order, ahead of take.
func readAhead(files []vault.File) *fileReads {
	r := &fileReads{
		files: files,
		read:  make([]fileRead, len(files)),
		ready: make([]chan struct{}, len(files)),
		slots: make(chan struct{}, readAheadFiles),
		stop:  make(chan struct{}),
	}
	for i := range r.ready {
		r.ready[i] = make(chan struct{})
	}
	n := min(readAheadReaders, len(files))
	r.wg.Add(n)
	for range n {
		go r.run()
	}
	return r
}

// run reads the next file while there is one and a slot is free.
func (r *fileReads) run() {
	defer r.wg.Done()
	for {
		select {
		case r.slots <- struct{}{}:
		case <-r.stop:
			return
		}
		i := int(r.next.Add(1) - 1)
		if i >= len(r.files) {
			return
		}
		src, err := os.ReadFile(r.files[i].Path)
		r.read[i] = fileRead{src: src, err: err}
		close(r.ready[i])
	}
}

// take waits for file i and returns its content. Each file is taken
// once, by the worker that parses it.
func (r *fileReads) take(i int) ([]byte, error) {
	<-r.ready[i]
	<-r.slots
	f := r.read[i]
	r.read[i] = fileRead{}
	return f.src, f.err
}

// close ends the readers, once every file handed out was taken or the
// parse stopped early, and waits for them.
func (r *fileReads) close() {
	close(r.stop)
	r.wg.Wait()
}
