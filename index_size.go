package vaultgraph

import (
	"context"

	"github.com/vaultgraph/vaultgraph/internal/store"
)

// IndexTableBytes returns the bytes each part of the index file at path
// occupies: "vectors", "fts", "text", "links", "notes", "tags" and "other" (see
// store.TableBytes). It reads the file over a read-only connection of its
// own; pages still in the WAL are not counted.
func IndexTableBytes(ctx context.Context, path string) (map[string]int64, error) {
	return store.TableBytes(ctx, path)
}
