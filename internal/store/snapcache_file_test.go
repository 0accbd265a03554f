package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/vaultgraph/vaultgraph/vault"
)

// TestCacheWrittenAsEncoded: an encoder with a file holds at most about
// cacheFlushBytes however much it encodes, and the cache file writeCache
// puts in place holds the bytes an encoder in memory makes, with their
// checksum; discard leaves no temporary file behind.
func TestCacheWrittenAsEncoded(t *testing.T) {
	dir := t.TempDir()
	s := &Store{path: filepath.Join(dir, "index.db")}
	k := cacheKey{id: "k", n: 7, schema: 3}
	mem, file := newSnapEncoder(k), s.newCacheEncoder(k)
	if file.out == nil {
		t.Fatal("newCacheEncoder made no file")
	}
	most := 0
	for i := range 40000 { // about 4 MB
		rec := &Record{Note: &vault.Note{ID: fmt.Sprintf("folder/note %05d.md", i), Title: "a title", Hash: "0123456789abcdef0123456789abcdef",
			Tags: []string{"tag", "other"}, Headings: []vault.Heading{{Level: 1, Line: 1, Start: 0, End: 10, Text: "A heading"}}}}
		for _, e := range []*snapEncoder{mem, file} {
			e.noteRecord(rec)
			e.link(&linkRow{kind: "wikilink", target: "target", resolved: "x.md", status: "resolved", start: 5, end: 15}, i, 0, false)
		}
		most = max(most, file.buf.Len())
	}
	mem.endList()
	file.endList()
	if most > cacheFlushBytes+4096 {
		t.Errorf("the encoder with a file held %d bytes at most, want at most about %d", most, cacheFlushBytes)
	}
	s.writeCache(k, file)
	file.discard() // after writeCache: nothing to remove
	got, err := os.ReadFile(s.CachePath())
	if err != nil {
		t.Fatal(err)
	}
	b := mem.buf.Bytes()
	if want := binary.LittleEndian.AppendUint32(bytes.Clone(b), crc32.ChecksumIEEE(b)); !bytes.Equal(got, want) {
		t.Errorf("the cache file holds %d bytes, want the %d an encoder in memory makes, checksum included", len(got), len(want))
	}
	left := s.newCacheEncoder(k)
	left.noteRecord(&Record{Note: &vault.Note{ID: "a.md"}})
	left.discard()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("the folder holds %d files, want only the cache: %v", len(entries), entries)
	}
}

// TestStaleCacheTempsRemoved: a new encoder removes the temporary cache
// files a killed process left (not written for staleCacheTemp), and
// leaves those another process is writing.
func TestStaleCacheTempsRemoved(t *testing.T) {
	dir := t.TempDir()
	s := &Store{path: filepath.Join(dir, "index.db")}
	stale, fresh := filepath.Join(dir, cacheTempPrefix+"1"), filepath.Join(dir, cacheTempPrefix+"2")
	for _, p := range []string{stale, fresh} {
		if err := os.WriteFile(p, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-2 * staleCacheTemp)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	s.newCacheEncoder(cacheKey{}).discard()
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale temporary file is still there (%v)", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("the temporary file being written is gone: %v", err)
	}
}
