package pipeline

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"synth/agent"
	"synth/bench"
	"synth/checks/adversary"
	"synth/config"
	"synth/dataset"
	"synth/filters"
	"synth/generators/template"
	"synth/llm"
	"synth/proof"
	"synth/rollout"
	"synth/rundir"
	"synth/runinfo"
	"synth/sandbox"
	"synth/schemas"
)

// split holds tasks out for the benchmark, disjoint by input file. The
// benchmark's tasks are read back whole (they are proven and indexed for
// decontamination whole); train is returned in tasks' array, which it
// overwrites.
func (r *builder) split(tasks []slimTask) (benchTasks []schemas.Task, train []slimTask, err error) {
	seed := r.cfg.Bench.Seed
	if seed == 0 {
		seed = r.cfg.Seed
	}
	item := func(i int) bench.Item {
		m := tasks[i].meta
		return bench.Item{ID: tasks[i].id, Category: m.Category, Generator: m.Generator, Files: m.Files}
	}
	// Slim tasks lack the checks and outputs a twin key is made of; the
	// split asks only for the benchmark's.
	twinKey := func(i int) string {
		w, werr := r.tasks.whole(&tasks[i])
		if werr != nil {
			err = cmp.Or(err, werr)
			return tasks[i].id
		}
		return bench.TwinKey(w)
	}
	avoid, avoided, err := avoidEarlier(r.cfg, tasks, r.tasks.whole)
	r.avoided = avoided
	if err != nil {
		return nil, nil, fmt.Errorf("split: %w", err)
	}
	inBench, dropped := bench.Place(len(tasks), item, r.cfg.Bench.Fraction, seed, twinKey)
	if err != nil {
		return nil, nil, fmt.Errorf("split: %w", err)
	}
	for i := range avoid {
		if avoid[i] {
			inBench[i], dropped[i] = false, true
		}
	}
	train = tasks[:0] // each task is read before its place is written
	for i := range tasks {
		switch {
		case dropped[i]:
		case inBench[i]:
			w, err := r.tasks.whole(&tasks[i])
			if err != nil {
				return nil, nil, fmt.Errorf("split: %w", err)
			}
			benchTasks = append(benchTasks, *w)
		default:
			train = append(train, tasks[i])
		}
	}
	clear(tasks[len(train):])
	if n := count(avoid); n > 0 {
		dropped := len(tasks) - len(benchTasks) - len(train)
		r.sum.add("split", len(tasks), len(train), "training tasks; %d held out for the benchmark, %d dropped (%d sharing an input file or a near-duplicate query with an earlier benchmark; the rest another language of a benchmark task, or reading files from both sides)", len(benchTasks), dropped, n)
	} else if dropped := len(tasks) - len(benchTasks) - len(train); dropped > 0 {
		r.sum.add("split", len(tasks), len(train), "training tasks; %d held out for the benchmark, %d dropped (another language of a benchmark task, or reading files from both sides)", len(benchTasks), dropped)
	} else {
		r.sum.add("split", len(tasks), len(train), "training tasks; %d held out for the benchmark", len(benchTasks))
	}
	return benchTasks, train, nil
}

// avoidEarlier reads the benchmarks cfg.Bench.Exclude names and marks the
// tasks that share an input file or a near-duplicate query with one of
// them (decontamination's rule, even when decontamination is off): such a
// task goes to neither side, so the new benchmark shares nothing with the
// earlier ones and no training row leaks them. avoided describes each
// earlier benchmark for the card.
func avoidEarlier(cfg config.Config, tasks []slimTask, whole func(*slimTask) (*schemas.Task, error)) (avoid []bool, avoided []string, err error) {
	if len(cfg.Bench.Exclude) == 0 {
		return nil, nil, nil
	}
	var earlier []schemas.Task
	for _, dir := range cfg.Bench.Exclude {
		e, err := bench.LoadEarlier(dir)
		if err != nil {
			return nil, nil, fmt.Errorf("bench.exclude: %w", err)
		}
		earlier = append(earlier, e.Tasks...)
		avoided = append(avoided, e.Describe())
	}
	fc := cfg.Filters
	fc.Decon.Off = false
	decon := filters.NewDecontaminator(fc, earlier)
	avoid = make([]bool, len(tasks))
	for i := range tasks {
		w, err := whole(&tasks[i])
		if err != nil {
			return nil, nil, err
		}
		ok, _, _ := decon.Check(w)
		avoid[i] = !ok
	}
	return avoid, avoided, nil
}

func count(b []bool) int {
	n := 0
	for _, v := range b {
		if v {
			n++
		}
	}
	return n
}

