// Package pipeline runs synth's stages — collect, generate, split, roll out,
// verify, filter, emit — over a run directory, with append-only journals so
// that an interrupted run resumes where it stopped.
package pipeline
