package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"synth/pyenv"
)

// Isolation modes of Config.Isolation.
const (
	IsolationAuto   = "auto"
	IsolationStrict = "strict"
	IsolationOff    = "off"
)

// DefaultPreload is what the zygote imports when Config.Preload is empty.
var DefaultPreload = []string{"numpy", "pandas", "matplotlib", "matplotlib.pyplot"}

// DefaultSpares is how many forked interpreters wait for a sandbox when
// Config.Spares is zero.
const DefaultSpares = 2

// backend is the local Backend: one warm zygote, interpreters forked from it.
type backend struct {
	cfg     Config
	lim     Limits
	python  string
	bwrap   string // "" when not used
	ns      bool   // namespaces and a private root per interpreter
	userns  bool   // without root: the namespaces hang off a user namespace; no uid of their own
	tree    bool   // the kernel clones mounts (open_tree): workspaces travel as mount fds
	roPaths []string
	hide    []string
	cg      *cgroups // per-sandbox memory and process limits; off without root
	quota   bool     // each workspace the backend makes is a size- and inode-limited tmpfs
	noQuota string   // why quota is off
	slots   chan struct{}

	// shared, for a template (NewTemplate), is the folder whose data/
	// every workspace binds read-only, holding the inputs sharedNames;
	// startDur bounds the zygote's start (its reads), 0 for the default.
	shared      string
	sharedNames []string
	startDur    time.Duration

	spares chan *child   // forked interpreters waiting for a sandbox
	stop   chan struct{} // closed by Close
	// noIdle: spares wait at the normal priority, not the idle one, as
	// this process cannot raise a priority back (spares.go, wake).
	noIdle atomic.Bool
	// sparing is keepSpares running: Close waits for it before draining
	// the spares, or a spare forked meanwhile would be left behind.
	sparing sync.WaitGroup
	refill  sync.Once

	mu     sync.Mutex
	z      *zygote
	uids   map[int]bool
	openWS map[string]*wsUse
	closed bool
}

// New validates cfg and returns the local backend. The zygote starts on the
// first Open (or Warm); with isolation strict, New fails when a layer is
// missing.
func New(cfg Config) (Backend, error) {
	return newBackend(cfg)
}

func newBackend(cfg Config) (*backend, error) {
	if cfg.Python == "" {
		if !pyenv.Sandbox.Built() {
			return nil, fmt.Errorf("sandbox.python: the locked environment %s is not built: run make deps (or scripts/pyenv.sh sandbox) in synth's checkout, or set sandbox.python (--python) to another interpreter, such as Debian's /usr/bin/python3", pyenv.Sandbox.Dir())
		}
		cfg.Python = pyenv.Sandbox.Python()
	}
	switch cfg.Isolation {
	case "":
		cfg.Isolation = IsolationAuto
	case IsolationAuto, IsolationStrict, IsolationOff:
	default:
		return nil, fmt.Errorf("sandbox.isolation: %q is not one of auto, strict, off", cfg.Isolation)
	}
	if cfg.Slots < 0 {
		return nil, fmt.Errorf("sandbox.slots: %d is negative (use 0 for the default, one per CPU)", cfg.Slots)
	}
	if cfg.Slots == 0 {
		cfg.Slots = runtime.NumCPU()
	}
	switch {
	case cfg.Spares < -1:
		return nil, fmt.Errorf("sandbox.spares: %d is not a count (0 for the default, %d; -1 for none)", cfg.Spares, DefaultSpares)
	case cfg.Spares == 0:
		cfg.Spares = DefaultSpares
	case cfg.Spares == -1:
		cfg.Spares = 0
	}
	if len(cfg.Preload) == 0 {
		cfg.Preload = DefaultPreload
	}
	if err := checkResidents(cfg.Residents); err != nil {
		return nil, err
	}
	cfg.Residents = slices.Clone(cfg.Residents) // the caller's slice may change; the zygote restarts from this one
	py, err := exec.LookPath(cfg.Python)
	if err != nil {
		return nil, fmt.Errorf("sandbox.python: %s not found (install python3, or set sandbox.python to an interpreter's path): %w", cfg.Python, err)
	}
	lim, err := cfg.ParsedLimits()
	if err != nil {
		return nil, err
	}
	b := &backend{cfg: cfg, lim: lim.merge(DefaultLimits()), python: py, slots: make(chan struct{}, cfg.Slots), spares: make(chan *child, cfg.Spares), stop: make(chan struct{}), uids: map[int]bool{}, openWS: map[string]*wsUse{}}
	b.noIdle.Store(!mayRaisePriority())
	if cfg.Isolation != IsolationOff {
		root := os.Geteuid() == 0
		if bw, err := exec.LookPath("bwrap"); err == nil && root {
			b.bwrap = bw
		}
		b.ns, b.userns = true, !root
		if fd, err := unix.OpenTree(unix.AT_FDCWD, "/", unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC); err == nil {
			unix.Close(fd)
			b.tree = true
		}
		if root {
			b.cg = setupCgroups()
			b.quota, b.noQuota = canQuota()
			sweepWorkspaces()
		} else {
			b.noQuota = "synth is not root (mounting a tmpfs per workspace needs root)"
			b.cg = &cgroups{why: "synth is not root (it needs root, or a delegated cgroup v2 subtree)"}
		}
		if cfg.Isolation == IsolationStrict {
			var missing []string
			if !b.quota {
				missing = append(missing, "a size-limited workspace ("+b.noQuota+")")
			}
			if runtime.GOARCH != "amd64" {
				missing = append(missing, "a seccomp filter (written for x86_64 only)")
			}
			if b.cg.version == 0 {
				missing = append(missing, "per-sandbox cgroups ("+b.cg.why+")")
			}
			if !root {
				missing = append(missing, "root (to give each interpreter its own namespaces and uid)")
			}
			if b.bwrap == "" {
				missing = append(missing, "bubblewrap (apt-get install bubblewrap)")
			}
			if len(missing) > 0 {
				return nil, fmt.Errorf("sandbox.isolation is strict but %s is missing (or set sandbox.isolation: auto)", strings.Join(missing, " and "))
			}
		}
	}
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			b.hide = append(b.hide, real)
		}
	}
	b.roPaths = interpreterRoots(py)
	for _, dir := range b.roPaths {
		if dir == "/tmp" || strings.HasPrefix(dir, "/tmp/") {
			return nil, fmt.Errorf("sandbox.python: %s lives in %s, under /tmp, which every sandbox replaces with a private one: put the environment elsewhere (for the locked one, set %s to another folder)", cfg.Python, dir, pyenv.RootVar)
		}
	}
	return b, nil
}

