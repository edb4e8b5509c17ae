package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"synth/config"
	"synth/rundir"
	"synth/runinfo"
	"synth/schemas"
)

// Build runs every stage over the run directory opts.Out, skipping what an
// earlier run of the same config already did: the plan, the rollouts as one
// shard kept in the run directory itself, and the merge. Interrupted (ctx
// done), it stops taking work, lets what is in flight end, keeps everything
// finished, and returns ctx's error; running it again continues.
func Build(ctx context.Context, cfg config.Config, opts Options) (*Summary, error) {
	start := time.Now()
	r := newBuilder(cfg, opts)
	defer r.close()
	if err := r.open(ctx); err != nil {
		return nil, err
	}
	defer r.saveStageTimes()
	fresh := !r.info.Done(runinfo.StageEmit)
	if err := r.checkEndpoints(ctx, fresh); err != nil {
		return r.sum, err
	}
	p, err := r.plan(ctx)
	if err != nil {
		return r.sum, err
	}
	defer p.fn.close()
	trajs, rolloutDone, err := r.rollouts(ctx, p.train, p.files)
	if err != nil {
		return r.sum, err
	}
	if !fresh && p.benchDone == 0 && rolloutDone == 0 {
		if _, err := r.filterTrajectories(p.fn, trajs); err != nil {
			return r.sum, err
		}
		r.sum.UpToDate = true
		r.sum.Elapsed = time.Since(start)
		r.sum.Bench = filepath.Join(r.dir, rundir.BenchDir)
		r.sum.Shards, _ = filepath.Glob(filepath.Join(r.dir, rundir.DatasetDataDir, "*.parquet"))
		r.sum.Rows = r.info.Counts["rows"]
		return r.sum, nil
	}
	if err := r.finish(ctx, p, trajs); err != nil {
		return r.sum, err
	}
	r.sum.Elapsed = time.Since(start)
	return r.sum, nil
}

// finish filters the trajectories and emits the dataset and the benchmark:
// the end of build and of merge.
func (r *builder) finish(ctx context.Context, p *planned, trajs []trajRef) error {
	kept, err := r.filterTrajectories(p.fn, trajs)
	if err != nil {
		return err
	}
	if err := r.emit(ctx, p.fn, p.train, kept, p.files); err != nil {
		return err
	}
	if err := r.writeBench(p.validBench, p.benchRefs, p.files); err != nil {
		return err
	}
	r.info.Finished = time.Now().UTC()
	return r.info.MarkDone(r.dir, runinfo.StageEmit)
}

// checkEndpoints runs the preflight at the start of a build that has work
// left and needs an endpoint, before collecting and sandbox work that would
// otherwise hide a dead endpoint for minutes.
func (r *builder) checkEndpoints(ctx context.Context, fresh bool) error {
	if !fresh || (r.cfg.Teacher.Kind != "openai" && r.cfg.Tasks.Writer != "llm") {
		return nil
	}
	if _, err := r.llm.client(r.work); err != nil {
		return err
	}
	return r.llm.Preflight(ctx)
}

// planned is what every stage before the rollouts decided: the files, the
// benchmark (proven, with its reference trajectories), and the training
// tasks left after dedup and decontamination, with the funnel so far.
type planned struct {
	files      *fileSet
	train      []slimTask
	validBench []schemas.Task
	benchRefs  map[string]*schemas.Trajectory
	benchDone  int // benchmark proofs run now
	fn         *funnel
}

// Plan runs every stage except the rollouts into the run directory
// opts.Out: collect, generate, split, filter and the benchmark's validation.
// It writes plan.jsonl, the training tasks that `synth rollout` shards
// share out; the same config always gives the same plan. A second Plan
// reads back what the first did.
func Plan(ctx context.Context, cfg config.Config, opts Options) (*Summary, error) {
	start := time.Now()
	r := newBuilder(cfg, opts)
	defer r.close()
	if err := r.open(ctx); err != nil {
		return nil, err
	}
	defer r.saveStageTimes()
	p, err := r.plan(ctx)
	if err != nil {
		return r.sum, err
	}
	p.fn.close()
	r.sum.Elapsed = time.Since(start)
	return r.sum, nil
}

// plan runs collect, generate, split, the task filters and the benchmark's
// validation, and writes the plan.
func (r *builder) plan(ctx context.Context) (*planned, error) {
	p, err := r.replan(ctx, false)
	if err != nil {
		return nil, err
	}
	if err := newPlanFile(r).write(p.train); err != nil {
		p.fn.close()
		return nil, err
	}
	return p, nil
}

