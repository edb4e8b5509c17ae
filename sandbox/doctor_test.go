package sandbox

import (
	"os"
	"os/exec"
	"testing"

	"synth/pyenv/pyenvtest"
)

func TestDoctor(t *testing.T) {
	pyenvtest.Python(t)
	layers := Doctor(Config{Python: testPython})
	got := map[string]Layer{}
	for _, l := range layers {
		got[l.Name] = l
		t.Logf("%-18s %-5v %s", l.Name, l.On, l.Detail)
	}
	for _, name := range []string{"python", "zygote preload", "one thread", "sandbox", "rlimits"} {
		if !got[name].On {
			t.Errorf("%s is off: %s", name, got[name].Detail)
		}
	}
	if _, err := exec.LookPath("bwrap"); err == nil && os.Geteuid() == 0 && !got["bubblewrap"].On {
		t.Errorf("bubblewrap installed and running as root, but the layer is off: %s", got["bubblewrap"].Detail)
	}
	if os.Geteuid() == 0 {
		// As root on Linux every layer of a sandbox is expected on.
		for _, name := range []string{"cgroup", "disk quota", "seccomp", "user namespaces inside"} {
			if !got[name].On {
				t.Errorf("%s is off as root: %s", name, got[name].Detail)
			}
		}
	}
	off := Doctor(Config{Python: testPython, Isolation: IsolationOff})
	for _, l := range off {
		if (l.Name == "network namespace" || l.Name == "seccomp" || l.Name == "cgroup") && l.On {
			t.Errorf("isolation off, but %s is on", l.Name)
		}
	}
	if l := Doctor(Config{Python: "/nonexistent/python"}); len(l) != 1 || l[0].On {
		t.Errorf("missing python: %+v", l)
	}
}
