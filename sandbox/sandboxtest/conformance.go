package sandboxtest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"synth/sandbox"
	"synth/schemas"
)

// Run checks b against the contract of sandbox.Backend and sandbox.Sandbox.
// b must run real Python; the suite opens a few sandboxes at a time and
// uses cell timeouts of 2 seconds.
func Run(t *testing.T, b sandbox.Backend) {
	t.Helper()
	c := &suite{b: b}
	t.Run("state persists", c.statePersists)
	t.Run("last expression shown", c.lastExpression)
	t.Run("output in order", c.outputInOrder)
	t.Run("errors", c.errors)
	t.Run("input fails", c.inputFails)
	t.Run("matplotlib", c.matplotlib)
	t.Run("timeout restarts", c.timeoutRestarts)
	t.Run("crash restarts", c.crashRestarts)
	t.Run("output truncated", c.outputTruncated)
	t.Run("workspace", c.workspace)
	t.Run("given workspace kept", c.givenWorkspace)
	t.Run("seed", c.seed)
	t.Run("cancel", c.cancel)
	t.Run("close", c.close)
}

type suite struct{ b sandbox.Backend }

func (c *suite) open(t *testing.T, spec sandbox.Spec) sandbox.Sandbox {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := c.b.Open(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Exec runs code and fails the test on an infrastructure error.
func Exec(t *testing.T, s sandbox.Sandbox, code string) sandbox.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := s.Exec(ctx, code)
	if err != nil {
		t.Fatalf("exec %q: %v", code, err)
	}
	return r
}

// Want fails the test unless r has status and its output contains substr.
func Want(t *testing.T, r sandbox.Result, status, substr string) {
	t.Helper()
	if r.Status != status || !strings.Contains(r.Output, substr) {
		t.Fatalf("got status %q output %q; want status %q containing %q", r.Status, r.Output, status, substr)
	}
}

func (c *suite) statePersists(t *testing.T) {
	s := c.open(t, sandbox.Spec{})
	Want(t, Exec(t, s, "x = 20\nimport math"), schemas.StatusOK, "")
	Want(t, Exec(t, s, "def f(y):\n    return x + y + math.floor(0.5)"), schemas.StatusOK, "")
	Want(t, Exec(t, s, "f(22)"), schemas.StatusOK, "42")
}

func (c *suite) lastExpression(t *testing.T) {
	s := c.open(t, sandbox.Spec{})
	Want(t, Exec(t, s, "a = 1\na + 1"), schemas.StatusOK, "2")
	if r := Exec(t, s, "b = 5"); r.Output != "" {
		t.Errorf("an assignment showed %q", r.Output)
	}
	if r := Exec(t, s, "None"); r.Output != "" {
		t.Errorf("None showed %q", r.Output)
	}
	Want(t, Exec(t, s, "import pandas as pd\npd.DataFrame({'a': [1, 2], 'b': ['x', 'y']})"), schemas.StatusOK, "   a  b\n0  1  x\n1  2  y")
	Want(t, Exec(t, s, "'text'"), schemas.StatusOK, "'text'")
	if r := Exec(t, s, "a + 41;  # a trailing semicolon hides the value"); r.Output != "" {
		t.Errorf("a trailing semicolon showed %q", r.Output)
	}
}

func (c *suite) outputInOrder(t *testing.T) {
	s := c.open(t, sandbox.Spec{})
	r := Exec(t, s, "import os, sys, subprocess, ctypes\n"+
		"print('1 print')\n"+
		"sys.stdout.flush()\n"+
		"os.system('echo 2 os.system')\n"+
		"print('3 stderr', file=sys.stderr)\n"+
		"subprocess.run(['sh', '-c', 'echo 4 subprocess; echo 5 subprocess stderr >&2'])\n"+
		"ctypes.CDLL(None).write(1, b'6 C write\\n', 10)\n"+
		"'7 value'")
	want := "1 print\n2 os.system\n3 stderr\n4 subprocess\n5 subprocess stderr\n6 C write\n'7 value'\n"
	if r.Status != schemas.StatusOK || r.Output != want {
		t.Fatalf("got %s %q, want %q", r.Status, r.Output, want)
	}
}

func (c *suite) errors(t *testing.T) {
	s := c.open(t, sandbox.Spec{})
	r := Exec(t, s, "print('before')\ndef f():\n    raise ValueError('bad value')\nf()")
	Want(t, r, schemas.StatusError, "ValueError: bad value")
	if !strings.Contains(r.Output, "before") || !strings.Contains(r.Output, "in f") || strings.Contains(r.Output, ".py\", line") && strings.Contains(r.Output, "driver") {
		t.Errorf("traceback: %q", r.Output)
	}
	Want(t, Exec(t, s, "if True\n  x = 1"), schemas.StatusError, "SyntaxError")
	Want(t, Exec(t, s, "import no_such_module_here"), schemas.StatusError, "ModuleNotFoundError")
	Want(t, Exec(t, s, "'still here'"), schemas.StatusOK, "still here")
}

func (c *suite) inputFails(t *testing.T) {
	s := c.open(t, sandbox.Spec{})
	r := Exec(t, s, "input('your name? ')")
	Want(t, r, schemas.StatusError, "input() is not available")
	if strings.Count(r.Output, "File ") != 1 {
		t.Errorf("the traceback shows frames other than the cell's: %q", r.Output)
	}
	Want(t, Exec(t, s, "import sys\nsys.stdin.read()"), schemas.StatusOK, "''")
}

func (c *suite) matplotlib(t *testing.T) {
	s := c.open(t, sandbox.Spec{})
	r := Exec(t, s, "import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nplt.savefig('output/plot.png')\nplt.show()\nimport os\nos.path.getsize('output/plot.png') > 1000")
	Want(t, r, schemas.StatusOK, "True")
}

func (c *suite) timeoutRestarts(t *testing.T) {
	s := c.open(t, sandbox.Spec{Limits: sandbox.Limits{CellTimeout: 2 * time.Second}})
	Exec(t, s, "kept = 1")
	r := Exec(t, s, "print('started', flush=True)\nimport time\ntime.sleep(60)")
	Want(t, r, schemas.StatusTimeout, "started")
	if !r.StateLost || !strings.Contains(r.Output, "lost") {
		t.Errorf("the timeout's observation does not say state was lost: %+v", r)
	}
	r = Exec(t, s, "'kept' in globals()")
	Want(t, r, schemas.StatusOK, "False")
	if !r.StateLost {
		t.Errorf("the cell after a timeout does not say state was lost")
	}
	if r := Exec(t, s, "1+1"); r.StateLost {
		t.Errorf("state lost said twice")
	}
}

func (c *suite) crashRestarts(t *testing.T) {
	s := c.open(t, sandbox.Spec{})
	Exec(t, s, "kept = 1")
	r := Exec(t, s, "print('going', flush=True)\nimport os\nos._exit(7)")
	Want(t, r, schemas.StatusCrash, "going")
	if !r.StateLost {
		t.Errorf("a crash does not say state was lost")
	}
	Want(t, Exec(t, s, "'kept' in globals()"), schemas.StatusOK, "False")
}

func (c *suite) outputTruncated(t *testing.T) {
	s := c.open(t, sandbox.Spec{Limits: sandbox.Limits{OutputBytes: 2000}})
	r := Exec(t, s, "print('begin ' + 'x' * 500000 + ' end')")
	Want(t, r, schemas.StatusOK, "truncated")
	if !r.Truncated || len(r.Output) > 2400 || !strings.HasPrefix(r.Output, "begin") || !strings.Contains(r.Output, "end") {
		t.Fatalf("truncated=%v, %d bytes: %q", r.Truncated, len(r.Output), r.Output)
	}
}

func (c *suite) workspace(t *testing.T) {
	src := filepath.Join(t.TempDir(), "input.csv")
	if err := os.WriteFile(src, []byte("n\n1\n2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := c.open(t, sandbox.Spec{Inputs: []sandbox.Input{{Name: "nums.csv", Path: src}}})
	ws := s.Workspace()
	Want(t, Exec(t, s, "import os\nsorted(os.listdir('.')), sorted(os.listdir('data'))"), schemas.StatusOK, "['nums.csv']")
	Want(t, Exec(t, s, "open('data/nums.csv').read()"), schemas.StatusOK, "n\\n1\\n2\\n")
	if r := Exec(t, s, "os.geteuid() == 0 and open('/proc/self/uid_map').read().split()[:2] == ['0', '0']"); r.Output == "True\n" {
		// Permissions do not bind root: only a backend that drops privileges
		// (or mounts data/ read-only) can keep inputs read-only.
		t.Log("cells run as root here: read-only inputs not checked")
	} else {
		if r := Exec(t, s, "open('data/nums.csv', 'a').write('3\\n')"); r.Status != schemas.StatusError {
			t.Errorf("an input was writable: %+v", r)
		}
		if r := Exec(t, s, "open('data/new.csv', 'w').write('x')"); r.Status != schemas.StatusError {
			t.Errorf("data/ was writable: %+v", r)
		}
	}
	Want(t, Exec(t, s, "os.makedirs('output/sub', exist_ok=True)\nopen('output/sub/r.txt', 'w').write('result')"), schemas.StatusOK, "6")
	if got, err := os.ReadFile(filepath.Join(ws, "output", "sub", "r.txt")); err != nil || string(got) != "result" {
		t.Errorf("the host reads output/sub/r.txt as %q, %v", got, err)
	}
	if got, _ := os.ReadFile(src); string(got) != "n\n1\n2\n" {
		t.Errorf("the host's input changed: %q", got)
	}
	arts, err := sandbox.CollectArtifacts(ws, t.TempDir())
	if err != nil || len(arts) != 1 || arts[0].Path != "output/sub/r.txt" || arts[0].Size != 6 {
		t.Errorf("artifacts: %+v, %v", arts, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(ws); !os.IsNotExist(err) {
		t.Errorf("the sandbox's own workspace %s is still there: %v", ws, err)
	}
}

func (c *suite) givenWorkspace(t *testing.T) {
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "output"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(ws, "output", "answer.txt"), []byte("42"), 0o644)
	s := c.open(t, sandbox.Spec{Workspace: ws})
	Want(t, Exec(t, s, "open('output/answer.txt').read()"), schemas.StatusOK, "'42'")
	Want(t, Exec(t, s, "open('output/check.txt', 'w').write('ok')"), schemas.StatusOK, "2")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"answer.txt", "check.txt"} {
		if _, err := os.Stat(filepath.Join(ws, "output", f)); err != nil {
			t.Errorf("given workspace lost output/%s: %v", f, err)
		}
	}
}

func (c *suite) seed(t *testing.T) {
	code := "import random, numpy as np\n(random.random(), float(np.random.rand()))"
	a := Exec(t, c.open(t, sandbox.Spec{Seed: 5}), code)
	b := Exec(t, c.open(t, sandbox.Spec{Seed: 5}), code)
	d := Exec(t, c.open(t, sandbox.Spec{Seed: 6}), code)
	if a.Status != schemas.StatusOK || a.Output != b.Output || a.Output == d.Output {
		t.Fatalf("seed 5: %q, %q; seed 6: %q", a.Output, b.Output, d.Output)
	}
}

func (c *suite) cancel(t *testing.T) {
	s := c.open(t, sandbox.Spec{})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := s.Exec(ctx, "import time\ntime.sleep(60)"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want the context's error", err)
	}
	Want(t, Exec(t, s, "1+1"), schemas.StatusOK, "2")
}

func (c *suite) close(t *testing.T) {
	s := c.open(t, sandbox.Spec{})
	Exec(t, s, "1")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := s.Exec(context.Background(), "1"); err == nil {
		t.Errorf("Exec after Close: no error")
	}
}
