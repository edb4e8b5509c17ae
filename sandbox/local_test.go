package sandbox

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"synth/schemas"
)

const testPython = "/usr/bin/python3"

var (
	sharedOnce sync.Once
	sharedB    *backend
	sharedErr  error
)

// testBackend returns a backend shared by the package's tests (one zygote),
// with short limits so that hostile cells end quickly.
func testBackend(t *testing.T) *backend {
	t.Helper()
	if _, err := os.Stat(testPython); err != nil {
		t.Skipf("needs %s: %v", testPython, err)
	}
	sharedOnce.Do(func() {
		sharedB, sharedErr = newBackend(Config{
			Python: testPython,
			Slots:  8,
			Limits: LimitsYAML{CellTimeout: "3s", Memory: "2GiB", FileSize: "8MiB", Output: "16KiB", Processes: 32, OpenFiles: 128, CPUTime: "60s"},
		})
		if sharedErr == nil {
			sharedErr = sharedB.Warm()
		}
	})
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return sharedB
}

func open(t *testing.T, b Backend, spec Spec) Sandbox {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := b.Open(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func run(t *testing.T, s Sandbox, code string) Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := s.Exec(ctx, code)
	if err != nil {
		t.Fatalf("exec %q: %v", code, err)
	}
	return r
}

func want(t *testing.T, r Result, status, substr string) {
	t.Helper()
	if r.Status != status || !strings.Contains(r.Output, substr) {
		t.Fatalf("got status %q output %q; want status %q containing %q", r.Status, r.Output, status, substr)
	}
}

func TestJupyterSemantics(t *testing.T) {
	b := testBackend(t)
	s := open(t, b, Spec{Seed: 7})
	want(t, run(t, s, "x = 20\ny = 22"), schemas.StatusOK, "")
	want(t, run(t, s, "x + y"), schemas.StatusOK, "42\n")
	want(t, run(t, s, "import pandas as pd\npd.DataFrame({'a': [1, 2]})"), schemas.StatusOK, "   a\n0  1\n1  2")
	r := run(t, s, "import os, sys\nprint('one')\nsys.stdout.flush()\nos.system('echo two')\nprint('three', file=sys.stderr)\nimport subprocess\nsubprocess.run(['echo', 'four'])\nNone")
	want(t, r, schemas.StatusOK, "one\ntwo\nthree\nfour\n")
	r = run(t, s, "def f():\n    return 1/0\nf()")
	want(t, r, schemas.StatusError, "ZeroDivisionError: division by zero")
	if strings.Contains(r.Output, "driver") || !strings.Contains(r.Output, "line 2, in f") {
		t.Errorf("traceback not trimmed to the cell: %q", r.Output)
	}
	want(t, run(t, s, "def g(:\n  pass"), schemas.StatusError, "SyntaxError")
	want(t, run(t, s, "input('name? ')"), schemas.StatusError, "input() is not available")
	want(t, run(t, s, "import matplotlib.pyplot as plt\nplt.plot([1,2])\nplt.savefig('output/p.png')\nplt.show()\nprint('shown')"), schemas.StatusOK, "shown")
	want(t, run(t, s, "import matplotlib; matplotlib.get_backend()"), schemas.StatusOK, "'agg'")
	want(t, run(t, s, "x"), schemas.StatusOK, "20")
}

func TestSeedReproduces(t *testing.T) {
	b := testBackend(t)
	code := "import random, numpy as np, os\n(random.random(), float(np.random.rand()), os.environ['PYTHONHASHSEED'])"
	a := run(t, open(t, b, Spec{Seed: 11}), code)
	c := run(t, open(t, b, Spec{Seed: 11}), code)
	d := run(t, open(t, b, Spec{Seed: 12}), code)
	if a.Output != c.Output || a.Output == d.Output {
		t.Fatalf("seed 11: %q and %q; seed 12: %q", a.Output, c.Output, d.Output)
	}
}

func TestTimeoutRestarts(t *testing.T) {
	b := testBackend(t)
	s := open(t, b, Spec{Limits: Limits{CellTimeout: 2 * time.Second}})
	run(t, s, "keep = 1")
	r := run(t, s, "import time\nprint('before', flush=True)\ntime.sleep(30)")
	want(t, r, schemas.StatusTimeout, "before")
	if !r.StateLost || !strings.Contains(r.Output, "lost") {
		t.Fatalf("timeout result does not say state was lost: %+v", r)
	}
	r = run(t, s, "'keep' in globals()")
	want(t, r, schemas.StatusOK, "False")
	if !r.StateLost || !strings.Contains(r.Output, "restarted") {
		t.Fatalf("next cell does not say state was lost: %+v", r)
	}
	want(t, run(t, s, "1+1"), schemas.StatusOK, "2")
}

func TestOutputTruncated(t *testing.T) {
	b := testBackend(t)
	s := open(t, b, Spec{Limits: Limits{OutputBytes: 1000}})
	r := run(t, s, "print('a' * 100000 + 'END')")
	want(t, r, schemas.StatusOK, "[output truncated:")
	if !r.Truncated || len(r.Output) > 1200 || !strings.Contains(r.Output, "END") {
		t.Fatalf("truncated=%v len=%d output %q", r.Truncated, len(r.Output), r.Output)
	}
}

func TestWorkspaceAndInputs(t *testing.T) {
	b := testBackend(t)
	src := filepath.Join(t.TempDir(), "in.csv")
	os.WriteFile(src, []byte("a,b\n1,2\n"), 0o644)
	s := open(t, b, Spec{Inputs: []Input{{Name: "a.csv", Path: src}}})
	want(t, run(t, s, "import pandas as pd\npd.read_csv('data/a.csv').b.sum()"), schemas.StatusOK, "2")
	want(t, run(t, s, "open('data/a.csv', 'w')"), schemas.StatusError, "Error")
	want(t, run(t, s, "open('output/r.txt', 'w').write('hi')"), schemas.StatusOK, "2")
	ws := s.Workspace()
	if got, _ := os.ReadFile(filepath.Join(ws, "output", "r.txt")); string(got) != "hi" {
		t.Fatalf("output/r.txt on the host holds %q", got)
	}
	if got, _ := os.ReadFile(src); string(got) != "a,b\n1,2\n" {
		t.Fatalf("input changed: %q", got)
	}
	s.Close()
	if _, err := os.Stat(ws); !os.IsNotExist(err) {
		t.Fatalf("own workspace %s not removed: %v", ws, err)
	}
}

func TestGivenWorkspaceKept(t *testing.T) {
	b := testBackend(t)
	ws := t.TempDir()
	os.MkdirAll(filepath.Join(ws, "output"), 0o755)
	os.WriteFile(filepath.Join(ws, "output", "done.txt"), []byte("x"), 0o644)
	s := open(t, b, Spec{Workspace: ws})
	want(t, run(t, s, "import os\nsorted(os.listdir('output'))"), schemas.StatusOK, "done.txt")
	s.Close()
	if _, err := os.Stat(filepath.Join(ws, "output", "done.txt")); err != nil {
		t.Fatal(err)
	}
}

func TestParsedLimits(t *testing.T) {
	l, err := Config{Limits: LimitsYAML{CellTimeout: "30s", Memory: "2GiB", FileSize: "10MB", Output: "64KiB", OpenFiles: 10}}.ParsedLimits()
	if err != nil {
		t.Fatal(err)
	}
	if l.CellTimeout != 30*time.Second || l.MemoryBytes != 2<<30 || l.FileBytes != 10e6 || l.OutputBytes != 64<<10 || l.OpenFiles != 10 {
		t.Fatalf("%+v", l)
	}
	for _, tc := range []struct {
		y   LimitsYAML
		key string
	}{
		{LimitsYAML{CellTimeout: "30 seconds"}, "cell_timeout"},
		{LimitsYAML{Memory: "lots"}, "memory"},
		{LimitsYAML{Output: "-1KiB"}, "output"},
		{LimitsYAML{Processes: -1}, "processes"},
	} {
		if _, err := (Config{Limits: tc.y}).ParsedLimits(); err == nil || !strings.Contains(err.Error(), tc.key) {
			t.Errorf("%+v: error %v does not name %s", tc.y, err, tc.key)
		}
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	if _, err := New(Config{Isolation: "maybe"}); err == nil || !strings.Contains(err.Error(), "sandbox.isolation") {
		t.Errorf("isolation: %v", err)
	}
	if _, err := New(Config{Python: "/nonexistent/python3"}); err == nil || !strings.Contains(err.Error(), "sandbox.python") {
		t.Errorf("python: %v", err)
	}
	if _, err := exec.LookPath("bwrap"); err != nil || os.Geteuid() != 0 {
		if _, err := New(Config{Isolation: IsolationStrict}); err == nil {
			t.Errorf("strict without bwrap or root: no error")
		}
	}
}
