package sandbox

import (
	"os"
	"slices"
	"testing"
	"time"
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
