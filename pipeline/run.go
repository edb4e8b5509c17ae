package pipeline

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"synth/agent"
	"synth/config"
	"synth/pyenv"
	"synth/rollout"
	"synth/rundir"
	"synth/runinfo"
	"synth/sandbox"
	"synth/schemas"
)

// Options are how a build runs, beside its Config.
type Options struct {
	Out     string    // the run directory
	Version string    // synth's version, for run.json
	Log     io.Writer // progress and stage lines; nil: discard
	// Terminal draws a live status line instead of periodic log lines.
	Terminal bool
	// Grace is how long rollouts in flight may run on after an interrupt
	// before they are abandoned (and redone by the next run); default 30s.
	Grace time.Duration
	// Expect is what an earlier run's Kaggle and arXiv sources collected
	// (its run.json's collected): the collection must bring each of those
	// files again with the same bytes, or the build stops naming what
	// changed (synth build --pinned).
	Expect []runinfo.Collected
}

// Summary is what a build did, stage by stage.
type Summary struct {
	Out      string
	UpToDate bool // nothing was left to do
	Stages   []StageCount
	Failures map[string]int // failure taxonomy word -> rollouts
	Shards   []string       // Parquet files written
	Rows     int            // rows in the dataset; 0 means the build produced nothing to train on
	// Lost counts the rollouts lost to infrastructure failures in this run:
	// not journaled, so that the same command redoes them.
	Lost    int
	Bench   string  // the benchmark folder
	CostUSD float64 // what the rollouts cost, over every shard
	Tokens  int64   // tokens the rollouts used, over every shard
	// ShardInfos are the shards a merge gathered, or the one a rollout ran.
	ShardInfos []runinfo.ShardInfo
	Elapsed    time.Duration
	clock      stageClock
	Writer     *runinfo.WriterCounts // the LLM writer's counts; nil for templates
	// Notes are what the run could not do and how to get it, such as the
	// tasks templates that became runnable could add (adviseNewTemplates).
	Notes []string
}

// StageCount is one line of the funnel.
type StageCount struct {
	Stage string
	In    int
	Out   int
	Note  string
}

func (s *Summary) add(stage string, in, out int, note string, args ...any) {
	s.Stages = append(s.Stages, StageCount{Stage: stage, In: in, Out: out, Note: fmt.Sprintf(note, args...)})
	s.clock.lap(stage, in, out)
}

// StageTimes is when each stage of the build ran and what it cost.
func (s *Summary) StageTimes() []schemas.StageTime { return s.clock.times }

// ErrConfigChanged is returned when the run directory was made with another
// config (rundir.ErrConfigChanged, which an eval's results folder shares).
var ErrConfigChanged = rundir.ErrConfigChanged

// builder is one build in progress: its run directory, config and the pieces
// its stages share.
type builder struct {
	cfg  config.Config
	opts Options
	dir  string
	work string // where rollouts are journaled: dir, or a shard's folder
	// readOnly runs no rollout: a stage with rollouts left to do fails
	// (merge reads a finished plan back).
	readOnly bool
	info     *runinfo.RunInfo
	log      io.Writer
	backend  sandbox.Backend
	llm      *endpoint     // the openai teacher's and the LLM writer's
	tch      agent.Teacher // see teacher
	files    *fileSet      // the run's files, for an adversary teacher
	format   agent.Format
	sum      *Summary
	indexes  []*trajIndex // the rollout journals read, closed by close
	// tasks is the task journal the run's tasks were read back from, slim
	// (see taskStore); empty when they are held whole.
	tasks taskStore
	// avoided are the earlier benchmarks the split kept clear of
	// (bench.exclude), for the benchmark's card.
	avoided []string
}

func newBuilder(cfg config.Config, opts Options) *builder {
	r := &builder{cfg: cfg, opts: opts, dir: opts.Out, work: opts.Out, log: opts.Log, llm: &endpoint{cfg: cfg.LLM}, sum: &Summary{Out: opts.Out, Failures: map[string]int{}, clock: newStageClock()}}
	if r.log == nil {
		r.log = io.Discard
	}
	return r
}

// saveStageTimes writes this build's stage times into run.json, whether the
// build finished, stopped or failed, so every run says where its time went.
func (r *builder) saveStageTimes() {
	if times := r.sum.StageTimes(); len(times) > 0 {
		r.info.StageTimes = times
		if err := r.info.Save(r.dir); err != nil {
			r.logf("%s: stage times: %v", rundir.RunInfo, err)
		}
	}
}

// newSandbox starts a build's sandbox backend; a test replaces it.
var newSandbox = sandbox.New

// sandbox is the run's sandbox backend, started on first use and stopped
// by close.
func (r *builder) sandbox() (sandbox.Backend, error) {
	if r.backend == nil {
		b, err := newSandbox(rollout.BackendConfig(r.cfg.Sandbox, r.cfg.InFlight()))
		if err != nil {
			return nil, fmt.Errorf("sandbox: %w", err)
		}
		r.backend = b
		r.recordZygoteThreads()
	}
	return r.backend, nil
}

// recordZygoteThreads notes in run.json's reproduction (saved with the
// stage times) the threads the sandbox's zygote runs beside its own, and
// says so when there are any: rows that print an address may then differ
// between builds. A shard writes no run.json; it says so in its log.
func (r *builder) recordZygoteThreads() {
	z, ok := r.backend.(interface{ ZygoteThreads() ([]string, error) })
	if !ok || r.info == nil || r.info.Reproduction == nil {
		return
	}
	threads, err := z.ZygoteThreads()
	if err != nil || len(threads) == 0 {
		return // a zygote that does not start fails the first sandbox, and says why there
	}
	r.info.Reproduction.ZygoteThreads = threads
	r.logf("sandbox: the zygote runs %d more thread(s) (%s), started by a module of sandbox.preload: rows that print an object address may differ between builds (synth doctor names them)",
		len(threads), strings.Join(threads, ", "))
}