// validateBench proves each benchmark task: its reference solution must pass
// its checks, and a mutated reference (a near miss: the other sort order, a
// wrong number, an untransformed image) must fail them where its template
// defines one; so must every adversary of package adversary, the empty
// rollout among them. Only the reference and the mutant are played, each in
// a sandbox of its own; their outputs and every adversary's files are then
// verified in one batch, one verification sandbox per task (proveTask, one
// job per task). Every proof is journaled in bench_validation.jsonl; every
// dropped task is recorded in the funnel (stage validate_bench,
// filtered.jsonl) with the reason. It returns the valid tasks with their
// reference trajectories.
func (r *builder) validateBench(ctx context.Context, fn *funnel, tasks []schemas.Task, fs *fileSet) ([]schemas.Task, map[string]*schemas.Trajectory, int, error) {
	format := agent.NewPyBench()
	ref := agent.NewReference(format)
	proofs := []agent.Teacher{ref, mutant{ref}}
	cfg := r.cfg.Teacher
	var jobs []job
	perTask := map[string][]string{} // task id -> job ids: reference, mutant ("" when none)
	advTask := map[string][]job{}    // task id -> its adversary jobs
	for i := range tasks {
		t := &tasks[i]
		if t.Reference == nil {
			continue
		}
		var proof taskProof
		for k, teacher := range proofs {
			if k == 1 && template.Mutant(t) == nil {
				perTask[t.ID] = append(perTask[t.ID], "")
				continue
			}
			jb := job{id: rollout.ID(t.ID, 0, teacher, format, cfg), task: t, teacher: teacher, format: format}
			if k == 1 {
				proof.mutant = &jb
			} else {
				jobs = append(jobs, jb)
			}
			perTask[t.ID] = append(perTask[t.ID], jb.id)
		}
		adv, err := adversaryJobs(t, fs.inputs(t), format, cfg)
		if err != nil {
			return nil, nil, 0, fmt.Errorf("validate: %w", err)
		}
		proof.adversaries = adv
		jobs[len(jobs)-1].proof = &proof
		advTask[t.ID] = adv
	}
	done, ran, err := r.runJobs(ctx, "validate", true, jobSlice(jobs), rundir.BenchValidation, fs)
	if err != nil {
		return nil, nil, ran, err
	}
	var valid []schemas.Task
	refs := map[string]*schemas.Trajectory{}
	reasons := map[string]int{}
	drop := func(t *schemas.Task, reason, detail string) {
		reasons[reason]++
		fn.Drop(stageBenchValidate, t.ID, reason, strings.TrimPrefix(detail, ": "))
		r.logf("validate: dropped benchmark task %s (%s): %s%s", t.ID, t.Generator, reason, detail)
	}
	var proven []*schemas.Task
	for i := range tasks {
		t := &tasks[i]
		ids := perTask[t.ID]
		if len(ids) == 0 {
			drop(t, "no_reference", "")
			continue
		}
		rt, err := done.Load(ids[0])
		var mut *schemas.Trajectory
		if err == nil {
			mut, err = done.Load(ids[1]) // nil when the template defines no mutant
		}
		var lost string
		if err == nil {
			lost, err = lostProof(rt, mut, advTask[t.ID], done)
		}
		var pf proof.Proof
		if err == nil {
			pf, err = benchProof(rt, mut, advTask[t.ID], done)
		}
		if err != nil {
			return nil, nil, ran, fmt.Errorf("validate: %w", err)
		}
		if lost != "" {
			drop(t, filters.ReasonInfra, ": "+lost+" (the next run proves it again)")
			continue
		}
		if reason, why := pf.Reason(); reason != "" {
			drop(t, reason, ": "+why)
			continue
		}
		proven = append(proven, t)
		refs[t.ID] = rt
	}
	// The battery of wrong solutions, played beside the journaled proofs.
	bat, err := r.benchBattery(ctx, proven, fs)
	if err != nil {
		return nil, nil, ran, fmt.Errorf("validate: %w", err)
	}
	// A build that did not prove its tasks when it wrote them (tasks.validate
	// off) records the benchmark's battery as its grader figures.
	if r.info != nil && len(r.info.Grader) == 0 {
		r.info.Grader = graderOf(proven, bat)
		if err := reportGrader(r.dir, r.info.Grader); err != nil {
			return nil, nil, ran, err
		}
	}
	for _, t := range proven {
		if v := bat[t.ID]; v.reason != "" {
			drop(t, v.reason, ": "+v.why)
			delete(refs, t.ID)
			continue
		}
		fn.Pass(stageBenchValidate)
		valid = append(valid, *t)
	}
	note := "valid benchmark tasks (reference passes; empty, mutated and adversary rollouts and the battery of wrong solutions fail)"
	for _, k := range slices.Sorted(maps.Keys(reasons)) {
		note += fmt.Sprintf("; %d dropped: %s", reasons[k], k)
	}
	r.sum.add("validate", len(tasks), len(valid), "%s", note)
	return valid, refs, ran, nil
}

