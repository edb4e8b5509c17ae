package sandbox

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

//go:embed driver.py
var driverSource string

// driverBootstrap runs the driver, passed as the first argument, under its
// own file name, so that tracebacks can leave its frames out.
const driverBootstrap = "import sys; exec(compile(sys.argv[1], '<synth-driver>', 'exec'))"

// zygoteReady is the zygote's first message.
type zygoteReady struct {
	Python  string            `json:"python"`
	Preload map[string]string `json:"preload"`
	Layers  map[string]bool   `json:"layers"`
	Pid     int               `json:"pid"`
	Error   string            `json:"error"`
	// Threads names the threads that run beside the zygote's own once it
	// has imported everything (none, unless a preloaded or resident module
	// starts one): layer one_thread.
	Threads []string `json:"threads"`
}

// nsUsable reports whether the zygote's probes found the namespaces the
// backend wants: with root, each kind and dropping to a uid; without, all of
// them inside a user namespace.
func (z *zygote) nsUsable(userns bool) bool {
	l := z.ready.Layers
	if userns {
		return l["userns_all"]
	}
	return l["mount"] && l["pid"] && l["net"] && l["ipc"] && l["uts"] && l["uid"]
}

// death is how an interpreter ended, as the zygote saw it.
type death struct {
	Pid    int `json:"dead"`
	Signal int `json:"signal"`
	Exit   int `json:"exit"`
}

func (d death) String() string {
	if d.Signal != 0 {
		return "was killed by " + unix.SignalName(syscall.Signal(d.Signal))
	}
	return fmt.Sprintf("exited with status %d", d.Exit)
}

// zygote is the warm Python process that forks one interpreter per sandbox.
type zygote struct {
	cmd    *exec.Cmd
	conn   *net.UnixConn
	ready  zygoteReady
	bwrap  bool
	stderr *tailBuffer

	mu      sync.Mutex
	deaths  map[int]death
	waiters map[int]chan death
	done    chan struct{} // closed when the zygote is gone
}

// zygoteOptions say how to start the zygote.
type zygoteOptions struct {
	python    string
	preload   []string
	residents []Resident
	bwrap     string // path to bwrap, "" to run without it
	mplDir    string // matplotlib config and font cache, writable by the zygote
	startDur  time.Duration
}

// zygoteEnv is the zygote's environment beside its paths. Fixed hash seeds
// and one thread in every library keep each interpreter's start the same:
// JE_ARROW_MALLOC_CONF turns off the background thread of pyarrow's
// jemalloc, which pandas loads with pyarrow. That thread purged and mapped
// memory when the machine's timing said, beside the zygote's own imports,
// so the libraries after it landed elsewhere from one zygote to the next
// and every interpreter printed other object addresses
// (docs/REPRODUCIBILITY.md). jemalloc still purges, in the thread that
// allocates, in allocation order.
var zygoteEnv = []string{
	"LANG=C.UTF-8",
	"PYTHONHASHSEED=0",
	"PYTHONDONTWRITEBYTECODE=1",
	"MPLBACKEND=Agg",
	"OPENBLAS_NUM_THREADS=1",
	"OMP_NUM_THREADS=1",
	"MKL_NUM_THREADS=1",
	"JE_ARROW_MALLOC_CONF=background_thread:false",
}

func startZygote(o zygoteOptions) (*zygote, error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("zygote: socketpair: %w", err)
	}
	ours, theirs := os.NewFile(uintptr(fds[0]), "zygote"), os.NewFile(uintptr(fds[1]), "zygote-child")
	defer theirs.Close()
	fc, err := net.FileConn(ours)
	ours.Close()
	if err != nil {
		return nil, fmt.Errorf("zygote: socket: %w", err)
	}
	conn := fc.(*net.UnixConn)

	cfg, _ := json.Marshal(map[string]any{"preload": o.preload})
	args := []string{o.python, "-s", "-B", "-c", driverBootstrap, driverSource, "zygote", string(cfg)}
	if o.bwrap != "" {
		args = append(bwrapArgs(o), args...)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append([]string{
		"PATH=/usr/local/bin:/usr/bin:/bin",
		"HOME=" + os.TempDir(),
		"MPLCONFIGDIR=" + o.mplDir,
	}, zygoteEnv...)
	res, err := residentPipe(o.residents)
	if err != nil {
		conn.Close()
		return nil, err
	}
	defer res.Close()
	cmd.ExtraFiles = []*os.File{theirs, res} // fd 3, fd 4
	cmd.Dir = "/"
	z := &zygote{cmd: cmd, conn: conn, bwrap: o.bwrap != "", stderr: &tailBuffer{max: 8 << 10},
		deaths: map[int]death{}, waiters: map[int]chan death{}, done: make(chan struct{})}
	cmd.Stderr = z.stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := startFixedAddresses(cmd); err != nil {
		conn.Close()
		return nil, fmt.Errorf("zygote: start %s: %w", args[0], err)
	}
	go func() { cmd.Wait(); conn.Close() }()

	buf := make([]byte, 1<<16)
	conn.SetReadDeadline(time.Now().Add(o.startDur))
	n, err := conn.Read(buf)
	conn.SetReadDeadline(time.Time{})
	if err != nil {
		z.kill()
		return nil, fmt.Errorf("zygote: no ready message from %s: %w%s", o.python, err, z.stderr.suffix())
	}
	if err := json.Unmarshal(buf[:n], &z.ready); err != nil {
		z.kill()
		return nil, fmt.Errorf("zygote: bad ready message %q: %w", buf[:n], err)
	}
	go z.readNotes()
	return z, nil
}

