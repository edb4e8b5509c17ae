package main

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"synth/generators/template"
	"synth/pipeline"
	"synth/sandbox"
	"synth/sources/kaggle"
)

func init() { register(newDoctorCmd) }

func newDoctorCmd() *cobra.Command {
	var configPath string
	cmd := &cobra.Command{
		Use:   "doctor",
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
			cfg := pipeline.Default()
			if configPath != "" {
				var err error
				if cfg, err = pipeline.Load(configPath); err != nil {
					return err
				}
			}
			return doctor(cmd, cfg)
		},
	}
	cmd.Flags().StringVarP(&configPath, "config", "c", "", "config file whose sandbox settings to check")
	return cmd
}

func doctor(cmd *cobra.Command, cfg pipeline.Config) error {
	w := cmd.OutOrStdout()
	python := cfg.Sandbox.Python
	if python == "" {
		python = "/usr/bin/python3"
	}
	py := pipeline.ProbePython(cmd.Context(), python)
	fmt.Fprintln(w, "Python")
	if py.Version == "" {
		fmt.Fprintf(w, "  %s: not usable — install Debian's python3 (make deps), or set sandbox.python\n", python)
	} else {
		fmt.Fprintf(w, "  %s: Python %s\n", python, py.Version)
		names := make([]string, 0, len(py.Packages))
		for k := range py.Packages {
			names = append(names, k)
		}
		sort.Strings(names)
		parts := make([]string, len(names))
		for i, n := range names {
			parts[i] = n + " " + py.Packages[n]
		}
		fmt.Fprintf(w, "  packages: %s\n", strings.Join(parts, ", "))
	}

	fmt.Fprintln(w, "\nSandbox isolation")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, l := range sandbox.Doctor(cfg.Sandbox) {
		state := "off"
		if l.On {
			state = "on"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", l.Name, state, l.Detail)
	}
	tw.Flush()

	fmt.Fprintln(w, "\nKaggle credentials")
	if c, err := kaggle.LoadCredentials(cfg.Sources.Kaggle.Credentials, nil); err != nil {
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

// printTemplates says which templates this interpreter can run, asking it
// for the modules the templates need, as synth build does.
func printTemplates(ctx context.Context, w io.Writer, python string) error {
	have, err := template.ProbeModules(ctx, python, template.Modules())
	if err != nil {
		return err
	}
	ok, skipped := template.Available(have)
	fmt.Fprintf(w, "  %d of %d templates can run here\n", len(ok), len(ok)+len(skipped))
	for _, s := range skipped {
		fmt.Fprintf(w, "  - %s\n", s)
	}
	return nil
}
