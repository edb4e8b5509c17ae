package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// fakeModule writes a module with passing, failing, skipping and broken
// packages into a temporary directory and returns it.
func fakeModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module fake\n\ngo 1.21\n",
		"a/a_test.go": `package a

import "testing"

func TestPass(t *testing.T) { t.Log("quiet") }

func TestFail(t *testing.T) { t.Error("boom: the answer was 41") }

func TestSkip(t *testing.T) { t.Skip("needs the frobnicator: apt-get install frob") }

func TestSub(t *testing.T) {
	t.Run("good", func(t *testing.T) {})
	t.Run("bad", func(t *testing.T) { t.Fatal("sub broke") })
}
`,
		"b/b_test.go": `package b

import "testing"

func TestAllowed(t *testing.T) { t.Skip("only on arm64") }

func TestFine(t *testing.T) {}
`,
		"c/c_test.go": "package c\n\nimport \"testing\"\n\nfunc TestBroken(t *testing.T) { undefined() }\n",
		"d/d.go":      "package d\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// goTest runs the real go test -json on the fake module's packages and
// returns its events.
func goTest(t *testing.T, dir string, pkgs ...string) []byte {
	t.Helper()
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), append([]string{"test", "-json", "-count=1"}, pkgs...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	out, _ := cmd.Output() // exits 1: packages fail on purpose
	if !bytes.Contains(out, []byte(`"Action":"fail"`)) {
		t.Fatalf("go test -json printed no failure:\n%s", out)
	}
	return out
}

var closing = regexp.MustCompile(`(?m)\A(?s:.*)\n(\d+) passed, (\d+) failed, (\d+) skipped\n\z`)

// TestReportRealGoTest feeds the events of a real go test run through the
// report: the usual lines, failing output, skip list and counts.
func TestReportRealGoTest(t *testing.T) {
	dir := fakeModule(t)
	events := goTest(t, dir, "./a", "./b", "./c", "./d")
	allow, err := parseAllow(strings.NewReader("# arm64 only\nfake/b TestAllowed the test is for arm64\n"), "skips.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, ci := range []bool{false, true} {
		var out bytes.Buffer
		sum, err := report(bytes.NewReader(events), &out, allow, ci, nil)
		if err != nil {
			t.Fatal(err)
		}
		writeEnd(&out, sum, 3, ci, false, "skips.txt")
		got := out.String()
		// Passed: TestPass, TestSub/good, TestFine. Failed: TestFail,
		// TestSub/bad, TestSub, and fake/c's build; under CI the unlisted
		// skip of fake/a too.
		wantFailed, wantSkipped := "4", "2"
		if ci {
			wantFailed, wantSkipped = "5", "1"
		}
		m := closing.FindStringSubmatch(got)
		if m == nil || m[1] != "3" || m[2] != wantFailed || m[3] != wantSkipped {
			t.Errorf("CI=%v: closing line: got %q, want 3 passed, %s failed, %s skipped; output:\n%s", ci, m, wantFailed, wantSkipped, got)
		}
		for _, want := range []string{
			"--- FAIL: TestFail", "boom: the answer was 41", "--- FAIL: TestSub/bad", "sub broke",
			"FAIL\tfake/a\t", "ok  \tfake/b\t", "?   \tfake/d\t[no test files]", "FAIL\tfake/c [build failed]", "undefined: undefined",
			"fake/a TestSkip: a_test.go:9: needs the frobnicator: apt-get install frob (NOT on skips.txt",
			"fake/b TestAllowed: b_test.go:5: only on arm64 (allowed by skips.txt)",
			"slowest 3 tests",
		} {
			if !strings.Contains(got, want) {
				t.Errorf("CI=%v: output lacks %q:\n%s", ci, want, got)
			}
		}
		if i, j := strings.Index(got, "--- FAIL: TestFail"), strings.Index(got, "boom: the answer was 41"); i < 0 || j < i {
			t.Errorf("CI=%v: the --- FAIL line does not come before what the test logged:\n%s", ci, got)
		}
		for _, never := range []string{"=== RUN", "--- PASS", "quiet", `{"Time"`} {
			if strings.Contains(got, never) {
				t.Errorf("CI=%v: output has %q, which go test without -v does not print:\n%s", ci, never, got)
			}
		}
	}
}

// TestRunExitStatus runs the command end to end over real go test runs:
// exit 0 only when nothing failed, and under CI=true when every skip is
// on the allow-list.
func TestRunExitStatus(t *testing.T) {
	dir := fakeModule(t)
	allow := filepath.Join(t.TempDir(), "skips.txt")
	os.WriteFile(allow, []byte("fake/b TestAllowed the test is for arm64\n"), 0o644)
	unlisted := filepath.Join(t.TempDir(), "none.txt")
	os.WriteFile(unlisted, []byte("# nothing may skip\n"), 0o644)
	t.Chdir(dir)
	for _, tc := range []struct {
		name, ci, skips string
		pkgs            []string
		code            int
		last            string
	}{
		{"failures", "", allow, []string{"./a", "./b"}, 1, "3 passed, 3 failed, 2 skipped"},
		{"listed skip", "true", allow, []string{"./b"}, 0, "1 passed, 0 failed, 1 skipped"},
		{"unlisted skip in CI", "true", unlisted, []string{"./b"}, 1, "1 passed, 1 failed, 0 skipped"},
		{"unlisted skip off CI", "", unlisted, []string{"./b"}, 0, "1 passed, 0 failed, 1 skipped"},
		{"build failure", "", allow, []string{"./c"}, 1, "0 passed, 1 failed, 0 skipped"},
		{"no such package", "", allow, []string{"./nosuch"}, 1, "0 passed, 1 failed, 0 skipped"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("CI", tc.ci)
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"-skips", tc.skips, "--", "-count=1"}, tc.pkgs...), &stdout, &stderr)
			if code != tc.code {
				t.Errorf("exit status %d, want %d\n%s%s", code, tc.code, stdout.String(), stderr.String())
			}
			lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
			if got := lines[len(lines)-1]; got != tc.last {
				t.Errorf("closing line %q, want %q\n%s", got, tc.last, stdout.String())
			}
		})
	}
}

