// Package sandbox runs untrusted Python in stateful, isolated interpreters,
// one per rollout, each bound to its own workspace.
//
// New returns the local backend. It starts a zygote, a Python process that
// imports the heavy modules once (Config.Preload), inside bubblewrap when
// available (read-only system, no network). The zygote forks interpreters
// ahead of need (Config.Spares). Each fork unshares its mount, pid, network,
// IPC and UTS namespaces, becomes pid 1 of its pid namespace, and pivots
// into a private root holding the system read-only, /dev, /proc and, once
// a sandbox claims it, the workspace at /workspace (data/ read-only) and a
// private /tmp. It then sets its rlimits, drops to a uid of its own and
// reseeds random and numpy from Spec.Seed.
//
// Go talks to an interpreter over a control socket (JSON lines: a cell, its
// status) and reads its stdout and stderr, both one pipe at the
// file-descriptor level, between per-cell markers. A cell past its wall
// time, or an interpreter that dies, is killed with its whole pid namespace;
// the next cell gets a fresh interpreter and its output says state was lost.
//
// The zygote's own PYTHONHASHSEED is 0, so str hashes in every interpreter
// are the same from run to run; subprocesses a cell starts get
// PYTHONHASHSEED from Spec.Seed.
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
package sandbox
