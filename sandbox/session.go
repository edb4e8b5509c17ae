package sandbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"synth/schemas"
)

// session is a Sandbox of the local backend.
type session struct {
	b      *backend
	spec   Spec
	lim    Limits
	ws     string
	ownWS  bool
	uid    int
	token  string
	use    *wsUse         // the workspace's uid and pool slot, shared with other sandboxes on it
	cgroup *sandboxCgroup // nil without cgroups

	mu       sync.Mutex
	c        *child
	seq      int
	lostNote string // said at the top of the next cell's output
	closed   bool
	halted   bool
}

func newToken() string {
	b := make([]byte, 12)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func (s *session) Workspace() string { return s.ws }

func (s *session) assignment() assignment {
	return assignment{
		Workspace: s.ws,
		UID:       s.uid,
		Seed:      s.spec.Seed,
		Token:     s.token,
		TmpBytes:  s.lim.TmpBytes,
		Inodes:    s.lim.Inodes,
		Seccomp:   s.b.cfg.Isolation != IsolationOff,
		Limits:    limitsForDriver(s.lim, s.uid != 0),
	}
}

// start makes the interpreter if there is none.
func (s *session) start() error {
	if s.c != nil {
		return nil
	}
	c, err := s.b.interpreter(s.assignment(), s.lim)
	if err != nil {
		return fmt.Errorf("sandbox %s: %w", s.ws, err)
	}
	if s.cgroup != nil {
		s.cgroup.remove() // the previous interpreter's, killed
	}
	s.c, s.cgroup = c, c.cg
	return nil
}

// startWait bounds how long a fork may take to become ready.
const startWait = 30 * time.Second

func (s *session) Exec(ctx context.Context, code string) (Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return Result{}, errors.New("sandbox: exec after close")
	}
	if s.halted {
		return Result{}, errors.New("sandbox: exec after halt")
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	t0 := time.Now()
	if err := s.start(); err != nil {
		return Result{}, err
	}
	s.seq++
	out := newCellOutput(s.token, s.seq, s.lim.OutputBytes)
	res := Result{}
	if s.lostNote != "" {
		res.StateLost = true
	}
	if err := s.c.send(s.seq, code); err != nil {
		return s.finishCrash(res, out, t0, "the interpreter stopped accepting cells")
	}
	timer := time.NewTimer(s.lim.CellTimeout)
	defer timer.Stop()
	var reply *ctlMsg
	outDone, msgs, chunks := false, s.c.msgs, s.c.out
	for reply == nil || !outDone {
		select {
		case p, ok := <-chunks:
			if !ok {
				chunks = nil
				out.flush()
				if reply == nil {
					return s.finishCrash(res, out, t0, "")
				}
				outDone = true
				continue
			}
			if out.feed(p) {
				outDone = true
			}
		case m, ok := <-msgs:
			switch {
			case !ok:
				msgs = nil
				if reply == nil {
					s.c.drainInto(out, 200*time.Millisecond)
					return s.finishCrash(res, out, t0, "")
				}
			case m.bad != "" || (m.Seq != s.seq && m.Status != ""):
				s.c.drainInto(out, 200*time.Millisecond)
				return s.finishCrash(res, out, t0, "the interpreter's control channel was corrupted")
			case m.Status != "":
				reply = &m
			}
		case <-timer.C:
			return s.finishTimeout(res, out, t0)
		case <-ctx.Done():
			s.discard()
			return Result{}, ctx.Err()
		}
	}
	res.Status = schemas.StatusError
	if reply.Status == schemas.StatusOK {
		res.Status = schemas.StatusOK
	}
	res.Elapsed = time.Since(t0)
	res.CPU = time.Duration(reply.CPUMS) * time.Millisecond
	if res.Status == schemas.StatusError {
		res.Error = reply.CellError
	}
	res.Output, res.Truncated = out.text()
	res.Output = s.takeLostNote() + res.Output
	return res, nil
}

func (s *session) takeLostNote() string {
	n := s.lostNote
	s.lostNote = ""
	return n
}

// finishTimeout kills the interpreter after a cell ran out of time.
func (s *session) finishTimeout(res Result, out *cellOutput, t0 time.Time) (Result, error) {
	s.c.kill()
	s.c.drainInto(out, time.Second)
	s.c.close()
	s.c = nil
	res.Status = schemas.StatusTimeout
	res.StateLost = true
	res.Elapsed = time.Since(t0)
	text, cut := out.text()
	res.Output = s.takeLostNote() + withNote(text, fmt.Sprintf(
		"[timeout: the cell ran longer than %s and was stopped; the interpreter was restarted, so variables, imports and open files from earlier cells are lost]",
		s.lim.CellTimeout))
	res.Truncated = cut
	s.lostNote = "[note: the interpreter was restarted after the previous cell timed out; state from earlier cells was lost]\n"
	return res, nil
}

// finishCrash reports an interpreter that died during a cell.
func (s *session) finishCrash(res Result, out *cellOutput, t0 time.Time, why string) (Result, error) {
	c := s.c
	c.kill()
	c.drainInto(out, 500*time.Millisecond)
	c.close()
	s.c = nil
	if why == "" {
		why = "the interpreter died"
		if d, ok := c.z.deathOf(c.waiter, 500*time.Millisecond); ok {
			why = describeDeath(d, s.lim)
		}
	}
	res.Status = schemas.StatusCrash
	res.StateLost = true
	res.Elapsed = time.Since(t0)
	text, cut := out.text()
	res.Output = s.takeLostNote() + withNote(text, "[crash: "+why+"; it was restarted, so variables and imports from earlier cells are lost]")
	res.Truncated = cut
	s.lostNote = "[note: the interpreter was restarted after the previous cell crashed; state from earlier cells was lost]\n"
	return res, nil
}

// withNote appends a note on its own line.
func withNote(text, note string) string {
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return text + note + "\n"
}

// exitCPULimit is the driver's exit status when the CPU time limit is
// reached.
const exitCPULimit = 152

func describeDeath(d death, l Limits) string {
	switch {
	case d.Signal == 24 || d.Exit == exitCPULimit:
		return fmt.Sprintf("the interpreter used up its CPU time limit (%s)", l.CPUTime)
	case d.Signal == 11:
		return "the interpreter " + d.String() + " (segmentation fault)"
	case d.Signal == 9:
		return fmt.Sprintf("the interpreter %s (past its CPU time limit of %s, or out of memory)", d.String(), l.CPUTime)
	}
	return "the interpreter " + d.String()
}

// discard kills the interpreter without a result (ctx was cancelled).
func (s *session) discard() {
	if s.c == nil {
		return
	}
	s.c.kill()
	s.c.drain(time.Second)
	s.c.close()
	s.c = nil
	s.lostNote = "[note: the interpreter was restarted after an interrupted cell; state from earlier cells was lost]\n"
}

// haltWait bounds how long Halt waits for the sandbox's processes to end.
const haltWait = 10 * time.Second

// Halt kills the interpreter and everything it started and waits until
// they are gone: the interpreter is pid 1 of its pid namespace, so the
// kernel ends the others before the interpreter itself is gone; the
// sandbox's cgroup, where there is one, catches what a plain fork left
// behind.
func (s *session) Halt() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.halted {
		return nil
	}
	s.halted = true
	var err error
	if s.c != nil {
		c := s.c
		c.kill()
		if !c.waitGone(haltWait) {
			err = fmt.Errorf("sandbox %s: halt: the interpreter (pid %d) did not end within %s", s.ws, c.pid, haltWait)
		}
		c.close()
		s.c = nil
	}
	if cg := s.cgroup; cg != nil {
		if e := cg.kill(haltWait); e != nil && err == nil {
			err = fmt.Errorf("sandbox %s: halt: %w", s.ws, e)
		}
	}
	return err
}

func (s *session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	if s.c != nil {
		s.c.kill()
		s.c.drain(2 * time.Second)
		s.c.close()
		s.c = nil
	}
	s.cgroup.remove()
	var err error
	if s.ownWS {
		err = removeWorkspace(s.ws)
	} else if s.uid != 0 && s.b.lastUse(s.use) {
		err = chownWorkspace(s.ws, os.Getuid())
	}
	s.b.release(s.ws, s.use)
	if err != nil {
		return fmt.Errorf("sandbox %s: close: %w", s.ws, err)
	}
	return nil
}
