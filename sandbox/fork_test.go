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

// TestForksEnvironmentAndSignals: a fork changes only what differs from
// the zygote's environment (settle_env, read from ZYGOTE_ENV) and sets its
// signals with the C-level calls; the interpreter still sees exactly its
// own environment, its seed in PYTHONHASHSEED, and SIGXFSZ ignored,
// SIGXCPU handled and SIGCHLD at its default.
func TestForksEnvironmentAndSignals(t *testing.T) {
	b := testBackend(t)
	needIsolation(t, b)
	s := open(t, b, Spec{Seed: 41})
	r := run(t, s, "import os, signal\n"+
		"print(' '.join(sorted(os.environ)))\n"+
		"print(os.environ['PYTHONHASHSEED'], os.environ['HOME'], os.environ['MPLCONFIGDIR'])\n"+
		"print(signal.getsignal(signal.SIGXFSZ) == signal.SIG_IGN, callable(signal.getsignal(signal.SIGXCPU)), signal.getsignal(signal.SIGCHLD) == signal.SIG_DFL)")
	if r.Status != schemas.StatusOK {
		t.Fatalf("%s %s", r.Status, r.Output)
	}
	lines := strings.Split(strings.TrimSpace(r.Output), "\n")
	const keys = "HOME JE_ARROW_MALLOC_CONF LANG MKL_NUM_THREADS MPLBACKEND MPLCONFIGDIR OMP_NUM_THREADS OPENBLAS_NUM_THREADS PATH " +
		"PYTHONDONTWRITEBYTECODE PYTHONHASHSEED PYTHONUNBUFFERED QT_QPA_PLATFORM SDL_AUDIODRIVER SDL_VIDEODRIVER TMPDIR"
	if len(lines) != 3 || lines[0] != keys || lines[1] != "41 /tmp /tmp/.matplotlib" || lines[2] != "True True True" {
		t.Errorf("environment and signals:\n%s\nwant:\n%s\n41 /tmp /tmp/.matplotlib\nTrue True True", r.Output, keys)
	}
}
