package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"synth/config"
	"synth/rollout"
	"synth/sandbox"
	"synth/schemas"
)

func init() { register(newSandboxCmd) }

// sandboxFlags are the flags shared by `synth sandbox` and `synth sandbox exec`.
type sandboxFlags struct {
	config    string
	data      []string
	workspace string
	timeout   time.Duration
	seed      int64
	isolation string
}

func (f *sandboxFlags) add(cmd *cobra.Command) {
	fl := cmd.PersistentFlags()
	fl.StringVarP(&f.config, "config", "c", "", "config file whose sandbox section to use (default: built-in defaults)")
	fl.StringArrayVarP(&f.data, "data", "d", nil, "put `FILE` under data/ (repeatable; NAME=FILE to rename it)")
	fl.StringVarP(&f.workspace, "workspace", "w", "", "run in this existing `DIR` and keep it (default: a fresh one, removed at the end)")
	fl.DurationVarP(&f.timeout, "timeout", "t", 0, "wall time per cell, e.g. 10s (default: sandbox.limits.cell_timeout, else 60s)")
	fl.Int64Var(&f.seed, "seed", 0, "seed for random, numpy and PYTHONHASHSEED")
	fl.StringVar(&f.isolation, "isolation", "", "auto, strict or off (default: sandbox.isolation, else auto)")
}

// residents are the modules the sandboxes synth starts hold resident
// (rollout.Residents: the checks library, which verifies rollouts and
// episodes), so that `synth sandbox` and `synth doctor` start the zygote
// build, eval and serve run.
func residents() []sandbox.Resident { return rollout.Residents() }

// open starts a backend and a sandbox as the flags say.
func (f *sandboxFlags) open(ctx context.Context) (sandbox.Backend, sandbox.Sandbox, error) {
	cfg := config.Default()
	if f.config != "" {
		var err error
		if cfg, err = config.Load(f.config); err != nil {
			return nil, nil, err
		}
	}
	sc := cfg.Sandbox
	sc.Residents = residents()
	if sc.Spares == 0 {
		// One sandbox, one interpreter at a time: spares forked beside the
		// first would compete with it for the CPU at start, and be killed
		// unused at exit. One lost to a timeout or a crash is forked again
		// when the next cell needs it. A config's spares still apply.
		sc.Spares = -1
	}
	if f.isolation != "" {
		sc.Isolation = f.isolation
	}
	if f.timeout < 0 {
		return nil, nil, usagef("--timeout %s: must be positive", f.timeout)
	}
	spec := sandbox.Spec{Workspace: f.workspace, Seed: f.seed, Limits: sandbox.Limits{CellTimeout: f.timeout}}
	for _, d := range f.data {
		name, path, ok := strings.Cut(d, "=")
		if !ok {
			name, path = filepath.Base(d), d
		}
		if _, err := os.Stat(path); err != nil {
			return nil, nil, usagef("--data %s: %v", d, err)
		}
		spec.Inputs = append(spec.Inputs, sandbox.Input{Name: name, Path: path})
	}
	b, err := sandbox.New(sc)
	if err != nil {
		return nil, nil, err
	}
	sb, err := b.Open(ctx, spec)
	if err != nil {
		b.Close()
		return nil, nil, err
	}
	return b, sb, nil
}

func newSandboxCmd() *cobra.Command {
	var f sandboxFlags
	cmd := &cobra.Command{
		Use:   "sandbox [-c FILE]",
		Short: "Run Python in a sandbox interactively, or a file cell by cell",
		Long: `sandbox opens the same isolated, stateful Python interpreter that rollouts use,
to debug a task by hand: variables persist between cells, the value of a cell's
last expression is shown, and the limits and isolation of synth.yaml apply.

Without a subcommand it reads cells from standard input: a line is a cell,
except that a line ending in ':' (or leaving a bracket open) starts a block
that ends at the first empty line. Type exit or press Ctrl-D to leave.

The working directory holds data/ (the --data files, read-only) and output/.
With --workspace the session runs in that directory and keeps it; otherwise
it uses a fresh directory and removes it at the end.`,
		Example: `  synth sandbox -d sales.csv
  >>> import pandas as pd
  >>> pd.read_csv('data/sales.csv').describe()

  synth sandbox --workspace out/ws-debug --timeout 10s
  synth sandbox exec solution.py -d sales.csv`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			b, sb, err := f.open(cmd.Context())
			if err != nil {
				return err
			}
			defer b.Close()
			defer sb.Close()
			return interactive(cmd.Context(), sb, cmd.InOrStdin(), cmd.OutOrStdout(), stdinIsTerminal(cmd.InOrStdin()))
		},
	}
	f.add(cmd)
	cmd.AddCommand(newSandboxExecCmd(&f))
	return cmd
}

