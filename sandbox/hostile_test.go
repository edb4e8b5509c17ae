package sandbox

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"synth/internal/testenv"
	"synth/schemas"
)

// needIsolation skips tests that need the namespace layers.
func needIsolation(t *testing.T, b *backend) {
	t.Helper()
	if !b.isolated() {
		testenv.Missing(t, "needs namespaces (root, or user namespaces); see synth doctor")
	}
}

// needOwnUID skips tests that need each sandbox to run as a uid of its own
// (a per-sandbox process limit, processes to count).
func needOwnUID(t *testing.T, b *backend) {
	t.Helper()
	if !b.ownUIDs() {
		testenv.Missing(t, "needs a uid per sandbox (run as root); see synth doctor")
	}
}

// healthy checks that the sandbox still runs cells and that the backend still
// opens new ones.
func healthy(t *testing.T, b *backend, s Sandbox) {
	t.Helper()
	want(t, run(t, s, "1+1"), schemas.StatusOK, "2")
	fresh := open(t, b, Spec{})
	want(t, run(t, fresh, "6*7"), schemas.StatusOK, "42")
	fresh.Close()
}

func TestHostile(t *testing.T) {
	b := testBackend(t)
	short := Limits{CellTimeout: 2 * time.Second}
	cases := []struct {
		name   string
		code   string
		status string
		out    string
		lim    Limits
	}{
		{"infinite loop", "while True:\n    pass", schemas.StatusTimeout, "lost", short},
		{"sleep past the limit", "import time\ntime.sleep(60)", schemas.StatusTimeout, "timeout", short},
		{"ignores SIGTERM", "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\ntime.sleep(60)", schemas.StatusTimeout, "timeout", short},
		{"interactive loop", "import time\nwhile True:\n    time.sleep(0.01)  # an event loop waiting for a key", schemas.StatusTimeout, "timeout", short},
		{"fork bomb", "import os\nwhile True:\n    os.fork()", "", "", short},
		{"allocate 50 GB", "b = bytearray(50 * 2**30)", schemas.StatusError, "memory limit is 2 GiB", short},
		{"numpy 50 GB", "import numpy as np\na = np.ones(50 * 2**30 // 8)", schemas.StatusError, "MemoryError", short},
		{"write 10 GB", "with open('output/big.bin', 'wb') as f:\n    for _ in range(10 * 1024):\n        f.write(b'x' * 2**20)", schemas.StatusError, "file size limit is 8 MiB", short},
		{"print 100 MB", "print('x' * 100_000_000)", schemas.StatusOK, "[output truncated", short},
		{"binary garbage", "import os, sys\nos.write(1, bytes(range(256)) * 50)\nsys.stdout.buffer.write(b'\\xff\\xfe\\x00\\x80 tail')\nsys.stdout.flush()", schemas.StatusOK, "tail", short},
		{"os._exit mid-cell", "print('half', flush=True)\nimport os\nos._exit(3)", schemas.StatusCrash, "exited with status 3", short},
		{"segfault", "import ctypes\nctypes.string_at(0)", schemas.StatusCrash, "SIGSEGV", short},
		{"deep recursion", "def f(n):\n    return f(n + 1)\nf(0)", schemas.StatusError, "RecursionError", short},
		{"deep recursion, limit raised", "import sys\nsys.setrecursionlimit(10**7)\ndef f(n):\n    return f(n + 1)\nf(0)", "", "", short},
		{"input", "name = input('your name: ')", schemas.StatusError, "input() is not available", short},
		{"kill the parent", "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nimport time\ntime.sleep(5)", "", "", short},
		{"kill everything", "import os, signal\nos.kill(-1, signal.SIGKILL)\nimport time\ntime.sleep(5)", "", "", short},
		{"CPU time", "while True:\n    pass", schemas.StatusCrash, "CPU time limit (1s)", Limits{CellTimeout: 20 * time.Second, CPUTime: time.Second}},
		{"open files", "fs = [open('/dev/null') for _ in range(200)]", schemas.StatusError, "limit is 50 open files", Limits{CellTimeout: 5 * time.Second, OpenFiles: 50}},
		{"processes", "import subprocess\nps = [subprocess.Popen(['sleep', '30']) for _ in range(40)]", schemas.StatusError, "limit is 16 processes", Limits{CellTimeout: 5 * time.Second, Processes: 16}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			switch tc.name {
			case "fork bomb", "processes":
				// Without a process limit of its own, a fork bomb would
				// exhaust the host's.
				needOwnUID(t, b)
			case "kill the parent", "kill everything":
				// Without a pid namespace these would reach the test's own
				// processes.
				needIsolation(t, b)
			}
			s := open(t, b, Spec{Limits: tc.lim})
			run(t, s, "keep = 1")
			r := run(t, s, tc.code)
			if tc.status != "" {
				want(t, r, tc.status, tc.out)
			} else if r.Status == schemas.StatusOK {
				t.Fatalf("status ok for a hostile cell: %q", r.Output)
			}
			if !utf8.ValidString(r.Output) || len(r.Output) > 20<<10 {
				t.Fatalf("output is not bounded valid text (%d bytes)", len(r.Output))
			}
			healthy(t, b, s)
			if uid := s.(*session).uid; uid != 0 {
				s.Close()
				// Killed processes may take a moment to finish exiting.
				for deadline := time.Now().Add(5 * time.Second); processesOf(uid) > 0 && time.Now().Before(deadline); {
					time.Sleep(20 * time.Millisecond)
				}
				if n := processesOf(uid); n > 0 {
					t.Fatalf("%d processes of the sandbox's uid %d outlived it", n, uid)
				}
			}
		})
	}
}

