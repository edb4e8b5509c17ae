package rundir

// The files and folders of a build's run directory (synth build, plan,
// rollout and merge -o DIR), in the order of the stages that write them.
// A shard's folder, ShardsDir/I-of-N, holds the rollout journals of its
// part of the plan under the same names, and Shard.
const (
	// RunInfo is run.json: the config and its hash, the synth version,
	// the Python environment, when each stage completed, the counts and
	// the last build's stage times. Every stage rewrites it whole
	// (WriteRunInfo) as it completes; ReadRunInfo reads it.
	RunInfo = "run.json"

	// SourcesCacheDir holds what the network sources downloaded, for the
	// collect stage to reuse.
	SourcesCacheDir = "cache/sources"
	// FilesDir holds the collected files, content-addressed:
	// files/<aa>/<sha256>/<original name>. Written by the collect stage.
	FilesDir = "files"
	// Files is files.jsonl, the journal of collected files
	// (schemas.File), one a line. Written by the collect stage.
	Files = "files.jsonl"

	// Tasks is tasks.jsonl, the journal of generated tasks (schemas.Task).
	// Written by the generate stage.
	Tasks = "tasks.jsonl"
	// TasksReport is tasks.report.md: the tasks per template and the
	// collected files that got no task, with why. Written by the generate
	// stage.
	TasksReport = "tasks.report.md"
	// DraftsDropped is drafts_dropped.jsonl: every draft the LLM writer
	// dropped, with its reason and what failed. Rewritten by the generate
	// stage when the writer is the LLM.
	DraftsDropped = "drafts_dropped.jsonl"

	// BenchValidation is bench_validation.jsonl, the journal of the
	// benchmark tasks' proof rollouts (schemas.Trajectory): reference,
	// empty, mutant and adversaries. Written by the validate stage.
	BenchValidation = "bench_validation.jsonl"
	// Plan is plan.jsonl: the training tasks the rollouts are to solve
	// (schemas.Task), in the order of the dataset's rows. Written by the
	// plan stage (synth plan, and synth build before its rollouts).
	Plan = "plan.jsonl"

	// Trajectories is trajectories.jsonl, the journal of finished
	// rollouts (schemas.Trajectory). Written by the rollout stage.
	Trajectories = "trajectories.jsonl"
	// Lost is lost.jsonl, the journal of rollouts lost to infrastructure
	// failures (LostRollout): not in Trajectories, so the next run does
	// them again. Written by the rollout stage.
	Lost = "lost.jsonl"
	// ArtifactsDir holds the files rollouts wrote under output/,
	// content-addressed: artifacts/<aa>/<sha256>. Written by the rollout
	// and validate stages.
	ArtifactsDir = "artifacts"
	// ShardsDir holds one folder per rollout shard, I-of-N, each written
	// by synth rollout --shard I/N and read by synth merge.
	ShardsDir = "shards"
	// Shard is shard.json, a shard's record of itself in its folder: the
	// plan it rolled out, its counts and times. Written by synth rollout
	// --shard.
	Shard = "shard.json"

	// Filtered is filtered.jsonl: every item a filter dropped, with its
	// stage, reason and what it matched. Rewritten by each build's filters.
	Filtered = "filtered.jsonl"
	// DatasetDir is the dataset: Parquet shards under DatasetDataDir,
	// DatasetCard and DatasetStats. Written by the emit stage.
	DatasetDir = "dataset"
	// DatasetDataDir holds the dataset's Parquet shards (and JSONL):
	// DatasetDir's DatasetShards.
	DatasetDataDir = DatasetDir + "/" + DatasetShards
	// BenchDir is the benchmark, in the layout package bench owns.
	// Written by the emit stage.
	BenchDir = "bench"
	// Replay is replay.json: how many sampled rows re-executed byte for
	// byte. Written by synth replay.
	Replay = "replay.json"
)

// The files of a dataset folder (the run's DatasetDir, or any folder
// dataset.WriteCard writes into), in the Hugging Face layout.
const (
	// DatasetShards is the folder of the dataset's Parquet shards, each
	// written by dataset.Writer to a temporary name and renamed whole.
	DatasetShards = "data"
	// DatasetCard is the dataset card, README.md, which synth replay
	// also gives a Reproduction section. Written by dataset.WriteCard.
	DatasetCard = "README.md"
	// DatasetStats is stats.json: the dataset's figures and filter funnel.
	// Written by dataset.WriteCard.
	DatasetStats = "stats.json"
)

// The files of an eval's results folder (synth eval -o DIR).
const (
	// EvalInfo is eval.json: the benchmark, its hash and the teacher an
	// eval ran; a rerun with another refuses. Written when the eval
	// starts (synth eval leaves its finished time unset; a reader takes
	// summary.json's).
	EvalInfo = "eval.json"
	// EvalResults is results.jsonl, the journal of scored rollouts
	// (bench.Result). Written as the eval runs.
	EvalResults = "results.jsonl"
	// EvalSummary is summary.json: pass rates, turns, tokens and cost,
	// overall and per category (bench.Summary). Written when the eval
	// ends; synth eval compare reads it.
	EvalSummary = "summary.json"
	// EvalReport is report.md, the summary for people. Written when the
	// eval ends.
	EvalReport = "report.md"
)
