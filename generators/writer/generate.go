package writer

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"synth/generators"
	"synth/llm"
	"synth/proof"
	"synth/sandbox"
	"synth/schemas"
)

// Generator writes tasks with an LLM and, given a Prover, proves each in
// the sandbox before it counts. It is safe for concurrent use.
type Generator struct {
	c      *llm.Client
	opts   Options
	model  string
	log    *slog.Logger
	prover *Prover
	mu     sync.Mutex
	stats  Stats
}

// Stats counts what became of the drafts.
type Stats struct {
	Drafts   int `json:"drafts"`   // drafts asked for
	Kept     int `json:"kept"`     // tasks returned
	Proven   int `json:"proven"`   // of those, proven in the sandbox (all of them with a Prover)
	Repaired int `json:"repaired"` // kept after a repair turn (bad JSON, a trivial check, a failed proof)
	Revised  int `json:"revised"`  // kept after a critic's revision
	// Dropped counts the drafts dropped, by Drop* reason.
	Dropped map[string]int `json:"dropped"`
	// Perturbed counts the proven drafts also proven on perturbed inputs;
	// Unperturbed counts the others by why no input could be perturbed (a
	// file type that is not a table, a table too small).
	Perturbed   int            `json:"perturbed"`
	Unperturbed map[string]int `json:"unperturbed,omitempty"`
	// Failed counts drafts lost to a failed request or a sandbox that
	// could not run; they are not final, and the next run redoes them.
	Failed int    `json:"failed_requests"`
	Drops  []Drop `json:"-"`
}

// Drop is one dropped draft and why.
type Drop struct {
	Task   string `json:"task"`
	File   string `json:"file"`
	Reason string `json:"reason"` // a Drop* word
	Detail string `json:"detail"` // what failed, as the writer was shown it
}

// New returns the LLM query writer (a generators.Generator, with its Stats).
func New(c *llm.Client, opts Options) *Generator {
	opts = opts.withDefaults()
	model := opts.Model
	if model == "" {
		model = c.Model()
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = max(1, c.Slots(model))
	}
	return &Generator{c: c, opts: opts, model: model, log: slog.Default(), stats: Stats{Dropped: map[string]int{}, Unperturbed: map[string]int{}}}
}

// SetProver makes the writer prove every task in the sandbox before
// returning it; call it before Generate. Without one, tasks come back
// unproven (Stats.Proven stays 0).
func (g *Generator) SetProver(p *Prover) {
	if p != nil && g.opts.Hacker && p.Hacker == nil {
		p.Hacker = &Hacker{Client: g.c, Model: g.model}
	}
	g.prover = p
}

// Grader is how the checks of the drafts proven so far fared against the
// wrong solutions tried on them (Prover.Grader); zero without a prover.
func (g *Generator) Grader() proof.Tally {
	if g.prover == nil {
		return proof.Tally{}
	}
	return g.prover.Grader()
}

// Model is the model the writer asks.
func (g *Generator) Model() string { return g.model }

// Name implements generators.Generator.
func (g *Generator) Name() string { return "llm" }

// Stats returns the counts so far.
func (g *Generator) Stats() Stats {
	g.mu.Lock()
	defer g.mu.Unlock()
	s := g.stats
	s.Dropped = maps.Clone(s.Dropped)
	s.Unperturbed = maps.Clone(s.Unperturbed)
	s.Drops = slices.Clone(s.Drops)
	return s
}

func (g *Generator) count(f func(*Stats)) {
	g.mu.Lock()
	f(&g.stats)
	g.mu.Unlock()
}

// drop counts a dropped draft and logs why.
func (g *Generator) drop(f schemas.File, id, reason, detail string) {
	g.log.Info("llm writer: draft dropped", "task", id, "file", f.Name, "reason", reason, "detail", detail)
	g.count(func(s *Stats) {
		s.Dropped[reason]++
		s.Drops = append(s.Drops, Drop{Task: id, File: f.Name, Reason: reason, Detail: detail})
	})
}