func TestFileSizeLimitOnHost(t *testing.T) {
	b := testBackend(t)
	needIsolation(t, b)
	s := open(t, b, Spec{Limits: Limits{CellTimeout: 5 * time.Second, FileBytes: 1 << 20}})
	run(t, s, "f = open('output/big.bin', 'wb')\nfor _ in range(100):\n    f.write(b'x' * 2**20)")
	st, err := os.Stat(filepath.Join(s.Workspace(), "output", "big.bin"))
	if err != nil || st.Size() > 1<<20 {
		t.Fatalf("file on host: %v, %v", st, err)
	}
}

// TestNoNetwork listens on the host's loopback and checks that no cell's
// attempt reaches it.
func TestNoNetwork(t *testing.T) {
	b := testBackend(t)
	needIsolation(t, b)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var accepted atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	s := open(t, b, Spec{Limits: Limits{CellTimeout: 10 * time.Second}})
	r := run(t, s, fmt.Sprintf("import socket\nsocket.create_connection(('127.0.0.1', %d), timeout=2)", port))
	want(t, r, schemas.StatusError, "Connection refused")
	r = run(t, s, fmt.Sprintf("import urllib.request\nurllib.request.urlopen('http://127.0.0.1:%d/', timeout=2)", port))
	want(t, r, schemas.StatusError, "Error")
	r = run(t, s, fmt.Sprintf("import subprocess\nsubprocess.run(['python3', '-c', 'import socket; socket.create_connection((\"127.0.0.1\", %d), timeout=2)']).returncode", port))
	want(t, r, schemas.StatusOK, "1")
	r = run(t, s, "import socket\ns = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\ns.connect(('127.0.0.1', 9))\n[name for _, name in socket.if_nameindex()]")
	want(t, r, schemas.StatusOK, "['lo']")
	time.Sleep(100 * time.Millisecond)
	if n := accepted.Load(); n != 0 {
		t.Fatalf("the host's test server saw %d connections from the sandbox", n)
	}
}

