package sandbox

import (
	"slices"
	"strings"
	"testing"
)

// TestResidentModules: a registered module is in sys.modules of every
// sandbox, with the digest Go computes of its source and its init run; a
// sandbox that changes it leaves the next one a pristine copy; a module
// that fails to load is reported and absent rather than half there.
func TestResidentModules(t *testing.T) {
	good := Resident{Name: "synth_test_resident", Source: "import json\nINITS = []\ndef init():\n    INITS.append(1)\n", Init: "init"}
	bad := Resident{Name: "synth_test_broken", Source: "raise RuntimeError('no')\n"}
	RegisterResident(good)
	RegisterResident(bad)
	t.Cleanup(func() { unregisterResident(good.Name); unregisterResident(bad.Name) })
	b, err := newBackend(Config{Python: testPython, Slots: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	if err := b.Warm(); err != nil {
		t.Fatal(err)
	}
	if got := b.z.ready.Preload[bad.Name]; !strings.Contains(got, "RuntimeError: no") {
		t.Errorf("zygote report for the broken module: %q, want its error", got)
	}
	if got := b.z.ready.Preload[good.Name]; got != "ok" {
		t.Errorf("zygote report for the good module: %q, want ok", got)
	}
	probe := "import sys\nm = sys.modules.get('synth_test_resident')\n" +
		"print(m.__synth_sha256__ == '" + good.SHA256() + "', m.INITS, 'synth_test_broken' in sys.modules)\n" +
		"m.INITS.append('changed')"
	for i := range 2 {
		s := open(t, b, Spec{})
		r := run(t, s, probe)
		if got := strings.TrimSpace(r.Output); got != "True [1] False" {
			t.Fatalf("sandbox %d sees %q, want the pristine module with its digest (True [1] False)", i, got)
		}
		s.Close()
	}
}

// unregisterResident removes the module named name.
func unregisterResident(name string) {
	residents.mu.Lock()
	defer residents.mu.Unlock()
	residents.list = slices.DeleteFunc(residents.list, func(o Resident) bool { return o.Name == name })
}

// TestZygoteDigestNamesResidents: the digest run.json records changes with
// a resident module's source, which the zygote runs before any fork.
func TestZygoteDigestNamesResidents(t *testing.T) {
	before := ZygoteDigest()
	r := Resident{Name: "synth_digest_probe", Source: "x = 1\n"}
	RegisterResident(r)
	t.Cleanup(func() {
		residents.mu.Lock()
		residents.list = slices.DeleteFunc(residents.list, func(o Resident) bool { return o.Name == r.Name })
		residents.mu.Unlock()
	})
	one := ZygoteDigest()
	r.Source = "x = 2\n"
	RegisterResident(r)
	two := ZygoteDigest()
	if one == before || two == one || len(two) != 64 {
		t.Errorf("digests %s, %s, %s: a resident's source does not change it", before, one, two)
	}
}
