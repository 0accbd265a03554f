package store

import (
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
)

// A snapshot cache is written to its file as it is encoded, not made
// whole in memory first: at 100,000 notes the cache is about 62 MB, and
// the buffer that held it (grown by doubling) came on top of a cold
// index's live heap just as the index closed (KeepCache), which pushed
// that heap past the index's memory limit. The encoder writes what it
// holds whenever a row begins and it holds cacheFlushBytes; writeCache
// writes the rest and the checksum and renames the file into place, and
// discard removes a file that is not to be kept.

// cacheFlushBytes is how many bytes an encoder writing to a file holds
// before it writes them.
const cacheFlushBytes = 1 << 20

// newCacheEncoder returns an encoder of the snapshot cache for key k
// that writes to a temporary file beside the cache as it goes, or, when
// that file cannot be made, one that holds the bytes (writeCache then
// fails as it would have). The caller defers discard.
func (s *Store) newCacheEncoder(k cacheKey) *snapEncoder {
	e := newSnapEncoder(k)
	if f, err := os.CreateTemp(filepath.Dir(s.CachePath()), ".index-snap-*"); err == nil {
		e.out = f
	}
	return e
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