func TestHostFilesHidden(t *testing.T) {
	b := testBackend(t)
	needIsolation(t, b)
	exe, _ := os.Executable()
	s := open(t, b, Spec{})
	want(t, run(t, s, "open('/etc/shadow').read()"), schemas.StatusError, "PermissionError")
	want(t, run(t, s, fmt.Sprintf("open(%q, 'rb').read(4)", exe)), schemas.StatusError, "FileNotFoundError")
	want(t, run(t, s, fmt.Sprintf("import os\nos.path.exists('/proc/%d')", os.Getpid())), schemas.StatusOK, "False")
	want(t, run(t, s, "import os\nos.getpid() == 1"), schemas.StatusOK, "True")
	if b.ownUIDs() {
		want(t, run(t, s, "import os\nos.getuid() != 0"), schemas.StatusOK, "True")
	}
	host := filepath.Dir(s.Workspace())
	escape := filepath.Join(host, "escape-"+strconv.Itoa(os.Getpid()))
	for _, p := range []string{escape, "/etc/escape", "/usr/escape", "/escape", "/workspace/../escape", "data/escape"} {
		r := run(t, s, fmt.Sprintf("open(%q, 'w').write('x')", p))
		if r.Status == schemas.StatusOK && p != escape {
			t.Errorf("cell wrote %s", p)
		}
	}
	want(t, run(t, s, "open('/tmp/private', 'w').write('x')"), schemas.StatusOK, "1")
	for _, p := range []string{escape, "/etc/escape", "/usr/escape", "/escape", "/tmp/private", filepath.Join(s.Workspace(), "data", "escape")} {
		if _, err := os.Stat(p); err == nil {
			os.Remove(p)
			t.Errorf("the host has %s", p)
		}
	}
}

func TestSiblingHidden(t *testing.T) {
	b := testBackend(t)
	needIsolation(t, b)
	a, c := open(t, b, Spec{}), open(t, b, Spec{})
	run(t, c, "open('output/secret.txt', 'w').write('s3cret')")
	// Interpreters share a prepared root, read-only; /tmp and /dev/shm are
	// each one's own.
	for _, p := range []string{"/tmp/secret.txt", "/dev/shm/secret.txt"} {
		want(t, run(t, c, fmt.Sprintf("open(%q, 'w').write('s3cret')", p)), schemas.StatusOK, "6")
	}
	for _, p := range []string{c.Workspace(), filepath.Join(c.Workspace(), "output", "secret.txt"), "/tmp/secret.txt", "/dev/shm/secret.txt"} {
		r := run(t, a, fmt.Sprintf("import os\nos.path.exists(%q)", p))
		want(t, r, schemas.StatusOK, "False")
	}
	r := run(t, a, "import subprocess\nsubprocess.run('ls /proc | grep -c ^[0-9]', shell=True, capture_output=True, text=True).stdout")
	want(t, r, schemas.StatusOK, "")
	if strings.Contains(r.Output, "s3cret") {
		t.Fatal(r.Output)
	}
}

// TestLeftovers checks that what a cell leaves running (a printing thread,
// a child process) neither spoils later cells nor outlives the sandbox.
func TestLeftovers(t *testing.T) {
	b := testBackend(t)
	needOwnUID(t, b)
	s := open(t, b, Spec{Limits: Limits{CellTimeout: 5 * time.Second}})
	want(t, run(t, s, "import threading, time\ndef tick():\n    while True:\n        print('tick', flush=True)\n        time.sleep(0.005)\nthreading.Thread(target=tick, daemon=True).start()\ntime.sleep(0.05)"), schemas.StatusOK, "tick")
	want(t, run(t, s, "import subprocess\np = subprocess.Popen(['sh', '-c', 'while true; do echo loop; sleep 0.01; done'])\nq = subprocess.Popen(['sleep', '1000'], start_new_session=True)\n'started'"), schemas.StatusOK, "started")
	time.Sleep(100 * time.Millisecond)
	for i := 0; i < 5; i++ {
		want(t, run(t, s, fmt.Sprintf("%d * 2", i+10)), schemas.StatusOK, strconv.Itoa((i+10)*2))
	}
	uid := s.(*session).uid
	if n := processesOf(uid); n < 3 {
		t.Fatalf("expected the cell's processes to run as uid %d, found %d", uid, n)
	}
	s.Close()
	deadline := time.Now().Add(5 * time.Second)
	for processesOf(uid) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if n := processesOf(uid); n > 0 {
		t.Fatalf("%d processes of uid %d outlived the sandbox", n, uid)
	}
}

