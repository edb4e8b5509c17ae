package sandbox

import (
	"os/exec"
	"strings"
	"testing"

	"synth/schemas"
)

// TestAddressesRepeatAcrossZygotes: two fresh backends (two zygotes, as two
// builds or a build and its resume have) give interpreters that print the
// same object addresses for the same code and seed: address-space
// randomisation is off in the zygote (fixed_addresses in driver.py). An
// interpreter forked after others may still print other addresses, since
// the zygote's allocator state moves with its history (README, "Reproducing
// rows"), so the test compares first interpreters only. Where the kernel
// refuses the personality flag the test skips, naming it.
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
	first := print(fresh(), 3)
	if second := print(fresh(), 3); second != first {
		t.Errorf("the first interpreter of another zygote printed\n%q, the first zygote's\n%q", second, first)
	}
}
