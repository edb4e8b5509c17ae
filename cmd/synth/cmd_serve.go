package main

import (
	"fmt"
	"net"
	"os"
	"time"

	"github.com/spf13/cobra"

	"synth/bench"
	"synth/eval"
	"synth/pipeline"
	"synth/sandbox"
	"synth/serve"
	"synth/sources"
)

func init() { register(newServeCmd) }

type serveFlags struct {
	addr        string
	format      string
	maxTurns    int
	maxContext  int
	maxEpisodes int
	maxSessions int
	readTimeout time.Duration
	idle        time.Duration
	maxBytes    int64
	tokenEnv    string
	record      string
	python      string
	spares      int
	grace       time.Duration
	preload     bool
	preloadMin  string
	preloadN    int
}

func newServeCmd() *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve DIR",
		Short: "Serve a benchmark's or a run's tasks as an RL environment (OpenEnv's protocol)",
		Long: `serve makes the tasks of DIR an environment a trainer plays episodes in, over
OpenEnv's protocol, so that OpenEnv's client (openenv-core) and trainers built on
it talk to it unchanged. DIR is a benchmark folder (tasks.jsonl and data/, e.g.
out/bench) or a run directory whose planned training tasks are served (synth plan
or synth build -o RUN).

An episode:
  reset  picks a task (task_id: its id or benchmark index; none: the next in
         turn) and opens a fresh sandbox holding its files; the observation's
         messages are what a rollout's model sees first: the system prompt (in
         the format pybench or openai-tools; a reset may ask for either), the
         upload notice and the query
  step   takes the model's next message ({"message": {...}} or {"content": "..."});
         its code runs in the episode's interpreter, and the observation's
         messages are the cell's output exactly as synth build shows a teacher
  end    a final answer ("Finished: ..." or a reply without tool calls) or the
         turn cap; also no code twice, or a conversation past --max-context
         tokens. The sandbox is torn down and the isolated verifier runs the
         task's checks: reward 1 or 0, with every check's message and the
         failure reason, the verdict synth eval gives

Endpoints: POST /reset, POST /step, GET /state (HTTP: reset's observation has
the episode_id that step and state name), GET /ws (OpenEnv's WebSocket session,
which its client uses), GET /tasks, /metadata, /schema, /health, and /metrics
(episodes, steps, rewards, failure reasons, reset/step/cell/verify latency
percentiles).

Safety: at most --max-episodes episodes hold a sandbox at once; a reset past it
is answered at once with HTTP 503 (Retry-After: 1) or the WebSocket error code
CAPACITY_REACHED, never left waiting; a WebSocket session past --max-sessions is
refused with HTTP 503 before the upgrade. Every episode has its own sandbox and
limits (turns, observation size, request size, the sandbox's per-cell limits);
an episode no request touched for --idle-timeout is torn down. An HTTP request's
header and body must arrive within --read-timeout. A client's episode_id must be
1 to 128 letters, digits or ._:- (else 400); no path is made of it, and every
client string is quoted in the log. With
--token-env, every request but /health needs "Authorization: Bearer TOKEN"
(openenv-core 0.3.0's client sends no headers on its WebSocket: with a token,
use the HTTP endpoints or a WebSocket client that sets the header).
Ctrl-C stops taking resets, lets the requests in flight finish (up to --grace),
tears down what is left, and exits 0.

With --preload (as root), the episodes of a task whose csv, tsv or parquet
inputs total at least --preload-min fork from an interpreter that read them once,
at the task's first reset, with the pandas call a reference would use; the first
observation names them (inputs["data/x.csv"]). Each episode has its own
copy-on-write copy of the frames and its own namespaces, uid and workspace, whose
data/ is one read-only copy shared by all. A task whose read fails or passes the
preload limits (4 GiB, 60 s CPU, 2 min) is logged and served without.

With --record DIR2 every finished episode is journaled as an eval results folder
(DIR2/results.jsonl with trajectory and verdict, DIR2/artifacts/): synth view
DIR2 shows it, and on exit DIR2/summary.json and report.md score it.`,
		Example: `  synth serve out/bench                          # on 127.0.0.1:8000
  synth serve out/bench --addr 127.0.0.1:0 --format openai-tools --max-episodes 64
  SYNTH_SERVE_TOKEN=s3cret synth serve out --token-env SYNTH_SERVE_TOKEN --record episodes
  # a client (Python, openenv-core):
  #   from openenv.core.generic_client import GenericEnvClient
  #   with GenericEnvClient(base_url="http://127.0.0.1:8000").sync() as env:
  #       r = env.reset(task_id="1")
  #       r = env.step({"content": "Finished: 5"});  print(r.reward)`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("serve needs one DIR: a benchmark folder (%s and %s/) or a run directory; got %d", bench.TasksFile, bench.DataDir, len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error { return runServe(cmd, args[0], f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.addr, "addr", "127.0.0.1:8000", "listen on `ADDR` (port 0: any free port, printed)")
	fl.StringVar(&f.format, "format", "pybench", "episodes' default prompt format: pybench or openai-tools (a reset may ask for the other)")
	fl.IntVar(&f.maxTurns, "max-turns", 10, "assistant turns per episode at most")
	fl.IntVar(&f.maxContext, "max-context", 0, "end an episode with context_length once its conversation passes this many tokens (0: no cap)")
	fl.IntVar(&f.maxEpisodes, "max-episodes", serve.DefaultMaxEpisodes, "episodes open at once at most; more resets are answered busy (HTTP 503)")
	fl.IntVar(&f.maxSessions, "max-sessions", 0, "WebSocket sessions open at once at most; more are refused with HTTP 503 (0: 4 × --max-episodes, at least 64)")
	fl.DurationVar(&f.readTimeout, "read-timeout", serve.DefaultReadTimeout, "how long an HTTP request's header and body may take to arrive")
	fl.DurationVar(&f.idle, "idle-timeout", serve.DefaultIdleTimeout, "tear down an episode no request touched for this long")
	fl.Int64Var(&f.maxBytes, "max-message-bytes", serve.DefaultMaxMessageBytes, "largest request body or WebSocket message")
	fl.StringVar(&f.tokenEnv, "token-env", "", "require the bearer token held in environment variable `NAME` on every request but /health")
	fl.StringVar(&f.record, "record", "", "journal every finished episode into `DIR2` (an eval results folder)")
	fl.StringVar(&f.python, "python", "", "the sandbox's interpreter; default the locked environment (synth doctor shows it)")
	fl.IntVar(&f.spares, "spares", 0, "interpreters forked ahead of resets, so that a burst of up to this many resets pays for no fork (each idle spare costs about 4 MiB; 0: the sandbox's default, 2)")
	fl.DurationVar(&f.grace, "grace", 30*time.Second, "at shutdown, how long the requests in flight may finish")
	fl.BoolVar(&f.preload, "preload", false, "episodes of a task whose csv, tsv or parquet inputs total at least --preload-min start from an interpreter that has already read them into the dict inputs (needs root; docs/SERVE.md)")
	fl.StringVar(&f.preloadMin, "preload-min", "16MiB", "with --preload, the `SIZE` of a task's table inputs from which its episodes are preloaded")
	fl.IntVar(&f.preloadN, "preload-tasks", serve.DefaultPreloadTasks, "with --preload, how many tasks at most keep an interpreter holding their inputs (each holds its frames in memory)")
	return cmd
}

func runServe(cmd *cobra.Command, dir string, f serveFlags) error {
	ctx := cmd.Context()
	log := cmd.ErrOrStderr()
	if f.maxEpisodes < 1 {
		return usagef("--max-episodes %d: give at least 1", f.maxEpisodes)
	}
	if f.spares < 0 {
		return usagef("--spares %d: give 0 (the default, 2) or more", f.spares)
	}
	format, err := serve.FormatNamed(f.format)
	if err != nil {
		return usagef("--format: %v", err)
	}
	var token string
	if f.tokenEnv != "" {
		if token = os.Getenv(f.tokenEnv); token == "" {
			return usagef("--token-env %s: the variable is unset or empty: export %s=TOKEN first", f.tokenEnv, f.tokenEnv)
		}
	}
	src, isBench, err := eval.ServeBench(dir, log)
	if err == nil && !isBench {
		src, err = pipeline.ServePlan(dir, log)
	}
	if err != nil {
		return err
	}
	cfg := serve.Config{Format: format, MaxTurns: f.maxTurns, MaxContext: f.maxContext, MaxEpisodes: f.maxEpisodes,
		IdleTimeout: f.idle, MaxMessageBytes: f.maxBytes, ReadTimeout: f.readTimeout, MaxSessions: f.maxSessions,
		Token: token, Version: version}
	if f.preload {
		if os.Geteuid() != 0 {
			return usagef("--preload needs root (a workspace tmpfs, bind mounts and a uid per episode): run synth serve as root, or leave --preload off")
		}
		if cfg.PreloadMin, err = sources.ParseSize(f.preloadMin); err != nil {
			return usagef("--preload-min: %v", err)
		}
		if f.preloadN < 1 {
			return usagef("--preload-tasks %d: give at least 1", f.preloadN)
		}
		cfg.PreloadTasks = f.preloadN
		sc := sandbox.Config{Python: f.python, Slots: f.maxEpisodes + 2, Spares: f.spares, Residents: residents()}
		cfg.Preload = func(inputs []sandbox.Input, reads []sandbox.Read) (sandbox.Backend, error) {
			return sandbox.NewTemplate(sc, inputs, reads, sandbox.TemplateLimits{})
		}
	}
	var rec *eval.ServeRecord
	if f.record != "" {
		if rec, err = eval.OpenServeRecord(f.record, dir, src.Tasks, version); err != nil {
			return err
		}
		cfg.Recorder = rec
	}
	// A verification opens its sandbox after its episode's closed; two more
	// slots keep a reset from waiting behind one being torn down.
	b, err := sandbox.New(sandbox.Config{Python: f.python, Slots: f.maxEpisodes + 2, Spares: f.spares, Residents: residents()})
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	defer b.Close()
	// The warm interpreter starts now, not on the first reset.
	if w, ok := b.(interface{ Warm() error }); ok {
		if err := w.Warm(); err != nil {
			return fmt.Errorf("sandbox: %w", err)
		}
	}
	s, err := serve.New(src, b, cfg, log)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return fmt.Errorf("--addr %s: %w", f.addr, err)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "serving %d tasks of %s on http://%s (OpenEnv: POST /reset, POST /step, GET /state, GET /ws; GET /metrics)\n",
		len(src.Tasks), dir, ln.Addr())
	err = s.Serve(ctx, ln, f.grace)
	m := s.Metrics()
	fmt.Fprintf(log, "serve: stopped: %d episodes, %d finished (%d with reward 1), %d reaped idle, %d abandoned, %d resets refused busy\n",
		m.Counts.Episodes, m.Counts.Finished, m.Counts.Passed, m.Counts.Reaped, m.Counts.Abandoned, m.Counts.Busy)
	if rec != nil {
		if cerr := rec.Close(); cerr != nil && err == nil {
			err = cerr
		}
		fmt.Fprintf(log, "serve: recorded episodes in %s (synth view %s -o SITE)\n", f.record, f.record)
	}
	return err
}
