//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package store

// readCacheFile returns the bytes of the snapshot cache file p, a copy
// on the heap where files are not mapped (see snapcache_map_unix.go).
func readCacheFile(p string) (b []byte, mapped bool, release func(), err error) {
	return readCacheCopy(p)
}

// dropCachePages does nothing for a copy.
func dropCachePages([]byte) {}
