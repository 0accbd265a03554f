package vaultgraph

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	"github.com/vaultgraph/vaultgraph/internal/store"
	"github.com/vaultgraph/vaultgraph/vault"
)

// indexChunkNotes is how many notes a cold index parses and writes per
// transaction, so that an interrupted index keeps most of its work
// (testOptions.chunkSize in tests).
const indexChunkNotes = 2000

// parsed is the outcome of reading and parsing one file.
type parsed struct {
	file vault.File
	note *vault.Note
	body string // text for the full-text index
	err  error
	// same is set, and note nil, when the file's content hash equals the
	// one indexed: only its size or time changed.
	same bool
	// vecs are the note's chunk vectors in their stored form, when a
	// start-up pass made them while parsing (inlineEmbed).
	vecs [][]byte
	// prepared is store.Prepare(note, body), made here rather than by
	// the index writer (nil when it failed: the writer then reports why).
	prepared *store.Prepared
}

// chunk is one chunk of parse results, or the error that ended parsing.
type chunk struct {
	parsed []parsed
	err    error
}

// parseChunks parses d.parse a chunk at a time in the background, one
// chunk ahead of the caller, so that parsing the next chunk overlaps with
// writing the last one. The channel closes after the last chunk or the
// first error, or early when ctx ends (the caller must then check ctx).
func (e *Engine) parseChunks(ctx context.Context, d diff) <-chan chunk {
	out := make(chan chunk, 1)
	go func() {
		defer close(out)
		var done atomic.Int64
		ie := e.inlineEmbedder()
		size := e.chunkSize()
		for from := 0; from < len(d.parse); from += size {
			files := d.parse[from:min(from+size, len(d.parse))]
			results, err := e.parseAll(ctx, files, d.oldHash, &done, len(d.parse), ie)
			select {
			case out <- chunk{parsed: results, err: err}:
			case <-ctx.Done():
				return // the caller stopped reading
			}
			if err != nil {
				return
			}
		}
	}()
	return out
}

// parseAll reads files ahead (readAhead) and parses them on
// e.opts.Workers goroutines, keeping their order. A file whose content hash equals oldHash[its ID] is not
// parsed (parsed.same). done counts files across calls for progress. With
// ie, each note's vectors are made too.
func (e *Engine) parseAll(ctx context.Context, files []vault.File, oldHash map[string]string, done *atomic.Int64, total int, ie *inlineEmbed) ([]parsed, error) {
	out := make([]parsed, len(files))
	reads := readAhead(files)
	defer reads.close()
	next := make(chan int)
	var wg sync.WaitGroup
	for range e.opts.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				src, err := reads.take(i)
				out[i] = e.parseFile(ctx, files[i], src, err, oldHash[files[i].ID], ie)
				n := done.Add(1)
				if e.opts.Progress != nil {
					e.opts.Progress(int(n), total)
				}
			}
		}()
	}
	var err error
feed:
	for i := range files {
		select {
		case next <- i:
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err != nil {
		return nil, fmt.Errorf("parse vault: %w", err)
	}
	return out, nil
}

// parseFile parses one note file, read as src (or not, with err),
// unless its content hash is oldHash; with ie, it makes the note's
// vectors too.
func (e *Engine) parseFile(ctx context.Context, f vault.File, src []byte, err error, oldHash string, ie *inlineEmbed) parsed {
	if err != nil {
		return parsed{file: f, err: fmt.Errorf("unreadable: %w", err)}
	}
	if oldHash != "" && vault.Hash(src) == oldHash {
		if f.Size == 0 && f.ModTime.IsZero() {
			if fi, err := os.Stat(f.Path); err == nil {
				f.Size, f.ModTime = fi.Size(), fi.ModTime()
			}
		}
		return parsed{file: f, same: true}
	}
	n, err := e.parser.Parse(f.ID, src)
	if err != nil {
		return parsed{file: f, err: err}
	}
	n.ModTime = f.ModTime
	n.Size = f.Size
	for _, w := range n.Warnings {
		e.log.Debug("note", "id", f.ID, "warning", w)
	}
	body := store.IndexedBody(f.ID, src, n.BodyStart)
	var vecs [][]byte
	if ie != nil {
		vecs = ie.vectors(ctx, n.Title, embedContent(src, n.BodyStart, body))
	}
	prepared, _ := store.Prepare(n, body)
	return parsed{file: f, note: n, body: body, vecs: vecs, prepared: prepared}
}
