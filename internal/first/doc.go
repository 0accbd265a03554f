// Package first keeps the first n of a stream of values in an order: a
// page of a sorted list (the engine's ListNodes), or the best hits of a
// search (the store's any-term fallback), without sorting every value:
// most values cost one comparison.
package first
