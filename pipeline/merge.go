package pipeline

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"time"

	"synth/rundir"
	"synth/schemas"
)

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
	r := newRun(cfg, opts)
	defer r.close()
	// The plan's run.json, as the plan left it: its Python is the one the
	// shards ran (probing it again costs seconds).
	r.info = info
	r.info.Version = opts.Version
	if info.Python.Version == "" { // the plan's probe failed: try again
		info.Python = ProbePython(ctx, pythonOf(cfg))
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

var shardName = regexp.MustCompile(`^([0-9]+)-of-([0-9]+)$`)

// finishedShards reads every shard's shard.json, in shard order, and fails
// naming the first shard that is missing, unfinished or of another plan.
func finishedShards(dir, plan string, n int) ([]ShardInfo, error) {
	root := filepath.Join(dir, rundir.ShardsDir)
	entries, err := os.ReadDir(root)
	if err != nil && !os.IsNotExist(err) {
		return nil, fmt.Errorf("merge: %w", err)
	}
	counts := map[int]bool{}
	for _, e := range entries {
		if m := shardName.FindStringSubmatch(e.Name()); m != nil && e.IsDir() {
			c, _ := strconv.Atoi(m[2])
			counts[c] = true
		}
	}
	switch {
	case n > 0:
	case len(counts) == 0:
		return nil, fmt.Errorf("merge: %s has no shards: run synth rollout -o %s --shard I/N for I = 1..N first", root, dir)
	case len(counts) > 1:
		return nil, fmt.Errorf("merge: %s holds shards of several splits (%v of them): pass --shards N to name the one to merge", root, slices.Sorted(maps.Keys(counts)))
	default:
		for c := range counts {
			n = c
		}
	}
	var out []ShardInfo
	for i := 1; i <= n; i++ {
		s := Shard{Index: i, Count: n}
		sdir := filepath.Join(root, s.Name())
		si, err := readShardInfo(sdir)
		switch {
		case err != nil:
			return nil, fmt.Errorf("merge: shard %s: %w", s.Name(), err)
		case si == nil:
			return nil, fmt.Errorf("merge: shard %s is missing (no %s): run synth rollout -o %s --shard %s", s.Name(), filepath.Join(sdir, rundir.Shard), dir, s.Flag())
		case si.Plan != plan:
			return nil, fmt.Errorf("merge: shard %s rolled out another plan (%s, the run's is %s): move %s away and run synth rollout -o %s --shard %s",
				s.Name(), si.Plan, plan, sdir, dir, s.Flag())
		case si.Finished.IsZero() && si.Stopped != "":
			return nil, fmt.Errorf("merge: shard %s is unfinished: it stopped after %d of its rollouts: %s", s.Name(), si.Rollouts, si.Stopped)
		case si.Finished.IsZero():
			return nil, fmt.Errorf("merge: shard %s is unfinished: it started %s on %s and has not finished (still running, or killed: run synth rollout -o %s --shard %s to resume it)",
				s.Name(), si.Started.Format(time.RFC3339), si.Host, dir, s.Flag())
		}
		out = append(out, *si)
	}
	return out, nil
}

// gather indexes the shards' journals and returns where every training
// rollout is, in the order Build would have them. Each rollout is taken
// from the journal of the shard that owns its task, and nowhere else.
func (r *run) gather(train []slimTask, infos []ShardInfo) ([]trajRef, error) {
	jobs, err := r.trainJobs(train)
	if err != nil {
		return nil, err
	}
	n := len(infos)
	perShard := make([]*trajIndex, n)
	for i, si := range infos {
		x, err := indexJournal(filepath.Join(r.dir, rundir.ShardsDir, si.Shard, rundir.Trajectories))
		if err != nil {
			return nil, fmt.Errorf("merge: shard %s: %w", si.Shard, err)
		}
		r.indexes = append(r.indexes, x)
		perShard[i] = x
	}
	shardOfJob := func(jb job) Shard { return Shard{Index: shardOf(jb.taskID(), n), Count: n} }
	find := func(jb job) (trajRef, bool, error) {
		s := shardOfJob(jb)
		ref, ok := perShard[s.Index-1].Ref(jb.id)
		if !ok {
			return ref, false, fmt.Errorf("merge: shard %s lacks rollout %s of task %s though it says it finished: run synth rollout -o %s --shard %s again",
				s.Name(), jb.id, jb.taskID(), r.dir, s.Flag())
		}
		return ref, true, nil
	}
	check := func(jb job, t *schemas.Trajectory) error {
		if t.TaskID != jb.taskID() || t.Verdict == nil {
			s := shardOfJob(jb)
			return fmt.Errorf("merge: shard %s: rollout %s is recorded for task %q, not %s, or without a verdict: its journal is corrupt; move %s away and run synth rollout -o %s --shard %s again",
				s.Name(), jb.id, t.TaskID, jb.taskID(), filepath.Join(r.dir, rundir.ShardsDir, s.Name()), r.dir, s.Flag())
		}
		return nil
	}
	return r.inOrder(train, jobs, find, check, fmt.Sprintf(", from %d shard(s)", n))
}
