// Package sandbox runs untrusted Python in stateful, isolated interpreters,
// one per rollout, each bound to its own workspace.
package sandbox
