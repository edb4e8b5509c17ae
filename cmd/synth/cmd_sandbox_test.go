package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"synth/pyenv/pyenvtest"
)

func runSynth(t *testing.T, stdin string, args ...string) (string, error) {
	t.Helper()
	pyenvtest.Python(t)
	root := newRoot()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetIn(strings.NewReader(stdin))
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), err
}

func TestSandboxExecJSON(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "nums.csv")
	os.WriteFile(csv, []byte("n\n1\n2\n3\n"), 0o644)
	file := filepath.Join(dir, "cells.py")
	os.WriteFile(file, []byte("import pandas as pd\ndf = pd.read_csv('data/nums.csv')\n# %%\ndf.n.sum()\n# %% a titled cell\n1/0\n# %%\nimport time\ntime.sleep(30)\n# %%\n'state' if 'df' in globals() else 'fresh'\n"), 0o644)
	out, err := runSynth(t, "", "sandbox", "exec", "--json", "--timeout", "2s", "-d", csv, file)
	if err != errCellsFailed {
		t.Fatalf("err = %v, want errCellsFailed; output:\n%s", err, out)
	}
	var cells []cellJSON
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var c cellJSON
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		cells = append(cells, c)
	}
	want := []struct{ status, out string }{{"ok", ""}, {"ok", "6"}, {"error", "ZeroDivisionError"}, {"timeout", "lost"}, {"ok", "fresh"}}
	if len(cells) != len(want) {
		t.Fatalf("%d cells, want %d:\n%s", len(cells), len(want), out)
	}
	for i, w := range want {
		if cells[i].Cell != i+1 || cells[i].Status != w.status || !strings.Contains(cells[i].Output, w.out) {
			t.Errorf("cell %d: %+v, want status %s containing %q", i+1, cells[i], w.status, w.out)
		}
	}
}

func TestSandboxExecText(t *testing.T) {
	out, err := runSynth(t, "x = 40\n# %%\nx + 2\n", "sandbox", "exec", "-")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "cell 2: ok") || !strings.Contains(out, "42") {
		t.Fatalf("output:\n%s", out)
	}
}

func TestSandboxInteractive(t *testing.T) {
	in := "x = 2\nfor i in range(3):\n    x += i\n\nx\nprint('bye')\nexit\nprint('not run')\n"
	out, err := runSynth(t, in, "sandbox")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if out != "5\nbye\n" {
		t.Fatalf("output %q", out)
	}
}

func TestSandboxUsage(t *testing.T) {
	if _, err := runSynth(t, "", "sandbox", "exec"); err == nil {
		t.Fatal("exec without a file: no error")
	} else if _, ok := err.(usageError); !ok {
		t.Fatalf("exec without a file: %v is not a usage error", err)
	}
	if _, err := runSynth(t, "", "sandbox", "exec", "/nonexistent/cells.py"); err == nil {
		t.Fatal("missing file: no error")
	}
	if _, err := runSynth(t, "", "sandbox", "-d", "/nonexistent.csv"); err == nil || !strings.Contains(err.Error(), "--data") {
		t.Fatalf("missing data file: %v", err)
	}
}

func TestSplitCells(t *testing.T) {
	got := splitCells("a = 1\n# %%\n\n# %% [markdown]\nb = 2\n#%%\nc\n")
	if len(got) != 3 || got[0] != "a = 1" || got[1] != "b = 2" || got[2] != "c" {
		t.Fatalf("%q", got)
	}
}