func bwrapArgs(o zygoteOptions) []string {
	a := []string{o.bwrap,
		"--ro-bind", "/", "/",
		"--dev-bind", "/dev", "/dev",
		"--proc", "/proc",
		"--bind", o.mplDir, o.mplDir,
		"--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
		"--die-with-parent",
		"--"}
	return a
}

// readNotes receives the zygote's death notices until it exits.
func (z *zygote) readNotes() {
	defer close(z.done)
	buf := make([]byte, 4096)
	for {
		n, err := z.conn.Read(buf)
		if err != nil || n == 0 {
			return
		}
		var d death
		if json.Unmarshal(buf[:n], &d) != nil || d.Pid == 0 {
			continue
		}
		if d.Signal == 0 && d.Exit > 128 && d.Exit < 128+65 && d.Exit != exitCPULimit {
			d.Signal, d.Exit = d.Exit-128, 0 // a waiter's report of a killed interpreter
		}
		z.mu.Lock()
		if ch, ok := z.waiters[d.Pid]; ok {
			ch <- d
			delete(z.waiters, d.Pid)
		} else {
			if len(z.deaths) > 4096 {
				clear(z.deaths)
			}
			z.deaths[d.Pid] = d
		}
		z.mu.Unlock()
	}
}

// deathOf waits up to wait for the zygote to report how pid ended.
func (z *zygote) deathOf(pid int, wait time.Duration) (death, bool) {
	z.mu.Lock()
	if d, ok := z.deaths[pid]; ok {
		delete(z.deaths, pid)
		z.mu.Unlock()
		return d, true
	}
	ch := make(chan death, 1)
	z.waiters[pid] = ch
	z.mu.Unlock()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case d := <-ch:
		return d, true
	case <-t.C:
	case <-z.done:
	}
	z.mu.Lock()
	delete(z.waiters, pid)
	z.mu.Unlock()
	return death{}, false
}

// fork asks the zygote for a new interpreter bound to ctl and out.
func (z *zygote) fork(req []byte, ctl, out *os.File) error {
	select {
	case <-z.done:
		return errors.New("zygote has exited" + z.stderr.suffix())
	default:
	}
	rights := unix.UnixRights(int(ctl.Fd()), int(out.Fd()))
	z.mu.Lock()
	defer z.mu.Unlock()
	if _, _, err := z.conn.WriteMsgUnix(req, rights, nil); err != nil {
		return fmt.Errorf("zygote: fork request: %w%s", err, z.stderr.suffix())
	}
	return nil
}

func (z *zygote) alive() bool {
	select {
	case <-z.done:
		return false
	default:
		return true
	}
}

func (z *zygote) kill() {
	if z.cmd.Process != nil {
		syscall.Kill(-z.cmd.Process.Pid, syscall.SIGKILL)
		z.cmd.Process.Kill()
	}
	z.conn.Close()
}

// mplConfigDir is where the zygote keeps matplotlib's font cache, built once
// per machine so that no interpreter pays for it.
func mplConfigDir() string {
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	dir := filepath.Join(base, "synth", "matplotlib")
	if os.MkdirAll(dir, 0o755) != nil {
		dir = filepath.Join(os.TempDir(), "synth-matplotlib")
		os.MkdirAll(dir, 0o755)
	}
	return dir
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(p), nil
}

func (t *tailBuffer) suffix() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := bytes.TrimSpace(t.b)
	if len(s) == 0 {
		return ""
	}
	return ": " + string(s)
}

// ZygoteDigest is the hex sha256 of what a zygote holding residents runs
// before it forks: the driver, its environment (zygoteEnv) and those
// modules, in their order. They lay out the heap every interpreter starts
// from, so two builds whose digests differ may print different object
// addresses for the same code.
func ZygoteDigest(residents []Resident) string {
	h := sha256.New()
	h.Write([]byte(driverSource))
	for _, kv := range zygoteEnv {
		fmt.Fprintf(h, "\x00%s", kv)
	}
	for _, r := range residents {
		fmt.Fprintf(h, "\x00%s\x00%s\x00%s", r.Name, r.Init, r.Source)
	}
	return hex.EncodeToString(h.Sum(nil))
}
