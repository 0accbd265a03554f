package embed_test

import (
	"context"
	"fmt"

	"github.com/vaultgraph/vaultgraph/embed"
)

// Embed each note's chunks, index them, and search with a query vector.
func Example() {
	e, _ := embed.New("builtin", embed.Options{})
	notes := map[string][2]string{
		"Backups.md": {"Backups", "# Server\nRestic copies the home server to the NAS every night.\n# Laptop\nTime Machine."},
		"Garden.md":  {"Garden", "Tomatoes, basil and a plan for the raised beds."},
		"Trips.md":   {"Trips", "## Kyoto\nTemples in autumn.\n## Lisbon\nTrams and custard tarts."},
	}
	idx := embed.NewIndex(e.Dimension(), false)
	for id, n := range notes {
		var texts []string
		for _, c := range embed.Chunks(n[0], n[1], 0) {
			texts = append(texts, c.Text)
		}
		vecs, _ := e.Embed(context.Background(), texts)
		idx.Add(id, vecs)
	}
	for _, query := range []string{"nightly server backup", "time machine laptop", "trams in Lisbon"} {
		q, _ := e.Embed(context.Background(), []string{query})
		best := idx.Search(q[0], 1, nil)[0]
		fmt.Printf("%s: %s chunk %d\n", query, best.NoteID, best.Chunk)
	}
	// Output:
	// nightly server backup: Backups.md chunk 0
	// time machine laptop: Backups.md chunk 1
	// trams in Lisbon: Trips.md chunk 1
}
