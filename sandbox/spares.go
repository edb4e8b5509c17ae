package sandbox

import (
	"time"
)

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
		c, err := forkChild(z, b.forkRequest(), startWait)
		if err != nil {
			if !pause(200 * time.Millisecond) {
				return
			}
			continue
		}
		select {
		case b.spares <- c:
		case <-b.stop:
			c.discard()
			return
		}
	}
}

// interpreter returns an interpreter set up for a, in cgroup cg (nil for
// none): a spare if one is waiting, else a fresh fork.
func (b *backend) interpreter(a assignment, cg *sandboxCgroup) (*child, error) {
	for tries := 0; ; tries++ {
		var c *child
		select {
		case c = <-b.spares:
		default:
		}
		spare := c != nil
		if !spare {
			z, err := b.zygote()
			if err != nil {
				return nil, err
			}
			if c, err = forkChild(z, b.forkRequest(), startWait); err != nil {
				return nil, err
			}
		}
		var err error
		if cg != nil {
			err = cg.add(c.pid)
		}
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
