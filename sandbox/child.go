package sandbox

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// child is one running interpreter: its control socket, its output pipe and
// a handle to kill it.
type child struct {
	pid    int
	waiter int // the process whose end the zygote reports (pid itself without namespaces)
	pidfd  int // -1 when pidfd_open is unavailable
	ns     bool
	ctl    *net.UnixConn
	msgs   chan ctlMsg // closed on control EOF
	out    chan []byte // closed on output EOF
	z      *zygote

	seccomp bool           // the system call filter is loaded
	cg      *sandboxCgroup // the interpreter's cgroup, joined as a spare; nil without cgroups
	idle    bool           // a spare at idle priority (spares.go, idle)
}

// ctlMsg is a message from the interpreter on its control socket.
type ctlMsg struct {
	Pid    int  `json:"pid"`
	Waiter int  `json:"waiter"`
	Ready  bool `json:"ready"`
	// Seccomp: the interpreter loaded the system call filter.
	Seccomp bool   `json:"seccomp"`
	Error   string `json:"error"`
	Seq     int    `json:"seq"`
	Status  string `json:"status"`
	CPUMS   int64  `json:"cpu_ms"`
	// CellError is the cell's exception, when it raised one.
	CellError *CellError `json:"cell_error"`
	bad       string     // a line that did not parse
}

// forkRequest is what the zygote needs to fork an interpreter.
type forkRequest struct {
	NS      bool     `json:"ns"`
	UserNS  bool     `json:"userns,omitempty"`
	ROPaths []string `json:"ro_paths,omitempty"`
	// Hide lists files inside the read-only system that interpreters must
	// not read (the synth binary when installed under /usr).
	Hide []string `json:"hide,omitempty"`
	// KeepOldroot: the kernel cannot clone the workspace as a detached
	// mount (open_tree), so the spare keeps the old root to bind it from.
	KeepOldroot bool `json:"keep_oldroot,omitempty"`
}

// assignment binds a forked interpreter to a sandbox.
type assignment struct {
	Workspace string           `json:"ws"`
	UID       int              `json:"uid"`
	Seed      int64            `json:"seed"`
	Token     string           `json:"token"`
	TmpBytes  int64            `json:"tmp_bytes"`
	Inodes    int              `json:"inodes"`
	Seccomp   bool             `json:"seccomp"` // load the system call filter
	Limits    map[string]int64 `json:"limits"`
}

func limitsForDriver(l Limits, ownUID bool) map[string]int64 {
	m := map[string]int64{
		"memory":     l.MemoryBytes,
		"cpu":        int64((l.CPUTime + time.Second - 1) / time.Second),
		"file":       l.FileBytes,
		"open_files": int64(l.OpenFiles),
		"processes":  int64(l.Processes),
	}
	if ownUID {
		m["own_uid"] = 1
	}
	return m
}

// forkChild asks z for an interpreter and waits until it is forked: it then
// waits, as a spare, for its assignment.
func forkChild(z *zygote, req forkRequest, wait time.Duration) (*child, error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("socketpair: %w", err)
	}
	ours, theirs := os.NewFile(uintptr(fds[0]), "ctl"), os.NewFile(uintptr(fds[1]), "ctl-child")
	defer theirs.Close()
	fc, err := net.FileConn(ours)
	ours.Close()
	if err != nil {
		return nil, fmt.Errorf("control socket: %w", err)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		fc.Close()
		return nil, fmt.Errorf("output pipe: %w", err)
	}
	defer pw.Close()
	unix.FcntlInt(pr.Fd(), unix.F_SETPIPE_SZ, 1<<20)

	c := &child{pidfd: -1, ns: req.NS, ctl: fc.(*net.UnixConn), msgs: make(chan ctlMsg, 4), out: make(chan []byte, 64), z: z}
	go c.readCtl()
	go c.readOut(pr)
	body, _ := json.Marshal(req)
	if err := z.fork(body, theirs, pw); err != nil {
		c.close()
		return nil, err
	}
	theirs.Close()
	pw.Close()
	m, err := c.next(wait)
	switch {
	case err != nil:
	case m.Error != "":
		err = fmt.Errorf("interpreter: %s", m.Error)
	case m.Pid == 0:
		err = fmt.Errorf("interpreter: unexpected first message %+v", m)
	}
	if err != nil {
		c.kill()
		c.close()
		return nil, err
	}
	c.pid, c.waiter = m.Pid, m.Waiter
	if c.waiter == 0 {
		c.waiter = c.pid
	}
	if fd, err := unix.PidfdOpen(m.Pid, 0); err == nil {
		c.pidfd = fd
	}
	return c, nil
}

// next waits for the interpreter's next control message.
func (c *child) next(wait time.Duration) (ctlMsg, error) {
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case m, ok := <-c.msgs:
		if !ok {
			return m, fmt.Errorf("interpreter exited while starting%s", c.z.stderr.suffix())
		}
		return m, nil
	case <-t.C:
		return ctlMsg{}, fmt.Errorf("interpreter did not answer within %s", wait)
	}
}

