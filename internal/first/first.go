package first

import "slices"

// Keeper keeps the first n values offered, in the order of compare, in a
// heap whose root is the last of them.
type Keeper[T any] struct {
	n       int
	compare func(a, b T) int
	heap    []T
}

// New returns a Keeper of the first n values by compare (negative when a
// comes before b).
func New[T any](n int, compare func(a, b T) int) *Keeper[T] {
	return &Keeper[T]{n: n, compare: compare}
}

// Offer keeps x if it is among the first n values offered so far.
func (k *Keeper[T]) Offer(x T) {
	switch {
	case len(k.heap) < k.n:
		k.heap = append(k.heap, x)
		k.up(len(k.heap) - 1)
	case k.n > 0 && k.compare(x, k.heap[0]) < 0:
		k.heap[0] = x
		k.down(0)
	}
}

// Sorted returns the values kept, in order.
func (k *Keeper[T]) Sorted() []T {
	slices.SortFunc(k.heap, k.compare)
	return k.heap
}

// after reports whether the value at i comes after the one at j: the
// later value is nearer the root.
func (k *Keeper[T]) after(i, j int) bool { return k.compare(k.heap[i], k.heap[j]) > 0 }

func (k *Keeper[T]) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !k.after(i, parent) {
			return
		}
		k.heap[i], k.heap[parent] = k.heap[parent], k.heap[i]
		i = parent
	}
}

func (k *Keeper[T]) down(i int) {
	for {
		last, left := i, 2*i+1
		if left < len(k.heap) && k.after(left, last) {
			last = left
		}
		if right := left + 1; right < len(k.heap) && k.after(right, last) {
			last = right
		}
		if last == i {
			return
		}
		k.heap[i], k.heap[last] = k.heap[last], k.heap[i]
		i = last
	}
}
