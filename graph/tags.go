package graph

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strings"
)

// TagCount is a tag with the number of nodes carrying it.
type TagCount struct {
	// Tag is the lowercase tag, without a leading '#'.
	Tag string
	// Count is the number of nodes tagged exactly Tag.
	Count int
}

// normalizeTag lowercases tag and strips surrounding spaces, a leading '#'
// and leading or trailing '/'.
func normalizeTag(tag string) string {
	tag = strings.TrimSpace(tag)
	tag = strings.TrimPrefix(tag, "#")
	tag = strings.Trim(tag, "/")
	return strings.ToLower(tag)
}

// normalizeTags returns the normalized tags, sorted, without duplicates or
// empty tags.
func normalizeTags(tags []string) []string {
	if len(tags) == 0 {
		return nil
	}
	out := make([]string, 0, len(tags)) // one allocation, kept with the node
	for _, t := range tags {
		if t = normalizeTag(t); t != "" {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// tagMatches reports whether tag is query or one of its descendants
// ("project/alpha" matches "project", "projects" does not).
func tagMatches(tag, query string) bool {
	return strings.HasPrefix(tag, query) &&
		(len(tag) == len(query) || tag[len(query)] == '/')
}

// Tags returns every tag with the number of nodes carrying it, sorted by
// count descending, then tag ascending. Counts are exact: a node tagged
// "project/alpha" counts for that tag only, not for "project".
func (g *Graph) Tags() []TagCount {
	g.mu.RLock()
	defer g.mu.RUnlock()
	counts := make([]TagCount, 0, len(g.tags))
	for t, set := range g.tags {
		counts = append(counts, TagCount{Tag: t, Count: len(set)})
	}
	slices.SortFunc(counts, func(a, b TagCount) int {
		if c := cmp.Compare(b.Count, a.Count); c != 0 {
			return c
		}
		return strings.Compare(a.Tag, b.Tag)
	})
	return counts
}

// WithTags returns the IDs, sorted, of the nodes having any (all=false) or
// all (all=true) of tags. Matching is case-insensitive and hierarchical:
// "project" also matches a node tagged "project/alpha", but not "projects".
// A leading '#' in a query tag is ignored. WithTags returns nil when tags
// holds no usable tag.
func (g *Graph) WithTags(tags []string, all bool) []string {
	ids := read(g, func() []string { return g.names(g.withTags(normalizeTags(tags), all)) })
	slices.Sort(ids)
	return ids
}

// withTags returns the slots, unordered, of the nodes having any or all of
// the normalized query tags.
func (g *Graph) withTags(queries []string, all bool) []int32 {
	if len(queries) == 0 {
		return nil
	}
	if !all {
		return g.union(queries)
	}
	// Start from the query matching the fewest nodes, then keep the nodes
	// whose own tags match every other query.
	best, bestSize := 0, -1
	for i, q := range queries {
		size := 0
		for t, set := range g.tags {
			if tagMatches(t, q) {
				size += len(set)
			}
		}
		if bestSize < 0 || size < bestSize {
			best, bestSize = i, size
		}
	}
	var res []int32
	for _, u := range g.union(queries[best : best+1]) {
		if g.hasAllTags(u, queries) {
			res = append(res, u)
		}
	}
	return res
}

// union returns the slots of the nodes having any of the query tags.
func (g *Graph) union(queries []string) []int32 {
	seen := make(map[int32]struct{})
	var res []int32
	for t, set := range g.tags {
		if !slices.ContainsFunc(queries, func(q string) bool { return tagMatches(t, q) }) {
			continue
		}
		for u := range set {
			if _, dup := seen[u]; !dup {
				seen[u] = struct{}{}
				res = append(res, u)
			}
		}
	}
	return res
}

// hasAllTags reports whether node u has a tag matching every query.
func (g *Graph) hasAllTags(u int32, queries []string) bool {
	tags := g.nodes[u].tags
	for _, q := range queries {
		if !slices.ContainsFunc(tags, func(t string) bool { return tagMatches(t, q) }) {
			return false
		}
	}
	return true
}

// Random returns a uniformly random node among those having any of tags
// (matched as in [Graph.WithTags]), or among all nodes when tags holds no
// usable tag. It returns ok=false when there is no such node. Random draws
// from r when it is non-nil, else from the math/rand/v2 global source; for
// a given r and graph contents the choice among tagged nodes is
// reproducible.
func (g *Graph) Random(r *rand.Rand, tags []string) (id string, ok bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	intN := rand.IntN
	if r != nil {
		intN = r.IntN
	}
	queries := normalizeTags(tags)
	if len(queries) == 0 {
		if len(g.live) == 0 {
			return "", false
		}
		return g.nodes[g.live[intN(len(g.live))]].id, true
	}
	slots := g.union(queries)
	if len(slots) == 0 {
		return "", false
	}
	slices.SortFunc(slots, g.cmp)
	return g.nodes[slots[intN(len(slots))]].id, true
}
