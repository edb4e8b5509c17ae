package sandbox

import (
	"runtime"
	"strings"
	"testing"

	"synth/schemas"
)

// TestSeccomp: inside the sandbox, new namespaces (user namespaces
// included), mounts, tracing, kernel keys, BPF, perf and userfaultfd are
// refused, while ordinary processes and threads still start.
func TestSeccomp(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the filter is written for x86_64") // on .ci/skips.txt
	}
	b := testBackend(t)
	needIsolation(t, b)
	s := open(t, b, Spec{})
	if !s.(*session).c.seccomp {
		t.Fatal("the interpreter did not load the filter")
	}
	want(t, run(t, s, "import subprocess\nr = subprocess.run(['unshare', '-U', 'true'], capture_output=True, text=True)\nprint('rc', r.returncode, r.stderr)"), schemas.StatusOK, "rc 1")
	want(t, run(t, s, "import subprocess\nr = subprocess.run(['unshare', '-Urm', 'id'], capture_output=True, text=True)\nprint('rc', r.returncode, r.stdout)"), schemas.StatusOK, "rc 1")
	calls := map[string]string{
		"unshare(CLONE_NEWUSER)": "libc.unshare(0x10000000)",
		"unshare(CLONE_NEWNET)":  "libc.unshare(0x40000000)",
		"clone(CLONE_NEWUSER)":   "libc.syscall(56, 0x10000000 | 17, 0, 0, 0, 0)",
		"setns":                  "libc.setns(0, 0)",
		"mount":                  "libc.mount(b'none', b'/tmp', b'tmpfs', 0, None)",
		"umount":                 "libc.umount2(b'/tmp', 2)",
		"pivot_root":             "libc.syscall(155, b'/tmp', b'/tmp')",
		"ptrace":                 "libc.ptrace(16, 1, 0, 0)",
		"keyctl":                 "libc.syscall(250, 0, 0, 0, 0, 0)",
		"bpf":                    "libc.syscall(321, 0, 0, 0)",
		"perf_event_open":        "libc.syscall(298, 0, 0, -1, -1, 0)",
		"userfaultfd":            "libc.syscall(323, 0)",
		"init_module":            "libc.syscall(175, 0, 0, 0)",
		"finit_module":           "libc.syscall(313, -1, b'', 0)",
		"delete_module":          "libc.syscall(176, b'x', 0)",
		"kexec_load":             "libc.syscall(246, 0, 0, 0, 0)",
		"io_uring_setup":         "libc.syscall(425, 1, 0)",
		"x32 ABI":                "libc.syscall(0x40000000 + 39)",
	}
	for name, call := range calls {
		code := "import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\nrc = " + call + "\nprint('rc', rc, os.strerror(ctypes.get_errno()))"
		r := run(t, s, code)
		if r.Status != schemas.StatusOK || !strings.Contains(r.Output, "rc -1 Operation not permitted") {
			t.Errorf("%s: %s %s", name, r.Status, r.Output)
		}
	}
	// Ordinary work goes on: processes, threads, a pool.
	want(t, run(t, s, "import subprocess, threading, multiprocessing\nt = threading.Thread(target=lambda: None); t.start(); t.join()\nwith multiprocessing.Pool(2) as p:\n    print(sum(p.map(abs, [-1, -2])), subprocess.run(['echo', 'hi'], capture_output=True, text=True).stdout)"), schemas.StatusOK, "3 hi")
}
