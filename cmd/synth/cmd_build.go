package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"synth/config"
	"synth/llm"
	"synth/pipeline"
	"synth/rundir"
	"synth/runinfo"
)

func init() { register(newBuildCmd) }

// buildFlags are the flags of build that override the config file.
type buildFlags struct {
	out, config   string
	seed          int64
	sources       []string
	teacher       string
	format        string
	samples       int
	maxTurns      int
	concurrency   int
	benchFrac     float64
	templates     []string
	licenses      []string
	validateTasks bool
	fileless      bool
	model         string
	baseURL       string
	keyEnv        string
	temperature   float64
	maxCost       float64
	maxTokens     int64
	writer        string
	replay        string
	noCache       bool
	python        string
	pinned        string
	excludeBench  []string
}

func newBuildCmd() *cobra.Command {
	var f buildFlags
	cmd := &cobra.Command{
		Use:   "build [-o DIR] [-c FILE]",
		Short: "Run every stage: collect, generate, split, filter, validate, rollout, filter, emit, bench",
		Long: `build runs every stage of synth into one run directory, in this order, under
the names its funnel prints when it ends:

  collect    files from the sources into a content-addressed store (files.jsonl)
  generate   tasks per file type, each with unit-test checks (tasks.jsonl, tasks.report.md)
  split      hold out a benchmark, disjoint from training by input file
  filter     dedup and decontaminate the training tasks
  validate   prove each benchmark task: its reference passes; an empty rollout, a
             near-miss mutant and every adversary (shotgun answer, copied input,
             random bytes, blank image, shadow modules, forged code) fail
  rollout    a teacher solves each training task in ReAct turns in a sandbox, and
             each rollout's checks run in a sandbox of their own (trajectories.jsonl)
  filter     keep the verified trajectories past the quality and hygiene gates and dedup (filtered.jsonl)
  emit       the kept trajectories as Parquet, with the dataset card (dataset/)
  bench      the benchmark in PyBench's layout (bench/)

With no config and no flags it is the offline quickstart: the built-in corpus,
template tasks and the reference teacher, which plays each task's known solution.

Runs resume: every finished rollout is journaled, so after Ctrl-C (or a crash)
the same command continues where it stopped, and a finished run is not redone.
A run directory belongs to one config; use another -o for another config.`,
		Example: `  synth build -o out                      # the quickstart
  synth build -o out --config synth.yaml  # settings from a file (see synth init)
  synth build -o out --source local:./my-files --seed 7

  # a real teacher at any OpenAI-compatible endpoint (key from $OPENAI_API_KEY)
  synth build -o run1 --teacher openai --model gpt-4o --base-url https://api.openai.com/v1 \
      --samples 2 --max-turns 8 --concurrency 32 --max-cost-usd 20
  # a local vLLM or Ollama server, queries written by the model too
  synth build -o run2 --teacher openai --model qwen2.5-coder --base-url http://localhost:8000/v1 --query-writer llm`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runBuild(cmd, f) },
	}
	addBuildFlags(cmd, &f)
	return cmd
}