// Generate implements generators.Generator: PerFile drafts per file and
// language, for the files whose type the dictionary knows. Tasks come back
// in file order. A fatal llm error (bad key, wrong URL, spent budget) or
// ctx's end stops it; other failures (a request, a sandbox that could
// not run) lose the draft for this run and are counted as failed.
func (g *Generator) Generate(ctx context.Context, files []generators.Input) ([]schemas.Task, error) {
	out := make([][]schemas.Task, len(files))
	eg, gctx := errgroup.WithContext(ctx)
	eg.SetLimit(g.opts.Concurrency)
	for i, in := range files {
		if gctx.Err() != nil {
			break
		}
		eg.Go(func() error {
			tasks, err := g.file(gctx, in)
			out[i] = tasks
			return err
		})
	}
	if err := eg.Wait(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var all []schemas.Task
	for _, ts := range out {
		all = append(all, ts...)
	}
	return all, nil
}

// file writes the tasks of one file.
func (g *Generator) file(ctx context.Context, in generators.Input) ([]schemas.Task, error) {
	f := in.File
	types := g.opts.Dictionary[group(f.Type)]
	if len(types) == 0 {
		return nil, nil
	}
	var kept []schemas.Task
	var seen []map[string]bool
	for _, lang := range g.opts.Langs {
		for k := 0; k < g.opts.PerFile; k++ {
			id := g.taskID(f, lang, k)
			tt := draw(types, f.ID, lang, k)
			t, repaired, ok, err := g.draft(ctx, in, tt, lang, id)
			if err != nil {
				return nil, fmt.Errorf("llm writer: file %s: %w", f.Name, err)
			}
			if !ok {
				continue
			}
			sh := shingles(t.Query)
			if slices.ContainsFunc(seen, func(s map[string]bool) bool { return jaccard(sh, s) >= g.opts.DupThreshold }) {
				g.drop(f, id, DropDuplicate, "a near-duplicate of an earlier query for this file")
				continue
			}
			seen = append(seen, sh)
			kept = append(kept, t)
			g.count(func(s *Stats) {
				s.Kept++
				if repaired {
					s.Repaired++
				}
				if g.prover != nil {
					s.Proven++
				}
			})
		}
	}
	return kept, nil
}

// conversation is one draft's exchange with the writer.
type conversation struct {
	g    *Generator
	id   string
	msgs []schemas.Message
	last string // the writer's last reply
}

// say sends the conversation so far (plus a user turn when given) and
// keeps the reply.
func (cv *conversation) say(ctx context.Context, user string) error {
	if user != "" {
		cv.msgs = append(cv.msgs, schemas.Message{Role: schemas.RoleAssistant, Content: cv.last},
			schemas.Message{Role: schemas.RoleUser, Content: user})
	}
	text, err := cv.g.ask(ctx, cv.msgs, cv.id, cv.g.opts.Temperature)
	cv.last = text
	return err
}

// draft runs the writer conversation for one task: the draft, one repair
// turn if it does not parse or a check is trivial, the critic's review if
// configured, then the proof in the sandbox with one repair turn that shows
// the writer what failed. ok is false when the draft was dropped (counted
// by reason) or lost to a failed request (counted as failed); repaired
// says a repair turn saved it.
func (g *Generator) draft(ctx context.Context, in generators.Input, tt TaskType, lang, id string) (t schemas.Task, repaired, ok bool, err error) {
	f := in.File
	g.count(func(s *Stats) { s.Drafts++ })
	cv := &conversation{g: g, id: id, msgs: []schemas.Message{
		{Role: schemas.RoleSystem, Content: writerSystem},
		{Role: schemas.RoleUser, Content: userPrompt(f, tt, lang, g.opts.PreviewBudget)},
	}}
	if err := cv.say(ctx, ""); err != nil {
		return t, false, false, g.failed(id, err)
	}
	p, probs := parseDraft(cv.last, f)
	if probs != nil {
		if err := cv.say(ctx, fmt.Sprintf(repairPrompt, probs.Error())); err != nil {
			return t, false, false, g.failed(id, err)
		}
		if p, probs = parseDraft(cv.last, f); probs != nil {
			g.drop(f, id, probs.reason(), probs.Error())
			return t, false, false, nil
		}
		repaired = true
	}
	if g.opts.Critic {
		review, err := g.critique(ctx, f, tt, cv.last, id)
		if err != nil {
			return t, false, false, g.failed(id, err)
		}
		if review != "" {
			if err := cv.say(ctx, fmt.Sprintf(revisePrompt, review)); err != nil {
				return t, false, false, g.failed(id, err)
			}
			if p, probs = parseDraft(cv.last, f); probs != nil {
				g.drop(f, id, probs.reason(), probs.Error())
				return t, false, false, nil
			}
			g.count(func(s *Stats) { s.Revised++ })
		}
	}
	label := func(t *schemas.Task) {
		t.ID = id
		t.Lang = lang
		t.Files = []schemas.TaskFile{{ID: f.ID, Name: f.Name, Type: f.Type}}
		t.Generator = "llm:" + g.model
		if t.Subcategory == "" {
			t.Subcategory = tt.Subcategory
		}
		t.Requires = tt.Requires
	}
	label(&p.task)
	t = p.task
	if g.prover != nil {
		inputs := []sandbox.Input{{Name: f.Name, Path: in.Path}}
		proven, ref, unperturbed, err := g.prover.prove(ctx, p, inputs)
		if err != nil {
			return t, false, false, g.failed(id, err)
		}
		if ref != nil {
			if err := cv.say(ctx, fmt.Sprintf(proofRepairPrompt, ref.reason, ref.msg)); err != nil {
				return t, false, false, g.failed(id, err)
			}
			if p, probs = parseDraft(cv.last, f); probs != nil {
				g.drop(f, id, probs.reason(), "after the repair turn: "+probs.Error())
				return t, false, false, nil
			}
			label(&p.task)
			if proven, ref, unperturbed, err = g.prover.prove(ctx, p, inputs); err != nil {
				return t, false, false, g.failed(id, err)
			}
			if ref != nil {
				g.drop(f, id, ref.reason, ref.msg)
				return t, false, false, nil
			}
			repaired = true
		}
		t = proven
		g.count(func(s *Stats) {
			if unperturbed != "" {
				s.Unperturbed[unperturbed]++
			} else {
				s.Perturbed++
			}
		})
	}
	return t, repaired, true, nil
}

// critique asks the critic about a draft; "" means it passed (or the critic
// reply could not be read, which does not hold the draft back).
func (g *Generator) critique(ctx context.Context, f schemas.File, tt TaskType, draft, id string) (string, error) {
	zero := 0.0
	text, err := g.ask(ctx, []schemas.Message{
		{Role: schemas.RoleSystem, Content: criticSystem},
		{Role: schemas.RoleUser, Content: criticPrompt(f, tt, draft, g.opts.PreviewBudget)},
	}, id+"/critic", &zero)
	if err != nil {
		return "", err
	}
	raw, err := firstObject(text)
	if err != nil {
		return "", nil
	}
	var v struct {
		OK       bool            `json:"ok"`
		Problems json.RawMessage `json:"problems"`
	}
	if json.Unmarshal(raw, &v) != nil || v.OK {
		return "", nil
	}
	p := strings.Trim(strings.TrimSpace(string(v.Problems)), `"`)
	if p == "" || p == "null" {
		p = "the task does not match its keywords or the file"
	}
	return p, nil
}

func (g *Generator) ask(ctx context.Context, msgs []schemas.Message, salt string, temp *float64) (string, error) {
	resp, err := g.c.Chat(ctx, llm.Request{Model: g.model, Messages: msgs, Temperature: temp, MaxTokens: g.opts.MaxTokens,
		JSON: g.opts.JSONMode, CacheSalt: salt})
	if err != nil {
		return "", err
	}
	return resp.Message.Content, nil
}

// failed decides whether an error stops the run (returned) or only loses
// the draft (counted as failed, for the next run to redo).
func (g *Generator) failed(id string, err error) error {
	if llm.IsFatal(err) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	g.log.Warn("llm writer: draft lost; the next run redoes it", "task", id, "err", err)
	g.count(func(s *Stats) { s.Failed++ })
	return nil
}

// taskID is a hash of what shapes the task: prompt version, model, file,
// language and draft number.
func (g *Generator) taskID(f schemas.File, lang string, k int) string {
	h := sha256.Sum256(fmt.Appendf(nil, "llm-writer/%s\x00%s\x00%s\x00%s\x00%d", promptVersion, g.model, f.ID, lang, k))
	return "llm-" + hex.EncodeToString(h[:8])
}

// draw picks the task type and two keywords of draft k for a file: the
// types rotate from a file-dependent start, so a file's drafts differ.
func draw(types []TaskType, fileID, lang string, k int) TaskType {
	h := sha256.Sum256([]byte(fileID + "\x00" + lang))
	start := int(binary.BigEndian.Uint32(h[:4]) % uint32(len(types)))
	tt := types[(start+k)%len(types)]
	kw := tt.Keywords
	if len(kw) > 2 {
		h2 := sha256.Sum256(fmt.Appendf(nil, "%s\x00%s\x00%d", fileID, lang, k))
		i := int(binary.BigEndian.Uint32(h2[:4]) % uint32(len(kw)))
		j := (i + 1 + int(h2[4])%(len(kw)-1)) % len(kw)
		kw = []string{kw[i], kw[j]}
	}
	return TaskType{Category: tt.Category, Subcategory: tt.Subcategory, Keywords: kw, Requires: tt.Requires}
}