// TestGoTestFailsSilently: go test exiting non-zero with no failure in its
// events (here a fake go) is still a failure.
func TestGoTestFailsSilently(t *testing.T) {
	bin := t.TempDir()
	os.WriteFile(filepath.Join(bin, "go"), []byte("#!/bin/sh\necho 'go: something went wrong' >&2\nexit 3\n"), 0o755)
	t.Setenv("PATH", bin)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"--", "./..."}, &stdout, &stderr); code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}
	if !strings.Contains(stdout.String(), "go test exited with status 3") || !strings.HasSuffix(stdout.String(), "\n0 passed, 1 failed, 0 skipped\n") {
		t.Errorf("stdout:\n%s", stdout.String())
	}
}

// TestCutOffStream: a package whose events stop before its end (go test
// killed) is a failure, and the output of its failed tests is shown.
func TestCutOffStream(t *testing.T) {
	events := `{"Action":"start","Package":"p"}
{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"output","Package":"p","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"pass","Package":"p","Test":"TestA","Elapsed":1.5}
{"Action":"run","Package":"p","Test":"TestB"}
{"Action":"output","Package":"p","Test":"TestB","Output":"panic: test timed out after 1s\n"}
`
	var out bytes.Buffer
	sum, err := report(strings.NewReader(events), &out, nil, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Passed != 1 || sum.Failed != 1 {
		t.Errorf("passed %d, failed %d; want 1, 1", sum.Passed, sum.Failed)
	}
	if !strings.Contains(out.String(), "FAIL\tp\t(no end: go test stopped)") {
		t.Errorf("output:\n%s", out.String())
	}
}

func TestParseAllow(t *testing.T) {
	l, err := parseAllow(strings.NewReader("\n# comment\nsynth/sandbox TestSeccomp* the filter is written for x86_64\n"), "skips.txt")
	if err != nil || len(l) != 1 || l[0].Reason != "the filter is written for x86_64" {
		t.Fatalf("got %+v, %v", l, err)
	}
	if !l.allows("synth/sandbox", "TestSeccompKills") || l.allows("synth/sandbox", "TestOther") || l.allows("synth/other", "TestSeccompKills") {
		t.Error("allows matches the wrong tests")
	}
	for _, bad := range []string{"synth/sandbox TestX\n", "synth/sandbox\n", "p [ reason\n"} {
		if _, err := parseAllow(strings.NewReader(bad), "skips.txt"); err == nil || !strings.Contains(err.Error(), "skips.txt:1") {
			t.Errorf("%q: error %v, want one naming skips.txt:1", bad, err)
		}
	}
}

// TestRepositoryAllowList: the allow-list make test passes parses, and
// every entry names a package of this module.
func TestRepositoryAllowList(t *testing.T) {
	f, err := os.Open("../../.ci/skips.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	l, err := parseAllow(f, ".ci/skips.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range l {
		dir := filepath.Join("../..", strings.TrimPrefix(e.Package, "synth/"))
		if _, err := os.Stat(dir); !strings.HasPrefix(e.Package, "synth/") || err != nil {
			t.Errorf(".ci/skips.txt: %s is not a package of synth", e.Package)
		}
	}
}

// TestCPU: -cpu charges each top-level test with the CPU its process tree
// used, children included, and an idle test with next to none.
func TestCPU(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module burn\n\ngo 1.21\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "burn_test.go"), []byte(`package burn

import (
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// cpu is the CPU time this process and its reaped children used.
func cpu() time.Duration {
	var self, kids syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	return time.Duration(self.Utime.Nano() + self.Stime.Nano() + kids.Utime.Nano() + kids.Stime.Nano())
}

func TestBurn(t *testing.T) {
	for start := cpu(); cpu()-start < 400*time.Millisecond; {
	}
}

func TestChild(t *testing.T) {
	for start := cpu(); cpu()-start < 400*time.Millisecond; {
		exec.Command("sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done").Run()
	}
}

func TestIdle(t *testing.T) { time.Sleep(300 * time.Millisecond) }
`), 0o644)
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-cpu", "--", "-count=1", "-p", "1", "."}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	cpuOf := map[string]float64{}
	for _, m := range regexp.MustCompile(`(?m)^\s+[\d.]+s\s+([\d.]+)s CPU  burn (\w+)$`).FindAllStringSubmatch(stdout.String(), -1) {
		var f float64
		fmt.Sscan(m[1], &f)
		cpuOf[m[2]] = f
	}
	if len(cpuOf) != 3 || cpuOf["TestBurn"] < 0.35 || cpuOf["TestChild"] < 0.35 || cpuOf["TestIdle"] > 0.2 {
		t.Errorf("CPU per test %v: want TestBurn and TestChild >= 0.35 s, TestIdle < 0.2 s\n%s", cpuOf, stdout.String())
	}
}
