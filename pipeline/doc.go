// Package pipeline runs synth's stages — collect, generate, split, roll out,
// verify, filter, emit — over a run directory, with append-only journals so
// that an interrupted run resumes where it stopped. The directory's layout
// and its journals are package rundir's; what run.json and shard.json hold
// is package runinfo's, and synth.yaml is package config's.
//
// Inside, a build, plan, rollout shard or merge in progress is a builder
// (run.go): its config, run directory, run.json, summary and sandbox. Its
// files use only files below them: the records the stages hold (the tasks
// held slim, the journals' index, the lost rollouts, the endpoint) under
// the builder and the jobs (jobs.go); the pieces that need a builder
// (collect, the filters, the taskMaker that owns the generate stage, the
// roller that plays and journals a rollout, plan.jsonl) above them; the
// stages above those (generate.go, stages.go); and on top build.go, where
// Build, Plan, Rollout and Merge run the stages in their order. A concern
// with state of its own is a small type holding the builder's pieces it
// uses, so that builder stays at 25 methods or fewer.
package pipeline
