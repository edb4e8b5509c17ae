package pipeline

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"synth/agent"
	"synth/checks/adversary"
	"synth/filters"
	"synth/sandbox"
	"synth/schemas"
)

// adversaryPrefix starts a teacher kind that plays an adversary:
// adversary:shotgun, adversary:forged_code, ...
const adversaryPrefix = "adversary:"

// adversaryTeacher plays one adversary's rollout through the real sandbox,
// as a one-cell solution: it writes the adversary's files (the workspace
// root included) and gives its answer. inputs finds a task's input files.
type adversaryTeacher struct {
	adv    adversary.Adversary
	ref    *agent.Reference
	inputs func(*schemas.Task) []sandbox.Input
}

// newAdversaryTeacher returns the teacher of kind "adversary:NAME".
func newAdversaryTeacher(kind string, f agent.Format, inputs func(*schemas.Task) []sandbox.Input) (agent.Teacher, error) {
	name := strings.TrimPrefix(kind, adversaryPrefix)
	a, ok := adversary.Named(name)
	if !ok {
		return nil, fmt.Errorf("teacher %q: no adversary %q (want one of %s)", kind, name, strings.Join(adversary.Names(), ", "))
	}
	return adversaryTeacher{adv: a, ref: agent.NewReference(f), inputs: inputs}, nil
}

func (a adversaryTeacher) Info() schemas.TeacherInfo {
	return schemas.TeacherInfo{Kind: adversaryPrefix + a.adv.Name}
}

func (a adversaryTeacher) Reply(ctx context.Context, req agent.Request) (agent.Reply, error) {
	r, _, err := a.adv.Make(req.Task, a.inputs(req.Task))
	if err != nil {
		return agent.Reply{}, fmt.Errorf("adversary %s: task %s: %w", a.adv.Name, req.Task.ID, err)
	}
	t := *req.Task
	t.Reference = r.Reference()
	req.Task = &t
	return a.ref.Reply(ctx, req)
}

// isAdversary reports whether a teacher kind names an adversary.
func isAdversary(kind string) bool { return strings.HasPrefix(kind, adversaryPrefix) }

// adversaryProof is the job teacher of one adversary in benchmark
// validation. Its rollout is not played: every adversary of a task is
// verified in one batch (adversary.Prove, one verification sandbox), and
// each job records its adversary's verdict from that batch.
type adversaryProof struct {
	name   string
	proofs *proofMemo
}

func (a adversaryProof) Info() schemas.TeacherInfo {
	return schemas.TeacherInfo{Kind: adversaryPrefix + a.name}
}

func (a adversaryProof) Reply(context.Context, agent.Request) (agent.Reply, error) {
	return agent.Reply{}, fmt.Errorf("adversary %s is verified in a batch, not played", a.name)
}

// proofMemo runs adversary.Prove once per task for all its adversary jobs.
type proofMemo struct {
	mu    sync.Mutex
	tasks map[string]*proofOnce
}

type proofOnce struct {
	once sync.Once
	res  []adversary.Result
	err  error
}

func (m *proofMemo) get(taskID string) *proofOnce {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.tasks == nil {
		m.tasks = map[string]*proofOnce{}
	}
	p := m.tasks[taskID]
	if p == nil {
		p = &proofOnce{}
		m.tasks[taskID] = p
	}
	return p
}

// adversaryJobs are the adversary jobs of a task: one per adversary that
// applies to it.
func adversaryJobs(t *schemas.Task, inputs []sandbox.Input, memo *proofMemo, format agent.Format, cfg agent.Config) ([]job, error) {
	var jobs []job
	for _, a := range adversary.All() {
		if _, ok, err := a.Make(t, inputs); err != nil {
			return nil, fmt.Errorf("task %s: adversary %s: %w", t.ID, a.Name, err)
		} else if !ok {
			continue
		}
		tch := adversaryProof{name: a.Name, proofs: memo}
		jobs = append(jobs, job{id: trajectoryID(t.ID, 0, tch, format, cfg), task: t, teacher: tch, format: format})
	}
	return jobs, nil
}

// proveAdversary is the record of an adversary job: the task's adversaries
// verified together (once), this one's verdict. A verifier that could not
// run is a sandbox_crash record, which the next run does again.
func (r *run) proveAdversary(ctx context.Context, jb job, a adversaryProof, fs *fileSet) (*schemas.Trajectory, error) {
	p := a.proofs.get(jb.task.ID)
	p.once.Do(func() { p.res, p.err = adversary.Prove(ctx, r.backend, jb.task, fs.inputs(jb.task)) })
	if ctx.Err() != nil {
		return nil, errAbandoned
	}
	t := &schemas.Trajectory{ID: jb.id, TaskID: jb.task.ID, Teacher: a.Info(), StopReason: schemas.StopFinished,
		Messages: []schemas.Message{}, Steps: []schemas.Step{}}
	if p.err != nil {
		t.StopReason, t.Error = schemas.StopSandboxError, p.err.Error()
		t.Verdict = &schemas.Verdict{Failure: schemas.FailSandboxCrash, Checks: []schemas.CheckResult{}}
		return t, nil
	}
	for _, res := range p.res {
		if res.Adversary == a.name {
			v := filters.VerdictOf(res.Checks)
			t.Verdict = &v
		}
	}
	if t.Verdict == nil {
		t.Verdict = &schemas.Verdict{Failure: schemas.FailCheck, Checks: []schemas.CheckResult{}}
	}
	return t, nil
}
