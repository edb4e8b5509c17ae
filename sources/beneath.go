package sources

import (
	"errors"
	"fmt"
	"os"

	"synth/internal/beneath"
)

// ErrSymlink is wrapped by OpenBeneath's error for a path that is, or
// passes through, a symlink.
var ErrSymlink = errors.New("is a symlink or passes through one (refused: an imported folder must hold its files itself; copy them in)")

// OpenBeneath opens rel (a slash path) for reading inside the folder root
// of an untrusted import (package beneath: never following a symlink or
// leaving root, never blocking on a FIFO). The file must be a regular file.
func OpenBeneath(root, rel string) (*os.File, error) {
	f, err := beneath.Open(root, rel)
	switch {
	case errors.Is(err, beneath.ErrSymlink):
		return nil, fmt.Errorf("%s %w", rel, ErrSymlink)
	case errors.Is(err, beneath.ErrOutside):
		return nil, fmt.Errorf("%s leaves the folder", rel)
	case errors.Is(err, beneath.ErrNotRegular):
		return nil, fmt.Errorf("%s is not a regular file", rel)
	}
	return f, err
}
