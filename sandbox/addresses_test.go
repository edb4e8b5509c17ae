package sandbox

import (
	"os/exec"
	"strings"
	"testing"

	"synth/schemas"
)

// TestAddressesRepeatAcrossZygotes: two backends (two zygotes, as two
// builds or a build and its resume have) give interpreters that print the
// same object addresses for the same code and seed, and so does an
// interpreter forked after others: address-space randomisation is off in
// the zygote (fixed_addresses in driver.py). Where the kernel refuses the
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
	other, err := newBackend(shared.cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	const code = "class Thing: pass\nprint(object(), Thing(), [id(x) for x in (1.5, 'abc', [])], hash('abc'))"
	print := func(b Backend, seed int64) string {
		s := open(t, b, Spec{Seed: seed})
		r := run(t, s, code)
		if r.Status != schemas.StatusOK {
			t.Fatalf("%s %s", r.Status, r.Output)
		}
		return r.Output
	}
	first := print(shared, 3)
	for range 3 {
		open(t, shared, Spec{Seed: 9}) // other interpreters forked in between
	}
	if again := print(shared, 3); again != first {
		t.Errorf("a later interpreter of the same zygote printed\n%q, the first\n%q", again, first)
	}
	if fresh := print(other, 3); fresh != first {
		t.Errorf("an interpreter of another zygote printed\n%q, the first zygote's\n%q", fresh, first)
	}
}
