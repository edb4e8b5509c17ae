// Package sandbox runs untrusted Python in stateful, isolated interpreters,
// one per rollout, each bound to its own workspace.
//
// New returns the local backend. It starts a zygote, a Python process that
// imports the heavy modules once (Config.Preload), inside bubblewrap when
// available (read-only system, no network). The zygote forks interpreters
// ahead of need (Config.Spares); with CAP_SYS_NICE, these spares wait at
// the scheduler's idle priority until claimed, and each runs beforehand the
// Python its assignment will run (rehearse in driver.py), so that the pages
// it copies from the zygote are copied while it waits, not when it is
// claimed. Each fork is pid 1 of a new pid namespace
// and has its own mount, network, IPC and UTS namespaces; its root is a
// private one holding the system read-only and a few devices. As root, the
// zygote prepares that root once, in a mount namespace of its own (read-only,
// shared by nothing writable), and each fork joins a copy of it; otherwise
// each fork builds and pivots into its own. Each mounts its own /proc and
// /dev/shm and, once a sandbox claims it, the workspace at /workspace
// (data/ read-only) and a private /tmp. It then sets its rlimits, drops to a
// uid of its own and reseeds random and numpy from Spec.Seed. Once idle
// after its start, the zygote has its heap moved into huge pages where the
// kernel can (MADV_COLLAPSE), so a fork copies fewer page tables, and, as
// root and while it has one thread,
// forks with the C library's fork rather than os.fork, skipping the
// at-fork callbacks of the modules it imported (about 1 ms of copy-on-write
// faults a fork).
//
// Go talks to an interpreter over a control socket (JSON lines: a cell, its
// status) and reads its stdout and stderr, both one pipe at the
// file-descriptor level, between per-cell markers. A cell past its wall
// time, or an interpreter that dies, is killed with its whole pid namespace;
// the next cell gets a fresh interpreter and its output says state was lost.
//
// The zygote's own PYTHONHASHSEED is 0, so str hashes in every interpreter
// are the same from run to run; subprocesses a cell starts get
// PYTHONHASHSEED from Spec.Seed. The zygote runs with address-space
// randomisation off, and forks none of the interpreters itself, where it can
// (root, or isolation off): a copy of it taken before it served anything,
// the stem, forks each one, so every interpreter starts from the same heap
// and a cell's objects print the same addresses in every build
// (docs/REPRODUCIBILITY.md).
//
// Without root, the same namespaces hang off a user namespace in which
// synth's uid is root (no bubblewrap, no uid per sandbox, so no per-sandbox
// process limit). Where namespaces are not available at all (a container
// that forbids them), isolation auto runs interpreters as plain forks with
// rlimits only.
//
// As root, each sandbox also gets a cgroup (cgroup.go: memory with tmpfs
// pages, pids), a workspace on a tmpfs of its own with size and inode
// limits (quota.go), and a seccomp filter loaded by the interpreter
// (driver.py) that refuses new namespaces, mounts, tracing and other
// kernel surfaces. Halt kills every process of a sandbox; Collect then
// copies its output/ by directory descriptors, never following a link
// (artifacts.go). Doctor says which layers are on; isolation strict
// refuses to run without root, bubblewrap, cgroups, the workspace tmpfs
// and the filter.
//
// NewTemplate makes a backend whose zygote also reads one task's inputs
// (pandas data readers only, within memory, CPU and wall limits) before it
// forks: every interpreter, forked by its stem as above, starts with them
// in its globals (inputs) as copy-on-write memory, and every workspace's
// data/ is a read-only bind of one shared copy (template.go; synth serve
// --preload).
package sandbox
