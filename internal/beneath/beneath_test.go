package beneath

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestOpen(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "d"), 0o755))
	must(os.WriteFile(filepath.Join(root, "d", "ok.txt"), []byte("ok"), 0o644))
	must(os.WriteFile(filepath.Join(outside, "secret"), []byte("secret"), 0o644))
	must(os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "abs-link")))
	must(os.Symlink("d/ok.txt", filepath.Join(root, "rel-link")))
	must(os.Symlink(outside, filepath.Join(root, "dir-link")))
	must(syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644))

	f, err := Open(root, "d/ok.txt")
	if err != nil {
		t.Fatalf("a regular file beneath the root: %v", err)
	}
	f.Close()

	for rel, want := range map[string]error{
		"abs-link":        ErrSymlink,
		"rel-link":        ErrSymlink,
		"dir-link/secret": ErrSymlink,
		"../" + filepath.Base(outside) + "/secret": ErrOutside,
		"d":    ErrNotRegular,
		"fifo": ErrNotRegular,
	} {
		done := make(chan error, 1)
		go func() {
			f, err := Open(root, rel)
			if err == nil {
				f.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, want) {
				t.Errorf("Open(%q) = %v, want %v", rel, err, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("Open(%q) blocked", rel)
		}
	}
	if _, err := Open(root, filepath.Join(outside, "secret")); err == nil {
		t.Error("an absolute path was opened")
	}
}

// TestOpenMissingRoot: a root that does not exist is an error that says
// so, not a lookup relative to some other folder.
func TestOpenMissingRoot(t *testing.T) {
	if f, err := Open(filepath.Join(t.TempDir(), "missing"), "a.txt"); !errors.Is(err, os.ErrNotExist) {
		if f != nil {
			f.Close()
		}
		t.Errorf("Open under a missing root: %v, want ErrNotExist", err)
	}
}
