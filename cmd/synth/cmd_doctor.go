package main

import (
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
)

func init() { register(newDoctorCmd) }

func newDoctorCmd() *cobra.Command {
	var configPath string
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Say what this machine can run: Python, packages, sandbox isolation, templates",
		Long: `doctor checks what synth needs on this machine and says how to fix what is
missing: the Python interpreter and its packages, each isolation layer of the
sandbox (on or off), and which task templates can run here.`,
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

	fmt.Fprintln(w, "\nTask templates")
	printTemplates(w, py.Packages)

	fmt.Fprintln(w, "\nTest tools")
	if _, err := exec.LookPath("node"); err != nil {
		fmt.Fprintln(w, "  node: missing — the tests that read Parquet with DuckDB will skip (apt-get install nodejs npm)")
	} else {
		fmt.Fprintln(w, "  node: found (DuckDB reads the emitted Parquet in tests)")
	}
	return nil
}

func printTemplates(w io.Writer, have map[string]string) {
	var ready, missing int
	lacking := map[string][]string{}
	for _, t := range template.Templates() {
		var need []string
		for _, m := range t.Requires {
			if _, ok := have[m]; !ok {
				need = append(need, m)
			}
		}
		if len(need) == 0 {
			ready++
			continue
		}
		missing++
		key := strings.Join(need, ", ")
		lacking[key] = append(lacking[key], t.Name)
	}
	fmt.Fprintf(w, "  %d templates can run here", ready)
	if missing == 0 {
		fmt.Fprintln(w, "; all of them")
		return
	}
	fmt.Fprintf(w, "; %d need Python modules this interpreter lacks:\n", missing)
	keys := make([]string, 0, len(lacking))
	for k := range lacking {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "  - %s: %s (install the Debian package python3-<module>, e.g. EXTRA_DEBS=\"python3-docx\" make deps)\n", k, strings.Join(lacking[k], ", "))
	}
}
