package sandbox

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"synth/internal/testenv"
	"synth/schemas"
)

func TestSlotsBoundOpenSandboxes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts its own zygote")
	}
	b, err := New(Config{Python: testPython, Slots: 1, Preload: []string{"json"}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	first := open(t, b, Spec{})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if s, err := b.Open(ctx, Spec{}); !errors.Is(err, context.DeadlineExceeded) {
		if s != nil {
			s.Close()
		}
		t.Fatalf("second Open with one slot: %v, want a deadline error", err)
	}
	// The verifier's sandbox on a rollout's open workspace shares its slot.
	ctx2, cancel2 := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel2()
	verifier, err := b.Open(ctx2, Spec{Workspace: first.Workspace()})
	if err != nil {
		t.Fatalf("verifier on an open workspace with one slot: %v", err)
	}
	run(t, first, "open('output/a.txt', 'w').write('a')")
	want(t, run(t, verifier, "open('output/a.txt').read()"), schemas.StatusOK, "'a'")
	verifier.Close()
	first.Close()
	second := open(t, b, Spec{})
	want(t, run(t, second, "1+1"), schemas.StatusOK, "2")
}

func TestZygoteReplaced(t *testing.T) {
	if testing.Short() {
		t.Skip("starts its own zygote")
	}
	b, err := newBackend(Config{Python: testPython, Preload: []string{"json"}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	s := open(t, b, Spec{})
	want(t, run(t, s, "x = 5\nx"), schemas.StatusOK, "5")
	syscall.Kill(-b.z.cmd.Process.Pid, syscall.SIGKILL)
	<-b.z.done
	// Interpreters die with their zygote (none outlives synth); the next
	// cell gets one from a new zygote. The death signal is asynchronous, so a
	// cell sent in the first moments may still run: wait for it, briefly.
	for deadline := time.Now().Add(5 * time.Second); b.isolated(); time.Sleep(20 * time.Millisecond) {
		r := run(t, s, "x + 1")
		if r.Status == schemas.StatusCrash {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the interpreter outlived its zygote by 5 s: %+v", r)
		}
	}
	r := run(t, s, "'x' in globals()")
	want(t, r, schemas.StatusOK, "False")
	if !r.StateLost {
		t.Errorf("state lost is not said")
	}
	fresh := open(t, b, Spec{})
	want(t, run(t, fresh, "'fresh'"), schemas.StatusOK, "fresh")
}

func TestIsolationOff(t *testing.T) {
	if testing.Short() {
		t.Skip("starts its own zygote")
	}
	b, err := newBackend(Config{Python: testPython, Isolation: IsolationOff, Preload: []string{"json"}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	s := open(t, b, Spec{Seed: 3, Limits: Limits{CellTimeout: 2 * time.Second}})
	r := run(t, s, "import os\nos.getcwd()")
	want(t, r, schemas.StatusOK, s.Workspace())
	want(t, run(t, s, "import subprocess\np = subprocess.Popen(['sleep', '100'])\nimport time\ntime.sleep(10)"), schemas.StatusTimeout, "lost")
	want(t, run(t, s, "print('again')"), schemas.StatusOK, "again")
	want(t, run(t, s, "import os\nos._exit(1)"), schemas.StatusCrash, "exited with status 1")
	want(t, run(t, s, "print('after crash')"), schemas.StatusOK, "after crash")
}

func TestStrictRunsWhereLayersExist(t *testing.T) {
	if testing.Short() {
		t.Skip("starts its own zygote")
	}
	testenv.LookPath(t, "bwrap", "apt-get install bubblewrap (make deps)")
	testenv.Root(t, "strict isolation mounts a root of its own")
	b, err := New(Config{Python: testPython, Isolation: IsolationStrict, Preload: []string{"json"}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	s := open(t, b, Spec{})
	want(t, run(t, s, "import os\nos.getuid() != 0 and os.getpid() == 1"), schemas.StatusOK, "True")
}

// TestWithoutOpenTree runs the path for kernels without open_tree: the
// spare keeps the old root and binds the workspace from it.
func TestWithoutOpenTree(t *testing.T) {
	if testing.Short() {
		t.Skip("starts its own zygote")
	}
	b, err := newBackend(Config{Python: testPython, Preload: []string{"json"}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	b.tree = false
	if !b.ns {
		testenv.Missing(t, "needs namespaces (root); see synth doctor")
	}
	s := open(t, b, Spec{})
	want(t, run(t, s, "open('output/x.txt', 'w').write('abc')"), schemas.StatusOK, "3")
	want(t, run(t, s, "import os\nos.path.exists('/oldroot'), open('data/x', 'w') if False else 0"), schemas.StatusOK, "(False, 0)")
	if got, _ := os.ReadFile(filepath.Join(s.Workspace(), "output", "x.txt")); string(got) != "abc" {
		t.Fatalf("host sees %q", got)
	}
}
