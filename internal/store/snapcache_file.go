package store

import (
	"bytes"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// A snapshot cache is written to its file as it is encoded, not made
// whole in memory first, where its buffer (grown by doubling) would come
// on top of a cold index's live heap as the index closes (KeepCache).
// The encoder writes what it
// holds whenever a row begins and it holds cacheFlushBytes; writeCache
// writes the rest and the checksum and renames the file into place, and
// discard removes a file that is not to be kept. A process killed while
// it encodes leaves its file: the next encoder removes those not written
// for staleCacheTemp.

// cacheFlushBytes is how many bytes an encoder writing to a file holds
// before it writes them.
const cacheFlushBytes = 1 << 20

// newCacheEncoder returns an encoder of the snapshot cache for key k
// that writes to a temporary file beside the cache as it goes, or, when
// that file cannot be made, one that holds the bytes (writeCache then
// fails as it would have). The caller defers discard.
func (s *Store) newCacheEncoder(k cacheKey) *snapEncoder {
	e := newSnapEncoder(k)
	dir := filepath.Dir(s.CachePath())
	removeStaleCacheTemps(dir)
	if f, err := os.CreateTemp(dir, cacheTempPrefix+"*"); err == nil {
		e.out = f
	}
	return e
}

// cacheTempPrefix begins the name of every temporary cache file.
const cacheTempPrefix = ".index-snap-"

// staleCacheTemp is how long a temporary cache file goes unwritten before
// it is taken for one a killed process left (a writer writes to it at
// least every cacheFlushBytes).
const staleCacheTemp = 10 * time.Minute

// removeStaleCacheTemps removes the temporary cache files in dir not
// written for staleCacheTemp.
func removeStaleCacheTemps(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, de := range entries {
		if !strings.HasPrefix(de.Name(), cacheTempPrefix) {
			continue
		}
		if fi, err := de.Info(); err == nil && fi.Mode().IsRegular() && time.Since(fi.ModTime()) > staleCacheTemp {
			os.Remove(filepath.Join(dir, de.Name()))
		}
	}
}

// flush writes what e holds to its file, if it has one and holds at
// least cacheFlushBytes. It is called as a row begins, so that no row is
// cut (link rewrites the end of its own row).
func (e *snapEncoder) flush() {
	if e.out == nil || e.err != nil || e.buf.Len() < cacheFlushBytes {
		return
	}
	e.writeOut()
}

// writeOut writes what e holds to its file and adds it to the checksum.
func (e *snapEncoder) writeOut() {
	b := e.buf.Bytes()
	e.crc = crc32.Update(e.crc, crc32.IEEETable, b)
	if _, err := e.out.Write(b); err != nil && e.err == nil {
		e.err = fmt.Errorf("snapshot cache: %w", err)
	}
	e.buf.Reset()
}

// discard removes e's temporary file unless writeCache put it in place
// (nothing on a nil encoder or one without a file).
func (e *snapEncoder) discard() {
	if e == nil || e.out == nil {
		return
	}
	e.out.Close()
	os.Remove(e.out.Name())
	e.out = nil
}

// rekey makes e, which encoded a cache under key old, the encoder of the
// same cache under key k: a VACUUM after the commit changed only the
// schema version a key records (vacuumSparse). What e wrote to its file
// is copied into a new temporary file behind the new key; a failure
// shows in e.err.
func (e *snapEncoder) rekey(old, k cacheKey) {
	if e.err != nil {
		return
	}
	skip := newSnapEncoder(old).buf.Len()
	head := newSnapEncoder(k).buf.Bytes()
	if e.out == nil {
		rest := e.buf.Bytes()[skip:]
		e.buf = *bytes.NewBuffer(append(head, rest...))
		return
	}
	e.writeOut()
	f, err := os.CreateTemp(filepath.Dir(e.out.Name()), cacheTempPrefix+"*")
	if err != nil {
		e.err = fmt.Errorf("snapshot cache: %w", err)
		return
	}
	h := crc32.NewIEEE()
	w := io.MultiWriter(f, h)
	_, err = w.Write(head)
	if fi, serr := e.out.Stat(); err == nil {
		err = serr
		if err == nil {
			_, err = io.Copy(w, io.NewSectionReader(e.out, int64(skip), fi.Size()-int64(skip)))
		}
	}
	e.discard()
	e.out, e.crc = f, h.Sum32()
	if err != nil {
		e.err = fmt.Errorf("snapshot cache: %w", err)
	}
}
