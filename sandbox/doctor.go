package sandbox

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"time"

	"synth/schemas"
)

// Layer is one isolation or runtime layer as `synth doctor` reports it.
type Layer struct {
	Name   string
	On     bool
	Detail string
}

// Doctor starts a backend from cfg, opens one sandbox and reports which
// layers are active: the Python interpreter and its version, bubblewrap
// around the zygote, the namespaces each interpreter gets, the unprivileged
// uid, rlimits and the zygote's preloaded modules.
func Doctor(cfg Config) []Layer {
	b, err := newBackend(cfg)
	if err != nil {
		return []Layer{{Name: "python", Detail: err.Error()}}
	}
	defer b.Close()
	if err := b.Warm(); err != nil {
		return []Layer{{Name: "python", Detail: b.python + ": " + err.Error()}}
	}
	z := b.z
	ns, userns, own := b.isolated(), b.userns, b.ownUIDs()
	on := func(k string) bool { return ns && (userns || z.ready.Layers[k]) }
	nsDetail := func(k, what string) string {
		switch {
		case on(k) && userns:
			return what + " (in a user namespace: synth is not root)"
		case on(k):
			return what
		case b.cfg.Isolation == IsolationOff:
			return "off: sandbox.isolation is off"
		case os.Geteuid() != 0:
			return "off: synth is not root and this kernel or container does not allow user namespaces"
		}
		return "off: this kernel or container does not allow it"
	}
	uid := Layer{Name: "unprivileged uid", On: own, Detail: nsDetail("uid", fmt.Sprintf("each sandbox runs as its own uid in %d..%d, no new privileges", uidBase, uidBase+uidSpan-1))}
	if !own && os.Geteuid() != 0 {
		uid = Layer{Name: "unprivileged uid", On: true, Detail: "cells run as synth's own (unprivileged) uid, not one per sandbox: run synth as root for that"}
	}
	layers := []Layer{
		{Name: "python", On: true, Detail: fmt.Sprintf("%s (Python %s)", b.python, z.ready.Python)},
		bwrapLayer(b),
		{Name: "user namespace", On: ns && userns, Detail: userNSDetail(b, z)},
		{Name: "mount namespace", On: on("mount"), Detail: nsDetail("mount", "private root: system read-only, own workspace (data/ read-only), private /tmp")},
		{Name: "pid namespace", On: on("pid"), Detail: nsDetail("pid", "the interpreter is pid 1; killing it ends everything it started")},
		{Name: "network namespace", On: on("net"), Detail: nsDetail("net", "no network: only a private loopback")},
		{Name: "ipc namespace", On: on("ipc"), Detail: nsDetail("ipc", "private System V IPC")},
		{Name: "uts namespace", On: on("uts"), Detail: nsDetail("uts", "private hostname")},
		uid,
		{Name: "rlimits", On: true, Detail: rlimitDetail(b, own)},
		cgroupLayer(b),
		quotaLayer(b),
		preloadLayer(z),
		threadLayer(z),
	}
	return append(layers, probeLayers(b)...)
}

// threadLayer says whether the zygote runs alone once it has imported
// everything: a helper thread of a preloaded or resident module moves where
// libraries and objects land from one zygote to the next, so rows that
// print an address may differ between builds.
func threadLayer(z *zygote) Layer {
	if len(z.ready.Threads) == 0 {
		return Layer{Name: "one thread", On: true, Detail: "the zygote runs no thread beside its own, so every zygote lays out its memory alike"}
	}
	return Layer{Name: "one thread", Detail: fmt.Sprintf("the zygote runs %d more thread(s) (%s), started by a preloaded or resident module: object addresses in printed reprs may differ between builds; leave that module out of sandbox.preload, or turn its thread off in its own settings",
		len(z.ready.Threads), strings.Join(z.ready.Threads, ", "))}
}

func cgroupLayer(b *backend) Layer {
	g := b.cg
	switch {
	case b.cfg.Isolation == IsolationOff:
		return Layer{Name: "cgroup", Detail: "off: sandbox.isolation is off"}
	case g == nil || g.version == 0:
		why := "unknown"
		if g != nil {
			why = g.why
		}
		return Layer{Name: "cgroup", Detail: "off: " + why + "; memory is limited per process only (address space), processes by uid"}
	}
	return Layer{Name: "cgroup", On: true, Detail: fmt.Sprintf("cgroup v%d per sandbox (%s): memory %s including tmpfs pages, %d processes and threads",
		g.version, strings.Join(g.parents, ", "), humanBytes(b.lim.MemoryBytes), b.lim.Processes)}
}

