// Package schemas defines synth's records — File, Task, Check, Trajectory,
// Message, Step, Verdict, Usage — and their JSON and Parquet encodings.
//
// Every other package speaks in these types. JSON field names are the
// on-disk contract of the run directory (files.jsonl, tasks.jsonl,
// trajectories.jsonl) and of the benchmark's tasks.jsonl; changing one is a
// format change.
package schemas