// replan runs the stages of the plan, or, with readOnly, reads them back
// and fails if any is unfinished (merge: the plan must be whole).
func (r *builder) replan(ctx context.Context, readOnly bool) (*planned, error) {
	if readOnly {
		for _, stage := range []string{runinfo.StageCollect, runinfo.StageGenerate, runinfo.StagePlan} {
			if !r.info.Done(stage) {
				return nil, fmt.Errorf("%s has no finished plan (stage %s is not done): run synth plan -o %s first", r.dir, stage, r.dir)
			}
		}
	}
	files, err := r.collect(ctx)
	if err != nil {
		return nil, err
	}
	tasks, err := newTaskMaker(r).generate(ctx, files)
	if err != nil {
		return nil, err
	}
	benchTasks, trainTasks, err := r.split(tasks)
	if err != nil {
		return nil, err
	}
	fn, err := newFunnel(r.dir)
	if err != nil {
		return nil, err
	}
	p := &planned{files: files, fn: fn}
	split := readFiles(trainTasks) // filterTasks overwrites trainTasks
	if p.train, err = r.filterTasks(fn, trainTasks, benchTasks); err != nil {
		fn.close()
		return nil, err
	}
	r.readOnly = readOnly
	p.validBench, p.benchRefs, p.benchDone, err = r.validateBench(ctx, fn, benchTasks, files)
	if err == nil {
		err = r.countFiles(fn, files, split, p.train, benchTasks, p.validBench)
	}
	if err != nil {
		fn.close()
		return nil, err
	}
	return p, nil
}

// Merge gathers the rollouts of every shard of the plan in the run
// directory opts.Out, then filters, dedups and emits the dataset and the
// benchmark exactly as Build does: the rows are the same, in the same order,
// however the work was split. It refuses, naming the shard, when a shard is
// missing, unfinished (still running, killed, or stopped by its budget), or
// of another plan. shards > 0 is the number of shards expected; 0 takes it
// from the folders under RUN/shards.
func Merge(ctx context.Context, shards int, opts Options) (*Summary, error) {
	start := time.Now()
	info, cfg, err := planInfo(opts.Out)
	if err != nil {
		return nil, err
	}
	r := newBuilder(cfg, opts)
	defer r.close()
	// The plan's run.json, as the plan left it: its Python is the one the
	// shards ran (probing it again costs seconds).
	r.info = info
	r.info.Version = opts.Version
	if info.Python.Version == "" { // the plan's probe failed: try again
		info.Python = runinfo.ProbePython(ctx, pythonOf(cfg))
	}
	defer r.saveStageTimes()
	infos, err := finishedShards(r.dir, info.Plan, shards)
	if err != nil {
		return nil, err
	}
	p, err := r.replan(ctx, true)
	if err != nil {
		return r.sum, err
	}
	defer p.fn.close()
	trajs, err := r.gather(p.train, infos)
	if err != nil {
		return r.sum, err
	}
	r.info.Shards = infos
	r.sum.ShardInfos = infos
	if err := r.finish(ctx, p, trajs); err != nil {
		return r.sum, err
	}
	r.sum.Elapsed = time.Since(start)
	return r.sum, nil
}

// Rollout runs the rollouts of one shard of the plan in the run directory
// opts.Out, which `synth plan` made. It takes the config from the plan's
// run.json and writes only under RUN/shards/I-of-N/ (its journal, LLM
// cache, artifacts and shard.json), so shards on a shared filesystem never
// write each other's files. The LLM budget (llm.max_cost_usd,
// llm.max_tokens) is split evenly: each of N shards may spend 1/N of it.
// Like Build, it resumes: run again, it does only the rollouts its journal
// lacks.
func Rollout(ctx context.Context, s runinfo.Shard, so ShardOptions, opts Options) (*Summary, error) {
	start := time.Now()
	info, cfg, err := planInfo(opts.Out)
	if err != nil {
		return nil, err
	}
	so.apply(&cfg)
	// A shard's code runs in the environment the plan recorded, or not at all.
	if err := sameEnvironment(opts.Out, info.Python, runinfo.ProbePython(ctx, pythonOf(cfg))); err != nil {
		return nil, err
	}
	cfg.LLM.MaxCostUSD /= float64(s.Count)
	cfg.LLM.MaxTokens /= int64(s.Count)
	r := newBuilder(cfg, opts)
	defer r.close()
	r.info = info
	r.work = filepath.Join(r.dir, rundir.ShardsDir, s.Name())
	mine, all, err := newPlanFile(r).read(func(t *schemas.Task) bool { return s.Owns(t.ID) })
	if err != nil {
		return nil, err
	}
	_, files, err := r.knownFiles()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(r.work, 0o755); err != nil {
		return nil, fmt.Errorf("shard %s: %w", s.Name(), err)
	}
	host, _ := os.Hostname()
	si := &runinfo.ShardInfo{Shard: s.Name(), Plan: info.Plan, ConfigHash: info.ConfigHash, Host: host, Tasks: len(mine), Started: time.Now().UTC()}
	if err := si.Save(r.work); err != nil {
		return nil, err
	}
	r.logf("rollout: shard %s: %d of the plan's %d training tasks", s.Name(), len(mine), all)
	_, ran, err := r.rollouts(ctx, mine, files)
	if jerr := si.Tally(filepath.Join(r.work, rundir.Trajectories)); jerr != nil && err == nil {
		err = jerr
	}
	if err != nil {
		si.Stopped = err.Error()
		if serr := si.Save(r.work); serr != nil {
			err = errors.Join(err, serr)
		}
		return r.sum, fmt.Errorf("shard %s: %w", s.Name(), err)
	}
	si.Finished = time.Now().UTC()
	if err := si.Save(r.work); err != nil {
		return r.sum, err
	}
	r.sum.UpToDate = ran == 0
	r.sum.ShardInfos = []runinfo.ShardInfo{*si}
	r.sum.Elapsed = time.Since(start)
	return r.sum, nil
}
