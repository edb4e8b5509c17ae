// Package pipeline runs synth's stages — collect, generate, split, roll out,
// verify, filter, emit — over a run directory, with append-only journals so
// that an interrupted run resumes where it stopped. The directory's layout,
// its journals and run.json's file are package rundir's.
package pipeline
