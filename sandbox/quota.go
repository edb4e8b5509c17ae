package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// wsPrefix names the workspaces the backend makes: synth-ws-<pid>-<random>,
// so that a later synth can tell those of a process that is gone. The pid
// has 7 digits and the random part 16, whatever their values: the path
// reaches the interpreter, and a path one character longer lands its
// strings in another of the allocator's size classes, which moves the
// addresses of what a cell makes after (docs/REPRODUCIBILITY.md).
const wsPrefix = "synth-ws-"

// makeWorkspace makes a fresh workspace directory. With quota, it is a
// tmpfs of its own, limited to lim.WorkspaceBytes (plus the inputs) and
// lim.Inodes, so that a cell that writes past it gets ENOSPC and the host's
// disk never fills; the tmpfs's pages count in the memory of whoever wrote
// them (the sandbox's cgroup, for what a cell writes).
func makeWorkspace(lim Limits, inputs []Input, quota bool) (dir string, mounted bool, err error) {
	for tries := 0; ; tries++ {
		dir = filepath.Join(os.TempDir(), fmt.Sprintf("%s%07d-%016x", wsPrefix, os.Getpid(), rand.Uint64()))
		if err = os.Mkdir(dir, 0o700); err == nil || !errors.Is(err, fs.ErrExist) || tries >= 100 {
			break
		}
	}
	if err != nil {
		return "", false, fmt.Errorf("sandbox: workspace: %w", err)
	}
	if !quota {
		return dir, false, nil
	}
	size, inodes := lim.WorkspaceBytes, int64(lim.Inodes)+16
	for _, in := range inputs {
		if st, err := os.Stat(in.Path); err == nil {
			size += st.Size() + 4096
			inodes += int64(strings.Count(in.Name, "/")) + 1
		}
	}
	opts := fmt.Sprintf("size=%d,nr_inodes=%d,mode=0755", size, inodes)
	if err := unix.Mount("synth-workspace", dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
		os.Remove(dir)
		return "", false, fmt.Errorf("sandbox: workspace %s: mount a tmpfs (%s): %w", dir, opts, err)
	}
	return dir, true, nil
}

// canQuota reports whether this process can mount a tmpfs per workspace,
// and if not, why.
func canQuota() (bool, string) {
	dir, err := os.MkdirTemp("", "synth-probe-")
	if err != nil {
		return false, err.Error()
	}
	defer os.Remove(dir)
	if err := unix.Mount("synth-probe", dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=64k,nr_inodes=16"); err != nil {
		return false, fmt.Sprintf("cannot mount a tmpfs here (%v); run synth as root", err)
	}
	unix.Unmount(dir, unix.MNT_DETACH)
	return true, ""
}

// sweepWorkspaces removes the workspaces that synth processes now gone
// left in the temporary directory (a kill -9 skips their cleanup).
func sweepWorkspaces() {
	tmp := os.TempDir()
	ents, _ := os.ReadDir(tmp)
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), wsPrefix)
		pidStr, _, ok2 := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidStr)
		if !ok || !ok2 || err != nil || !e.IsDir() || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		removeWorkspace(filepath.Join(tmp, e.Name()))
	}
}

// unmountWorkspace detaches a workspace's tmpfs, if it has one.
func unmountWorkspace(ws string) error {
	unix.Unmount(filepath.Join(ws, "data"), unix.MNT_DETACH) // a template's bind (bindShared), if any
	err := unix.Unmount(ws, unix.MNT_DETACH)
	if err == nil || errors.Is(err, unix.EINVAL) || errors.Is(err, unix.EPERM) || errors.Is(err, unix.ENOENT) {
		return nil
	}
	return fmt.Errorf("unmount %s: %w", ws, err)
}
