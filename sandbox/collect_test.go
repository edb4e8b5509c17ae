package sandbox

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"synth/schemas"
)

// haltAndCollect stops s and collects its output/ into a fresh store.
func haltAndCollect(t *testing.T, s Sandbox, lim CollectLimits) (string, []schemas.Artifact, error) {
	t.Helper()
	if err := s.(Halter).Halt(); err != nil {
		t.Fatalf("halt: %v", err)
	}
	store := t.TempDir()
	done := make(chan struct{})
	var arts []schemas.Artifact
	var err error
	go func() {
		defer close(done)
		arts, err = Collect(s.Workspace(), store, lim)
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("collection hangs")
	}
	return store, arts, err
}

// storeHolds reports whether any file in store has the contents of a host
// file.
func storeHolds(t *testing.T, store string, hostFiles ...string) string {
	t.Helper()
	var hit string
	filepath.WalkDir(store, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		got, _ := os.ReadFile(p)
		for _, h := range hostFiles {
			if want, err := os.ReadFile(h); err == nil && len(want) > 0 && bytes.Equal(got, want) {
				hit = h
			}
		}
		return nil
	})
	return hit
}

// TestCollectHostile runs what a hostile rollout leaves in output/ in the
// real sandbox, stops it, and collects: each case ends with a reason, in
// bounded time, and no host file is ever copied.
func TestCollectHostile(t *testing.T) {
	b := testBackend(t)
	needIsolation(t, b)
	cases := []struct {
		name   string
		code   string
		lim    CollectLimits
		reason string // "" for a clean collection, "any" for either
		slim   Limits
		check  func(t *testing.T, store string, arts []schemas.Artifact)
	}{
		{name: "symlink to /etc", code: "import os\nos.symlink('/etc', 'output/d')", reason: schemas.FailArtifactError},
		{name: "symlink to a file", code: "import os\nos.symlink('/etc/passwd', 'output/p.txt')", reason: schemas.FailArtifactError},
		{name: "hard link out of output", code: "import os\nopen('keep.txt','w').write('mine')\nos.link('keep.txt', 'output/k.txt')", check: func(t *testing.T, store string, arts []schemas.Artifact) {
			if len(arts) != 1 || arts[0].Size != 4 {
				t.Errorf("%+v", arts)
			}
		}},
		{
			// A process left running swaps output/d between a directory and
			// a symlink to /etc as fast as it can: halting ends it first.
			name:   "symlink swap race",
			code:   "import subprocess\nsubprocess.Popen(['sh', '-c', 'cd output; while :; do mkdir d 2>/dev/null; echo x > d/f; rm -rf d; ln -s /etc d; rm -f d; done'], start_new_session=True)\nimport time; time.sleep(0.5)",
			reason: "any",
		},
		{name: "fifo", code: "import os\nos.mkfifo('output/f.csv')", reason: schemas.FailArtifactError},
		{name: "unix socket", code: "import socket\ns = socket.socket(socket.AF_UNIX)\ns.bind('output/s')", reason: schemas.FailArtifactError},
		{name: "tree deeper than PATH_MAX", code: "import os\nos.chdir('output')\nfor i in range(300):\n    os.mkdir('d' * 40)\n    os.chdir('d' * 40)\nopen('f', 'w').write('deep')", reason: schemas.FailArtifactLimit},
		{name: "too deep", code: "import os\nos.makedirs('output/' + '/'.join(['d'] * 20))\nopen('output/' + '/'.join(['d'] * 20) + '/f', 'w').write('x')", reason: schemas.FailArtifactLimit},
		{name: "long path", code: "import os\nos.makedirs('output/' + 'a' * 250 + '/' + 'b' * 250 + '/' + 'c' * 250 + '/' + 'd' * 250 + '/' + 'e' * 250)\nopen('output/' + 'a' * 250 + '/' + 'b' * 250 + '/' + 'c' * 250 + '/' + 'd' * 250 + '/' + 'e' * 250 + '/f', 'w').write('x')", reason: schemas.FailArtifactLimit},
		{name: "sparse files", code: "for i in range(3):\n    with open('output/s%d.bin' % i, 'wb') as f:\n        f.truncate(900 * 2**20)\n        f.write(b'x' * 4096)", lim: CollectLimits{Bytes: 100 << 20}, slim: Limits{FileBytes: 1 << 30}, reason: schemas.FailArtifactLimit, check: func(t *testing.T, store string, arts []schemas.Artifact) {
			if n := dirBytes(store); n > 100<<20 {
				t.Errorf("the store holds %d bytes, past the 100 MiB limit", n)
			}
		}},
		{name: "100,000 files", code: "import os\nn = 0\ntry:\n    for i in range(100000):\n        open('output/%d' % i, 'w').close()\n        n += 1\nexcept OSError as e:\n    print(n, e)", reason: schemas.FailArtifactLimit},
		{name: "invalid UTF-8 names", code: "import os\nfor n in (b'output/\\xff.txt', b'output/\\xfe.txt', b'output/\\\\xff.txt'):\n    open(n, 'wb').write(n)", check: func(t *testing.T, store string, arts []schemas.Artifact) {
			seen := map[string]bool{}
			for _, a := range arts {
				key := a.Path
				if a.PathBytes != nil {
					key = string(a.PathBytes)
				}
				if seen[key] {
					t.Errorf("two artifacts named %q", key)
				}
				seen[key] = true
			}
			if len(arts) != 3 || !seen["output/\xff.txt"] || !seen["output/\xfe.txt"] || !seen[`output/\xff.txt`] {
				t.Errorf("%+v", arts)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			lim := tc.slim
			lim.CellTimeout = 20 * time.Second
			s := open(t, b, Spec{Limits: lim})
			r := run(t, s, tc.code)
			if r.Status != schemas.StatusOK {
				t.Fatalf("cell: %s %s", r.Status, r.Output)
			}
			store, arts, err := haltAndCollect(t, s, tc.lim)
			var ce *CollectError
			switch {
			case tc.reason == "any":
			case tc.reason == "" && err != nil:
				t.Fatalf("collect: %v", err)
			case tc.reason != "" && (!errors.As(err, &ce) || ce.Reason != tc.reason):
				t.Fatalf("collect: %v (%d artifacts), want reason %s", err, len(arts), tc.reason)
			}
			if h := storeHolds(t, store, "/etc/passwd", "/etc/hostname", "/etc/os-release", "/etc/group"); h != "" {
				t.Fatalf("host file %s was collected", h)
			}
			if tc.check != nil {
				tc.check(t, store, arts)
			}
		})
	}
}

// TestHaltEndsEverything: after Halt, nothing the sandbox started runs, so
// output/ no longer changes.
func TestHaltEndsEverything(t *testing.T) {
	b := testBackend(t)
	needOwnUID(t, b)
	s := open(t, b, Spec{})
	want(t, run(t, s, "import subprocess\nsubprocess.Popen(['sh', '-c', 'while :; do echo x >> output/log; done'], start_new_session=True)\nimport os\nos.fork() or __import__('time').sleep(1000)\n'started'"), schemas.StatusOK, "started")
	uid := s.(*session).uid
	// The loop runs on its own: wait until it has written, so that a log
	// that stops growing proves Halt, not a loop that had not started.
	log := filepath.Join(s.Workspace(), "output", "log")
	for i := 0; i < 500; i++ {
		if st, err := os.Stat(log); err == nil && st.Size() > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := s.(Halter).Halt(); err != nil {
		t.Fatal(err)
	}
	if n := processesOf(uid); n > 0 {
		t.Fatalf("%d processes of the sandbox outlived Halt", n)
	}
	st1, err := os.Stat(log)
	if err != nil {
		t.Fatalf("the loop never wrote output/log: %v", err)
	}
	time.Sleep(50 * time.Millisecond)
	st2, _ := os.Stat(log)
	if st1.Size() != st2.Size() {
		t.Fatal("output/log still changes after Halt")
	}
	if _, err := s.Exec(t.Context(), "1"); err == nil || !strings.Contains(err.Error(), "halt") {
		t.Fatalf("exec after halt: %v", err)
	}
}

func dirBytes(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if st, err := d.Info(); err == nil {
				n += st.Size()
			}
		}
		return nil
	})
	return n
}

// TestInputsBeneathRoot: an input from an untrusted folder (Input.Root) that
// is, or lies behind, a symlink is refused; a plain one is copied.
func TestInputsBeneathRoot(t *testing.T) {
	b := testBackend(t)
	root, host := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(host, "secret.csv"), []byte("secret"), 0o600)
	os.WriteFile(filepath.Join(root, "ok.csv"), []byte("a\n1\n"), 0o644)
	os.Symlink(filepath.Join(host, "secret.csv"), filepath.Join(root, "link.csv"))
	os.Symlink(host, filepath.Join(root, "dir"))
	for _, rel := range []string{"link.csv", "dir/secret.csv", "../" + filepath.Base(host) + "/secret.csv"} {
		s, err := b.Open(t.Context(), Spec{Inputs: []Input{{Name: "x.csv", Root: root, Path: rel}}})
		if err == nil {
			s.Close()
			t.Errorf("%s: opened", rel)
		}
	}
	s := open(t, b, Spec{Inputs: []Input{{Name: "x.csv", Root: root, Path: "ok.csv"}}})
	want(t, run(t, s, "open('data/x.csv').read()"), schemas.StatusOK, "a\\n1")
}