// addBuildFlags adds the flags that shape a build: build, plan and launch
// take them all.
func addBuildFlags(cmd *cobra.Command, f *buildFlags) {
	fl := cmd.Flags()
	addSourceFlags(cmd, f)
	fl.StringVar(&f.teacher, "teacher", "", "who writes the turns: reference, openai, replay, empty, sloppy (the reference with repeated cells, error loops or repeated turns: the hygiene gate drops its rows) or adversary:NAME (a hostile rollout, see synth eval --help) (config: teacher.kind)")
	fl.StringVar(&f.format, "format", "", "message format: pybench or openai-tools (config: teacher.format)")
	fl.StringVar(&f.model, "model", "", "model name at the endpoint (config: llm.endpoints[0].model)")
	fl.StringVar(&f.baseURL, "base-url", "", "OpenAI-compatible API root, e.g. http://localhost:8000/v1; default $OPENAI_BASE_URL, else "+llm.OpenAIBaseURL+" (config: llm.endpoints[0].base_url)")
	fl.StringVar(&f.keyEnv, "api-key-env", "", "environment variable holding the API key; default OPENAI_API_KEY, none sent if unset (config: llm.endpoints[0].key_env)")
	fl.StringVar(&f.keyEnv, "key-env", "", "old name of --api-key-env")
	fl.MarkHidden("key-env")
	fl.Float64Var(&f.temperature, "temperature", 0, "sampling temperature of the teacher; default 0.7 (config: teacher.temperature)")
	fl.Float64Var(&f.maxCost, "max-cost-usd", 0, "stop cleanly once this much is spent; resumable (config: llm.max_cost_usd)")
	fl.Int64Var(&f.maxTokens, "max-tokens", 0, "stop cleanly once this many tokens are used; resumable (config: llm.max_tokens)")
	fl.StringVar(&f.writer, "query-writer", "", "who writes the tasks: template, or llm (the model writes each task with a reference solution, and the task is proven in the sandbox before it counts; see docs/BUILD.md) (config: tasks.writer)")
	fl.StringVar(&f.replay, "replay", "", "trajectory file for --teacher replay: synth's "+rundir.Trajectories+" or PyBench's (config: teacher.replay)")
	fl.BoolVar(&f.noCache, "no-cache", false, "ask the endpoint again even for requests already answered (config: llm.no_cache)")
	fl.IntVar(&f.samples, "samples", 0, "rollouts per task (config: teacher.samples)")
	fl.IntVar(&f.maxTurns, "max-turns", 0, "assistant turns per rollout at most (config: teacher.max_turns)")
	fl.IntVar(&f.concurrency, "concurrency", 0, "rollouts in flight at most; default: sandbox.slots if set, else 16 for --teacher openai, else one per CPU (config: concurrency)")
	fl.Float64Var(&f.benchFrac, "bench-fraction", 0, "share of tasks held out for the benchmark; default 0.4 (config: bench.fraction)")
	fl.StringArrayVar(&f.excludeBench, "exclude-bench", nil, "an earlier benchmark folder `DIR` the new benchmark must share no input file and no near-duplicate query with (a fresh split), repeatable; such tasks go to neither side (config: bench.exclude)")
	fl.StringSliceVar(&f.templates, "templates", nil, "only these templates or prefixes, e.g. table.,text.wordfreq (config: tasks.templates)")
	fl.BoolVar(&f.fileless, "fileless", false, "also write the tasks that read no file (math, programs, web pages); without it they are written only when the built-in corpus is a source (config: tasks.fileless)")
	fl.BoolVar(&f.validateTasks, "validate-tasks", false, "prove every task in the sandbox before rollouts, not only benchmark tasks (config: tasks.validate)")
	fl.StringVar(&f.python, "python", "", "the sandbox's interpreter; default the locked environment (synth doctor shows it), e.g. /usr/bin/python3 for Debian's or a venv's bin/python; a run resumes only under the environment that made it (config: sandbox.python)")
}

// addSourceFlags adds the flags build and collect share.
func addSourceFlags(cmd *cobra.Command, f *buildFlags) {
	fl := cmd.Flags()
	fl.StringVarP(&f.out, "out", "o", "out", "run directory to write (and resume)")
	fl.StringVarP(&f.config, "config", "c", "", "config file (synth.yaml); flags override it")
	fl.Int64Var(&f.seed, "seed", 0, "seed of the corpus, task parameters and split (config: seed)")
	fl.StringArrayVar(&f.sources, "source", nil, "where files come from, repeatable: sample, local:PATH, kaggle:QUERY, kaggle:OWNER/DATASET[@N], kaggle:competition/SLUG, arxiv:QUERY, arxiv:ID[vN],… (config: sources.specs)")
	fl.StringVar(&f.pinned, "pinned", "", "collect again exactly the Kaggle datasets and arXiv papers an earlier run `RUN` (its folder or run.json) collected, at their recorded versions, and stop naming any file whose bytes changed; replaces the sources")
	fl.StringSliceVar(&f.licenses, "license", nil, "keep only files under these licenses, e.g. CC0-1.0,CC-BY-4.0,MIT (config: sources.licenses)")
}

