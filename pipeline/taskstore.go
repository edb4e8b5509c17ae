package pipeline

import (
	"fmt"

	"synth/schemas"
)

// Tasks read back from a task journal (tasks.jsonl, plan.jsonl) are held
// slim: without their query, reference, checks and outputs, most of a
// task, which stay on disk. The stages that need them — the task filters, writing the plan,
// the benchmark's proofs, a rollout — read them back one task at a time
// (whole). The strings many tasks share (category, language, generator,
// input files) are held once.

// readTasks reads a task journal's tasks slim, those keep accepts (nil:
// all), and indexes the journal so that whole finds the rest of each. It
// also returns how many tasks the journal holds and the plan hash of their
// ids in order.
func (r *run) readTasks(path string, keep func(*schemas.Task) bool) (tasks []schemas.Task, all int, hash string, err error) {
	x := newJournalIndex[schemas.Task](path)
	in := interner{}
	h := newPlanHasher()
	err = ReadJournalAt(path, func(off int64, t schemas.Task) error {
		all++
		h.add(t.ID)
		if keep != nil && !keep(&t) {
			return nil
		}
		x.at[t.ID] = off
		tasks = append(tasks, slim(t, in))
		return nil
	})
	if err != nil {
		return nil, 0, "", err
	}
	if r.tasks != nil {
		r.tasks.close()
	}
	r.tasks = x
	return tasks, all, h.sum(), nil
}

// slim is t without its query, reference, checks and outputs, its shared
// strings interned.
func slim(t schemas.Task, in interner) schemas.Task {
	t.Query, t.Reference, t.Checks, t.Outputs = "", nil, nil, nil
	t.Category, t.Subcategory, t.Lang, t.Generator = in.of(t.Category), in.of(t.Subcategory), in.of(t.Lang), in.of(t.Generator)
	for i, f := range t.Files {
		t.Files[i] = schemas.TaskFile{ID: in.of(f.ID), Name: in.of(f.Name), Type: in.of(f.Type)}
	}
	for i, m := range t.Requires {
		t.Requires[i] = in.of(m)
	}
	return t
}

// interner holds one copy of each string.
type interner map[string]string

func (in interner) of(s string) string {
	if v, ok := in[s]; ok {
		return v
	}
	in[s] = s
	return s
}

// whole is task t with its query, reference, checks and outputs read back from its journal,
// or t itself when it is held whole (it was made in this run, not read
// back).
func (r *run) whole(t *schemas.Task) (*schemas.Task, error) {
	if r.tasks == nil {
		return t, nil
	}
	ref, ok := r.tasks.ref(t.ID)
	if !ok {
		return t, nil
	}
	w, err := ref.load()
	if err != nil {
		return nil, fmt.Errorf("task %s: %w", t.ID, err)
	}
	if w.ID != t.ID {
		return nil, fmt.Errorf("task %s: %s holds task %s at its place: the file changed under the run; run the same command again", t.ID, r.tasks.path, w.ID)
	}
	w.ID = t.ID // one copy of the id
	return w, nil
}

// queryOf is the query of the task with this id, read back from the
// indexed task journal.
func (r *run) queryOf(id string) (string, error) {
	ref, ok := r.tasks.ref(id)
	if !ok {
		return "", fmt.Errorf("task %s is not in %s", id, r.tasks.path)
	}
	t, err := ref.load()
	if err != nil {
		return "", fmt.Errorf("task %s: %w", id, err)
	}
	return t.Query, nil
}

// wholeTasks is every task of tasks whole, in a new slice.
func (r *run) wholeTasks(tasks []schemas.Task) ([]schemas.Task, error) {
	out := make([]schemas.Task, len(tasks))
	for i := range tasks {
		w, err := r.whole(&tasks[i])
		if err != nil {
			return nil, err
		}
		out[i] = *w
	}
	return out, nil
}
