// Package adversary is the fixed set of hostile rollouts every task must
// reject: an empty rollout, a shotgun answer, the input copied to every
// requested output, random bytes with the right extension, a blank image,
// shadow copies of the modules the checks import, and produced modules and
// pickles that try to forge the verdict.
//
// An Adversary makes a Rollout for a task from nothing but the task and its
// inputs: no teacher turns, no sandbox. Prove verifies a task's whole set in
// one verification sandbox (checks.Verify), so proving a task costs one
// sandbox start. The same rollouts can be played through the real sandbox
// as code cells (Rollout.Reference), which is what `synth eval --teacher
// adversary:NAME` does.
//
// Template tasks (generators/template) and LLM-written tasks are proven
// with the same set; a task that any adversary passes is not kept.
package adversary
