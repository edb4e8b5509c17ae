package llm

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"synth/generators"
	"synth/llm"
	"synth/schemas"
)

// Generator writes tasks with an LLM. It is safe for concurrent use.
type Generator struct {
	c     *llm.Client
	opts  Options
	model string
	log   *slog.Logger

	mu    sync.Mutex
	stats Stats
}

// Stats counts what became of the drafts.
type Stats struct {
	Drafts     int // drafts asked for
	Kept       int // tasks returned
	Repaired   int // kept after the repair turn
	Revised    int // kept after a critic's revision
	Dropped    int // invalid after the repair (or revision) turn
	Duplicates int // near-duplicates of an earlier query for the same file
	Failed     int // requests that failed without stopping the run
}

// New returns the LLM query writer.
func New(c *llm.Client, opts Options) generators.Generator {
	return NewWriter(c, opts)
}

// NewWriter is New returning the concrete type, for its Stats.
func NewWriter(c *llm.Client, opts Options) *Generator {
	opts = opts.withDefaults()
	model := opts.Model
	if model == "" {
		model = c.Model()
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = max(1, c.Slots(model))
	}
	return &Generator{c: c, opts: opts, model: model, log: slog.Default()}
}

// Name implements generators.Generator.
func (g *Generator) Name() string { return "llm" }

// Stats returns the counts so far.
func (g *Generator) Stats() Stats {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.stats
}

func (g *Generator) count(f func(*Stats)) {
	g.mu.Lock()
	f(&g.stats)
	g.mu.Unlock()
}

// Generate implements generators.Generator: PerFile drafts per file and
// language, for the files whose type the dictionary knows. Tasks come back
// in file order. A fatal llm error (bad key, wrong URL, spent budget) or
// ctx's end stops it; other failures drop the draft and are counted.
func (g *Generator) Generate(ctx context.Context, files []generators.Input) ([]schemas.Task, error) {
	out := make([][]schemas.Task, len(files))
	eg, gctx := errgroup.WithContext(ctx)
	eg.SetLimit(g.opts.Concurrency)
	for i, in := range files {
		if gctx.Err() != nil {
			break
		}
		eg.Go(func() error {
			tasks, err := g.file(gctx, in.File)
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
func (g *Generator) file(ctx context.Context, f schemas.File) ([]schemas.Task, error) {
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
			t, ok, err := g.draft(ctx, f, tt, lang, id)
			if err != nil {
				return nil, fmt.Errorf("llm writer: file %s: %w", f.Name, err)
			}
			if !ok {
				continue
			}
			sh := shingles(t.Query)
			dup := false
			for _, s := range seen {
				if jaccard(sh, s) >= g.opts.DupThreshold {
					dup = true
					break
				}
			}
			if dup {
				g.count(func(s *Stats) { s.Duplicates++ })
				continue
			}
			seen = append(seen, sh)
			kept = append(kept, t)
			g.count(func(s *Stats) { s.Kept++ })
		}
	}
	return kept, nil
}

// draft runs the writer conversation for one task: draft, one repair if
// needed, and the critic's review if configured. ok is false when the draft
// was dropped.
func (g *Generator) draft(ctx context.Context, f schemas.File, tt TaskType, lang, id string) (schemas.Task, bool, error) {
	g.count(func(s *Stats) { s.Drafts++ })
	msgs := []schemas.Message{
		{Role: schemas.RoleSystem, Content: writerSystem},
		{Role: schemas.RoleUser, Content: userPrompt(f, tt, lang)},
	}
	text, err := g.ask(ctx, msgs, id, g.opts.Temperature)
	if err != nil {
		return schemas.Task{}, false, g.failed(id, err)
	}
	t, perr := parseDraft(text, f)
	if perr != nil {
		msgs = append(msgs, schemas.Message{Role: schemas.RoleAssistant, Content: text},
			schemas.Message{Role: schemas.RoleUser, Content: fmt.Sprintf(repairPrompt, perr)})
		if text, err = g.ask(ctx, msgs, id, g.opts.Temperature); err != nil {
			return schemas.Task{}, false, g.failed(id, err)
		}
		if t, perr = parseDraft(text, f); perr != nil {
			g.log.Debug("llm writer: draft dropped", "task", id, "err", perr)
			g.count(func(s *Stats) { s.Dropped++ })
			return schemas.Task{}, false, nil
		}
		g.count(func(s *Stats) { s.Repaired++ })
	}
	if g.opts.Critic {
		problems, err := g.critique(ctx, f, tt, text, id)
		if err != nil {
			return schemas.Task{}, false, g.failed(id, err)
		}
		if problems != "" {
			msgs = append(msgs, schemas.Message{Role: schemas.RoleAssistant, Content: text},
				schemas.Message{Role: schemas.RoleUser, Content: fmt.Sprintf(revisePrompt, problems)})
			if text, err = g.ask(ctx, msgs, id, g.opts.Temperature); err != nil {
				return schemas.Task{}, false, g.failed(id, err)
			}
			if t, perr = parseDraft(text, f); perr != nil {
				g.count(func(s *Stats) { s.Dropped++ })
				return schemas.Task{}, false, nil
			}
			g.count(func(s *Stats) { s.Revised++ })
		}
	}
	t.ID = id
	t.Lang = lang
	t.Files = []schemas.TaskFile{{ID: f.ID, Name: f.Name, Type: f.Type}}
	t.Generator = "llm:" + g.model
	if t.Subcategory == "" {
		t.Subcategory = tt.Subcategory
	}
	t.Requires = tt.Requires
	return t, true, nil
}

// critique asks the critic about a draft; "" means it passed (or the critic
// reply could not be read, which does not hold the draft back).
func (g *Generator) critique(ctx context.Context, f schemas.File, tt TaskType, draft, id string) (string, error) {
	zero := 0.0
	text, err := g.ask(ctx, []schemas.Message{
		{Role: schemas.RoleSystem, Content: criticSystem},
		{Role: schemas.RoleUser, Content: criticPrompt(f, tt, draft)},
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
	resp, err := g.c.Chat(ctx, llm.Request{Model: g.model, Messages: msgs, Temperature: temp, JSON: g.opts.JSONMode, CacheSalt: salt})
	if err != nil {
		return "", err
	}
	return resp.Message.Content, nil
}

// failed decides whether a request error stops the run (returned) or only
// drops the draft (counted).
func (g *Generator) failed(id string, err error) error {
	if llm.IsFatal(err) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	g.log.Warn("llm writer: request failed; draft dropped", "task", id, "err", err)
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