// assign sends a spare its workspace and waits until it is ready. With
// namespaces and a kernel that has open_tree, the workspace travels with it
// as a detached mount.
func (c *child) assign(a assignment, tree bool, wait time.Duration) error {
	body, _ := json.Marshal(a)
	var rights []byte
	if tree {
		fd, err := unix.OpenTree(unix.AT_FDCWD, a.Workspace, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE)
		if err != nil {
			return fmt.Errorf("assign interpreter: clone workspace mount: %w", err)
		}
		defer unix.Close(fd)
		rights = unix.UnixRights(fd)
	}
	if _, _, err := c.ctl.WriteMsgUnix(append(body, '\n'), rights, nil); err != nil {
		return fmt.Errorf("assign interpreter: %w", err)
	}
	m, err := c.next(wait)
	switch {
	case err != nil:
		return err
	case m.Error != "":
		return fmt.Errorf("interpreter: %s", m.Error)
	case !m.Ready:
		return fmt.Errorf("interpreter: unexpected message %+v", m)
	}
	c.seccomp = m.Seccomp
	return nil
}

func (c *child) readCtl() {
	defer close(c.msgs)
	sc := bufio.NewScanner(c.ctl)
	sc.Buffer(make([]byte, 4096), 1<<20)
	for sc.Scan() {
		var m ctlMsg
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			m.bad = string(sc.Bytes())
		}
		c.msgs <- m
	}
}

// readBufs holds the buffers readOut reads output into, reused from one
// interpreter to the next so that a rollout allocates only what was printed.
var readBufs = sync.Pool{New: func() any { b := make([]byte, 256<<10); return &b }}

func (c *child) readOut(r *os.File) {
	defer close(c.out)
	defer r.Close()
	buf := readBufs.Get().(*[]byte)
	defer readBufs.Put(buf)
	for {
		n, err := r.Read(*buf)
		if n > 0 {
			c.out <- append([]byte(nil), (*buf)[:n]...) // the size read, not the buffer's
		}
		if err != nil {
			return
		}
	}
}

// send writes one cell request.
func (c *child) send(seq int, code string) error {
	b, _ := json.Marshal(map[string]any{"seq": seq, "code": code})
	_, err := c.ctl.Write(append(b, '\n'))
	return err
}

// kill stops the interpreter and everything it started: with namespaces it
// is pid 1 of its own pid namespace, so killing it kills them all; without,
// its process group is killed.
func (c *child) kill() {
	if c.pidfd >= 0 {
		unix.PidfdSendSignal(c.pidfd, unix.SIGKILL, nil, 0)
	} else if c.pid > 0 {
		syscall.Kill(c.pid, syscall.SIGKILL)
	}
	if !c.ns && c.pid > 0 {
		syscall.Kill(-c.pid, syscall.SIGKILL)
	}
}

// drain waits (bounded) for the output and control streams to end after a
// kill, so that no goroutine is left blocked.
func (c *child) drain(wait time.Duration) {
	t := time.NewTimer(wait)
	defer t.Stop()
	out, msgs := c.out, c.msgs
	for out != nil || msgs != nil {
		select {
		case _, ok := <-out:
			if !ok {
				out = nil
			}
		case _, ok := <-msgs:
			if !ok {
				msgs = nil
			}
		case <-t.C:
			return
		}
	}
}

// close releases the control socket and keeps draining the output until the
// last holder of the pipe is gone.
func (c *child) close() {
	go func(out chan []byte, msgs chan ctlMsg) {
		for range msgs {
		}
		for range out {
		}
	}(c.out, c.msgs)
	c.ctl.Close()
	if c.pidfd >= 0 {
		unix.Close(c.pidfd)
		c.pidfd = -1
	}
}

// drainInto feeds what is left of the output stream into out, for up to
// wait, after the interpreter was killed or died.
func (c *child) drainInto(out *cellOutput, wait time.Duration) {
	t := time.NewTimer(wait)
	defer t.Stop()
	for {
		select {
		case p, ok := <-c.out:
			if !ok {
				out.flush()
				return
			}
			out.feed(p)
		case <-t.C:
			out.flush()
			return
		}
	}
}

// discard kills the interpreter and releases it and its cgroup.
func (c *child) discard() {
	c.kill()
	c.close()
	c.cg.remove()
}

// waitGone kills the interpreter and waits up to wait until it, and with a
// pid namespace everything in it, has ended.
func (c *child) waitGone(wait time.Duration) bool {
	c.kill()
	if c.pidfd >= 0 {
		fds := []unix.PollFd{{Fd: int32(c.pidfd), Events: unix.POLLIN}}
		deadline := time.Now().Add(wait)
		for {
			left := time.Until(deadline)
			if left <= 0 {
				return false
			}
			n, err := unix.Poll(fds, int(left/time.Millisecond)+1)
			if n > 0 {
				break
			}
			if err != nil && err != unix.EINTR {
				return false
			}
		}
		return true // pid 1 of a namespace ends after every other process in it
	}
	// The waiter ends after the interpreter is reaped.
	_, ok := c.z.deathOf(c.waiter, wait)
	return ok
}
