package sandbox

import (
	"strings"
	"testing"

	"synth/schemas"
)

// TestForksStartFromTheirSeed: every interpreter is a fork of the zygote
// made without the interpreter's own at-fork callbacks (light_fork), so
// what those callbacks did must still hold: random and numpy start from
// the sandbox's seed, not the zygote's state (the same seed gives the same
// numbers, another seed others), the interpreter has one thread, its own,
// and threads, pools and forks started by a cell work.
func TestForksStartFromTheirSeed(t *testing.T) {
	b := testBackend(t)
	const draw = "import random, numpy, threading\n" +
		"print(random.random(), numpy.random.rand(), threading.active_count(), threading.main_thread() is threading.current_thread())"
	first := func(seed int64) string {
		s := open(t, b, Spec{Seed: seed})
		r := run(t, s, draw)
		if r.Status != schemas.StatusOK {
			t.Fatalf("seed %d: %s %s", seed, r.Status, r.Output)
		}
		if !strings.HasSuffix(strings.TrimSpace(r.Output), " 1 True") {
			t.Errorf("seed %d: want one thread, the main one: %q", seed, r.Output)
		}
		return r.Output
	}
	a, again, other := first(7), first(7), first(8)
	if a != again {
		t.Errorf("seed 7 drew %q, then %q", a, again)
	}
	if a == other {
		t.Errorf("seeds 7 and 8 drew the same: %q", a)
	}
	s := open(t, b, Spec{Seed: 7})
	want(t, run(t, s, "import concurrent.futures, os, threading\n"+
		"with concurrent.futures.ThreadPoolExecutor(4) as ex:\n    total = sum(ex.map(lambda x: x * x, range(100)))\n"+
		"pid = os.fork()\nif pid == 0:\n    os._exit(7)\n"+
		"print(total, os.waitpid(pid, 0)[1] >> 8, threading.active_count())"), schemas.StatusOK, "328350 7 1")
}
