// Package rundir owns the layout of a build's run directory and of an
// eval's results folder: the name of every file and folder in them
// (names.go), the append-only JSONL journals that hold their records
// (Journal, ReadJournal and ReadRecordAt, with their torn-line rule), the
// index that finds a journal's records by key without holding them
// (Index), and run.json (ReadRunInfo and WriteRunInfo, with the config's
// legacy form) and lost.jsonl's record.
//
// What the records mean, and which stage writes them when, is the
// pipeline's (a build's) and package eval's (an eval's); the benchmark
// folder's layout is package bench's. Nothing else spells a run
// directory's names: pipeline, eval, view, dataset, bench and cmd/synth
// use these. ErrConfigChanged is the error of a folder made with another
// config, which both wrap. It imports nothing of synth.
package rundir