// benchProof gathers a benchmark task's journaled proofs as package proof
// judges them (proof.Proof.Reason, shared with synth generate
// --validate): ref is the reference's record, mut the mutant's (nil when
// the template defines none), adv the task's adversary jobs, read back
// from done.
func benchProof(ref, mut *schemas.Trajectory, adv []job, done *trajIndex) (proof.Proof, error) {
	var p proof.Proof
	if ref.Verdict == nil || !ref.Verdict.Passed {
		p.ReferenceFailure = failedChecks(ref)
	}
	if mut != nil {
		passed := mut.Verdict != nil && mut.Verdict.Passed
		p.Mutant = &passed
	}
	p.Adversaries = map[string]*adversary.Result{}
	for _, jb := range adv {
		name := jb.teacher.(adversaryProof).name
		t, err := done.Load(jb.id)
		if err != nil {
			return p, err
		}
		p.Adversaries[name] = &adversary.Result{Adversary: name, Applied: true, Passed: t != nil && t.Verdict != nil && t.Verdict.Passed}
	}
	return p, nil
}

// lostProof names the first of a task's proof records (ref, mut, the
// adversaries' from done) whose verdict is an infrastructure failure, after
// its retries: the task is unproven, neither kept nor dropped for a reason
// of its own, so this run drops it as infra_error and the next run proves
// it again (runJobs, redoProofs). It is "" when every proof ran.
func lostProof(ref, mut *schemas.Trajectory, adv []job, done *trajIndex) (string, error) {
	recs := []*schemas.Trajectory{ref, mut}
	for _, jb := range adv {
		t, err := done.Load(jb.id)
		if err != nil {
			return "", err
		}
		recs = append(recs, t)
	}
	for _, t := range recs {
		if t != nil && t.Verdict != nil && filters.IsInfra(t.Verdict.Failure) {
			return strings.TrimSuffix(t.Teacher.Kind+" "+t.Verdict.Failure+": "+t.Error, ": "), nil
		}
	}
	return "", nil
}

// rollouts runs the teacher on every training task, k samples each, and
// returns where their trajectories are journaled, in the dataset's order.
func (r *builder) rollouts(ctx context.Context, tasks []slimTask, fs *fileSet) ([]trajRef, int, error) {
	r.files = fs
	jobs, err := r.trainJobs(tasks)
	if err != nil {
		return nil, 0, err
	}
	done, ran, err := r.runJobs(ctx, "rollout", false, jobs, rundir.Trajectories, fs)
	if err != nil {
		return nil, ran, err
	}
	find := func(jb job) (trajRef, bool, error) { ref, ok := done.Ref(jb.id); return ref, ok, nil }
	refs, err := r.inOrder(tasks, jobs, find, nil, "")
	return refs, ran, err
}

// trainJobs are the rollouts of the training tasks, k samples each, in the
// order of the dataset's rows, made when asked for.
func (r *builder) trainJobs(tasks []slimTask) (jobList, error) {
	teacher, format, err := r.teacher()
	if err != nil {
		return nil, err
	}
	return trainJobList{tasks: tasks, samples: max(1, r.cfg.Teacher.Samples), teacher: teacher, format: format, cfg: &r.cfg.Teacher}, nil
}

