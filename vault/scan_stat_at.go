//go:build linux || darwin

package vault

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// lstatEach calls each with the metadata of every name in the open folder
// f (at dir), as os.Lstat gives it (errors too), by fstatat on the
// folder's descriptor: no path is looked up again from the root.
func lstatEach(f *os.File, dir string, names []string, each func(int, fs.FileInfo, error)) {
	if len(names) == 0 {
		return
	}
	rc, err := f.SyscallConn()
	if err == nil {
		err = rc.Control(func(fd uintptr) {
			for i, name := range names {
				var st unix.Stat_t
				err := unix.Fstatat(int(fd), name, &st, unix.AT_SYMLINK_NOFOLLOW)
				for errors.Is(err, unix.EINTR) {
					err = unix.Fstatat(int(fd), name, &st, unix.AT_SYMLINK_NOFOLLOW)
				}
				if err != nil {
					each(i, nil, &fs.PathError{Op: "lstat", Path: filepath.Join(dir, name), Err: err})
					continue
				}
				each(i, &statInfo{name: name, size: st.Size, mode: fileMode(uint32(st.Mode)),
					modTime: time.Unix(st.Mtim.Unix())}, nil)
			}
		})
	}
	if err != nil {
		lstatFallback(dir, names, each)
	}
}

// fileMode is os's reading of a stat mode.
func fileMode(m uint32) fs.FileMode {
	mode := fs.FileMode(m&0o777) | fileTypes[m&unix.S_IFMT>>12]
	for _, b := range [...]struct {
		bit  uint32
		mode fs.FileMode
	}{{unix.S_ISGID, fs.ModeSetgid}, {unix.S_ISUID, fs.ModeSetuid}, {unix.S_ISVTX, fs.ModeSticky}} {
		if m&b.bit != 0 {
			mode |= b.mode
		}
	}
	return mode
}

// fileTypes are the fs.FileMode type bits of the stat file types, by
// their value shifted down to 0-15.
var fileTypes = [16]fs.FileMode{
	unix.S_IFBLK >> 12: fs.ModeDevice, unix.S_IFCHR >> 12: fs.ModeDevice | fs.ModeCharDevice,
	unix.S_IFDIR >> 12: fs.ModeDir, unix.S_IFIFO >> 12: fs.ModeNamedPipe,
	unix.S_IFLNK >> 12: fs.ModeSymlink, unix.S_IFSOCK >> 12: fs.ModeSocket,
}

// statInfo is the fs.FileInfo of one fstatat.
type statInfo struct {
	name    string
	size    int64
	mode    fs.FileMode
	modTime time.Time
}

// Name is the file's base name.
func (s *statInfo) Name() string { return s.name }

// Size is the file's length in bytes.
func (s *statInfo) Size() int64 { return s.size }

// Mode is the file's type and permissions, as os gives them.
func (s *statInfo) Mode() fs.FileMode { return s.mode }

// ModTime is the file's modification time.
func (s *statInfo) ModTime() time.Time { return s.modTime }

// IsDir reports whether the file is a folder.
func (s *statInfo) IsDir() bool { return s.mode.IsDir() }

// Sys is nil: nothing reads the system's own record.
func (s *statInfo) Sys() any { return nil }
