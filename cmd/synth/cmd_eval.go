package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"synth/bench"
	"synth/config"
	"synth/eval"
	"synth/llm"
	"synth/rundir"
	"synth/schemas"
)

func init() { register(newEvalCmd) }

// evalFlags are the flags of synth eval.
type evalFlags struct {
	bench, out, config             string
	model, baseURL, keyEnv         string
	teacher, trajectories, format  string
	samples, maxTurns, concurrency int
	temperature                    float64
	infraRetries                   int
	maxInfraRate                   float64
	tasks                          []string
	maxCost                        float64
	judge, judgeModel, judgeURL    string
	judgeKeyEnv, judgeBaseline     string
	scoring, pybenchPrompt, python string
	noVariants                     bool
}

func newEvalCmd() *cobra.Command {
	var f evalFlags
	cmd := &cobra.Command{
		Use:   "eval --bench DIR (--model M [--base-url URL] | --teacher reference|empty|adversary:NAME | --trajectories FILE) [-o DIR]",
		Short: "Score a model, or recorded trajectories, on a benchmark",
		Long: `eval rolls out every task of a benchmark with a teacher, in the sandbox, prompt
format and checks that made the training data, and scores the rollouts with the
benchmark's unit tests, the way PyBench reports models:

  pass rate     pass@1 overall, per category and per input file type; with
                --samples k also pass@k (the unbiased estimator)
  avg turns     as PyBench computes it (a failed task counts as the turn cap),
                and over passed rollouts only
  cost          tokens and dollars per task (prices from --config)
  failures      why rollouts failed (check_failed, max_turns, no_final_answer, ...)

Infrastructure failures (an endpoint that keeps failing, the host, a sandbox
that will not start) are retried, and if they persist reported apart: they never
count as the model's failures, and the next run retries them. Whatever a rollout
can cause is its own failure and is scored: an output file name the checks cannot
take (artifact_error), too many or too large outputs (artifact_limit), code that
runs past its time (exec_timeout), files that make the checks crash or time out
(check_crash). The pass rate is printed over the scored tasks and over all tasks
(a task lost to the infrastructure counts as failed there); eval exits 1 when
more than --max-infra-rate of the rollouts were lost to the infrastructure
(default 0.1), since the scored-only rate then says little about the model.

The results folder (-o) gets results.jsonl (one line per rollout: trajectory and
verdict), summary.json (the figures: pass_rate, per_category, avg_turns,
avg_turns_pybench, tasks, passed, infra_errors, ...), report.md, and the files
the rollouts wrote. Runs resume: after Ctrl-C the same command continues, and a
finished eval is not redone. A folder belongs to one benchmark, teacher and
setting; use another -o for another.

Teachers:
  openai      any OpenAI-compatible endpoint: --model and --base-url (default)
  reference   plays each task's reference solution: a valid benchmark scores 100%
  empty       answers "Finished:" at once, with no code: a valid benchmark scores 0%
  weak        a scripted weak solver: plays each task's first step only (a
              composed task's load, first step and report) and answers with
              the last line it printed
  replay      re-executes the assistant turns of --trajectories FILE (synth's
              trajectories.jsonl, an eval's or synth serve --record's
              results.jsonl, or PyBench's trajectory.jsonl, matched to tasks
              by index) and grades them: scores outputs of another harness
  adversary:NAME
              plays a hostile rollout in one cell: a valid benchmark scores 0%.
              NAME is one of empty, shotgun (every number and option as the
              answer), copy_input (the input at every output path), random_bytes,
              empty_table (the input's header alone), blank_image, shadow_modules
              (modules the checks import, written into the workspace to rewrite
              the verdict), forged_code (produced
              modules and pickles that patch json.dumps and print, fake result
              lines, objects equal to anything)

Scoring modes (--scoring; default: the benchmark's bench.json, else strict):
  strict      synth's: a rollout passes only if it ends with "Finished:" within
              the turn cap and every unit test passes; observations carry the
              traceback; a reply with neither code nor answer is nudged once.
              The default for benchmarks made by synth build.
  pybench     PyBench's harness, as the paper's models saw it: its system prompt
              (--pybench-prompt gpt, or local for the <|execute_start|> one), its
              upload and observation texts (an error is "There are some errors in
              the code. ... Error: <name>\n<value>", no traceback), at most 10
              turns, the first python block of a reply runs, a reply without code
              ends the task, and the unit tests run on whatever the rollout left
              however it stopped. The default for synth import pybench.
summary.json and report.md say which mode scored.

An optional LLM judge (--judge score|pairwise, with its own endpoint) adds
pass/fail with reasoning and code-quality scores, or win/tie/lose against a
baseline run, beside the unit-test figures and never instead of them.

A benchmark with a variant split (synth bench variants) is scored on both halves
with the same teacher: the twins' results go to -o's variant/ folder, and the
printout, summary.json ("variant") and report.md give the original and variant
pass rates over the twinned tasks and their difference, per category
(--no-variants leaves the split out). A benchmark with difficulty bands (synth
bench difficulty) gets its pass rate per band too.

Compare runs with: synth eval compare RUN_A RUN_B ...
Export a run for inspect_ai (inspect view): synth eval export RUN --format inspect`,
		Example: `  # a model served by vLLM on this machine
  synth eval --bench out/bench --model Qwen2.5-7B-Instruct --base-url http://127.0.0.1:8000/v1 -o results/qwen7b

  # an OpenAI model, 5 samples per task for pass@5 ($OPENAI_API_KEY holds the key)
  synth eval --bench out/bench --model gpt-4o-mini --samples 5 -o results/4o-mini

  # the benchmark's self-test: 100% and 0% on a valid benchmark
  synth eval --bench out/bench --teacher reference -o results/reference
  synth eval --bench out/bench --teacher empty -o results/empty
  synth eval --bench out/bench --teacher adversary:forged_code -o results/forged

  # grade trajectories you already have (PyBench's format)
  synth eval --bench out/bench --trajectories out/bench/reference_trajectories.jsonl -o results/replay

  # with an LLM judge beside the unit tests
  synth eval --bench out/bench --model gpt-4o-mini --judge score --judge-model gpt-4o -o results/4o-mini

  # endpoints, prices, rate limits and sandbox limits from a synth.yaml
  synth eval --bench out/bench --config synth.yaml -o results/run1

  # the leaderboard
  synth eval compare results/qwen7b results/4o-mini`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runEval(cmd, f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.bench, "bench", "", "benchmark folder ("+bench.TasksFile+" and "+bench.DataDir+"/), e.g. out/bench")
	fl.StringVarP(&f.out, "out", "o", "results", "results folder to write (and resume)")
	fl.StringVarP(&f.config, "config", "c", "", "synth.yaml whose llm, sandbox and teacher sections (format, max_turns, temperature, ...) apply; flags override it")
	fl.StringVar(&f.model, "model", "", "model to evaluate (served at --base-url)")
	fl.StringVar(&f.baseURL, "base-url", "", "OpenAI-compatible API root (default $OPENAI_BASE_URL, else "+llm.OpenAIBaseURL+")")
	fl.StringVar(&f.keyEnv, "api-key-env", "", "environment variable holding the API key (default "+llm.DefaultKeyEnv+"; unset: no key)")
	fl.StringVar(&f.teacher, "teacher", "", "openai (default), reference, empty, weak, replay or adversary:NAME (see above)")
	fl.StringVar(&f.trajectories, "trajectories", "", "trajectory file to replay and grade (implies --teacher replay)")
	fl.StringVar(&f.format, "format", "", "message format: pybench (default) or openai-tools")
	fl.IntVar(&f.samples, "samples", 1, "rollouts per task (k of pass@k)")
	fl.IntVar(&f.maxTurns, "max-turns", 0, "assistant turns per rollout at most (default 10; PyBench's turn cap)")
	fl.Float64Var(&f.temperature, "temperature", 0, "sampling temperature (default 0 with one sample, 0.7 with more)")
	fl.IntVar(&f.concurrency, "concurrency", 0, "rollouts in flight at most (default: the sandbox slots if set, else 16 for a model at an endpoint, else one per CPU)")
	fl.IntVar(&f.infraRetries, "infra-retries", 0, "retries of a rollout whose infrastructure failed (default 2; -1: none)")
	fl.Float64Var(&f.maxInfraRate, "max-infra-rate", defaultMaxInfraRate, "exit 1 when more than this share (0..1) of the rollouts are infrastructure failures")
	fl.StringSliceVar(&f.tasks, "tasks", nil, "only these task indexes, e.g. 1,2,7")
	fl.Float64Var(&f.maxCost, "max-cost-usd", 0, "stop cleanly after spending this many US dollars; resumable (needs prices in --config; config: llm.max_cost_usd)")
	fl.Float64Var(&f.maxCost, "max-cost", 0, "old name of --max-cost-usd")
	fl.MarkHidden("max-cost")
	fl.StringVar(&f.judge, "judge", "", "LLM judge: score (pass/fail, reasoning and code quality) or pairwise (win/tie/lose)")
	fl.StringVar(&f.judgeModel, "judge-model", "", "the judge's model")
	fl.StringVar(&f.judgeURL, "judge-base-url", "", "the judge's API root (default $OPENAI_BASE_URL, else "+llm.OpenAIBaseURL+")")
	fl.StringVar(&f.judgeKeyEnv, "judge-api-key-env", "", "environment variable holding the judge's API key (default "+llm.DefaultKeyEnv+")")
	fl.StringVar(&f.judgeBaseline, "judge-baseline", "reference", "pairwise baseline: reference (the benchmark's reference trajectories), a results folder or a trajectory file")
	fl.StringVar(&f.scoring, "scoring", "", "strict or pybench (default: the benchmark's bench.json, else strict)")
	fl.StringVar(&f.pybenchPrompt, "pybench-prompt", "", "system prompt of --scoring pybench: gpt (default) or local (PyBench's prompt for local models)")
	fl.BoolVar(&f.noVariants, "no-variants", false, "leave out the benchmark's variant split ("+bench.VariantDir+"/, made by synth bench variants), which is otherwise scored too, into -o's "+bench.VariantDir+"/")
	fl.StringVar(&f.python, "python", "", "the sandbox's interpreter; default the locked environment (synth doctor shows it), e.g. /usr/bin/python3 for Debian's (config: sandbox.python)")
	cmd.AddCommand(newEvalCompareCmd(), newEvalExportCmd())
	return cmd
}

// evalConfig turns the flags (and the config file, if any) into the
// eval's config.
func evalConfig(cmd *cobra.Command, f evalFlags) (eval.Config, error) {
	set := cmd.Flags().Changed
	if f.bench == "" {
		return eval.Config{}, usagef("--bench is required: the benchmark folder, e.g. --bench out/bench")
	}
	base := config.Default()
	if f.config != "" {
		var err error
		if base, err = config.Load(f.config); err != nil {
			return eval.Config{}, err
		}
	}
	cfg := eval.Config{Bench: f.bench, Teacher: base.Teacher, LLM: base.LLM, Sandbox: base.Sandbox,
		Concurrency: base.Concurrency, InfraRetries: base.Filters.InfraRetries}
	if set("python") {
		cfg.Sandbox.Python = f.python
	}
	tc := &cfg.Teacher
	tc.Kind, tc.Replay, tc.Samples = f.teacher, f.trajectories, f.samples
	if tc.Kind == "" {
		tc.Kind = eval.TeacherOpenAI
		if f.trajectories != "" {
			tc.Kind = eval.TeacherReplay
		}
	}
	if f.trajectories != "" && tc.Kind != eval.TeacherReplay {
		return cfg, usagef("--trajectories goes with --teacher replay, not %s", tc.Kind)
	}
	if f.samples < 1 {
		return cfg, usagef("--samples %d: want 1 or more", f.samples)
	}
	if set("format") {
		tc.Format = f.format
	}
	if set("max-turns") {
		tc.MaxTurns = f.maxTurns
	}
	switch {
	case set("temperature"):
		tc.Temperature = &f.temperature
	case tc.Temperature == nil && f.samples == 1:
		zero := 0.0
		tc.Temperature = &zero
	}
	if set("concurrency") {
		cfg.Concurrency = f.concurrency
	}
	if set("infra-retries") {
		cfg.InfraRetries = f.infraRetries
	}
	cfg.Tasks = f.tasks
	cfg.SkipVariants = f.noVariants
	if f.scoring != "" {
		if err := bench.CheckScoring(f.scoring); err != nil {
			return cfg, usagef("--scoring: %v", err)
		}
	}
	cfg.Scoring, cfg.PyBenchPrompt = f.scoring, f.pybenchPrompt
	if tc.Kind == eval.TeacherOpenAI {
		if err := evalEndpoint(cmd, f, &cfg); err != nil {
			return cfg, err
		}
	}
	if f.judge != "" {
		if f.judgeModel == "" {
			return cfg, usagef("--judge %s needs --judge-model (and --judge-base-url unless it is $OPENAI_BASE_URL or %s)", f.judge, llm.OpenAIBaseURL)
		}
		url := f.judgeURL // empty: $OPENAI_BASE_URL, else OpenAI's
		cfg.Judge = eval.JudgeConfig{Mode: f.judge, Model: f.judgeModel, Baseline: f.judgeBaseline,
			LLM: llm.Config{Endpoints: []llm.Endpoint{{BaseURL: url, Model: f.judgeModel, KeyEnv: f.judgeKeyEnv}}, Prices: cfg.LLM.Prices}}
	}
	return cfg, nil
}

// evalEndpoint points the openai teacher at --model and --base-url, or
// keeps the config's endpoints.
func evalEndpoint(cmd *cobra.Command, f evalFlags, cfg *eval.Config) error {
	set := cmd.Flags().Changed
	if f.model == "" && len(cfg.LLM.Endpoints) == 0 {
		return usagef("--model is required to evaluate a model (or give llm.endpoints in --config; for the self-test use --teacher reference or empty)")
	}
	if f.model != "" {
		cfg.Teacher.Model = f.model
		if set("base-url") || len(cfg.LLM.Endpoints) == 0 || !servesModel(cfg.LLM, f.model) {
			cfg.LLM.Endpoints = []llm.Endpoint{{BaseURL: f.baseURL, Model: f.model, KeyEnv: f.keyEnv}}
		}
	}
	if set("max-cost-usd") || set("max-cost") {
		cfg.LLM.MaxCostUSD = f.maxCost
	}
	return nil
}

func servesModel(c llm.Config, model string) bool {
	for _, e := range c.Endpoints {
		if e.Model == model {
			return true
		}
	}
	return false
}

func runEval(cmd *cobra.Command, f evalFlags) error {
	cfg, err := evalConfig(cmd, f)
	if err != nil {
		return err
	}
	if f.maxInfraRate < 0 || f.maxInfraRate > 1 {
		return usagef("--max-infra-rate %g: want a share between 0 and 1, e.g. 0.1", f.maxInfraRate)
	}
	if err := wantBench(f.bench); err != nil {
		return err
	}
	if err := wantOutside("-o", f.out, kindRun, kindDataset, kindBench); err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	res, err := eval.Evaluate(cmd.Context(), cfg, eval.Options{
		Out: f.out, Version: version, Log: stderr, Terminal: isTerminal(stderr),
	})
	if errors.Is(err, eval.ErrConfigChanged) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	printEval(cmd.OutOrStdout(), res)
	return unscored(res, f.maxInfraRate)
}

// defaultMaxInfraRate is the share of rollouts lost to the infrastructure
// above which eval exits 1.
const defaultMaxInfraRate = 0.1

// unscored is the error of an eval that scored no task (a pass rate of 0/0
// measures the infrastructure, not the model), or that lost more than
// maxRate of its rollouts to the infrastructure.
func unscored(res *eval.Result, maxRate float64) error {
	s := res.Summary
	if s.Scored == 0 {
		why := ""
		if s.InfraErrors > 0 {
			why = fmt.Sprintf(": all %d rollouts failed for infrastructure reasons (%s)", s.InfraErrors, countWords(s.Infra))
		}
		return fmt.Errorf("%s: no task of %d could be scored%s; see %s and run the same command again once the cause is fixed",
			res.Out, s.Tasks, why, res.Report)
	}
	all := s.Rollouts + s.InfraErrors
	if rate := float64(s.InfraErrors) / float64(all); rate > maxRate {
		return fmt.Errorf("%s: %d of %d rollouts (%.1f%%) failed for infrastructure reasons (%s), more than --max-infra-rate %g allows: "+
			"the pass rate over all %d tasks is %.1f%% (over the %d scored, %.1f%%); run the same command again to retry them once the cause is fixed (see %s)",
			res.Out, s.InfraErrors, all, 100*rate, countWords(s.Infra), maxRate, s.Tasks, 100*s.PassRateAllTasks, s.Scored, 100*s.PassRate, res.Report)
	}
	return nil
}

func countWords(m map[string]int) string {
	var parts []string
	for k, v := range m {
		parts = append(parts, fmt.Sprintf("%s %d", k, v))
	}
	return strings.Join(sortedStrings(parts), ", ")
}

func printEval(w io.Writer, res *eval.Result) {
	s := res.Summary
	name := s.Model
	if name == "" {
		name = s.Teacher
	}
	if res.UpToDate {
		fmt.Fprintf(w, "%s is up to date: nothing to run.\n", res.Out)
	}
	fmt.Fprintf(w, "%s on %s: pass rate %.1f%% (%d/%d rollouts", name, s.Bench, 100*s.PassRate, s.Passed, s.Rollouts)
	if s.Samples > 1 {
		fmt.Fprintf(w, ", pass@%d %.1f%%", s.Samples, 100*s.PassAtK[fmt.Sprint(s.Samples)])
	}
	fmt.Fprintf(w, "), avg turns %.2f (PyBench) / %.2f (passed); scoring %s\n", s.AvgTurnsPyBench, s.AvgTurns, s.Scoring)
	fmt.Fprintf(w, "pass rate over all %d tasks %.1f%% (%d scored, %d not: infrastructure failures count as failed here)\n",
		s.Tasks, 100*s.PassRateAllTasks, s.Scored, s.Tasks-s.Scored)
	for _, c := range schemas.Categories {
		if g, ok := s.PerCategory[c]; ok {
			fmt.Fprintf(w, "  %-22s %5.1f%%  (%d/%d)\n", bench.CategoryTitle(c), 100*g.PassRate, g.Passed, g.Rollouts)
		}
	}
	if len(s.PerBand) > 0 {
		fmt.Fprintf(w, "by difficulty band (%s bands):\n", s.Bands)
		for _, b := range bench.Bands {
			if g, ok := s.PerBand[b]; ok {
				fmt.Fprintf(w, "  %-22s %5.1f%%  (%d/%d)\n", b, 100*g.PassRate, g.Passed, g.Rollouts)
			}
		}
	}
	if v := s.Variant; v != nil {
		fmt.Fprintf(w, "variant split (%d twinned tasks, truth moved in %d): original %.1f%%, variant %.1f%%, difference %+.1f pts; on moved twins %.1f%%\n",
			v.Twins, v.Moved, 100*v.Original, 100*v.Variant, 100*v.Difference, 100*v.VariantMoved)
		for _, c := range schemas.Categories {
			if p, ok := v.PerCategory[c]; ok {
				fmt.Fprintf(w, "  %-22s %5.1f%% -> %5.1f%%  (%+.1f pts, %d tasks)\n", bench.CategoryTitle(c), 100*p.Original, 100*p.Variant, 100*p.Difference, p.Tasks)
			}
		}
	}
	if s.Tokens > 0 {
		fmt.Fprintf(w, "tokens per task %.0f, cost per task $%.4f\n", s.TokensPerTask, s.CostPerTask)
	}
	if len(s.Failures) > 0 {
		var parts []string
		for k, v := range s.Failures {
			parts = append(parts, fmt.Sprintf("%s %d", k, v))
		}
		fmt.Fprintf(w, "failed rollouts: %s\n", strings.Join(sortedStrings(parts), ", "))
	}
	if s.InfraErrors > 0 {
		fmt.Fprintf(w, "infrastructure failures: %d rollouts, not scored (run the same command again to retry them)\n", s.InfraErrors)
	}
	if j := s.Judge; j != nil {
		if j.Mode == eval.JudgePairwise {
			fmt.Fprintf(w, "judge %s: %d win / %d tie / %d lose (%d not judged)\n", j.Model, j.Wins, j.Ties, j.Losses, j.Errors)
		} else {
			fmt.Fprintf(w, "judge %s: pass rate %.1f%%, reasoning %.1f, code quality %.1f (%d not judged)\n", j.Model, 100*j.PassRate, j.AvgReasoning, j.AvgCodeQuality, j.Errors)
		}
	}
	fmt.Fprintf(w, "results:   %s\n", filepath.Join(res.Out, rundir.EvalResults))
	fmt.Fprintf(w, "summary:   %s\n", filepath.Join(res.Out, rundir.EvalSummary))
	fmt.Fprintf(w, "report:    %s\n", res.Report)
}

func sortedStrings(s []string) []string {
	sort.Strings(s)
	return s
}

func newEvalCompareCmd() *cobra.Command {
	var asJSON bool
	var out string
	cmd := &cobra.Command{
		Use:   "compare RUN [RUN...]",
		Short: "A leaderboard across eval results folders",
		Long: `compare reads the summary.json of each results folder and prints a leaderboard
like PyBench's table: pass rate per category and overall, average turns (as
PyBench counts them and over passed rollouts), cost per task and infrastructure
failures, best first. Runs on different benchmarks are flagged.`,
		Example: `  synth eval compare results/qwen7b results/4o-mini
  synth eval compare results/* --json > leaderboard.json
  synth eval compare results/* -o leaderboard   # writes leaderboard.md and leaderboard.json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var runs []bench.Run
			for _, a := range args {
				if k := kindOf(a); k != kindResults && k != kindNone {
					return usagef("%s is %s, not eval results: compare takes folders written by synth eval -o", a, k)
				}
				r, err := bench.LoadRun(a)
				if err != nil {
					return usageError{err}
				}
				runs = append(runs, r)
			}
			lb := bench.Compare(runs)
			js, _ := json.MarshalIndent(lb, "", "  ")
			md := lb.Markdown()
			if out != "" {
				if err := os.MkdirAll(out, 0o755); err != nil {
					return err
				}
				if err := os.WriteFile(filepath.Join(out, "leaderboard.md"), []byte(md), 0o644); err != nil {
					return err
				}
				if err := os.WriteFile(filepath.Join(out, "leaderboard.json"), append(js, '\n'), 0o644); err != nil {
					return err
				}
			}
			if asJSON {
				fmt.Fprintln(cmd.OutOrStdout(), string(js))
			} else {
				fmt.Fprint(cmd.OutOrStdout(), md)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the leaderboard as JSON instead of Markdown")
	cmd.Flags().StringVarP(&out, "out", "o", "", "also write leaderboard.md and leaderboard.json into this folder")
	return cmd
}