// inOrder returns where the jobs' trajectories are, in the jobs' order,
// and counts them in the summary's funnel line, failures and usage: one
// trajectory in memory at a time. find locates a job's trajectory; one it
// does not find (ok false, err nil) was lost to the infrastructure and is
// left out. check, if not nil, vets each trajectory read.
func (r *builder) inOrder(tasks []slimTask, jobs jobList, find func(job) (trajRef, bool, error), check func(job, *schemas.Trajectory) error, from string) ([]trajRef, error) {
	out := make([]trajRef, 0, jobs.Len())
	passed := 0
	for i := range jobs.Len() {
		jb := jobs.At(i)
		ref, ok, err := find(jb)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue // lost to the infrastructure: the next run redoes it
		}
		t, err := ref.Load()
		if err != nil {
			return nil, fmt.Errorf("rollout: %w", err)
		}
		if check != nil {
			if err := check(jb, t); err != nil {
				return nil, err
			}
		}
		out = append(out, ref)
		if t.Verdict.Passed {
			passed++
		} else {
			r.sum.Failures[t.Verdict.Failure]++
		}
		r.sum.CostUSD += t.Usage.CostUSD
		r.sum.Tokens += t.Usage.PromptTokens + t.Usage.CompletionTokens
	}
	note := ""
	if r.sum.Lost > 0 {
		note = fmt.Sprintf("; %d lost to infrastructure failures, not recorded (run the same command again to redo them)", r.sum.Lost)
	}
	r.sum.add("rollout", len(tasks), len(out), "trajectories (teacher %s, %d per task%s), %d passed their checks%s",
		r.tch.Info().Kind, max(1, r.cfg.Teacher.Samples), from, passed, note)
	return out, nil
}

// teacher is the run's teacher and format, made once: a replay file is read
// once, an endpoint client shared.
func (r *builder) teacher() (agent.Teacher, agent.Format, error) {
	if r.tch == nil {
		var err error
		inputs := func(t *schemas.Task) []sandbox.Input { return r.files.inputs(t) } // the files the stage at hand set
		client := func() (*llm.Client, error) { return r.llm.client(r.work) }
		if r.tch, r.format, err = newTeacher(r.cfg.Teacher, client, inputs); err != nil {
			return nil, nil, err
		}
	}
	return r.tch, r.format, nil
}

// newTeacher makes the teacher tc names and its format: client gives the
// openai teacher its endpoint, inputs an adversary a task's files.
func newTeacher(tc agent.Config, client func() (*llm.Client, error), inputs func(*schemas.Task) []sandbox.Input) (agent.Teacher, agent.Format, error) {
	var format agent.Format
	switch tc.Format {
	case "", "pybench":
		format = agent.NewPyBench()
	case "openai-tools":
		format = agent.NewToolsFormat()
	default:
		return nil, nil, fmt.Errorf("teacher.format %q is not known (want pybench or openai-tools)", tc.Format)
	}
	if rollout.IsAdversary(tc.Kind) {
		t, err := rollout.NewAdversaryTeacher(tc.Kind, format, inputs)
		return t, format, err
	}
	switch tc.Kind {
	case "", "reference":
		return agent.NewReference(format), format, nil
	case "empty":
		return agent.NewEmpty(), format, nil
	case "sloppy":
		return agent.NewSloppy(format), format, nil
	case "openai":
		c, err := client()
		if err != nil {
			return nil, nil, err
		}
		return agent.NewOpenAI(c, tc), format, nil
	case "replay":
		if tc.Replay == "" {
			return nil, nil, fmt.Errorf("teacher.kind replay needs teacher.replay: the trajectory file to replay (--replay FILE)")
		}
		rp, err := agent.LoadReplay(tc.Replay)
		if err != nil {
			return nil, nil, err
		}
		return rp, format, nil
	}
	return nil, nil, fmt.Errorf("teacher.kind %q is not known (want reference, openai, replay, empty or sloppy)", tc.Kind)
}

