package pipeline

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"synth/checks/checkstest"
	"synth/config"
	"synth/runinfo"
	"synth/sandbox"
)

// threadedBackend is a backend whose zygote runs threads beside its own.
type threadedBackend struct {
	sandbox.Backend
	threads []string
}

func (b threadedBackend) ZygoteThreads() ([]string, error) { return b.threads, nil }

// TestZygoteThreadsGoIntoRunJSON: a zygote that runs a thread beside its
// own (a module of sandbox.preload started it) is named in run.json's
// reproduction and in the log, since rows that print an address may then
// differ between builds; the sandbox's own backend says how many it runs,
// and with the default preload it runs none.
func TestZygoteThreadsGoIntoRunJSON(t *testing.T) {
	real := checkstest.Backend(t, 1)
	z, ok := real.(interface{ ZygoteThreads() ([]string, error) })
	if !ok {
		t.Fatalf("the sandbox's backend %T does not say which threads its zygote runs", real)
	}
	if threads, err := z.ZygoteThreads(); err != nil || len(threads) > 0 {
		t.Errorf("the default preload's zygote runs threads %q (%v)", threads, err)
	}
	for _, threads := range [][]string{nil, {"jemalloc_bg_thd"}} {
		var log bytes.Buffer
		r := newBuilder(config.Default(), Options{Out: t.TempDir(), Log: &log})
		r.info = &runinfo.RunInfo{Reproduction: &runinfo.Reproduction{}}
		newSandbox = func(sandbox.Config) (sandbox.Backend, error) {
			return threadedBackend{Backend: real, threads: threads}, nil
		}
		t.Cleanup(func() { newSandbox = sandbox.New })
		if _, err := r.sandbox(); err != nil {
			t.Fatal(err)
		}
		if got := r.info.Reproduction.ZygoteThreads; !slices.Equal(got, threads) {
			t.Errorf("threads %q: run.json's reproduction records %q", threads, got)
		}
		if said := strings.Contains(log.String(), "jemalloc_bg_thd"); said != (len(threads) > 0) {
			t.Errorf("threads %q: the log says %q", threads, log.String())
		}
	}
}
