package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"synth/config"
	"synth/generators/template"
	"synth/pyenv"
	"synth/runinfo"
	"synth/sandbox"
	"synth/sources/kaggle"
)

func init() { register(newDoctorCmd) }

func newDoctorCmd() *cobra.Command {
	var configPath string
	cmd := &cobra.Command{
		Use:   "doctor [-c FILE]",
		Short: "Say what this machine can run: Python, packages, sandbox isolation, templates",
		Long: `doctor checks what synth needs on this machine and says how to fix what is
missing: the Python interpreter and its packages, each isolation layer of the
sandbox (on or off), which Kaggle credential kaggle: sources would use (its
kind and where it was found, never its value), and which task templates can
run here.`,
		Example: `  synth doctor
  synth doctor --config synth.yaml   # check the interpreter and sandbox settings of a config`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg := config.Default()
			if configPath != "" {
				var err error
				if cfg, err = config.Load(configPath); err != nil {
					return err
				}
			}
			return doctor(cmd, cfg)
		},
	}
	cmd.Flags().StringVarP(&configPath, "config", "c", "", "config file whose sandbox settings to check")
	return cmd
}

func doctor(cmd *cobra.Command, cfg config.Config) error {
	w := cmd.OutOrStdout()
	python := cfg.Sandbox.Python
	if python == "" {
		python = pyenv.Sandbox.Python()
	}
	fmt.Fprintln(w, "Python")
	printEnvironment(cmd.Context(), w, python, cfg.Sandbox.Python == "")

	fmt.Fprintln(w, "\nSandbox isolation")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	sc := cfg.Sandbox
	sc.Residents = residents()
	for _, l := range sandbox.Doctor(sc) {
		state := "off"
		if l.On {
			state = "on"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", l.Name, state, l.Detail)
	}
	tw.Flush()

	fmt.Fprintln(w, "\nKaggle credentials")
	if c, err := kaggle.LoadCredentials(cfg.Sources.Kaggle.Credentials, nil); errors.Is(err, kaggle.ErrNoCredentials) {
		fmt.Fprintf(w, "  no credentials (anonymous: public datasets only)\n  %v\n", err)
	} else if err != nil {
		fmt.Fprintf(w, "  none: %v\n", err)
	} else {
		fmt.Fprintf(w, "  %s\n", c.Describe())
	}

	fmt.Fprintln(w, "\nTask templates")
	if err := printTemplates(cmd.Context(), w, python); err != nil {
		fmt.Fprintf(w, "  cannot tell: %v\n", err)
	}

	fmt.Fprintln(w, "\nTest tools")
	if _, err := exec.LookPath("node"); err != nil {
		fmt.Fprintln(w, "  node: missing — the tests that read Parquet with DuckDB will skip (apt-get install nodejs npm)")
	} else {
		fmt.Fprintln(w, "  node: found (DuckDB reads the emitted Parquet in tests)")
	}
	return nil
}

// printEnvironment says which interpreter the sandbox runs, how it compares
// with the sandbox lock, and how to fix what differs.
func printEnvironment(ctx context.Context, w io.Writer, python string, isDefault bool) {
	env := pyenv.Sandbox
	fmt.Fprintf(w, "  lock: %s (%d packages, %s)\n", env.ID(), len(env.Pins()), env.Dir())
	if isDefault && !env.Built() {
		fmt.Fprintf(w, "  %s: not built — run make deps (or scripts/pyenv.sh sandbox) in synth's checkout, or set sandbox.python (--python /usr/bin/python3 for Debian's)\n", python)
		return
	}
	py := runinfo.ProbePython(ctx, python)
	if py.Version == "" {
		fmt.Fprintf(w, "  %s: not usable — run make deps, or set sandbox.python to a working interpreter\n", python)
		return
	}
	fmt.Fprintf(w, "  interpreter: %s (Python %s)\n", python, py.Version)
	missing, different := env.Drift(py.Distributions)
	switch {
	case py.Lock != "":
		fmt.Fprintf(w, "  environment: the locked environment, every package at its locked version\n")
	case isDefault:
		fmt.Fprintf(w, "  environment: drifted from its lock — rebuild it: rm -rf %s && scripts/pyenv.sh sandbox\n", env.Dir())
	default:
		fmt.Fprintf(w, "  environment: not the lock (sandbox.python is set); data made here records fingerprint %s\n", py.Fingerprint)
	}
	if len(missing) > 0 {
		fmt.Fprintf(w, "  missing from the lock (%d): %s\n", len(missing), strings.Join(missing, ", "))
	}
	if len(different) > 0 {
		fmt.Fprintf(w, "  other versions than the lock (%d): %s\n", len(different), strings.Join(different, ", "))
	}
	names := make([]string, 0, len(py.Packages))
	for k := range py.Packages {
		names = append(names, k)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + " " + py.Packages[n]
	}
	fmt.Fprintf(w, "  main packages: %s\n", strings.Join(parts, ", "))
}

// printTemplates says which templates this interpreter can run, asking it
// for the modules the templates need, as synth build does.
func printTemplates(ctx context.Context, w io.Writer, python string) error {
	have, err := template.ProbeModules(ctx, python, template.Modules())
	if err != nil {
		return err
	}
	if lack := missingCore(have); len(lack) > 0 {
		fmt.Fprintf(w, "  PROBLEM: %s lacks %s, which every template's reference solution uses: a build under it fails its rollouts.\n", python, strings.Join(lack, ", "))
		fmt.Fprintf(w, "  fix: delete sandbox.python from the config (and --python from the command) to use the locked environment (make deps builds it), or install them into %s\n", python)
		return nil
	}
	ok, skipped := template.Available(have)
	fmt.Fprintf(w, "  %d of %d templates can run here\n", len(ok), len(ok)+len(skipped))
	for _, s := range skipped {
		fmt.Fprintf(w, "  - %s\n", s)
	}
	return nil
}

// missingCore lists the modules every template assumes (template.CoreModules)
// that an interpreter cannot import.
func missingCore(have map[string]bool) []string {
	var lack []string
	for _, m := range template.CoreModules {
		if !have[m] {
			lack = append(lack, m)
		}
	}
	return lack
}