// emit writes the kept trajectories as Parquet shards, with the dataset
// card (README.md) and stats.json beside them, reading them back from
// their journals one at a time.
func (r *builder) emit(_ context.Context, fn *funnel, tasks []slimTask, kept []trajRef, fs *fileSet) error {
	// The kept trajectories follow the plan's order (a task's samples one
	// after another), so each one's task is found walking the plan once.
	next := 0
	taskOf := func(t *schemas.Trajectory) (*schemas.Task, error) {
		for ; next < len(tasks); next++ {
			if tasks[next].id == t.TaskID {
				return tasks[next].task(), nil
			}
		}
		return nil, fmt.Errorf("trajectory %s: its task %s is not in the plan after the previous row's: this is a bug in synth", t.ID, t.TaskID)
	}
	_, format, err := r.teacher()
	if err != nil {
		return err
	}
	dcfg := r.cfg.Dataset
	if dcfg.Format == "" {
		dcfg.Format = format.Name()
	}
	w, err := dataset.NewWriter(filepath.Join(r.dir, rundir.DatasetDataDir), dcfg)
	if err != nil {
		return fmt.Errorf("emit: %w", err)
	}
	var teacher schemas.TeacherInfo
	for i, ref := range kept {
		t, err := ref.Load()
		if err == nil {
			var task *schemas.Task
			if task, err = taskOf(t); err == nil {
				err = w.Write(dataset.RowOf(task, t, format.Tools()))
			}
		}
		if err != nil {
			w.Abort()
			return fmt.Errorf("emit: %w", err)
		}
		if i == 0 {
			teacher = t.Teacher
		}
	}
	rows, bytes, stats := w.Rows(), w.Bytes(), w.Stats()
	shards, err := w.Close()
	if err != nil {
		return fmt.Errorf("emit: %w", err)
	}
	if rows != fn.Final() {
		return fmt.Errorf("emit: wrote %d rows but the funnel kept %d: this is a bug in synth", rows, fn.Final())
	}
	var files []schemas.File
	for _, id := range fs.order {
		files = append(files, fs.byID[id])
	}
	if dcfg.License == "" {
		dcfg.License = commonLicense(files)
	}
	if len(kept) == 0 {
		teacher = schemas.TeacherInfo{Kind: r.cfg.Teacher.Kind}
	}
	writerProof := ""
	if r.info.Writer != nil {
		writerProof = r.info.Writer.Proof
	}
	r.info.Yield = yieldOf(fn.Snapshot(), writerProof)
	err = dataset.WriteCard(filepath.Join(r.dir, rundir.DatasetDir), dataset.CardInfo{
		Config: dcfg, Rows: rows, Bytes: bytes, Languages: dataset.Languages(func(yield func(string) bool) {
			for i := range tasks {
				if !yield(tasks[i].meta.Lang) {
					return
				}
			}
		}), Stats: stats, Funnel: fn.Funnel,
		Teacher: dataset.TeacherCard{Kind: teacher.Kind, Model: teacher.Model, Format: format.Name(), Settings: teacherSettings(r.cfg.Teacher, r.cfg.LLM)},
		Tasks:   tasksCard(r.info.Writer, r.cfg.Tasks, r.info.Grader),
		Python: dataset.PythonInfo{Version: r.info.Python.Version, Packages: r.info.Python.Packages,
			Lock: r.info.Python.Lock, Fingerprint: r.info.Python.Fingerprint},
		ConfigHash: r.cfg.Hash(), SynthVersion: r.opts.Version, Sources: dataset.SourceCounts(files),
		Hygiene: r.info.Hygiene, Cost: r.info.Cost, Yield: r.info.Yield,
	})
	if err != nil {
		return fmt.Errorf("emit: %w", err)
	}
	r.sum.Shards = shards
	r.sum.Rows = int(rows)
	r.info.Counts["rows"] = int(rows)
	r.sum.add("emit", len(kept), int(rows), "dataset rows in %d Parquet shard(s), with %s (dataset card) and %s", len(shards), rundir.DatasetCard, rundir.DatasetStats)
	return nil
}

// commonLicense is the inputs' license when they all share one, as the
// Hugging Face card spells it (cc0-1.0, mit); otherwise "".
func commonLicense(files []schemas.File) string {
	l := ""
	for _, f := range files {
		switch {
		case f.Source.License == "":
			return ""
		case l == "":
			l = f.Source.License
		case l != f.Source.License:
			return ""
		}
	}
	return strings.ToLower(l)
}

// writeBench lays out the benchmark folder.
func (r *builder) writeBench(tasks []schemas.Task, refs map[string]*schemas.Trajectory, fs *fileSet) error {
	entries := make([]bench.Entry, len(tasks))
	for i, t := range tasks {
		inputs := map[string]string{}
		for _, f := range t.Files {
			inputs[f.ID] = fs.path[f.ID]
		}
		entries[i] = bench.Entry{Task: t, Inputs: inputs, Reference: refs[t.ID]}
	}
	dir := filepath.Join(r.dir, rundir.BenchDir)
	err := bench.Write(dir, entries, bench.Info{
		Seed: r.cfg.Seed, SourceRun: "config " + r.cfg.Hash(),
		Validated: "each task's reference solution passes its checks and an empty rollout fails them, in the sandbox",
		Avoided:   r.avoided,
	})
	if err != nil {
		return err
	}
	r.sum.Bench = dir
	r.info.Counts["bench_tasks"] = len(tasks)
	r.sum.add("bench", len(tasks), len(tasks), "benchmark tasks written")
	return nil
}

// gather indexes the shards' journals and returns where every training
// rollout is, in the order Build would have them. Each rollout is taken
// from the journal of the shard that owns its task, and nowhere else.
func (r *builder) gather(train []slimTask, infos []runinfo.ShardInfo) ([]trajRef, error) {
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
	shardOfJob := func(jb job) runinfo.Shard { return runinfo.Shard{Index: runinfo.ShardOf(jb.taskID(), n), Count: n} }
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
