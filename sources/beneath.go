package sources

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// ErrSymlink is wrapped by OpenBeneath's error for a path that is, or
// passes through, a symlink.
var ErrSymlink = errors.New("is a symlink or passes through one (refused: an imported folder must hold its files itself; copy them in)")

// OpenBeneath opens rel (a slash path) for reading inside the folder root
// of an untrusted import, never following a symlink or leaving root
// (openat2 RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS), and never blocking on a
// FIFO. The file must be a regular file.
func OpenBeneath(root, rel string) (*os.File, error) {
	dir, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: root, Err: err}
	}
	defer unix.Close(dir)
	fd, err := unix.Openat2(dir, rel, &unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	})
	switch {
	case errors.Is(err, unix.ELOOP):
		return nil, fmt.Errorf("%s %w", rel, ErrSymlink)
	case errors.Is(err, unix.EXDEV):
		return nil, fmt.Errorf("%s leaves the folder", rel)
	case err != nil:
		return nil, &os.PathError{Op: "open", Path: rel, Err: err}
	}
	f := os.NewFile(uintptr(fd), rel)
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file", rel)
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