func quotaLayer(b *backend) Layer {
	sizes := fmt.Sprintf("workspace %s, /tmp %s, /dev/shm 64MiB; %d inodes each", humanBytes(b.lim.WorkspaceBytes), humanBytes(b.lim.TmpBytes), b.lim.Inodes)
	switch {
	case b.cfg.Isolation == IsolationOff:
		return Layer{Name: "disk quota", Detail: "off: sandbox.isolation is off; only the file size limit holds"}
	case !b.quota:
		return Layer{Name: "disk quota", Detail: "off: " + b.noQuota + "; the workspace is on the host's disk, only the file size limit holds"}
	case !b.treeHandoff():
		return Layer{Name: "disk quota", Detail: "off: this kernel cannot hand a mount to an interpreter (open_tree); only the file size limit holds"}
	}
	return Layer{Name: "disk quota", On: true, Detail: "a tmpfs per sandbox: " + sizes + " (past them, writes fail with ENOSPC)"}
}

func rlimitDetail(b *backend, ownUID bool) string {
	procs := fmt.Sprintf("%d processes", b.lim.Processes)
	if !ownUID {
		procs = "no process limit (it needs a uid of the sandbox's own)"
	}
	return fmt.Sprintf("address space %s, CPU %s, file size %s, %d open files, %s",
		humanBytes(b.lim.MemoryBytes), b.lim.CPUTime, humanBytes(b.lim.FileBytes), b.lim.OpenFiles, procs)
}

func bwrapLayer(b *backend) Layer {
	path, err := exec.LookPath("bwrap")
	switch {
	case b.bwrap != "":
		return Layer{Name: "bubblewrap", On: true, Detail: b.bwrap + " around the zygote: read-only system, no network"}
	case err != nil:
		return Layer{Name: "bubblewrap", Detail: "off: not installed (apt-get install bubblewrap)"}
	case b.cfg.Isolation == IsolationOff:
		return Layer{Name: "bubblewrap", Detail: "off: sandbox.isolation is off"}
	case os.Geteuid() != 0:
		return Layer{Name: "bubblewrap", Detail: "off: " + path + " is installed but synth is not root (the zygote runs without it)"}
	}
	return Layer{Name: "bubblewrap", Detail: "off: " + path + " did not start here"}
}

func userNSDetail(b *backend, z *zygote) string {
	switch {
	case b.isolated() && b.userns:
		return "the namespaces of each interpreter hang off a user namespace, since synth is not root"
	case b.isolated():
		return "not needed: synth is root, and interpreters drop to a real unprivileged uid"
	case z.ready.Layers["user"]:
		return "available but not used"
	}
	return "off: not allowed here"
}

func preloadLayer(z *zygote) Layer {
	var mods, bad []string
	for m, st := range z.ready.Preload {
		if st == "ok" {
			mods = append(mods, m)
		} else {
			bad = append(bad, m+" ("+st+")")
		}
	}
	sort.Strings(mods)
	sort.Strings(bad)
	if len(bad) > 0 {
		return Layer{Name: "zygote preload", Detail: "failed: " + strings.Join(bad, ", ") + "; loaded: " + strings.Join(mods, ", ")}
	}
	return Layer{Name: "zygote preload", On: true, Detail: strings.Join(mods, ", ")}
}

// probeLayers opens one sandbox and checks from inside what a cell sees:
// its uid, pid and directory, the system call filter, and whether it can
// make a user namespace.
func probeLayers(b *backend) []Layer {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	t0 := time.Now()
	s, err := b.Open(ctx, Spec{})
	if err != nil {
		return []Layer{{Name: "sandbox", Detail: err.Error()}}
	}
	defer s.Close()
	open := time.Since(t0)
	r, err := s.Exec(ctx, "import os\nprint(os.getuid(), os.getpid(), os.getcwd())")
	if err != nil || r.Status != schemas.StatusOK {
		return []Layer{{Name: "sandbox", Detail: fmt.Sprintf("a test cell failed: %v %s", err, r.Output)}}
	}
	layers := []Layer{{Name: "sandbox", On: true, Detail: fmt.Sprintf("opened in %s; a cell sees uid, pid, cwd = %s", open.Round(time.Microsecond*100), strings.TrimSpace(r.Output))}}
	sec := Layer{Name: "seccomp", Detail: "off: sandbox.isolation is off"}
	switch c := s.(*session).c; {
	case c != nil && c.seccomp:
		sec = Layer{Name: "seccomp", On: true, Detail: "denies new namespaces, mount, ptrace, keyctl, bpf, perf_event_open, userfaultfd, module loading, kexec, io_uring and the like"}
	case b.cfg.Isolation != IsolationOff:
		sec.Detail = "off: the filter is written for x86_64 only"
	}
	r, err = s.Exec(ctx, "import ctypes\nprint('userns', ctypes.CDLL(None).unshare(0x10000000))")
	userns := Layer{Name: "user namespaces inside", Detail: "allowed: a cell can make a user namespace (unshare -U)"}
	if err == nil && strings.Contains(r.Output, "userns -1") {
		userns = Layer{Name: "user namespaces inside", On: true, Detail: "disabled: unshare -U fails in a cell"}
	}
	return append(layers, sec, userns)
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%dGiB", n>>30)
	case n >= 1<<20:
		return fmt.Sprintf("%dMiB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%dKiB", n>>10)
	}
	return fmt.Sprintf("%dB", n)
}
