// Package proof proves a task: it plays solutions in sandboxes of their
// own, assembles the cases a task's proof verifies (the reference, held to
// what its code printed; the wrong solutions its checks must reject; every
// adversary's hostile rollout), verifies them together in one batch and
// gives the verdict, a Proof and its drop reason. generators/template,
// generators/writer and pipeline prove tasks through it: the generators
// hand it a task, its solutions and a sandbox.Backend; the pipeline plays
// its solutions through its journaled player and hands the engine their
// cases.
package proof
