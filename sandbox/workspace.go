package sandbox

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"synth/internal/beneath"
)

// prepareWorkspace makes ws/data and ws/output and places the inputs under
// data/, read-only. With link (interpreters run under a uid of their own and
// see data/ read-only), inputs whose source is already read-only (the run's
// content-addressed store) are hard-linked; otherwise they are copied, so a
// cell can never write through to the source.
func prepareWorkspace(ws string, inputs []Input, link bool) error {
	data, out := filepath.Join(ws, "data"), filepath.Join(ws, "output")
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("workspace %s: %w", ws, err)
	}
	if err := os.MkdirAll(data, 0o755); err != nil {
		return fmt.Errorf("workspace %s: %w", ws, err)
	}
	if len(inputs) > 0 {
		os.Chmod(data, 0o755)
	}
	for _, in := range inputs {
		if err := placeInput(data, in, link); err != nil {
			return fmt.Errorf("workspace %s: input %s: %w", ws, in.Name, err)
		}
	}
	return os.Chmod(data, 0o555)
}

func placeInput(data string, in Input, link bool) error {
	name := filepath.Clean(in.Name)
	if name == "." || filepath.IsAbs(name) || name == ".." || strings.HasPrefix(name, "../") {
		return fmt.Errorf("name %q must be a relative path inside data/", in.Name)
	}
	dst := filepath.Join(data, name)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if in.Root != "" {
		return copyBeneath(in.Root, in.Path, dst)
	}
	st, err := os.Stat(in.Path)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", in.Path)
	}
	os.Remove(dst)
	if link && st.Mode().Perm()&0o222 == 0 && os.Link(in.Path, dst) == nil {
		return nil
	}
	if err := copyFile(in.Path, dst); err != nil {
		return err
	}
	return os.Chmod(dst, 0o444)
}

func copyFile(src, dst string) error {
	r, err := os.Open(src)
	if err != nil {
		return err
	}
	defer r.Close()
	w, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, r); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

// chownWorkspace gives the workspace (all but data/) to uid, so that an
// interpreter running as uid can write to it. It must run while no
// interpreter can change the tree.
func chownWorkspace(ws string, uid int) error {
	data := filepath.Join(ws, "data")
	return filepath.WalkDir(ws, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == data {
			return fs.SkipDir
		}
		return os.Lchown(p, uid, uid) // never through a symlink
	})
}

// removeWorkspace deletes a workspace the backend made, including read-only
// directories inside it.
func removeWorkspace(ws string) error {
	if err := unmountWorkspace(ws); err != nil {
		return err
	}
	if err := os.RemoveAll(ws); err == nil {
		return nil
	}
	filepath.WalkDir(ws, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o755)
		}
		return nil
	})
	return os.RemoveAll(ws)
}

// copyBeneath copies the regular file rel inside root to dst (read-only),
// refusing a path that is or passes through a symlink (package beneath).
func copyBeneath(root, rel, dst string) error {
	src, err := beneath.Open(root, rel)
	switch {
	case errors.Is(err, beneath.ErrSymlink):
		return fmt.Errorf("%s is a symlink or passes through one (refused)", filepath.Join(root, rel))
	case errors.Is(err, beneath.ErrNotRegular):
		return fmt.Errorf("%s is not a regular file", filepath.Join(root, rel))
	case err != nil:
		return &os.PathError{Op: "open", Path: filepath.Join(root, rel), Err: errors.Unwrap(err)}
	}
	defer src.Close()
	w, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o444)
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, src); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
