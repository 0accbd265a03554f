// Package slab cuts many small lists from a few large allocations: lists
// made one by one for each of 100,000 notes, among the garbage of a
// load, leave holes in the heap that stay in use around the live ones.
package slab

// Take cuts k items from the chunk *pool holds (the items not yet handed
// out), starting a new chunk of chunk items when it has fewer left; a
// list of more than a quarter of a chunk is allocated on its own. The
// list is capped (its capacity is k), so appending to it moves it rather
// than write into the next list. k 0 is an empty list, not nil.
func Take[T any](pool *[]T, k, chunk int) []T {
	switch {
	case k == 0:
		return []T{}
	case k > chunk/4:
		return make([]T, k)
	case k > len(*pool):
		*pool = make([]T, chunk)
	}
	l := (*pool)[:k:k]
	*pool = (*pool)[k:]
	return l
}
