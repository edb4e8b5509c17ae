// Package pipeline runs synth's stages — collect, generate, split, roll out,
// verify, filter, emit — over a run directory, with append-only journals so
// that an interrupted run resumes where it stopped. The directory's layout,
// its journals and run.json's file are package rundir's.
package pipeline

// Inside, a build, plan, rollout shard or merge in progress is a run
// (build.go): its config, run directory, run.json, summary and the stages
// that read and write them. A concern with state of its own is a small type
// that holds the run's pieces it uses, so that run stays at 25 methods or
// fewer: taskMaker (taskmaker.go) the generate stage, planFile (plan.go)
// plan.jsonl and its hash, taskStore (taskstore.go) the tasks held slim,
// roller (roller.go) a rollout played and journaled.
