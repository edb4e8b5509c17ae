package sandbox

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"synth/internal/testenv"
	"synth/pyenv/pyenvtest"
	"synth/schemas"
)

// templateConfig is testBackend's configuration for a template.
func templateConfig() Config {
	return Config{Python: testPython, Slots: 4, Spares: 1,
		Limits: LimitsYAML{CellTimeout: "5s", Memory: "2GiB", FileSize: "8MiB", Output: "16KiB", Processes: 32, OpenFiles: 128, CPUTime: "60s"}}
}

// newTemplate makes a template of the file name holding body, read with
// call; it skips where templates cannot run (no root).
func newTemplate(t *testing.T, name, body, call string, lim TemplateLimits) (Backend, error) {
	t.Helper()
	pyenvtest.Python(t)
	if os.Geteuid() != 0 {
		testenv.Missing(t, "preloaded inputs need root")
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := NewTemplate(templateConfig(), []Input{{Name: name, Path: path}}, []Read{{Name: "data/" + name, Call: call}}, lim)
	if err == nil {
		t.Cleanup(func() { b.Close() })
	}
	return b, err
}

func tableCSV(rows int) string {
	var sb strings.Builder
	sb.WriteString("id,value,label\n")
	for i := range rows {
		fmt.Fprintf(&sb, "%d,%d.5,l%d\n", i, i*7%1000, i%13)
	}
	return sb.String()
}

// TestTemplateEpisodesAreIsolated: two sandboxes of one template each start
// with the frame already read, equal to a fresh read of data/; what one
// does (files in output/ and /tmp, a changed frame, a write to data/,
// killing every process it may) the other never sees, and the template's
// data/ is the same file after.
func TestTemplateEpisodesAreIsolated(t *testing.T) {
	b, err := newTemplate(t, "x.csv", tableCSV(2000), `pd.read_csv("data/x.csv")`, TemplateLimits{})
	if err != nil {
		t.Fatal(err)
	}
	first, second := open(t, b, Spec{Seed: 1}), open(t, b, Spec{Seed: 2})
	same := "import pandas as pd\nprint(inputs['data/x.csv'].equals(pd.read_csv('data/x.csv')), len(inputs['data/x.csv']))"
	want(t, run(t, first, same), schemas.StatusOK, "True 2000")
	r := run(t, first, "import os, signal\n"+
		"open('output/mine.txt', 'w').write('first')\n"+
		"open('/tmp/mine.txt', 'w').write('first')\n"+
		"df = inputs['data/x.csv']\n"+
		"df['value'] = -1\n"+
		"df.drop(df.index[:1000], inplace=True)\n"+
		"inputs['extra'] = 1\n"+
		"try:\n    open('data/x.csv', 'w').write('gone')\n    print('wrote data')\nexcept OSError as e:\n    print('data refused', e.errno)\n"+
		"print(len(df), df['value'].sum())")
	want(t, r, schemas.StatusOK, "data refused")
	if strings.Contains(r.Output, "wrote data") || !strings.Contains(r.Output, "1000 -1000") {
		t.Fatalf("first sandbox: %q", r.Output)
	}
	// Killing every process the first may reach ends the first's own.
	run(t, first, "import os, signal\nos.kill(-1, signal.SIGKILL)")
	want(t, run(t, second, same+"\n"+
		"import os\n"+
		"print(os.path.exists('output/mine.txt'), os.path.exists('/tmp/mine.txt'), 'extra' in inputs, inputs['data/x.csv']['value'].min())"),
		schemas.StatusOK, "True 2000\nFalse False False 0.5")
	first.Close()
	third := open(t, b, Spec{Seed: 3})
	want(t, run(t, third, same), schemas.StatusOK, "True 2000")
}

// TestTemplateRefusesHostileInputs: a file pandas cannot parse, one larger
// than the template's memory allows and a read past its wall time each
// fail NewTemplate with an error naming the file (or the start), quickly,
// leaving no folder behind; a call that is no data reader is refused
// before anything runs.
func TestTemplateRefusesHostileInputs(t *testing.T) {
	before := sharedFolders(t)
	t.Run("malformed", func(t *testing.T) {
		_, err := newTemplate(t, "bad.csv", "a,b\n1,\"never closed\n2,3\n", `pd.read_csv("data/bad.csv")`, TemplateLimits{})
		if err == nil || !strings.Contains(err.Error(), "data/bad.csv") {
			t.Fatalf("want an error naming data/bad.csv, got %v", err)
		}
		t.Log(err)
	})
	t.Run("memory", func(t *testing.T) {
		_, err := newTemplate(t, "big.csv", tableCSV(400000), `pd.read_csv("data/big.csv")`, TemplateLimits{MemoryBytes: 8 << 20})
		if err == nil || !strings.Contains(err.Error(), "data/big.csv") || !strings.Contains(err.Error(), "memory") {
			t.Fatalf("want an error naming data/big.csv and memory, got %v", err)
		}
		t.Log(err)
	})
	t.Run("cpu", func(t *testing.T) {
		_, err := newTemplate(t, "slow.csv", tableCSV(4000), `pd.read_csv("data/slow.csv", converters={"value": lambda v: sum(range(300000))})`, TemplateLimits{CPUTime: time.Second})
		if err == nil || !strings.Contains(err.Error(), "data/slow.csv") || !strings.Contains(err.Error(), "CPU time") {
			t.Fatalf("want an error naming data/slow.csv and CPU time, got %v", err)
		}
		t.Log(err)
	})
	t.Run("wall", func(t *testing.T) {
		start := time.Now()
		_, err := newTemplate(t, "x.csv", tableCSV(10), `pd.read_csv("data/x.csv")`, TemplateLimits{Wall: 20 * time.Millisecond})
		if err == nil || time.Since(start) > 20*time.Second {
			t.Fatalf("want the start cut at its wall time, got %v after %s", err, time.Since(start))
		}
		t.Log(err)
	})
	t.Run("pickle", func(t *testing.T) {
		err := checkReads([]Input{{Name: "x.pkl"}}, []Read{{Name: "data/x.pkl", Call: `pd.read_pickle("data/x.pkl")`}})
		if err == nil || !strings.Contains(err.Error(), "not a pandas reader") {
			t.Fatalf("a pickle read: %v", err)
		}
	})
	if after := sharedFolders(t); after != before {
		t.Fatalf("workspaces in %s: %d before, %d after the failed templates", os.TempDir(), before, after)
	}
}

// sharedFolders counts this process's workspace folders.
func sharedFolders(t *testing.T) int {
	ents, err := os.ReadDir(os.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), fmt.Sprintf("%s%07d-", wsPrefix, os.Getpid())) {
			n++
		}
	}
	return n
}

// TestTemplateOpensItsOwnInputsOnly: a template opens sandboxes holding its
// inputs only, in workspaces of its own: another input list, or a
// workspace given (where its data/ would not be the template's), is
// refused before any interpreter is bound.
func TestTemplateOpensItsOwnInputsOnly(t *testing.T) {
	b, err := newTemplate(t, "x.csv", tableCSV(10), `pd.read_csv("data/x.csv")`, TemplateLimits{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, spec := range []Spec{
		{Inputs: []Input{{Name: "y.csv", Path: "/etc/hostname"}}},
		{Inputs: []Input{{Name: "x.csv", Path: "/etc/hostname"}, {Name: "y.csv", Path: "/etc/hostname"}}},
		{Workspace: t.TempDir()},
	} {
		if s, err := b.Open(ctx, spec); err == nil {
			s.Close()
			t.Fatalf("%+v: opened", spec)
		}
	}
	open(t, b, Spec{Inputs: []Input{{Name: "x.csv", Path: "/etc/hostname"}}}) // the names are the template's: its data/ holds its own copy
}
