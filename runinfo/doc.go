// Package runinfo holds what a run directory records about itself:
// run.json (RunInfo: the config and its hash, the stages done, the
// sandbox's Python, the plan's hash, what reproduction depends on, the LLM
// writer's counts and the files that got no task) and a shard's shard.json
// (ShardInfo), with the arithmetic of shards. Package rundir names the files
// and reads run.json's legacy form; this package says what they hold.
// Imports config and rundir.
package runinfo
