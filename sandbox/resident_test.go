package sandbox

import (
	"slices"
	"strings"
	"testing"
)

// TestResidentModules: a module given in Config.Residents is in sys.modules of every
// sandbox, with the digest Go computes of its source and its init run; a
// sandbox that changes it leaves the next one a pristine copy; a module
// that fails to load is reported and absent rather than half there.
func TestResidentModules(t *testing.T) {
	good := Resident{Name: "synth_test_resident", Source: "import json\nINITS = []\ndef init():\n    INITS.append(1)\n", Init: "init"}
	bad := Resident{Name: "synth_test_broken", Source: "raise RuntimeError('no')\n"}
	b, err := newBackend(Config{Python: testPython, Slots: 2, Residents: []Resident{good, bad}})
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

// TestZygoteDigestNamesResidents: the digest run.json records changes with
// a resident module's source, which the zygote runs before any fork, and
// with the zygote's environment, which decides what runs beside it.
func TestZygoteDigestNamesResidents(t *testing.T) {
	before := ZygoteDigest(nil)
	r := Resident{Name: "synth_digest_probe", Source: "x = 1\n"}
	one := ZygoteDigest([]Resident{r})
	r.Source = "x = 2\n"
	two := ZygoteDigest([]Resident{r})
	if one == before || two == one || len(two) != 64 {
		t.Errorf("digests %s, %s, %s: a resident's source does not change it", before, one, two)
	}
	saved := zygoteEnv
	t.Cleanup(func() { zygoteEnv = saved })
	zygoteEnv = slices.DeleteFunc(slices.Clone(saved), func(kv string) bool { return strings.HasPrefix(kv, "JE_ARROW_MALLOC_CONF=") })
	if len(zygoteEnv) == len(saved) || ZygoteDigest(nil) == before {
		t.Errorf("the zygote's environment without pyarrow's allocator setting gives the same digest %s", before)
	}
}

// TestResidentsAreChecked: a backend refuses residents the zygote could
// not hold as given, and holds only those of its own Config: a backend
// given none has none, whatever another backend holds.
func TestResidentsAreChecked(t *testing.T) {
	for _, tc := range []struct {
		name string
		list []Resident
		want string
	}{
		{"no name", []Resident{{Source: "x = 1\n"}}, "has no name"},
		{"twice", []Resident{{Name: "m", Source: "x = 1\n"}, {Name: "m", Source: "x = 2\n"}}, "given twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := newBackend(Config{Python: testPython, Residents: tc.list})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one that says %q", err, tc.want)
			}
		})
	}
	with, err := newBackend(Config{Python: testPython, Slots: 1, Residents: []Resident{{Name: "synth_test_own", Source: "x = 1\n"}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { with.Close() })
	without, err := newBackend(Config{Python: testPython, Slots: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { without.Close() })
	for _, c := range []struct {
		b    *backend
		want string
	}{{with, "True"}, {without, "False"}} {
		s := open(t, c.b, Spec{})
		r := run(t, s, "import sys\nprint('synth_test_own' in sys.modules)")
		s.Close()
		if got := strings.TrimSpace(r.Output); got != c.want {
			t.Errorf("resident in sys.modules: %s, want %s", got, c.want)
		}
	}
}