// zygote returns the running zygote, starting it (again) if needed.
func (b *backend) zygote() (*zygote, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, errors.New("sandbox: backend is closed")
	}
	if b.z != nil && b.z.alive() {
		return b.z, nil
	}
	opts := zygoteOptions{python: b.python, preload: b.cfg.Preload, residents: b.cfg.Residents, bwrap: b.bwrap, mplDir: mplConfigDir(), startDur: 2 * time.Minute}
	if b.startDur > 0 {
		opts.startDur = b.startDur
	}
	z, err := startZygote(opts)
	if err != nil && opts.bwrap != "" && b.cfg.Isolation == IsolationAuto {
		// bubblewrap present but not working here: run without it.
		opts.bwrap = ""
		if z2, err2 := startZygote(opts); err2 == nil {
			b.bwrap, z, err = "", z2, nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	if err := b.templateReady(z); err != nil {
		z.kill()
		return nil, err
	}
	if b.ns && !z.nsUsable(b.userns) {
		if b.cfg.Isolation == IsolationStrict {
			z.kill()
			return nil, fmt.Errorf("sandbox.isolation is strict but namespaces are not available here (%v); run `synth doctor`", z.ready.Layers)
		}
		b.ns = false
	}
	b.z = z
	if cap(b.spares) > 0 {
		b.refill.Do(func() {
			b.sparing.Add(1)
			go func() {
				defer b.sparing.Done()
				b.keepSpares()
			}()
		})
	}
	return z, nil
}

// isolated reports whether interpreters get namespaces and a private root.
func (b *backend) isolated() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.ns
}

// ownUIDs reports whether each sandbox runs under a uid of its own (which
// needs root), so that rlimits on processes are per sandbox.
func (b *backend) ownUIDs() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.ns && !b.userns
}

// treeHandoff reports whether workspaces are handed to spares as detached
// mounts (open_tree), which a user namespace may not attach.
func (b *backend) treeHandoff() bool {
	return b.tree && !b.userns
}

func (b *backend) forkRequest() forkRequest {
	ns := b.isolated()
	return forkRequest{NS: ns, UserNS: ns && b.userns, ROPaths: b.roPaths, Hide: b.hide, KeepOldroot: ns && !b.treeHandoff()}
}

// Warm starts the zygote now instead of at the first Open.
// ZygoteThreads names the threads the backend's zygote runs beside its own
// once it has imported everything: none, unless a preloaded or resident
// module started one (synth doctor's "one thread"). It starts the zygote
// when none runs.
func (b *backend) ZygoteThreads() ([]string, error) {
	z, err := b.zygote()
	if err != nil {
		return nil, err
	}
	return z.ready.Threads, nil
}

func (b *backend) Warm() error {
	_, err := b.zygote()
	return err
}

func (b *backend) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	close(b.stop)
	b.mu.Unlock()
	// keepSpares may be forking a spare (it takes b.mu for the zygote):
	// once it has returned, every spare it made is in the channel.
	b.sparing.Wait()
	b.mu.Lock()
	defer b.mu.Unlock()
	for done := false; !done; {
		select {
		case c := <-b.spares:
			c.discard()
		default:
			done = true
		}
	}
	if b.z != nil {
		b.z.kill()
		b.z = nil
	}
	b.cg.close()
	if b.shared != "" {
		removeWorkspace(b.shared)
	}
	return nil
}

// interpreterRoots are the folders outside /usr an interpreter needs inside
// the sandbox's private root, bound read-only: a virtual environment's own
// folder (its python is a link into /usr, its packages are not), and the
// prefix of an interpreter installed elsewhere (conda, pyenv, /opt).
func interpreterRoots(py string) []string {
	var roots []string
	add := func(dir string) {
		if dir != "/" && dir != "/usr" && !strings.HasPrefix(dir, "/usr/") && !slices.Contains(roots, dir) {
			roots = append(roots, dir)
		}
	}
	if abs, err := filepath.Abs(py); err == nil {
		if venv := filepath.Dir(filepath.Dir(abs)); fileExists(filepath.Join(venv, "pyvenv.cfg")) {
			if real, err := filepath.EvalSymlinks(venv); err == nil {
				add(real)
			}
			add(venv)
		}
	}
	if real, err := filepath.EvalSymlinks(py); err == nil {
		add(filepath.Dir(filepath.Dir(real)))
	}
	return roots
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
