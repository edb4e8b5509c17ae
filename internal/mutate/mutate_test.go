package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"synth/internal/testenv"
)

func TestParseMutants(t *testing.T) {
	list := "# a comment\nname: a\nfile: x.go\nold: \"if a {\\n\\treturn\"\nnew: if b {\npkg: ./x/\nrun: TestX\nsample: true\n\n" +
		"name: b\nfile: y.go\nold: 1\nnew: 2\npkg: ./y/\nrun: TestY\nequivalent: no test can tell\ndownstream: ./z/ TestZ|TestW\ndownstream: ./w/ TestW\n"
	ms, err := parseMutants(strings.NewReader(list), "list")
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 || ms[0].Old != "if a {\n\treturn" || ms[0].New != "if b {" || !ms[0].Sample || ms[1].Sample || ms[1].Equivalent != "no test can tell" ||
		len(ms[1].Downstream) != 2 || ms[1].Downstream[0] != (target{"./z/", "TestZ|TestW"}) || len(ms[0].Downstream) != 0 {
		t.Fatalf("parsed %+v", ms)
	}
	for _, bad := range []string{
		"name: a\nfile: x.go\nold: 1\nnew: 2\npkg: ./x/\n",                                                                   // no run
		"name: a\nfile: x.go\nold: 1\nnew: 1\npkg: ./x/\nrun: T\n",                                                           // no change
		"name: a\nfile: x.go\nold: 1\nnew: 2\npkg: ./x/\nrun: T\nwhat: ever\n",                                               // unknown key
		"name: a\nfile: x.go\nold: 1\nnew: 2\npkg: ./x/\nrun: T\ndownstream: ./y/\n",                                         // downstream without a run
		"name: a\nfile: x.go\nold: 1\nnew: 2\npkg: ./x/\nrun: T\nname: b\nfile: y.go\nold: 1\nnew: 2\npkg: ./y/\nrun: T\n",   // two without a blank line
		"name: a\nfile: x.go\nold: 1\nnew: 2\npkg: ./x/\nrun: T\n\nname: a\nfile: x.go\nold: 1\nnew: 2\npkg: ./x/\nrun: T\n", // twice
	} {
		if _, err := parseMutants(strings.NewReader(bad), "list"); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

// TestListParses: the list make mutate runs is well formed, and each
// mutant's old text occurs exactly once in its file.
func TestListParses(t *testing.T) {
	f, err := os.Open("mutants.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ms, err := parseMutants(f, "mutants.txt")
	if err != nil {
		t.Fatal(err)
	}
	samples := 0
	for _, m := range ms {
		src, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(m.File)))
		if err != nil {
			t.Errorf("mutant %s: %v", m.Name, err)
			continue
		}
		if n := bytes.Count(src, []byte(m.Old)); n != 1 {
			t.Errorf("mutant %s: the old text occurs %d times in %s, want once", m.Name, n, m.File)
		}
		if m.Sample {
			samples++
			if m.Equivalent != "" {
				t.Errorf("mutant %s: a sample mutant must die, not be equivalent", m.Name)
			}
		}
	}
	if samples == 0 {
		t.Error("no mutant is marked sample")
	}
}

// TestSampleMutantsDie runs the sample mutants in a copy of the tree: each
// must turn its tests red. It is the part of make mutate that make test
// (and so CI) runs.
func TestSampleMutantsDie(t *testing.T) {
	testenv.LookPath(t, "git", "apt-get install git")
	var out, errs bytes.Buffer
	code := run([]string{"-root", "../..", "-sample", "-min", "100"}, &out, &errs)
	t.Logf("%s%s", out.String(), errs.String())
	if code != 0 {
		t.Fatalf("exit status %d: a sample mutant survived or the list is broken", code)
	}
	if !strings.Contains(out.String(), "(100.0%)") {
		t.Fatalf("no 100%% kill rate in the report")
	}
}

// TestSurvivorIsReported: a mutant no test notices is reported as a
// survivor and fails the run, and so is one that its own package's tests
// kill but a downstream package's do not; the checkout is left as it was.
func TestSurvivorIsReported(t *testing.T) {
	testenv.LookPath(t, "git", "apt-get install git")
	dir := t.TempDir()
	write := func(name, s string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module m\n\ngo 1.26\n")
	src := "package m\n\nfunc Max(a, b int) int {\n\tif a > b {\n\t\treturn a\n\t}\n\treturn b\n}\n"
	write("m.go", src)
	write("m_test.go", "package m\n\nimport \"testing\"\n\nfunc TestMax(t *testing.T) {\n\tif Max(2, 1) != 2 {\n\t\tt.Fatal(\"max\")\n\t}\n}\n")
	write("b/b_test.go", "package b\n\nimport \"testing\"\n\nfunc TestB(t *testing.T) {}\n")
	write("mutants.txt", "name: killed\nfile: m.go\nold: return a\nnew: return b\npkg: ./\nrun: TestMax\n\n"+
		"name: lives\nfile: m.go\nold: if a > b {\nnew: if a >= b {\npkg: ./\nrun: TestMax\n\n"+
		"name: lives-downstream\nfile: m.go\nold: return a\nnew: return b\npkg: ./\nrun: TestMax\ndownstream: ./b/ TestB\n")
	gitInit := func(args ...string) {
		if out, err := runIn(dir, "git", args...); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	gitInit("init", "-q")
	gitInit("add", ".")
	var out, errs bytes.Buffer
	code := run([]string{"-root", dir, "-mutants", "mutants.txt"}, &out, &errs)
	report := out.String() + errs.String()
	if code != 1 || !strings.Contains(report, "killed     killed") || !strings.Contains(report, "SURVIVED   lives") ||
		!strings.Contains(report, "SURVIVED   lives-downstream") || !strings.Contains(report, "survived in ./b/ TestB") ||
		!strings.Contains(report, "killed 1 of 3 (33.3%)") || !strings.Contains(report, "survivors: lives, lives-downstream") {
		t.Fatalf("exit status %d, report:\n%s", code, report)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "m.go")); string(b) != src {
		t.Fatalf("the checkout was edited:\n%s", b)
	}
}

// runIn runs a command in dir.
func runIn(dir, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	return cmd.CombinedOutput()
}
