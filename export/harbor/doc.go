// Package harbor writes synth's benchmark and eval trajectories in the
// shapes Harbor (the agent benchmark harness, harbor on PyPI) defines.
//
// WriteTasks lays a benchmark out as Harbor task folders, one per task:
// instruction.md (the query and where the files are), task.toml (Harbor's
// TaskConfig, schema 1.4: a separate, offline verifier, a non-root agent,
// the outputs and the answer file as artifacts), environment/ (a Dockerfile
// on Debian's Python 3.11 with the sandbox's locked packages, and the
// task's input files under data/), tests/ (test.sh, which runs synth's own
// checks library on the trial's outputs and answer and writes the reward)
// and solution/ (solve.sh, which plays the task's reference solution).
//
// Trajectories turns an eval's results into Harbor's trajectory format,
// ATIF (Agent Trajectory Interchange Format, schema ATIF-v1.6): one
// trajectory per rollout, its turns as steps, code cells as tool calls and
// their output as observations, the verdict in extra.
//
// Every name written comes from the benchmark or the results, which are
// untrusted: folder names are reduced to a safe alphabet, input file names
// must be local paths without links, and strings reach TOML only through
// tomlString.
package harbor
