package serve

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"synth/agent"
	"synth/sandbox"
	"synth/schemas"
)

// Server is an environment: it opens, steps and ends episodes and keeps
// their count within Config.MaxEpisodes. Its methods are safe for
// concurrent use; Handler serves them over HTTP and WebSocket.
type Server struct {
	cfg     Config
	src     Source
	byID    map[string]*schemas.Task // by task id and by benchmark index
	backend sandbox.Backend
	tmpl    templates // per task, with Config.Preload
	metrics *metrics
	log     io.Writer

	ctx    context.Context // verifications run under it; cancelled by Close
	cancel context.CancelFunc

	slots    chan struct{} // one per open episode
	next     atomic.Uint64 // the task the next reset without a task id gets
	recordMu sync.Mutex

	mu       sync.Mutex
	episodes map[string]*episode
	closing  bool
	reaper   chan struct{} // closed to stop the reaper
	reaped   sync.WaitGroup
	conns    map[io.Closer]bool // WebSocket sessions, closed by Close
	wsOpen   atomic.Int64       // WebSocket sessions open or upgrading

	closeOnce sync.Once
}

// New returns a server of src's tasks, running sandboxes on b (which the
// caller closes after Close). Log gets a line per reaped episode and per
// recording error; nil discards them. The idle reaper starts at once.
func New(src Source, b sandbox.Backend, cfg Config, log io.Writer) (*Server, error) {
	if err := src.validate(); err != nil {
		return nil, err
	}
	if log == nil {
		log = io.Discard
	}
	cfg = cfg.withDefaults()
	s := &Server{cfg: cfg, src: src, backend: b, metrics: newMetrics(), log: log,
		slots: make(chan struct{}, cfg.MaxEpisodes), episodes: map[string]*episode{},
		byID: map[string]*schemas.Task{}, reaper: make(chan struct{}), conns: map[io.Closer]bool{},
		tmpl: templates{byTask: map[string]*template{}}}
	for i := range src.Tasks {
		t := &src.Tasks[i]
		s.byID[t.ID] = t
		if t.Index != "" {
			if _, dup := s.byID[t.Index]; !dup {
				s.byID[t.Index] = t
			}
		}
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.reaped.Add(1)
	go s.reap()
	return s, nil
}

// logf writes one line to the server's log. Strings a client sent are
// formatted with %q by the callers; whatever control character still
// reaches the line is escaped here, so that no client can end a line or
// send a terminal escape through the log.
func (s *Server) logf(format string, a ...any) {
	fmt.Fprintln(s.log, oneLine(fmt.Sprintf(format, a...)))
}

// ResetRequest is OpenEnv's reset request with synth's fields: the task
// (its id or benchmark index; empty: the next task in turn) and the prompt
// format (empty: the server's).
type ResetRequest struct {
	Seed      *int64 `json:"seed,omitempty"`
	EpisodeID string `json:"episode_id,omitempty"`
	TaskID    string `json:"task_id,omitempty"`
	Format    string `json:"format,omitempty"`
}

// Reset opens an episode: it takes an episode slot (or answers busy at
// once), picks the task and opens a fresh sandbox holding its files.
func (s *Server) Reset(ctx context.Context, req ResetRequest) (*episode, Result, error) {
	start := time.Now()
	f := s.cfg.Format
	if req.Format != "" {
		var err error
		if f, err = FormatNamed(req.Format); err != nil {
			return nil, Result{}, errorf(400, codeValidation, "reset: %v", err)
		}
	}
	task, err := s.pick(req.TaskID)
	if err != nil {
		return nil, Result{}, err
	}
	id := req.EpisodeID
	if id == "" {
		id = newID()
	} else if err := checkID(id); err != nil {
		return nil, Result{}, err
	}
	release, err := s.take()
	if err != nil {
		return nil, Result{}, err
	}
	seed := seedOf(id)
	if req.Seed != nil {
		seed = *req.Seed
	}
	inputs := s.src.Inputs(task)
	b, note := s.backendFor(task, inputs)
	sb, err := b.Open(ctx, sandbox.Spec{Inputs: inputs, Seed: seed})
	if err != nil {
		release()
		return nil, Result{}, errorf(500, codeExecution, "reset: task %s: the sandbox would not open: %v", task.ID, err)
	}
	e := &episode{id: id, task: task, inputs: inputs, format: f, created: time.Now(), sb: sb, release: release}
	shown := task
	if note != "" {
		t := *task
		t.Query += note
		shown = &t
	}
	e.ep = agent.Begin(f, sb, shown, schemas.TeacherInfo{Kind: "serve"}, agent.Options{
		ID: "serve-" + id, System: s.cfg.System, MaxTurns: s.cfg.MaxTurns,
		MaxObservation: s.cfg.MaxObservation, Nudge: s.cfg.Nudge,
	})
	e.touch()
	s.mu.Lock()
	if _, dup := s.episodes[id]; dup || s.closing {
		s.mu.Unlock()
		e.end()
		if dup {
			return nil, Result{}, errorf(409, codeValidation, "reset: episode %q exists already: give another episode_id, or none", id)
		}
		return nil, Result{}, errorf(503, codeCapacity, "the server is shutting down")
	}
	s.episodes[id] = e
	s.mu.Unlock()
	s.metrics.count(func(c *Counts) { c.Episodes++ })
	obs := e.observation(e.ep.Trajectory().Messages)
	if tools := f.Tools(); tools != nil {
		obs.Tools = json.RawMessage(*tools)
	}
	s.metrics.observe(latReset, time.Since(start))
	return e, Result{Observation: obs}, nil
}

// take claims an episode slot without waiting: at capacity, the answer is
// busy, so that a trainer backs off instead of hanging.
func (s *Server) take() (release func(), err error) {
	s.mu.Lock()
	closing := s.closing
	s.mu.Unlock()
	if closing {
		return nil, errorf(503, codeCapacity, "the server is shutting down")
	}
	select {
	case s.slots <- struct{}{}:
		var once sync.Once
		return func() { once.Do(func() { <-s.slots }) }, nil
	default:
		s.metrics.count(func(c *Counts) { c.Busy++ })
		return nil, &Error{Status: 503, Code: codeCapacity, Busy: true,
			Message: fmt.Sprintf("busy: all %d episode slots are taken (--max-episodes %d); finish or close an episode, or retry shortly", s.cfg.MaxEpisodes, s.cfg.MaxEpisodes)}
	}
}

// pick is the task of a reset: the one named, or the next in turn.
func (s *Server) pick(id string) (*schemas.Task, error) {
	if id == "" {
		n := s.next.Add(1) - 1
		return &s.src.Tasks[n%uint64(len(s.src.Tasks))], nil
	}
	if t, ok := s.byID[id]; ok {
		return t, nil
	}
	return nil, errorf(404, codeValidation, "reset: no task %q in %s (GET /tasks lists them)", id, s.src.Name)
}

// Step plays the next assistant message of episode id.
func (s *Server) Step(ctx context.Context, id string, msg schemas.Message) (Result, error) {
	start := time.Now()
	e, err := s.lookup(id)
	if err != nil {
		return Result{}, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.ep == nil || (e.sb == nil && !e.ep.Done()) {
		return Result{}, errorf(410, codeSession, "episode %q was ended (reaped, closed or shut down) before it finished", id)
	}
	e.touch()
	r, err := s.step(ctx, e, msg)
	if err == nil {
		s.metrics.observe(latStep, time.Since(start))
	}
	return r, err
}

// State returns episode id's state.
func (s *Server) State(id string) (State, error) {
	e, err := s.lookup(id)
	if err != nil {
		return State{}, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.touch()
	return e.state(), nil
}

func (s *Server) lookup(id string) (*episode, error) {
	if id == "" {
		return nil, errorf(400, codeValidation, "no episode_id: give the episode_id that reset returned")
	}
	s.mu.Lock()
	e := s.episodes[id]
	s.mu.Unlock()
	if e == nil {
		return nil, errorf(404, codeSession, "episode %q is not open: it never was, or it was reaped after %s idle, or the server restarted; reset for a new one", id, s.cfg.IdleTimeout)
	}
	return e, nil
}

// Abandon ends episode id without a verdict (a WebSocket closed, or reset
// again, before the episode finished); a finished one is only forgotten.
func (s *Server) Abandon(id string) {
	s.mu.Lock()
	e := s.episodes[id]
	delete(s.episodes, id)
	s.mu.Unlock()
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.sb != nil {
		s.metrics.count(func(c *Counts) { c.Abandoned++ })
	}
	e.end()
}

// reap tears down, every tenth of the idle timeout, the episodes idle for
// longer than it; finished episodes are forgotten after it too.
func (s *Server) reap() {
	defer s.reaped.Done()
	tick := time.NewTicker(max(s.cfg.IdleTimeout/10, 10*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-s.reaper:
			return
		case now := <-tick.C:
			s.reapIdle(now)
		}
	}
}

func (s *Server) reapIdle(now time.Time) {
	s.mu.Lock()
	var idle []*episode
	for id, e := range s.episodes {
		if e.idle(now) > s.cfg.IdleTimeout && e.mu.TryLock() {
			delete(s.episodes, id)
			idle = append(idle, e)
		}
	}
	s.mu.Unlock()
	for _, e := range idle {
		if e.sb != nil {
			s.metrics.count(func(c *Counts) { c.Reaped++ })
			s.logf("serve: episode %q (task %q) reaped after %s idle", e.id, e.task.ID, s.cfg.IdleTimeout)
		}
		e.end()
		e.mu.Unlock()
	}
}

// Open is how many episodes hold a sandbox now.
func (s *Server) Open() int { return len(s.slots) }

// Metrics is what /metrics answers.
func (s *Server) Metrics() Snapshot { return s.metrics.snapshot(s.Open(), s.cfg.MaxEpisodes) }

// Drain stops taking resets: a reset from now on is answered "shutting
// down", while open episodes may still step and finish.
func (s *Server) Drain() {
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
}

// Close drains the server, waits until ctx is done or no episode is in a
// request, then ends every open episode (their sandboxes torn down, no
// verdict), cancels verifications in flight, and stops the reaper. A
// second Close waits for nothing and does nothing.
func (s *Server) Close(ctx context.Context) error {
	s.Drain()
	first := false
	s.closeOnce.Do(func() { first = true })
	if !first {
		return nil
	}
	for s.busy() && ctx.Err() == nil {
		select {
		case <-ctx.Done():
		case <-time.After(20 * time.Millisecond):
		}
	}
	s.cancel()
	close(s.reaper)
	s.reaped.Wait()
	s.mu.Lock()
	var ids []string
	for id := range s.episodes {
		ids = append(ids, id)
	}
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	for _, id := range ids {
		s.Abandon(id)
	}
	s.closeTemplates()
	return nil
}

// track adds a WebSocket session to those Close closes; it is false when
// the server is closing.
func (s *Server) track(c io.Closer, on bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if on && s.closing {
		return false
	}
	if on {
		s.conns[c] = true
	} else {
		delete(s.conns, c)
	}
	return true
}

// busy says some episode is in a request.
func (s *Server) busy() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range s.episodes {
		if !e.mu.TryLock() {
			return true
		}
		e.mu.Unlock()
	}
	return false
}

func newID() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// seedOf is an episode's sandbox seed when the reset gives none: stable
// for an episode id.
func seedOf(id string) int64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return int64(h.Sum64() >> 1)
}

// Error is a request's failure: the HTTP status, OpenEnv's error code, and
// a message that says what to do.
type Error struct {
	Status  int
	Code    string
	Message string
	Busy    bool // every episode slot is taken: retry later
}

func (e *Error) Error() string { return e.Message }

// OpenEnv's WebSocket error codes.
const (
	codeValidation = "VALIDATION_ERROR"
	codeExecution  = "EXECUTION_ERROR"
	codeCapacity   = "CAPACITY_REACHED"
	codeSession    = "SESSION_ERROR"
	codeJSON       = "INVALID_JSON"
	codeType       = "UNKNOWN_TYPE"
	codeAuth       = "UNAUTHORIZED"
)

func errorf(status int, code, format string, a ...any) *Error {
	return &Error{Status: status, Code: code, Message: fmt.Sprintf(format, a...)}
}