// resolveConfig reads the config file, if any, and applies the flags that
// were set.
func resolveConfig(cmd *cobra.Command, f buildFlags) (config.Config, error) {
	cfg := config.Default()
	if f.config != "" {
		var err error
		if cfg, err = config.Load(f.config); err != nil {
			return cfg, usageError{err}
		}
	}
	set := cmd.Flags().Changed
	if set("seed") {
		cfg.Seed = f.seed
	}
	if set("source") {
		cfg.Sources.Specs = f.sources
	}
	if f.pinned != "" {
		if set("source") {
			return cfg, usagef("--pinned %s collects what that run collected: drop --source", f.pinned)
		}
		want, err := pinnedFiles(f.pinned)
		if err != nil {
			return cfg, err
		}
		specs, unpinned := runinfo.PinnedSpecs(want)
		if len(unpinned) > 0 {
			return cfg, fmt.Errorf("--pinned %s: these have no version to pin (a competition's data, or a file recorded without one): %s", f.pinned, strings.Join(unpinned, ", "))
		}
		cfg.Sources.Specs = specs
	}
	if set("license") {
		cfg.Sources.Licenses = f.licenses
	}
	if set("teacher") {
		cfg.Teacher.Kind = f.teacher
	}
	if set("format") {
		cfg.Teacher.Format = f.format
	}
	if set("samples") {
		cfg.Teacher.Samples = f.samples
	}
	if set("max-turns") {
		cfg.Teacher.MaxTurns = f.maxTurns
	}
	if set("concurrency") {
		cfg.Concurrency = f.concurrency
	}
	if set("bench-fraction") {
		if f.benchFrac < 0 || f.benchFrac > 1 {
			return cfg, usagef("--bench-fraction %v: want a share from 0 to 1", f.benchFrac)
		}
		cfg.Bench.Fraction = f.benchFrac
	}
	if set("exclude-bench") {
		cfg.Bench.Exclude = f.excludeBench
	}
	if set("templates") {
		cfg.Tasks.Templates = f.templates
	}
	if set("fileless") {
		cfg.Tasks.Fileless = f.fileless
	}
	if set("validate-tasks") {
		cfg.Tasks.Validate = f.validateTasks
	}
	if set("python") {
		cfg.Sandbox.Python = f.python
	}
	if set("model") || set("base-url") || set("api-key-env") || set("key-env") {
		if len(cfg.LLM.Endpoints) == 0 {
			cfg.LLM.Endpoints = []llm.Endpoint{{}}
		}
		ep := &cfg.LLM.Endpoints[0]
		if set("model") {
			ep.Model = f.model
		}
		if set("base-url") {
			ep.BaseURL = f.baseURL
		}
		if set("api-key-env") || set("key-env") {
			ep.KeyEnv = f.keyEnv
		}
	}
	if set("temperature") {
		cfg.Teacher.Temperature = &f.temperature
	}
	if set("max-cost-usd") {
		cfg.LLM.MaxCostUSD = f.maxCost
	}
	if set("max-tokens") {
		cfg.LLM.MaxTokens = f.maxTokens
	}
	if set("query-writer") {
		cfg.Tasks.Writer = f.writer
	}
	if set("replay") {
		cfg.Teacher.Replay = f.replay
		if !set("teacher") {
			cfg.Teacher.Kind = "replay"
		}
	}
	if set("no-cache") {
		cfg.LLM.NoCache = f.noCache
	}
	if err := cfg.Validate(); err != nil {
		return cfg, usageError{err}
	}
	return cfg, nil
}

func runBuild(cmd *cobra.Command, f buildFlags) error {
	cfg, err := resolveConfig(cmd, f)
	if err != nil {
		return err
	}
	if err := wantOutside("-o", f.out, kindDataset, kindBench, kindResults); err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	expect, err := expectedFiles(f)
	if err != nil {
		return err
	}
	sum, err := pipeline.Build(cmd.Context(), cfg, pipeline.Options{
		Out: f.out, Version: version, Log: stderr, Terminal: isTerminal(stderr), Expect: expect,
	})
	if errors.Is(err, pipeline.ErrConfigChanged) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	printSummary(cmd.OutOrStdout(), sum)
	if err := emptyDataset(sum); err != nil {
		return err
	}
	return lostRollouts(sum)
}

