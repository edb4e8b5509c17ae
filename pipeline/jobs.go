package pipeline

import (
	"context"
	"fmt"

	"synth/agent"
	"synth/checks/adversary"
	"synth/filters"
	"synth/generators/template"
	"synth/rollout"
	"synth/runner"
	"synth/sandbox"
	"synth/schemas"
)

// job is one rollout to run: a task, a sample number and a teacher. A
// benchmark task's validation job has a proof too: it journals one record
// for its reference (its own id) and one for each proof (see ids). Its
// rollout.Job, which the player plays, is played().
type job struct {
	id      string
	task    *schemas.Task // nil for a training task held slim, until it runs
	slim    *slimTask     // the training task, when task is nil
	sample  int
	teacher agent.Teacher
	format  agent.Format
	proof   *taskProof
}

// jobList is a stage's jobs by index: a jobSlice, or a trainJobList, which
// makes each training rollout's job when asked rather than hold a million.
type jobList = runner.Jobs[job]

type jobSlice = runner.Slice[job]

// trainJobList is the rollouts of the training tasks, samples each, in the
// order of the dataset's rows: job i is sample i%samples of task
// i/samples.
type trainJobList struct {
	tasks   []slimTask
	samples int
	teacher agent.Teacher
	format  agent.Format
	cfg     *agent.Config
}

func (l trainJobList) Len() int { return len(l.tasks) * l.samples }

func (l trainJobList) At(i int) job {
	t, s := &l.tasks[i/l.samples], i%l.samples
	return job{id: rollout.ID(t.id, s, l.teacher, l.format, *l.cfg), slim: t, sample: s, teacher: l.teacher, format: l.format}
}

// taskID is the id of the job's task.
func (jb *job) taskID() string {
	if jb.task == nil {
		return jb.slim.id
	}
	return jb.task.ID
}

// countMissing is how many records of jobs are not journaled, or are to be
// done again (redo).
func countMissing(jobs jobList, done *trajIndex, redo map[string]bool) int {
	n := 0
	for i := range jobs.Len() {
		n += missing(jobs.At(i), done, redo)
	}
	return n
}

// missing is how many of jb's records are not journaled, or are to be done
// again (redo).
func missing(jb job, done *trajIndex, redo map[string]bool) int {
	n := 0
	for _, id := range jb.ids() {
		if !done.Has(id) || redo[id] {
			n++
		}
	}
	return n
}

// taskProof is what a benchmark task's validation job proves besides its
// reference, whose record is the job's own: the mutant, when the task's
// template defines one, and every adversary that applies. The job journals
// one record for each.
type taskProof struct {
	mutant      *job // nil: the template defines no mutant
	adversaries []job
}

// ids are the ids of the records jb journals: its own, then its proof's.
func (jb job) ids() []string {
	ids := []string{jb.id}
	if p := jb.proof; p != nil {
		if p.mutant != nil {
			ids = append(ids, p.mutant.id)
		}
		for _, a := range p.adversaries {
			ids = append(ids, a.id)
		}
	}
	return ids
}

// redoProofs are the journaled records of validation jobs whose verdict is
// an infrastructure failure (a sandbox that would not start, a verifier
// that could not run): not the task's doing, so the next run does their job
// again rather than drop the task, or keep it unproven, for it.
func redoProofs(jobs jobList, done *trajIndex) (map[string]bool, error) {
	redo := map[string]bool{}
	for i := range jobs.Len() {
		for _, id := range jobs.At(i).ids() {
			t, err := done.Load(id)
			if err != nil {
				return nil, err
			}
			if t != nil && t.Verdict != nil && filters.IsInfra(t.Verdict.Failure) {
				redo[id] = true
			}
		}
	}
	return redo, nil
}

// mutant plays a task's mutated reference, which its checks must fail.
type mutant struct{ ref *agent.Reference }

func (mutant) Info() schemas.TeacherInfo { return schemas.TeacherInfo{Kind: "mutant"} }

func (m mutant) Reply(ctx context.Context, req agent.Request) (agent.Reply, error) {
	t := *req.Task
	if t.Reference = template.Mutant(req.Task); t.Reference == nil {
		return agent.Reply{}, fmt.Errorf("task %s: its template defines no mutation", t.ID)
	}
	req.Task = &t
	return m.ref.Reply(ctx, req)
}

// adversaryProof is the teacher of one adversary's record in benchmark
// validation. Its rollout is not played: the task's validation job
// (proveTask) verifies every adversary's files in one batch with the
// reference's and the mutant's outputs, and records each adversary's
// verdict under this teacher. (A teacher kind adversary:NAME that plays an
// adversary is rollout.NewAdversaryTeacher.)
type adversaryProof struct{ name string }

func (a adversaryProof) Info() schemas.TeacherInfo {
	return schemas.TeacherInfo{Kind: rollout.AdversaryPrefix + a.name}
}

func (a adversaryProof) Reply(context.Context, agent.Request) (agent.Reply, error) {
	return agent.Reply{}, fmt.Errorf("adversary %s is verified in a batch, not played", a.name)
}

// adversaryJobs are the adversary records of a task: one per adversary that
// applies to it.
func adversaryJobs(t *schemas.Task, inputs []sandbox.Input, format agent.Format, cfg agent.Config) ([]job, error) {
	var jobs []job
	for _, a := range adversary.All() {
		if _, ok, err := a.Make(t, inputs); err != nil {
			return nil, fmt.Errorf("task %s: adversary %s: %w", t.ID, a.Name, err)
		} else if !ok {
			continue
		}
		tch := adversaryProof{name: a.Name}
		jobs = append(jobs, job{id: rollout.ID(t.ID, 0, tch, format, cfg), task: t, teacher: tch, format: format})
	}
	return jobs, nil
}

// errAbandoned is a rollout cut short by the end of the grace period; it is
// not recorded, so the next run does it again.
var errAbandoned = runner.ErrAbandoned

// played is jb as package rollout plays it; a training job's task must be
// loaded first.
func (jb job) played() rollout.Job {
	return rollout.Job{ID: jb.id, Task: jb.task, Sample: jb.sample, Teacher: jb.teacher, Format: jb.format}
}
