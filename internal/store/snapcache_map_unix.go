//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package store

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// readCacheFile returns the bytes of the snapshot cache file p through a
// read-only shared map of the file instead of a copy on the heap: all
// of it is referenced for the process's lifetime (the decoded strings and the links' details point
// into it). Mapped, those bytes are the kernel's page cache of the file:
// once the load has decoded them, dropCachePages lets the process's
// pages go (and Store.DropCachePages again, once the engine's first
// passes over every note are done), and what later reads touch comes
// back from that cache.
// release unmaps them, for a file whose snapshot was not kept.
//
// The cache file is only ever replaced by a rename (writeCacheFile),
// never written in place, so the mapped bytes never change. A file that
// cannot be mapped is read as a copy (mapped false): dropCachePages must
// never be given a copy, whose pages it would zero.
func readCacheFile(p string) (b []byte, mapped bool, release func(), err error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, false, nil, fmt.Errorf("open snapshot cache: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, false, nil, fmt.Errorf("stat snapshot cache: %w", err)
	}
	size := fi.Size()
	if size <= 0 || size != int64(int(size)) {
		return readCacheCopy(p)
	}
	b, err = unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return readCacheCopy(p)
	}
	return b, true, func() { _ = unix.Munmap(b) }, nil
}

// dropCachePages lets go of the process's pages of b, the bytes of a
// snapshot cache read by readCacheFile and decoded: the strings that
// point into them read them again from the kernel's cache of the file
// when used. b stays mapped for the process's lifetime (nothing tells
// when the last string into it is gone).
func dropCachePages(b []byte) {
	_ = unix.Madvise(b, unix.MADV_DONTNEED)
}
