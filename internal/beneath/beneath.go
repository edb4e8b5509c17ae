// Package beneath opens files inside a folder that untrusted code or an
// untrusted import filled, never following a symlink, never leaving the
// folder and never blocking on a FIFO: openat2 with RESOLVE_BENEATH and
// RESOLVE_NO_SYMLINKS. The sandbox reads a workspace and a rollout's
// outputs through it, and sources reads an imported benchmark's folder.
package beneath

import (
	"errors"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// Errors of Open, for callers that explain them in their own words.
var (
	ErrSymlink    = errors.New("is a symlink or passes through one")
	ErrOutside    = errors.New("leaves the folder")
	ErrNotRegular = errors.New("is not a regular file")
)

// resolve is what every open here refuses to resolve through.
const resolve = unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS

// OpenAt opens rel in the directory dirfd with flags (O_NONBLOCK, O_NOCTTY
// and O_CLOEXEC added), resolving no symlink and never leaving dirfd;
// noXDev also refuses to cross a mount. Where the kernel lacks openat2 it
// falls back to openat with O_NOFOLLOW, which is safe only for a single
// component: a rel holding a slash is then refused with EINVAL.
func OpenAt(dirfd int, rel string, flags int, noXDev bool) (int, error) {
	flags |= unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_CLOEXEC
	how := &unix.OpenHow{Flags: uint64(flags), Resolve: resolve}
	if noXDev {
		how.Resolve |= unix.RESOLVE_NO_XDEV
	}
	fd, err := unix.Openat2(dirfd, rel, how)
	if err == unix.ENOSYS {
		if rel == "" || rel == "." || rel == ".." || strings.Contains(rel, "/") {
			return -1, unix.EINVAL
		}
		fd, err = unix.Openat(dirfd, rel, flags|unix.O_NOFOLLOW, 0)
	}
	return fd, err
}

// Open opens the regular file rel (a slash path) inside root for reading.
// Its error wraps ErrSymlink, ErrOutside or ErrNotRegular when rel is, or
// passes through, a symlink, leaves root, or is not a regular file (a FIFO
// or a device is refused without being waited on); otherwise it is an
// *os.PathError.
func Open(root, rel string) (*os.File, error) {
	dir, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: root, Err: err}
	}
	defer unix.Close(dir)
	fd, err := OpenAt(dir, rel, unix.O_RDONLY, false)
	switch {
	case errors.Is(err, unix.ELOOP):
		return nil, &os.PathError{Op: "open", Path: rel, Err: ErrSymlink}
	case errors.Is(err, unix.EXDEV):
		return nil, &os.PathError{Op: "open", Path: rel, Err: ErrOutside}
	case err != nil:
		return nil, &os.PathError{Op: "open", Path: rel, Err: err}
	}
	f := os.NewFile(uintptr(fd), rel)
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = &os.PathError{Op: "open", Path: rel, Err: ErrNotRegular}
	}
	if err == nil {
		err = unix.SetNonblock(fd, false)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
