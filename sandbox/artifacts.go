package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"golang.org/x/sys/unix"

	"synth/internal/beneath"
	"synth/schemas"
)

// CollectLimits bound what one collection copies to the host. Zero means
// the default.
type CollectLimits struct {
	Files int   // regular files and directories under output/
	Bytes int64 // total apparent size of the files (a sparse file counts in full)
	Depth int   // directories below output/
	Path  int   // bytes of a workspace-relative path
}

// Defaults of CollectLimits.
const (
	DefaultArtifactFiles = 1000
	DefaultArtifactBytes = 512 << 20
	DefaultArtifactDepth = 16
	DefaultArtifactPath  = 1024
)

func (l CollectLimits) withDefaults() CollectLimits {
	if l.Files <= 0 {
		l.Files = DefaultArtifactFiles
	}
	if l.Bytes <= 0 {
		l.Bytes = DefaultArtifactBytes
	}
	if l.Depth <= 0 {
		l.Depth = DefaultArtifactDepth
	}
	if l.Path <= 0 {
		l.Path = DefaultArtifactPath
	}
	return l
}

// CollectError is why a collection stopped: Reason is
// schemas.FailArtifactLimit (the rollout wrote more than the limits allow)
// or schemas.FailArtifactError (something under output/ is not a plain
// file tree: a symlink, a FIFO, a file that vanished). Either fails the
// rollout, never the run.
type CollectError struct {
	Reason string
	Path   string // workspace-relative, as shown to people
	Err    error
}

func (e *CollectError) Error() string {
	return fmt.Sprintf("%s: %s: %v", e.Reason, e.Path, e.Err)
}

func (e *CollectError) Unwrap() error { return e.Err }

// CollectArtifacts is Collect with the default limits.
func CollectArtifacts(workspace, storeDir string) ([]schemas.Artifact, error) {
	return Collect(workspace, storeDir, CollectLimits{})
}

// Collect copies the regular files under workspace/output into storeDir as
// <aa>/<sha256> (content-addressed; an existing copy is kept) and returns
// them sorted by workspace-relative path ("output/plot.png").
//
// The caller must have stopped every process that could write the
// workspace (Halter). Collect still trusts nothing in it: it walks output/
// by directory descriptors, opening each component with openat2
// RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS (or O_NOFOLLOW where openat2 is
// missing), non-blocking, so that no symlink, FIFO or device is ever
// followed, read or waited on. Anything but directories and regular files,
// and anything past lim, is a *CollectError; the files stored before it
// stay in the store, within lim.
func Collect(workspace, storeDir string, lim CollectLimits) ([]schemas.Artifact, error) {
	c := collector{lim: lim.withDefaults(), store: storeDir}
	ws, err := unix.Open(workspace, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("collect artifacts of %s: %w", workspace, err)
	}
	defer unix.Close(ws)
	out, err := openBeneath(ws, "output", unix.O_DIRECTORY)
	switch {
	case errors.Is(err, unix.ENOENT):
		return nil, nil
	case err != nil:
		return nil, &CollectError{Reason: schemas.FailArtifactError, Path: "output", Err: describeOpenErr(err)}
	}
	if err := c.walk(out, "output", 0); err != nil {
		return c.arts, err
	}
	sort.Slice(c.arts, func(i, j int) bool { return c.arts[i].Path < c.arts[j].Path })
	return c.arts, nil
}

type collector struct {
	lim     CollectLimits
	store   string
	entries int
	bytes   int64
	arts    []schemas.Artifact
}

func (c *collector) fail(reason, rel string, format string, a ...any) error {
	return &CollectError{Reason: reason, Path: displayPath(rel), Err: fmt.Errorf(format, a...)}
}

// walk collects the directory open at fd (which it closes), rel being its
// workspace-relative path.
func (c *collector) walk(fd int, rel string, depth int) error {
	dir := os.NewFile(uintptr(fd), rel)
	defer dir.Close()
	for {
		ents, err := dir.ReadDir(256)
		for _, e := range ents {
			if err := c.entry(fd, rel, e.Name(), depth); err != nil {
				return err
			}
		}
		if err == io.EOF || (err == nil && len(ents) == 0) {
			return nil
		}
		if err != nil {
			return c.fail(schemas.FailArtifactError, rel, "read directory: %v", err)
		}
	}
}