func newSandboxExecCmd(f *sandboxFlags) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "exec FILE.py",
		Short: "Run a Python file cell by cell, printing each observation",
		Long: `exec runs FILE.py in a sandbox cell by cell, the way a rollout would: cells are
split at lines starting with "# %%" (the Jupytext and VS Code cell marker); a
file without markers is one cell. Every cell runs, even after one fails; each
prints its observation, headed by its number, status and wall time.

Status is ok, error (the cell raised), timeout (it ran out of time: the
interpreter was restarted and earlier state is lost) or crash (the interpreter
died; state is lost). The exit code is 0 when every cell is ok, 1 otherwise.

With --json, each cell prints one JSON object on its own line, for scripts:
  {"cell":1,"status":"ok","output":"42\n","elapsed_ms":3,"state_lost":false,"truncated":false}

FILE may be - to read standard input.`,
		Example: `  synth sandbox exec solution.py -d data.csv
  synth sandbox exec --json --timeout 5s cells.py | jq -r .status
  printf '# %%%%\nx = 1\n# %%%%\nx + 1\n' | synth sandbox exec -`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("sandbox exec takes one FILE.py (or - for standard input), got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := readSource(args[0], cmd.InOrStdin())
			if err != nil {
				return usagef("sandbox exec: %v", err)
			}
			b, sb, err := f.open(cmd.Context())
			if err != nil {
				return err
			}
			defer b.Close()
			defer sb.Close()
			return execCells(cmd.Context(), sb, splitCells(src), cmd.OutOrStdout(), asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per cell (status, output, elapsed_ms)")
	return cmd
}

func readSource(path string, stdin io.Reader) (string, error) {
	if path == "-" {
		b, err := io.ReadAll(stdin)
		return string(b), err
	}
	b, err := os.ReadFile(path)
	return string(b), err
}

var cellMarker = regexp.MustCompile(`(?m)^# ?%%.*$`)

// splitCells cuts src at "# %%" lines; empty cells are dropped.
func splitCells(src string) []string {
	var cells []string
	for _, c := range cellMarker.Split(src, -1) {
		if strings.TrimSpace(c) != "" {
			cells = append(cells, strings.Trim(c, "\n"))
		}
	}
	return cells
}

// cellJSON is one line of `synth sandbox exec --json`.
type cellJSON struct {
	Cell      int    `json:"cell"`
	Status    string `json:"status"`
	Output    string `json:"output"`
	ElapsedMS int64  `json:"elapsed_ms"`
	StateLost bool   `json:"state_lost"`
	Truncated bool   `json:"truncated"`
}

// errCellsFailed makes exit code 1 after every cell has run and printed.
var errCellsFailed = errors.New("sandbox exec: not every cell ended ok")

func execCells(ctx context.Context, sb sandbox.Sandbox, cells []string, w io.Writer, asJSON bool) error {
	failed := 0
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i, code := range cells {
		r, err := sb.Exec(ctx, code)
		if err != nil {
			return fmt.Errorf("sandbox exec: cell %d: %w", i+1, err)
		}
		if r.Status != schemas.StatusOK {
			failed++
		}
		if asJSON {
			enc.Encode(cellJSON{Cell: i + 1, Status: r.Status, Output: r.Output, ElapsedMS: r.Elapsed.Milliseconds(), StateLost: r.StateLost, Truncated: r.Truncated})
			continue
		}
		fmt.Fprintf(w, "── cell %d: %s (%.1f ms)\n", i+1, r.Status, float64(r.Elapsed.Microseconds())/1000)
		io.WriteString(w, r.Output)
		if r.Output != "" && !strings.HasSuffix(r.Output, "\n") {
			io.WriteString(w, "\n")
		}
	}
	if failed > 0 {
		return errCellsFailed
	}
	return nil
}

// interactive reads cells from in until EOF or "exit".
func interactive(ctx context.Context, sb sandbox.Sandbox, in io.Reader, w io.Writer, prompt bool) error {
	if prompt {
		fmt.Fprintf(w, "synth sandbox in %s (data/ read-only, output/); a line ending in ':' starts a block ended by an empty line; exit or Ctrl-D to leave\n", sb.Workspace())
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	var block []string
	ps := func() {
		if !prompt {
			return
		}
		if len(block) > 0 {
			io.WriteString(w, "... ")
		} else {
			io.WriteString(w, ">>> ")
		}
	}
	runBlock := func() error {
		code := strings.Join(block, "\n")
		block = block[:0]
		if strings.TrimSpace(code) == "" {
			return nil
		}
		r, err := sb.Exec(ctx, code)
		if err != nil {
			return err
		}
		io.WriteString(w, r.Output)
		if r.Output != "" && !strings.HasSuffix(r.Output, "\n") {
			io.WriteString(w, "\n")
		}
		if r.Status != schemas.StatusOK && prompt {
			fmt.Fprintf(w, "[%s]\n", r.Status)
		}
		return nil
	}
	for ps(); sc.Scan(); ps() {
		line := sc.Text()
		if len(block) == 0 {
			switch strings.TrimSpace(line) {
			case "exit", "quit", "exit()", "quit()":
				return nil
			}
		}
		if len(block) > 0 && strings.TrimSpace(line) == "" {
			if err := runBlock(); err != nil {
				return err
			}
			continue
		}
		block = append(block, line)
		if len(block) == 1 && !opensBlock(line) {
			if err := runBlock(); err != nil {
				return err
			}
		}
	}
	if err := runBlock(); err != nil {
		return err
	}
	return sc.Err()
}

// opensBlock reports whether a first line needs more lines: it ends in ':'
// or '\', or leaves a bracket open.
func opensBlock(line string) bool {
	t := strings.TrimSpace(line)
	if i := strings.Index(t, " #"); i >= 0 {
		t = strings.TrimSpace(t[:i])
	}
	if strings.HasSuffix(t, ":") || strings.HasSuffix(t, "\\") || strings.HasPrefix(t, "@") {
		return true
	}
	depth := 0
	for _, r := range t {
		switch r {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		}
	}
	return depth > 0 || strings.Count(t, `"""`)%2 == 1 || strings.Count(t, `'''`)%2 == 1
}

// stdinIsTerminal reports whether cells are typed by a person (prompts shown).
func stdinIsTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
