package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"slices"
	"strconv"
	"strings"

	"synth/rundir"
	"synth/schemas"
)

// Tasks read back from a task journal (tasks.jsonl, plan.jsonl) are held
// slim (slimTask): an id, where the task starts in its journal, and what
// it shares with other tasks (category, language, generator, input files),
// held once. A task's query, reference, checks and outputs, most of it,
// stay on disk; the stages that need them (the split's twin keys, the task
// filters, writing the plan, a rollout) read tasks back one at a time
// (whole). A slim task costs about 50 bytes, whatever the task's size.

// slimTask is a task held slim.
type slimTask struct {
	id   string
	meta *schemas.Task // interned: the task without its id, query, reference, checks and outputs
	off  int64         // where the task starts in its taskStore's journal
}

// task is s as a slim schemas.Task: its id and meta's fields, in a new
// task. Its Files and Requires are shared and not to be changed in place.
func (s *slimTask) task() *schemas.Task {
	t := *s.meta
	t.ID = s.id
	return &t
}

// taskStore is the task journal a run's tasks were read back from, slim:
// it finds the rest of each (whole). Its zero value holds no journal.
type taskStore struct {
	x *rundir.Index[schemas.Task]
}

// read reads a task journal's tasks slim, those keep accepts (nil: all),
// so that whole finds the rest of each; it replaces the journal st held.
// It also returns how many tasks the journal holds and the plan hash of
// their ids in order.
func (st *taskStore) read(path string, keep func(*schemas.Task) bool) (tasks []slimTask, all int, hash string, err error) {
	x := rundir.NewIndex[schemas.Task](path)
	in := newInterner()
	h := newPlanHasher()
	err = rundir.ReadJournalAt(path, func(off int64, t schemas.Task) error {
		all++
		h.add(t.ID)
		if keep != nil && !keep(&t) {
			return nil
		}
		tasks = append(tasks, slimTask{id: t.ID, meta: in.meta(t), off: off})
		return nil
	})
	if err != nil {
		return nil, 0, "", err
	}
	st.close()
	st.x = x
	return slices.Clip(tasks), all, h.sum(), nil
}

// meta is t without its id, query, reference, checks and outputs, held
// once for every task that shares it (the tasks of one template over one
// file), its strings interned.
func (in *interner) meta(t schemas.Task) *schemas.Task {
	k := metaKey{t.Category, t.Subcategory, t.Lang, t.Generator, t.Index, filesKey(t.Files), strings.Join(t.Requires, "\x00")}
	if m, ok := in.metas[k]; ok {
		return m
	}
	m := &schemas.Task{
		Category: in.of(t.Category), Subcategory: in.of(t.Subcategory), Lang: in.of(t.Lang),
		Generator: in.of(t.Generator), Index: in.of(t.Index),
	}
	if t.Files != nil { // an empty list stays one, not null
		m.Files = make([]schemas.TaskFile, 0, len(t.Files))
	}
	for _, f := range t.Files {
		m.Files = append(m.Files, schemas.TaskFile{ID: in.of(f.ID), Name: in.of(f.Name), Type: in.of(f.Type)})
	}
	for _, r := range t.Requires {
		m.Requires = append(m.Requires, in.of(r))
	}
	in.metas[k] = m
	return m
}

type metaKey struct{ category, subcategory, lang, generator, index, files, requires string }

func filesKey(fs []schemas.TaskFile) string {
	var b strings.Builder
	for _, f := range fs {
		for _, s := range []string{f.ID, f.Name, f.Type} {
			b.WriteString(strconv.Itoa(len(s)))
			b.WriteByte(':')
			b.WriteString(s)
		}
	}
	return b.String()
}

// interner holds one copy of each string and of each task meta.
type interner struct {
	strs  map[string]string
	metas map[metaKey]*schemas.Task
}

func newInterner() *interner {
	return &interner{strs: map[string]string{}, metas: map[metaKey]*schemas.Task{}}
}

func (in *interner) of(s string) string {
	if v, ok := in.strs[s]; ok {
		return v
	}
	in.strs[s] = s
	return s
}

// close closes the journal st holds, if any.
func (st *taskStore) close() {
	if st.x != nil {
		st.x.Close()
		st.x = nil
	}
}

// whole is slim task s read back whole from its journal.
func (st *taskStore) whole(s *slimTask) (*schemas.Task, error) {
	w, err := st.x.At(s.off).Load()
	if err != nil {
		return nil, fmt.Errorf("task %s: %w", s.id, err)
	}
	if w.ID != s.id {
		return nil, fmt.Errorf("task %s: %s holds task %s at its place: the file changed under the run; run the same command again", s.id, st.x.Path(), w.ID)
	}
	w.ID = s.id // one copy of the id
	return w, nil
}

// planHash names a plan by its tasks, in order: shards of one plan carry it.
func planHash(train []slimTask) string {
	h := newPlanHasher()
	for i := range train {
		h.add(train[i].id)
	}
	return h.sum()
}

// planHasher computes planHash one task id at a time.
type planHasher struct{ h hash.Hash }

func newPlanHasher() planHasher { return planHasher{sha256.New()} }

func (p planHasher) add(id string) { fmt.Fprintf(p.h, "%s\n", id) }

func (p planHasher) sum() string { return hex.EncodeToString(p.h.Sum(nil))[:16] }