// pinnedFiles reads the files an earlier run's network sources collected,
// from its folder or its run.json.
func pinnedFiles(run string) ([]runinfo.Collected, error) {
	dir := run
	if filepath.Base(run) == rundir.RunInfo {
		dir = filepath.Dir(run)
	}
	ri, err := runinfo.Read(dir)
	if err != nil {
		return nil, fmt.Errorf("--pinned %s: %w", run, err)
	}
	if ri == nil {
		return nil, usagef("--pinned %s: no %s there: give a run directory that synth build or synth collect wrote", run, rundir.RunInfo)
	}
	if len(ri.Collected) == 0 {
		return nil, usagef("--pinned %s: its %s records no Kaggle or arXiv file to collect again (runs before this synth did not record them)", run, rundir.RunInfo)
	}
	return ri.Collected, nil
}

// expectedFiles is what --pinned expects the collection to bring again.
func expectedFiles(f buildFlags) ([]runinfo.Collected, error) {
	if f.pinned == "" {
		return nil, nil
	}
	return pinnedFiles(f.pinned)
}

// lostRollouts is the error of a run that lost rollouts to infrastructure
// failures: what it wrote holds the others, and the same command redoes
// them.
func lostRollouts(sum *pipeline.Summary) error {
	if sum.Lost == 0 {
		return nil
	}
	return fmt.Errorf("%d rollouts were lost to infrastructure failures (see "+rundir.Lost+" under %s); the rest is kept: run the same command again to redo them",
		sum.Lost, sum.Out)
}

// emptyDataset is the error of a build that wrote no dataset rows: it did
// not produce what was asked, so it must not exit 0.
func emptyDataset(sum *pipeline.Summary) error {
	if sum.Rows > 0 {
		return nil
	}
	why := "no rollout passed its checks and the filters"
	if len(sum.Failures) > 0 {
		why += " (failed rollouts: " + sum.FailureNote() + ")"
	}
	return fmt.Errorf("%s: the dataset has no rows: %s; see %s", sum.Out, why, filepath.Join(sum.Out, rundir.Trajectories))
}

func printSummary(w io.Writer, sum *pipeline.Summary) {
	if sum.UpToDate {
		fmt.Fprintf(w, "%s is up to date: nothing to do.\n", sum.Out)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "stage\tin\tout\t\t")
	for _, s := range sum.Stages {
		in := fmt.Sprint(s.In)
		if s.Stage == "collect" {
			in = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t\t%s\n", s.Stage, in, s.Out, s.Note)
	}
	tw.Flush()
	if len(sum.Failures) > 0 {
		fmt.Fprintf(w, "failed rollouts: %s\n", sum.FailureNote())
	}
	for _, si := range sum.ShardInfos {
		fmt.Fprintf(w, "shard %s: %d tasks, %d rollouts, %d passed", si.Shard, si.Tasks, si.Rollouts, si.Passed)
		if si.Tokens > 0 {
			fmt.Fprintf(w, ", %d tokens, $%.4f", si.Tokens, si.CostUSD)
		}
		fmt.Fprintln(w)
	}
	if sum.Tokens > 0 {
		fmt.Fprintf(w, "rollouts used %d tokens, $%.4f\n", sum.Tokens, sum.CostUSD)
	}
	if wc := sum.Writer; wc != nil {
		fmt.Fprintf(w, "llm writer: %d drafts, %d kept; %s\n", wc.Drafts, wc.Kept, wc.CountsNote())
	}
	for _, s := range sum.Shards {
		fmt.Fprintf(w, "dataset:   %s\n", s)
	}
	if sum.Bench != "" {
		fmt.Fprintf(w, "benchmark: %s\n", sum.Bench+string(filepath.Separator))
	}
	for _, n := range sum.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	if !sum.UpToDate {
		fmt.Fprintf(w, "done in %s\n", sum.Elapsed.Round(100_000_000))
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("CI") != "" {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