func (c *collector) entry(dirfd int, dirRel, name string, depth int) error {
	rel := dirRel + "/" + name
	if c.entries++; c.entries > c.lim.Files {
		return c.fail(schemas.FailArtifactLimit, rel, "more than %d files and directories under output/", c.lim.Files)
	}
	if len(rel) > c.lim.Path {
		return c.fail(schemas.FailArtifactLimit, rel[:64]+"...", "path longer than %d bytes", c.lim.Path)
	}
	fd, err := openBeneath(dirfd, name, 0)
	if err != nil {
		return c.fail(schemas.FailArtifactError, rel, "%v", describeOpenErr(err))
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return c.fail(schemas.FailArtifactError, rel, "stat: %v", err)
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		if depth+1 > c.lim.Depth {
			unix.Close(fd)
			return c.fail(schemas.FailArtifactLimit, rel, "directories nested deeper than %d under output/", c.lim.Depth)
		}
		return c.walk(fd, rel, depth+1)
	case unix.S_IFREG:
		f := os.NewFile(uintptr(fd), rel)
		defer f.Close()
		if c.bytes+st.Size > c.lim.Bytes {
			return c.fail(schemas.FailArtifactLimit, rel, "%d bytes, which takes the rollout's files past %d bytes (a sparse file counts in full)", st.Size, c.lim.Bytes)
		}
		a, err := storeArtifact(f, c.store, st.Size)
		if err != nil {
			return c.fail(schemas.FailArtifactError, rel, "%v", err)
		}
		c.bytes += a.Size
		a.Path, a.PathBytes = displayPath(rel), nil
		if a.Path != rel {
			a.PathBytes = []byte(rel)
		}
		c.arts = append(c.arts, a)
		return nil
	}
	unix.Close(fd)
	return c.fail(schemas.FailArtifactError, rel, "not a regular file or directory (mode %#o); only plain files are collected", st.Mode&unix.S_IFMT)
}

// openBeneath opens name, one component, in dirfd without following a
// symlink, blocking on a FIFO or crossing a mount (package beneath).
func openBeneath(dirfd int, name string, flags int) (int, error) {
	if strings.Contains(name, "/") || name == ".." || name == "." {
		return -1, unix.EINVAL
	}
	return beneath.OpenAt(dirfd, name, flags|unix.O_RDONLY|unix.O_NOFOLLOW, true)
}

func describeOpenErr(err error) error {
	switch {
	case errors.Is(err, unix.ELOOP):
		return errors.New("a symlink; only plain files are collected")
	case errors.Is(err, unix.ENOENT):
		return errors.New("vanished during collection")
	case errors.Is(err, unix.EXDEV):
		return errors.New("a mount point; only plain files are collected")
	}
	return err
}

// displayPath is rel as valid UTF-8: each byte that is not part of a valid
// sequence is written \xNN. Artifact.PathBytes keeps the exact name
// whenever the two differ.
func displayPath(rel string) string {
	if utf8.ValidString(rel) {
		return rel
	}
	var b strings.Builder
	for i := 0; i < len(rel); {
		r, n := utf8.DecodeRuneInString(rel[i:])
		if r == utf8.RuneError && n == 1 {
			fmt.Fprintf(&b, `\x%02x`, rel[i])
		} else {
			b.WriteString(rel[i : i+n])
		}
		i += n
	}
	return b.String()
}

// storeArtifact hashes the regular file src, exactly size bytes (its size
// when opened; a file that grows or shrinks is an error), while copying it
// to a temporary file in storeDir, then renames the copy to its content
// address.
func storeArtifact(src *os.File, storeDir string, size int64) (schemas.Artifact, error) {
	if err := os.MkdirAll(storeDir, 0o755); err != nil {
		return schemas.Artifact{}, err
	}
	tmp, err := os.CreateTemp(storeDir, ".artifact-*")
	if err != nil {
		return schemas.Artifact{}, err
	}
	defer os.Remove(tmp.Name())
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h), io.LimitReader(src, size+1))
	if err == nil && n != size {
		err = fmt.Errorf("changed size while being copied (%d bytes, then %d)", size, n)
	}
	if err == nil {
		err = tmp.Close()
	} else {
		tmp.Close()
	}
	if err != nil {
		return schemas.Artifact{}, err
	}
	sum := hex.EncodeToString(h.Sum(nil))
	dst := filepath.Join(storeDir, sum[:2], sum)
	if _, err := os.Stat(dst); err == nil {
		return schemas.Artifact{SHA256: sum, Size: n}, nil
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return schemas.Artifact{}, err
	}
	os.Chmod(tmp.Name(), 0o444)
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return schemas.Artifact{}, err
	}
	return schemas.Artifact{SHA256: sum, Size: n}, nil
}
