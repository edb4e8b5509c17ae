package sandbox

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"synth/schemas"
)

// TestAddressesRepeatAcrossZygotes: fresh backends (zygotes, as two builds
// or a build and its resume have) give interpreters that print the same
// object addresses for the same code and seed, from a few start layouts
// rather than at random: address-space randomisation is off in the zygote
// (fixed_addresses in driver.py). That
// later interpreters of one zygote print what its first printed is
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
	fresh := func() Backend {
		b, err := newBackend(shared.cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		return b
	}
	// The first objects a cell makes: where randomisation is on, their
	// addresses differ from one zygote to the next. (A class's instance, made
	// after more allocation, can still land 0x40 bytes apart.)
	const code = "print(object(), [id(x) for x in (1.5, 'abc', [])], hash('abc'))"
	print := func(b Backend, seed int64) string {
		s := open(t, b, Spec{Seed: seed})
		r := run(t, s, code)
		if r.Status != schemas.StatusOK {
			t.Fatalf("%s %s", r.Status, r.Output)
		}
		return r.Output
	}
	// Fresh zygotes do not always start from one heap: on this project's
	// machine they start from one of three layouts, for a cause not yet
	// found (docs/REPRODUCIBILITY.md, "What still moves"), so two builds
	// can print different addresses. Four zygotes then always hold two that
	// agree, while randomised addresses would make all four differ.
	seen := map[string]int{}
	var outs []string
	for range 4 {
		out := print(fresh(), 3)
		seen[out]++
		outs = append(outs, out)
	}
	repeated := false
	for _, n := range seen {
		repeated = repeated || n > 1
	}
	if !repeated {
		t.Errorf("four fresh zygotes printed four different first interpreters: addresses are randomised\n%q", outs)
	}
	if len(seen) > 1 {
		t.Logf("%d start layouts among 4 fresh zygotes (known, cause open): %q", len(seen), outs)
	}
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
