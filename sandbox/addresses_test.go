package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"synth/schemas"
)

// TestAddressesRepeatAcrossZygotes: fresh backends (zygotes, as two builds
// or a build and its resume have) give interpreters that print the same
// object addresses for the same code and seed: address-space randomisation
// is off in the zygote (fixed_addresses in driver.py), and nothing in its
// start runs on the machine's timing (TestZygoteRunsOneThread). That later
// interpreters of one zygote print what its first printed is
// TestAddressesRepeatAfterHistory's to prove. Where the kernel refuses the
// personality flag the test skips, naming it.
func TestAddressesRepeatAcrossZygotes(t *testing.T) {
	shared := testBackend(t)
	z, err := shared.zygote()
	if err != nil {
		t.Fatal(err)
	}
	probe := "import ctypes; l = ctypes.CDLL(None); l.personality.argtypes = [ctypes.c_ulong]; " +
		"c = l.personality(0xFFFFFFFF); print(c >= 0 and l.personality(c | 0x40000) >= 0)"
	if out, err := exec.Command(testPython, "-I", "-c", probe).Output(); err != nil || strings.TrimSpace(string(out)) != "True" {
		t.Skipf("this machine refuses personality(ADDR_NO_RANDOMIZE) (%s %v): addresses stay randomised", out, err)
	}
	if !z.ready.Layers["fixed_addresses"] {
		t.Errorf("the zygote's layers %v: fixed_addresses is off where the machine allows it", z.ready.Layers)
	}
	// The first objects a cell makes, and where the libraries loaded before
	// them lie: where randomisation is on, or a thread of the zygote's maps
	// memory while it imports, they differ from one zygote to the next.
	const code = "print(object(), [id(x) for x in (1.5, 'abc', [])], hash('abc'))\n" +
		"print(sorted(l.split()[0] for l in open('/proc/self/maps') if l.rstrip().endswith('.so') and ' r-xp ' in l)[:40])"
	var first string
	for i := range 4 {
		b, err := newBackend(shared.cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		s := open(t, b, Spec{Seed: 3})
		r := run(t, s, code)
		if r.Status != schemas.StatusOK {
			t.Fatalf("%s %s", r.Status, r.Output)
		}
		if i == 0 {
			first = r.Output
		} else if r.Output != first {
			t.Errorf("fresh zygote %d printed\n%s\nwhere the first printed\n%s", i+1, r.Output, first)
		}
	}
}

// TestZygoteRunsOneThread: the zygote and everything it forks run one
// thread at rest. A library's helper thread (pyarrow's jemalloc purger,
// a BLAS pool) maps and frees memory on the machine's timing while the
// zygote imports, and then libraries, and every object after them, land
// elsewhere from one zygote to the next.
func TestZygoteRunsOneThread(t *testing.T) {
	b, z := freshZygote(t, testBackend(t).cfg)
	s := open(t, b, Spec{Seed: 1})
	if r := run(t, s, "import pandas, pyarrow, numpy; print(numpy.ones(3).sum())"); r.Status != schemas.StatusOK {
		t.Fatalf("%s %s", r.Status, r.Output)
	}
	procs := processTree(z.cmd.Process.Pid)
	pythons := 0
	for _, pid := range procs {
		exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
		if !strings.Contains(filepath.Base(exe), "python") {
			continue // bubblewrap
		}
		pythons++
		tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
		if err != nil {
			continue // it ended meanwhile
		}
		if len(tasks) > 1 {
			var names []string
			for _, task := range tasks {
				comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/comm", pid, task.Name()))
				names = append(names, strings.TrimSpace(string(comm)))
			}
			t.Errorf("process %d (%s) runs %d threads: %v", pid, exe, len(tasks), names)
		}
	}
	if pythons < 3 {
		t.Errorf("found %d Python processes under the zygote's launcher %d (%v): want the zygote, its stem and the interpreter", pythons, z.cmd.Process.Pid, procs)
	}
	if !z.ready.Layers["one_thread"] || len(z.ready.Threads) > 0 {
		t.Errorf("the zygote reports layer one_thread %v, threads %q: want on, none", z.ready.Layers["one_thread"], z.ready.Threads)
	}
	// A module that starts a thread of its own is named, so synth doctor
	// can say why rows that print addresses may differ between builds.
	cfg := testBackend(t).cfg
	cfg.Residents = []Resident{{Name: "synth_test_thread", Source: "import threading, time\n" +
		"threading.Thread(target=time.sleep, args=(600,), daemon=True).start()\n"}}
	_, tz := freshZygote(t, cfg)
	if tz.ready.Layers["one_thread"] || len(tz.ready.Threads) != 1 {
		t.Errorf("a resident module started a thread, but the zygote reports layer one_thread %v, threads %q", tz.ready.Layers["one_thread"], tz.ready.Threads)
	}
	if l := threadLayer(tz); l.On || !strings.Contains(l.Detail, "1 more thread") {
		t.Errorf("doctor's layer for a zygote with a thread: %+v", l)
	}
}

// processTree lists pid and every process below it, from /proc.
func processTree(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	children := map[int][]int{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...; comm may hold spaces and parentheses.
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(f) < 2 {
			continue
		}
		if ppid, err := strconv.Atoi(f[1]); err == nil {
			children[ppid] = append(children[ppid], p)
		}
	}
	out := []int{pid}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i]]...)
	}
	return out
}

