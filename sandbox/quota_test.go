package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"synth/internal/testenv"
	"synth/schemas"
)

func needQuota(t *testing.T, b *backend) {
	t.Helper()
	if !b.quota || !b.treeHandoff() {
		testenv.Missing(t, "needs a tmpfs per workspace (root); see synth doctor")
	}
}

func needCgroup(t *testing.T, b *backend) {
	t.Helper()
	if b.cg == nil || b.cg.version == 0 {
		testenv.Missing(t, "needs a cgroup per sandbox (root or delegation); see synth doctor")
	}
}

// TestWritablePlacesAreLimited: writing past the workspace's, /tmp's or
// /dev/shm's size or inode quota fails with ENOSPC inside the sandbox, and
// the host's disk is never touched.
func TestWritablePlacesAreLimited(t *testing.T) {
	b := testBackend(t)
	needQuota(t, b)
	lim := Limits{CellTimeout: 30 * time.Second, FileBytes: 1 << 30, WorkspaceBytes: 32 << 20, TmpBytes: 16 << 20, Inodes: 500}
	fill := "import errno\ntry:\n    with open(%q, 'wb') as f:\n        for _ in range(200):\n            f.write(b'x' * 2**20)\n            f.flush()\n    print('no limit')\nexcept OSError as e:\n    print(errno.errorcode[e.errno])"
	many := "import errno, os\nos.makedirs(%q, exist_ok=True)\ntry:\n    for i in range(5000):\n        open(%q + '/%d' % i, 'w').close()\n    print('no limit')\nexcept OSError as e:\n    print(errno.errorcode[e.errno], i)"
	s := open(t, b, Spec{Limits: lim})
	for _, p := range []string{"output/big.bin", "big.bin", "/tmp/big.bin", "/dev/shm/big.bin"} {
		want(t, run(t, s, strings.Replace(fill, "%q", strconv.Quote(p), 1)), schemas.StatusOK, "ENOSPC")
	}
	for _, d := range []string{"output/many", "/tmp/many"} {
		code := strings.Replace(strings.Replace(many, "%q", strconv.Quote(d), 1), "%q", strconv.Quote(d), 1)
		want(t, run(t, s, code), schemas.StatusOK, "ENOSPC")
	}
	var st struct{ blocks int64 }
	filepath.WalkDir(s.Workspace(), func(p string, d os.DirEntry, err error) error {
		if fi, err := os.Lstat(p); err == nil {
			st.blocks += fi.Size()
		}
		return nil
	})
	if st.blocks > 40<<20 {
		t.Fatalf("the workspace holds %d bytes, past its 32 MiB quota", st.blocks)
	}
}

// TestMemoryIsPerSandbox: three children of 1.5 GiB in a 4 GiB sandbox
// (each under its own address-space limit) cannot all live: the sandbox's
// cgroup refuses or kills one, and the sandbox never holds more than 4 GiB.
func TestMemoryIsPerSandbox(t *testing.T) {
	b := testBackend(t)
	needCgroup(t, b)
	s := open(t, b, Spec{Limits: Limits{CellTimeout: 60 * time.Second, MemoryBytes: 4 << 30}})
	code := `import subprocess, sys
hold = "import time\nb = b'x' * (1536 * 2**20)\ntime.sleep(4)"
ps = [subprocess.Popen([sys.executable, '-c', hold]) for _ in range(3)]
print('codes', sorted(p.wait() for p in ps))`
	r := run(t, s, code)
	if r.Status == schemas.StatusOK && strings.Contains(r.Output, "codes [0, 0, 0]") {
		t.Fatalf("three 1.5 GiB children lived in a 4 GiB sandbox: %s", r.Output)
	}
	peak := s.(*session).cgroup.peak()
	if peak > 4<<30 || peak == 0 {
		t.Fatalf("the sandbox's memory peaked at %d bytes, want at most 4 GiB", peak)
	}
	t.Logf("%s; the sandbox's memory peaked at %d MiB", strings.TrimSpace(r.Output), peak>>20)
	healthy(t, b, s)
}

// TestTmpfsCountsAsMemory: what a cell writes to /tmp is memory, charged to
// the sandbox: past its memory limit the writes stop.
func TestTmpfsCountsAsMemory(t *testing.T) {
	b := testBackend(t)
	needCgroup(t, b)
	s := open(t, b, Spec{Limits: Limits{CellTimeout: 30 * time.Second, MemoryBytes: 256 << 20, TmpBytes: 1 << 30, FileBytes: 1 << 30}})
	r := run(t, s, "with open('/tmp/x', 'wb') as f:\n    for _ in range(512):\n        f.write(b'x' * 2**20)\n        f.flush()\nprint('wrote it all')")
	if strings.Contains(r.Output, "wrote it all") {
		t.Fatalf("512 MiB of /tmp in a 256 MiB sandbox: %s", r.Output)
	}
	if peak := s.(*session).cgroup.peak(); peak > 256<<20 {
		t.Fatalf("peak %d bytes", peak)
	}
}

// TestSweepLeftovers: workspaces (tmpfs mounts included) of a synth process
// that is gone are removed at start; those of live processes stay.
func TestSweepLeftovers(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	dead := cmd.Process.Pid
	gone := filepath.Join(os.TempDir(), wsPrefix+strconv.Itoa(dead)+"-leftover")
	live := filepath.Join(os.TempDir(), wsPrefix+strconv.Itoa(os.Getppid())+"-inuse")
	for _, d := range []string{gone, live} {
		os.MkdirAll(filepath.Join(d, "data"), 0o755)
		t.Cleanup(func() { removeWorkspace(d) })
	}
	mounted := unix.Mount("t", gone, "tmpfs", 0, "size=1m") == nil
	os.MkdirAll(filepath.Join(gone, "output", "sub"), 0o755)
	os.Chmod(filepath.Join(gone, "output"), 0o555)
	sweepWorkspaces()
	if _, err := os.Stat(gone); !os.IsNotExist(err) {
		t.Errorf("the workspace of dead pid %d stayed (mounted %v): %v", dead, mounted, err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("the workspace of a live process was swept: %v", err)
	}
}

// TestWorkspaceNamesAndUIDsHaveOneLength: the workspace path and the uid an
// interpreter is assigned have the same length whatever their values, so
// that the assignment it parses allocates the same (docs/REPRODUCIBILITY.md).
func TestWorkspaceNamesAndUIDsHaveOneLength(t *testing.T) {
	seen := map[int]bool{}
	for range 20 {
		dir, _, err := makeWorkspace(Limits{}, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		os.Remove(dir)
		seen[len(dir)] = true
	}
	if len(seen) != 1 {
		t.Errorf("workspace paths of %d lengths: %v", len(seen), seen)
	}
	if lo, hi := strconv.Itoa(uidBase), strconv.Itoa(uidBase+uidSpan-1); len(lo) != len(hi) {
		t.Errorf("uids from %s to %s differ in length", lo, hi)
	}
}
