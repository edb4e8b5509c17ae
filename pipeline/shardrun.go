package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"synth/rundir"
	"synth/schemas"
)

// Rollout runs the rollouts of one shard of the plan in the run directory
// opts.Out, which `synth plan` made. It takes the config from the plan's
// run.json and writes only under RUN/shards/I-of-N/ (its journal, LLM
// cache, artifacts and shard.json), so shards on a shared filesystem never
// write each other's files. The LLM budget (llm.max_cost_usd,
// llm.max_tokens) is split evenly: each of N shards may spend 1/N of it.
// Like Build, it resumes: run again, it does only the rollouts its journal
// lacks.
func Rollout(ctx context.Context, s Shard, so ShardOptions, opts Options) (*Summary, error) {
	start := time.Now()
	info, cfg, err := planInfo(opts.Out)
	if err != nil {
		return nil, err
	}
	so.apply(&cfg)
	// A shard's code runs in the environment the plan recorded, or not at all.
	if err := sameEnvironment(opts.Out, info.Python, ProbePython(ctx, pythonOf(cfg))); err != nil {
		return nil, err
	}
	cfg.LLM.MaxCostUSD /= float64(s.Count)
	cfg.LLM.MaxTokens /= int64(s.Count)
	r := newRun(cfg, opts)
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
	si := &ShardInfo{Shard: s.Name(), Plan: info.Plan, ConfigHash: info.ConfigHash, Host: host, Tasks: len(mine), Started: time.Now().UTC()}
	if err := si.save(r.work); err != nil {
		return nil, err
	}
	r.logf("rollout: shard %s: %d of the plan's %d training tasks", s.Name(), len(mine), all)
	_, ran, err := r.rollouts(ctx, mine, files)
	if jerr := si.tally(filepath.Join(r.work, rundir.Trajectories)); jerr != nil && err == nil {
		err = jerr
	}
	if err != nil {
		si.Stopped = err.Error()
		if serr := si.save(r.work); serr != nil {
			err = errors.Join(err, serr)
		}
		return r.sum, fmt.Errorf("shard %s: %w", s.Name(), err)
	}
	si.Finished = time.Now().UTC()
	if err := si.save(r.work); err != nil {
		return r.sum, err
	}
	r.sum.UpToDate = ran == 0
	r.sum.ShardInfos = []ShardInfo{*si}
	r.sum.Elapsed = time.Since(start)
	return r.sum, nil
}

// ShardOptions override, for one shard, the plan's settings that do not
// shape the results; zero values keep the plan's.
type ShardOptions struct {
	Concurrency int     // rollouts in flight
	MaxCostUSD  float64 // the whole run's budget in dollars, of which the shard may spend 1/N
	MaxTokens   int64   // the whole run's budget in tokens, of which the shard may spend 1/N
}

func (so ShardOptions) apply(cfg *Config) {
	if so.Concurrency > 0 {
		cfg.Concurrency = so.Concurrency
	}
	if so.MaxCostUSD > 0 {
		cfg.LLM.MaxCostUSD = so.MaxCostUSD
	}
	if so.MaxTokens > 0 {
		cfg.LLM.MaxTokens = so.MaxTokens
	}
}

// planInfo reads the run.json of a planned run and its config, refusing a
// run this synth would plan differently.
func planInfo(dir string) (*RunInfo, Config, error) {
	info, err := readRunInfo(dir)
	if err != nil {
		return nil, Config{}, err
	}
	if info == nil || !info.done(stagePlan) {
		return nil, Config{}, fmt.Errorf("%s has no plan: run synth plan -o %s first (with the build's flags)", dir, dir)
	}
	cfg := info.Config
	if h := cfg.Hash(); h != info.ConfigHash {
		return nil, Config{}, fmt.Errorf("%w: %s/%s holds config hash %s but its settings hash to %s (another synth version made it?): run synth plan -o %s again",
			ErrConfigChanged, dir, rundir.RunInfo, info.ConfigHash, h, dir)
	}
	return info, cfg, nil
}