// TestAddressesRepeatAfterHistory: an interpreter prints the same object
// addresses, and starts with the same heap, whatever the zygote served
// before it: the first interpreter of a zygote and one opened after others
// ran, printed, decoded images, were killed or ran side by side. The probe
// is what a built-in task does (decode a WebP file, print a new image), and
// it reports the allocator's count of blocks and the collector's counts
// before anything else, so that a heap that moved shows even where no
// address does.
func TestAddressesRepeatAfterHistory(t *testing.T) {
	shared := testBackend(t)
	b, err := newBackend(shared.cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	webp := filepath.Join(t.TempDir(), "badge.webp")
	gen := "import sys; from PIL import Image; im = Image.linear_gradient('L').resize((200, 150)).convert('RGB'); " +
		"im.save(sys.argv[1], 'WEBP', quality=80)"
	if out, err := exec.Command(testPython, "-I", "-c", gen, webp).CombinedOutput(); err != nil {
		t.Fatalf("writing %s: %v %s", webp, err, out)
	}
	inputs := []Input{{Name: "badge.webp", Path: webp}}
	cells := []string{
		"import gc, sys; print(sys.getallocatedblocks(), gc.get_count())",
		"from PIL import Image, ImageEnhance\nim = Image.open('data/badge.webp')\nprint(im, im.size, im.mode)",
		"out = ImageEnhance.Brightness(im.convert('RGB')).enhance(1.5)\nprint(out, object(), [])",
	}
	probe := func() string {
		s := open(t, b, Spec{Seed: 7, Inputs: inputs})
		defer s.Close()
		var all strings.Builder
		for _, c := range cells {
			r := run(t, s, c)
			if r.Status != schemas.StatusOK {
				t.Fatalf("%s %s", r.Status, r.Output)
			}
			all.WriteString(r.Output)
		}
		return all.String()
	}
	history := []string{
		cells[1] + "\n" + cells[2],
		"x = [str(i) * (i % 50) for i in range(20000)]; print(len(x))",
		"import numpy as np; print(np.random.rand(3), object())",
		"raise ValueError('no')",
		"import os; os.kill(os.getpid(), 9)",
		"import json; d = {str(i): [i] * 5 for i in range(3000)}; print(len(json.dumps(d)))",
	}
	first := probe()
	for round := 0; round < 2; round++ {
		var wg sync.WaitGroup
		for i, code := range history {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s, err := b.Open(context.Background(), Spec{Seed: int64(i), Inputs: inputs})
				if err != nil {
					t.Error(err)
					return
				}
				defer s.Close()
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				s.Exec(ctx, code)
			}()
		}
		wg.Wait()
		if got := probe(); got != first {
			t.Errorf("after %d rounds of other sandboxes, the probe printed\n%s\nwhere the zygote's first interpreter printed\n%s", round+1, got, first)
		}
	}
}

// freshZygote starts a backend of its own from cfg, closed when the test
// ends, and its zygote.
func freshZygote(t *testing.T, cfg Config) (*backend, *zygote) {
	t.Helper()
	b, err := newBackend(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	z, err := b.zygote()
	if err != nil {
		t.Fatal(err)
	}
	return b, z
}