// processesOf counts the host's processes running as uid.
func processesOf(uid int) int {
	ents, _ := os.ReadDir("/proc")
	n := 0
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		st, err := os.ReadFile(filepath.Join("/proc", e.Name(), "status"))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(st), "\n") {
			if f := strings.Fields(line); len(f) > 1 && f[0] == "Uid:" && f[1] == strconv.Itoa(uid) {
				if !strings.Contains(string(st), "State:\tZ") {
					n++
				}
			}
		}
	}
	return n
}

// TestInteractivePrograms: an event loop waiting for a key or a window
// event never ends on its own and hits the cell's time limit (pygame, with
// its dummy video driver); a window the locked environment cannot open
// (opencv-python-headless has no GUI) fails at once, naming the function.
// Both modules are in the lock; the sandbox stays healthy either way.
func TestInteractivePrograms(t *testing.T) {
	b := testBackend(t)
	for _, tc := range []struct {
		module, code string
		status       string
		says         string
	}{
		{"pygame", "import pygame\npygame.init()\nscreen = pygame.display.set_mode((100, 100))\nrunning = True\nwhile running:\n    for event in pygame.event.get():\n        if event.type == pygame.QUIT:\n            running = False", schemas.StatusTimeout, ""},
		{"cv2", "import cv2, numpy as np\ncv2.imshow('w', np.zeros((10, 10), np.uint8))\nwhile cv2.waitKey(10) != ord('q'):\n    pass", schemas.StatusError, "not implemented"},
	} {
		t.Run(tc.module, func(t *testing.T) {
			s := open(t, b, Spec{Limits: Limits{CellTimeout: 2 * time.Second}})
			r := run(t, s, tc.code)
			if r.Status != tc.status || !strings.Contains(r.Output, tc.says) {
				t.Fatalf("status %s, want %s saying %q: %q", r.Status, tc.status, tc.says, r.Output)
			}
			healthy(t, b, s)
		})
	}
}

// TestOpenFilesOfACell: a cell inherits nothing from the zygote or its
// launcher: stdio, the control socket and the interpreter's own pipes only.
func TestOpenFilesOfACell(t *testing.T) {
	b := testBackend(t)
	needIsolation(t, b)
	s := open(t, b, Spec{})
	r := run(t, s, "import os\nout = os.readlink('/proc/self/fd/1')\nfds = {}\nfor fd in os.listdir('/proc/self/fd'):\n    try:\n        fds[int(fd)] = os.readlink('/proc/self/fd/' + fd)\n    except OSError:\n        pass\nsorted((fd, 'out' if t == out else t.split(':')[0]) for fd, t in fds.items())")
	want(t, r, schemas.StatusOK, "(0, '/dev/null'), (1, 'out'), (2, 'out')")
	// Anything else (a namespace, a pidfd, the zygote's socket) is a leak.
	kinds := regexp.MustCompile(`\(\d+, '([^']*)'\)`).FindAllStringSubmatch(r.Output, -1)
	count := map[string]int{}
	for _, k := range kinds {
		count[k[1]]++
	}
	known := count["/dev/null"] + count["out"] + count["socket"] + count["pipe"]
	if count["socket"] != 1 || count["pipe"] > 1 || count["/dev/null"] != 1 || count["out"] > 3 || known != len(kinds) {
		t.Fatalf("unexpected open files: %s", r.Output)
	}
}
