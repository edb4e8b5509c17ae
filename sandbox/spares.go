package sandbox

import (
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// afterSpareFork, set only by tests, runs in keepSpares between a spare's
// fork and its hand-over to the spares channel.
var afterSpareFork atomic.Pointer[func(*backend)]

// keepSpares keeps the spares channel full of forked interpreters, so that
// Open does not wait for a fork.
func (b *backend) keepSpares() {
	pause := func(d time.Duration) bool {
		select {
		case <-b.stop:
			return false
		case <-time.After(d):
			return true
		}
	}
	for {
		select {
		case <-b.stop:
			return
		default:
		}
		z, err := b.zygote()
		if err != nil {
			if !pause(time.Second) {
				return
			}
			continue
		}
		c, err := b.fork(z)
		if err != nil {
			if !pause(200 * time.Millisecond) {
				return
			}
			continue
		}
		b.idle(c)
		if hook := afterSpareFork.Load(); hook != nil {
			(*hook)(b)
		}
		select {
		case <-b.stop: // closed while forking: a send could still win the select below
			c.discard()
			return
		default:
		}
		select {
		case b.spares <- c:
		case <-b.stop:
			c.discard()
			return
		}
	}
}

// fork forks an interpreter and, with cgroups, moves it into a cgroup of
// its own, while it waits as a spare: moving a process between cgroups
// waits for the kernel (an RCU grace period), which Open should not.
func (b *backend) fork(z *zygote) (*child, error) {
	c, err := forkChild(z, b.forkRequest(), startWait)
	if err != nil {
		return nil, err
	}
	if c.cg, err = b.cg.create(b.lim.MemoryBytes, b.lim.Processes); err == nil && c.cg != nil {
		err = c.cg.add(c.pid)
	}
	if err != nil {
		c.discard()
		return nil, err
	}
	return c, nil
}

// interpreter returns an interpreter set up for a, its cgroup limited to
// lim: a spare if one is waiting, else a fresh fork.
func (b *backend) interpreter(a assignment, lim Limits) (*child, error) {
	for tries := 0; ; tries++ {
		var c *child
		select {
		case c = <-b.spares:
		default:
		}
		spare := c != nil
		if spare && c.idle && !b.wake(c) {
			c.discard()
			c, spare = nil, false // forked afresh below
		}
		if !spare {
			z, err := b.zygote()
			if err != nil {
				return nil, err
			}
			if c, err = b.fork(z); err != nil {
				return nil, err
			}
		}
		err := c.cg.setLimits(lim.MemoryBytes, lim.Processes)
		if err == nil {
			err = c.assign(a, c.ns && b.treeHandoff(), startWait)
		}
		if err == nil {
			return c, nil
		}
		c.discard()
		if !spare || tries >= 3 {
			return nil, err
		}
	}
}

// idle puts a fresh spare at the scheduler's idle priority: the setup a
// spare does while it waits (its root, its output) then runs only on time
// no claimed interpreter wants, and a burst of resets is not slowed by the
// spares refilling behind it. Claiming wakes it first (wake).
func (b *backend) idle(c *child) {
	if b.noIdle.Load() || !setPolicy(c.pid, unix.SCHED_IDLE) {
		return
	}
	c.idle = true
}

// wake gives a claimed spare back the normal priority and reports whether
// it could. Raising a priority takes CAP_SYS_NICE (mayRaisePriority):
// where it fails, the spare is of no use (it would run its cells at the
// idle priority), and later spares wait at the normal priority.
func (b *backend) wake(c *child) bool {
	if !setPolicy(c.pid, unix.SCHED_NORMAL) {
		b.noIdle.Store(true)
		return false
	}
	c.idle = false
	return true
}

// mayRaisePriority reports whether this process holds CAP_SYS_NICE, which
// putting an idle spare back at the normal priority takes. Without it
// (rootless, or a container that drops it) spares are never put at the
// idle priority.
func mayRaisePriority() bool {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if unix.Capget(&hdr, &data[0]) != nil {
		return false
	}
	return data[unix.CAP_SYS_NICE/32].Effective&(1<<(unix.CAP_SYS_NICE%32)) != 0
}

// setPolicy sets the scheduling policy of pid's main thread (an
// interpreter waiting as a spare has no other); setPolicyHook, set only by
// tests, stands in for the system call.
func setPolicy(pid, policy int) bool {
	if hook := setPolicyHook.Load(); hook != nil {
		return (*hook)(pid, policy)
	}
	return unix.SchedSetAttr(pid, &unix.SchedAttr{Policy: uint32(policy)}, 0) == nil
}

var setPolicyHook atomic.Pointer[func(pid, policy int) bool]
