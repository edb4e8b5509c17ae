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

	"synth/pyenv"
	"synth/pyenv/pyenvtest"
)

var testPython = pyenv.Sandbox.Python()

var (
	sharedOnce sync.Once
	sharedB    *backend
	sharedErr  error
)

// testBackend returns a backend shared by the package's tests (one zygote),
// with short limits so that hostile cells end quickly.
func testBackend(t *testing.T) *backend {
	t.Helper()
	pyenvtest.Python(t)
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

// TestInputsLinkedOnlyWhenSafe: a read-only source (the content store) is
// hard-linked only when the interpreter cannot write through the link.
func TestInputsLinkedOnlyWhenSafe(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "store.csv")
	os.WriteFile(src, []byte("a\n"), 0o444)
	for _, link := range []bool{false, true} {
		ws := t.TempDir()
		if err := prepareWorkspace(ws, []Input{{Name: "x.csv", Path: src}}, link); err != nil {
			t.Fatal(err)
		}
		a, _ := os.Stat(src)
		b, _ := os.Stat(filepath.Join(ws, "data", "x.csv"))
		if os.SameFile(a, b) != link {
			t.Errorf("link=%v: same file %v", link, os.SameFile(a, b))
		}
		if b.Mode().Perm()&0o222 != 0 {
			t.Errorf("link=%v: input mode %v", link, b.Mode())
		}
		removeWorkspace(ws)
	}
}
