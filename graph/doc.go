// Package graph holds the link graph of an Obsidian vault in memory.
//
// A [Graph] stores notes as nodes identified by a string ID, the directed
// links between them, and the tags attached to each note. Writers change the
// graph in batches through [Graph.Update]; each batch is applied under one
// write lock, so concurrent readers see either all of a batch or none of it.
//
// Internally nodes are addressed by small integer indexes and every node
// keeps its outgoing links (in the order they were given and sorted by ID)
// and its incoming links (sorted by ID). This keeps neighbour queries
// proportional to the degree of the node, lets [Graph.ShortestPath] run a
// bidirectional breadth-first search over adjacency lists, and lets
// PageRank ([Graph.PageRankOf], [Graph.Hubs]) iterate over a compact edge
// array. [Graph.Related] ranks the nodes near some seeds, and
// [Graph.RelatedWhy] says how each is linked with them.
//
// Tags are matched case-insensitively and hierarchically, as in Obsidian:
// a query for "project" matches notes tagged "project" or "project/alpha",
// but not "projects".
package graph
