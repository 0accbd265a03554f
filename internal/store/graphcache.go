package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"os"
)

// The graph cache (index.db.graph) holds bytes the caller made from a
// Snapshot (the engine keeps its link graph there), under the Snapshot's
// Key: they are given back only while the index is in that same state.
// Like the snapshot cache, it is only a cache: a stale, damaged or absent
// file is ignored and the caller builds again.

// graphMagic opens every graph cache file.
const graphMagic = "vaultgraph graph 1\n"

// GraphCachePath returns the graph cache's file.
func (s *Store) GraphCachePath() string { return s.path + ".graph" }

// CacheKey returns the key of the index's state now (Snapshot.Key of a
// Load made now), "" when the index cannot say.
func (s *Store) CacheKey(ctx context.Context) string {
	k, ok := s.cacheKey(ctx, s.db)
	if !ok {
		return ""
	}
	return k.String()
}

// LoadGraphCache returns the bytes WriteGraphCache stored under key, or
// nil when the file holds none for key, or is damaged.
func (s *Store) LoadGraphCache(key string) []byte {
	if key == "" {
		return nil
	}
	b, err := os.ReadFile(s.GraphCachePath())
	head := graphMagic + key + "\n"
	if err != nil || len(b) < len(head)+4 || !bytes.HasPrefix(b, []byte(head)) {
		return nil
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return nil
	}
	return body[len(head):]
}

// WriteGraphCache stores payload under key, atomically; a failure leaves
// the old file or none.
func (s *Store) WriteGraphCache(key string, payload []byte) {
	if key == "" {
		return
	}
	// Written in pieces, not copied into one buffer: the payload is large.
	head := graphMagic + key + "\n"
	sum := crc32.Update(crc32.ChecksumIEEE([]byte(head)), crc32.IEEETable, payload)
	s.writeCacheFile(s.GraphCachePath(), []byte(head), payload, binary.LittleEndian.AppendUint32(nil, sum))
}
