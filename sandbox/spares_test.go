package sandbox

import (
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestCloseWaitsForSpareFork closes a backend while keepSpares holds a
// spare it has just forked (and given a cgroup) but not yet handed over,
// and wants none of the backend's cgroup directories left: Close must wait
// for keepSpares, which discards that spare, before it drains the spares
// and removes its cgroups. Without the wait the spare's cgroup outlives
// Close, and with it the backend's own directory.
func TestCloseWaitsForSpareFork(t *testing.T) {
	shared := testBackend(t)
	if shared.cg == nil || shared.cg.version == 0 {
		t.Skip("no per-sandbox cgroups here (needs root): nothing to leave behind")
	}
	b, err := newBackend(shared.cfg)
	if err != nil {
		t.Fatal(err)
	}
	held := make(chan struct{})
	hook := func(sb *backend) {
		if sb != b {
			return
		}
		select {
		case <-held: // only the first spare is held
			return
		default:
		}
		close(held)
		<-sb.stop // Close has begun
		time.Sleep(100 * time.Millisecond)
	}
	afterSpareFork.Store(&hook)
	t.Cleanup(func() { afterSpareFork.Store(nil) })
	if err := b.Warm(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-held:
	case <-time.After(time.Minute):
		t.Fatal("no spare was forked within a minute")
	}
	parents := slices.Clone(b.cg.parents)
	b.Close()
	time.Sleep(400 * time.Millisecond) // a spare Close did not wait for is discarded by now
	for _, p := range parents {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("cgroup %s outlived the backend's Close", p)
			os.Remove(p)
		}
	}
}

// policyOf is the scheduling policy of pid's main thread.
func policyOf(t *testing.T, pid int) uint32 {
	t.Helper()
	a, err := unix.SchedGetAttr(pid, 0)
	if err != nil {
		t.Fatalf("sched_getattr %d: %v", pid, err)
	}
	return a.Policy
}

// spareOf waits up to a minute for a spare of b and returns it, taken out
// of the spares.
func spareOf(t *testing.T, b *backend) *child {
	t.Helper()
	select {
	case c := <-b.spares:
		return c
	case <-time.After(time.Minute):
		t.Fatal("no spare within a minute")
		return nil
	}
}

// warmOwnBackend makes a backend of its own, with the shared test
// backend's settings, closed at the test's end, and warms it. It skips
// where spares never go to the idle priority (no CAP_SYS_NICE).
func warmOwnBackend(t *testing.T) *backend {
	t.Helper()
	shared := testBackend(t)
	if !mayRaisePriority() {
		t.Skip("no CAP_SYS_NICE here: spares never go to the idle priority")
	}
	b, err := newBackend(shared.cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	if err := b.Warm(); err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSparesWaitAtIdlePriority: a spare waits at the idle priority, so
// that refilling the spares takes no time from claimed interpreters, and a
// claimed one runs its cells at the normal priority.
func TestSparesWaitAtIdlePriority(t *testing.T) {
	b := warmOwnBackend(t)
	c := spareOf(t, b)
	if got := policyOf(t, c.pid); got != unix.SCHED_IDLE {
		t.Errorf("a waiting spare runs at policy %d, want SCHED_IDLE (%d)", got, unix.SCHED_IDLE)
	}
	b.spares <- c
	s := open(t, b, Spec{})
	defer s.Close()
	if got := policyOf(t, s.(*session).c.pid); got != unix.SCHED_NORMAL {
		t.Errorf("a claimed interpreter runs at policy %d, want SCHED_NORMAL", got)
	}
	if r := run(t, s, "print(6 * 7)"); strings.TrimSpace(r.Output) != "42" {
		t.Errorf("a claimed spare's cell printed %q", r.Output)
	}
}

// TestSpareThatCannotWakeIsNotUsed: where the priority cannot be raised
// back (no CAP_SYS_NICE), a claimed idle spare is discarded rather than left
// to run cells at the idle priority, and later spares wait at the normal
// one.
func TestSpareThatCannotWakeIsNotUsed(t *testing.T) {
	refuse := func(pid, policy int) bool {
		if policy != unix.SCHED_IDLE {
			return false
		}
		return unix.SchedSetAttr(pid, &unix.SchedAttr{Policy: uint32(policy)}, 0) == nil
	}
	setPolicyHook.Store(&refuse)
	t.Cleanup(func() { setPolicyHook.Store(nil) })
	b := warmOwnBackend(t)
	c := spareOf(t, b)
	if !c.idle {
		t.Fatal("the spare was not put at the idle priority")
	}
	b.spares <- c
	s := open(t, b, Spec{})
	defer s.Close()
	if got := policyOf(t, s.(*session).c.pid); got != unix.SCHED_NORMAL {
		t.Errorf("an interpreter whose priority could not be raised runs cells at policy %d", got)
	}
	if !b.noIdle.Load() {
		t.Error("spares are still put at the idle priority after a wake failed")
	}
}

// TestNoIdleSparesWithoutCapSysNice: a backend made by a thread without
// CAP_SYS_NICE never puts spares at the idle priority, since it could not
// raise them back.
func TestNoIdleSparesWithoutCapSysNice(t *testing.T) {
	shared := testBackend(t)
	if !mayRaisePriority() {
		t.Skip("this process cannot raise a priority to begin with")
	}
	runtime.LockOSThread() // capabilities are per thread: drop and restore on this one
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		t.Fatal(err)
	}
	saved := data
	data[unix.CAP_SYS_NICE/32].Effective &^= 1 << (unix.CAP_SYS_NICE % 32)
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		runtime.UnlockOSThread()
		t.Skipf("cannot drop CAP_SYS_NICE: %v", err)
	}
	b, err := newBackend(shared.cfg)
	if unix.Capset(&hdr, &saved[0]) == nil {
		runtime.UnlockOSThread() // else the thread ends with the test's goroutine
	}
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if !b.noIdle.Load() {
		t.Error("a backend without CAP_SYS_NICE puts spares at the idle priority")
	}
}