func (r *builder) close() {
	for _, x := range r.indexes {
		x.Close()
	}
	r.tasks.close()
	if r.backend != nil {
		r.backend.Close()
	}
}

// open makes or reopens the run directory and refuses one made with another
// config.
func (r *builder) open(ctx context.Context) error {
	if err := os.MkdirAll(r.dir, 0o755); err != nil {
		return fmt.Errorf("run directory: %w", err)
	}
	info, err := runinfo.Read(r.dir)
	if err != nil {
		return err
	}
	hash := r.cfg.Hash()
	if info != nil && info.ConfigHash != hash {
		return fmt.Errorf("%w: %s holds a run made with another config (hash %s, now %s): use another -o, or delete %s to start over",
			ErrConfigChanged, r.dir, info.ConfigHash, hash, r.dir)
	}
	if info == nil {
		info = &runinfo.RunInfo{ConfigHash: hash, Config: r.cfg, Started: time.Now().UTC(), Stages: map[string]time.Time{}, Counts: map[string]int{}}
	}
	info.Config = r.cfg // the latest settings; those outside the hash may change between resumes
	info.Version = r.opts.Version
	py := runinfo.ProbePython(ctx, pythonOf(r.cfg))
	if err := sameEnvironment(r.dir, info.Python, py); err != nil {
		return fmt.Errorf("%w%s", err, templatesUnder(ctx, info, pythonOf(r.cfg)))
	}
	info.Python = py
	info.Reproduction = runinfo.ReproductionOf(r.cfg, info.Python)
	r.info = info
	return info.Save(r.dir)
}

// pythonOf is the sandbox's interpreter: the configured one, else the
// locked environment's.
func pythonOf(cfg config.Config) string {
	if cfg.Sandbox.Python != "" {
		return cfg.Sandbox.Python
	}
	return pyenv.Sandbox.Python()
}

// ErrEnvironmentChanged is returned when a run directory is resumed under
// another Python environment than the one that made it.
var ErrEnvironmentChanged = fmt.Errorf("%w: the Python environment changed", ErrConfigChanged)

// sameEnvironment refuses to go on in dir under now when the run was made
// under was. A run from before environments were recorded, or an
// interpreter that could not be probed, is not compared.
func sameEnvironment(dir string, was, now runinfo.PythonInfo) error {
	if was.Fingerprint == "" || now.Fingerprint == "" || was.Fingerprint == now.Fingerprint {
		return nil
	}
	return fmt.Errorf("%w: %s was made under %s, and sandbox.python is now %s: run again under the first (--python %s, or rebuild its lock with scripts/pyenv.sh sandbox), use another -o, or delete %s to start over",
		ErrEnvironmentChanged, dir, was.Describe(), now.Describe(), was.Executable, dir)
}

func (r *builder) logf(format string, args ...any) { fmt.Fprintf(r.log, format+"\n", args...) }

// fileSet is the collected files by id, with their host paths.
type fileSet struct {
	byID  map[string]schemas.File
	path  map[string]string
	order []string
}

func (fs *fileSet) inputs(t *schemas.Task) []sandbox.Input {
	in := make([]sandbox.Input, len(t.Files))
	for i, f := range t.Files {
		in[i] = sandbox.Input{Name: f.Name, Path: fs.path[f.ID]}
	}
	return in
}

// record adds a collected file's record to the set and the manifest j: a
// new file's record whole, a new provenance of a known file as a reference
// record (one short line, never the provenance so far), and nothing for a
// file the set holds already (a rerun of the collection).
func (fs *fileSet) record(j *rundir.Journal, f schemas.File, path string) error {
	if f.DuplicateOf != "" {
		fs.addSource(f.DuplicateOf, f.Source)
		return j.Append(schemas.File{DuplicateOf: f.DuplicateOf, Source: f.Source})
	}
	if _, ok := fs.byID[f.ID]; ok {
		return nil
	}
	fs.set(f, path)
	return j.Append(f)
}

// addSource appends a provenance to the file with id (its first Source
// stays first in Sources); a reference to a file the set lacks is ignored.
func (fs *fileSet) addSource(id string, src schemas.Source) {
	f, ok := fs.byID[id]
	if !ok {
		return
	}
	if len(f.Sources) == 0 {
		f.Sources = []schemas.Source{f.Source}
	}
	f.Sources = append(f.Sources, src)
	fs.byID[id] = f
}

// set records a file; a later record of the same content replaces the
// earlier one (it carries more provenance) but keeps its place.
func (fs *fileSet) set(f schemas.File, path string) {
	if _, ok := fs.byID[f.ID]; !ok {
		fs.order = append(fs.order, f.ID)
	}
	fs.byID[f.ID] = f
	fs.path[f.ID] = path
}

// FailureNote lists the failed rollouts by reason: "check_failed 2, max_turns 1".
func (s *Summary) FailureNote() string { return runinfo.CountsNote(s.Failures) }

// addWriter puts the writer's counts in the summary.
func (s *Summary) addWriter(wc *runinfo.WriterCounts) {
	s.Writer = wc
	s.add("write", wc.Drafts, wc.Kept, "tasks written by llm:%s; %s", wc.Model, wc.Note())
}

// grace is how long rollouts in flight may run on after an interrupt.
func (o Options) grace() time.Duration {
	if o.Grace > 0 {
		return o.Grace
	}
	return rollout.DefaultGrace
}
