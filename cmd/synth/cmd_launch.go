package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"synth/config"
	"synth/launch"
	"synth/rundir"
)

func init() { register(newLaunchCmd) }

func newLaunchCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "launch slurm|k8s",
		Short: "Run a build on Slurm or Kubernetes: plan, N rollout shards, merge",
		Long: `launch writes (and for Slurm submits) the jobs that run a build on a cluster:
synth plan, then N synth rollout shards in parallel, then synth merge, over a
run directory every job sees (a shared filesystem, or a volume). The dataset is
the same as one synth build of the same config. synth runs no scheduler of its
own: Slurm or Kubernetes does.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newLaunchSlurmCmd(), newLaunchK8sCmd())
	return cmd
}

func newLaunchSlurmCmd() *cobra.Command {
	var (
		f      buildFlags
		s      launch.Slurm
		dryRun bool
		sbatch string
	)
	cmd := &cobra.Command{
		Use:   "slurm -o DIR --shards N",
		Short: "Write and submit sbatch jobs: plan, an array of N rollouts, merge, chained with afterok",
		Long: `launch slurm writes three sbatch scripts into RUN/slurm/ and submits them:

  plan.sbatch      synth plan -o RUN --config RUN/slurm/synth.yaml
  rollout.sbatch   an array of N tasks (--array=1-N), each synth rollout --shard auto
  merge.sbatch     synth merge -o RUN

each after the one before succeeded (--dependency=afterok). The build's flags
and config are resolved now and written to RUN/slurm/synth.yaml. RUN, the
config and the synth binary must be on a filesystem every node sees; jobs run
in the current directory (--chdir), so relative paths in the config hold. Logs
go to RUN/slurm/logs/.

A shard that failed or was cancelled resumes where it stopped: resubmit it
with sbatch --array=I RUN/slurm/rollout.sbatch, then the merge after it and
after the rest of the first array:
  sbatch --dependency=afterok:NEWJOB,afterany:ARRAYJOB RUN/slurm/merge.sbatch
(the first merge job waits forever on a dependency that can no longer
succeed: scancel it). A merge that still finds a shard unfinished refuses
and names it.

Every teacher works here; with --teacher openai the jobs read the API key
from the variable key_env names (OPENAI_API_KEY by default), which sbatch
passes on from this shell. A value with a control character (a newline...)
in any flag, or a space in an #SBATCH value (--partition, --time, --mem,
the paths), is refused; the paths in the scripts' commands are quoted.`,
		Example: `  synth launch slurm -o /shared/run1 --shards 8 --partition cpu --time 04:00:00 \
      --cpus-per-task 16 --mem 32G --sbatch=--account=myproj --config synth.yaml
  synth launch slurm -o /shared/run1 --shards 8 --dry-run     # write the scripts, print the commands`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if s.Shards < 1 {
				return usagef("launch slurm needs --shards N (N >= 1)")
			}
			cfg, err := resolveConfig(cmd, f)
			if err != nil {
				return err
			}
			if err := launchPaths(&s.Run, &s.Synth, &s.Workdir, f.out); err != nil {
				return err
			}
			if s.Config, err = writeLaunchConfig(launch.Dir(s.Run), cfg); err != nil {
				return err
			}
			scripts, err := launch.WriteSlurm(s)
			if err != nil {
				return usageError{err}
			}
			w := cmd.OutOrStdout()
			if dryRun {
				fmt.Fprintf(w, "wrote %s, %s and %s; submit them with:\n", scripts[0], scripts[1], scripts[2])
				for _, c := range launch.Commands(scripts) {
					fmt.Fprintln(w, "  "+c)
				}
				return nil
			}
			jobs, err := launch.Submit(cmd.Context(), sbatch, scripts)
			for i, j := range jobs {
				fmt.Fprintf(w, "%-8s job %s  %s\n", []string{"plan", "rollout", "merge"}[i], j.ID, j.Script)
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "logs in %s; when the merge job is done: %s\n", filepath.Join(launch.Dir(s.Run), "logs"), filepath.Join(s.Run, rundir.DatasetDir))
			return nil
		},
	}
	addBuildFlags(cmd, &f)
	fl := cmd.Flags()
	fl.IntVar(&s.Shards, "shards", 0, "rollout shards: the size of the job array")
	fl.StringVar(&s.Partition, "partition", "", "sbatch --partition")
	fl.StringVar(&s.Time, "time", "", "sbatch --time of each job, e.g. 04:00:00")
	fl.IntVar(&s.CPUsPerTask, "cpus-per-task", 0, "sbatch --cpus-per-task: a shard runs one rollout per CPU unless the config says otherwise")
	fl.StringVar(&s.Mem, "mem", "", "sbatch --mem of each job, e.g. 16G")
	fl.StringArrayVar(&s.Extra, "sbatch", nil, "another sbatch option for every job, repeatable, e.g. --sbatch=--account=abc")
	fl.StringVar(&s.Synth, "synth", "", "the synth binary the jobs run, as the nodes see it; default: this one")
	fl.BoolVar(&dryRun, "dry-run", false, "write the scripts and print the sbatch commands; submit nothing")
	fl.StringVar(&sbatch, "sbatch-command", "sbatch", "the sbatch program")
	return cmd
}

// launchPaths makes the run directory, the synth binary and the working
// directory absolute: jobs run elsewhere.
func launchPaths(run, synth, workdir *string, out string) error {
	var err error
	if *run, err = filepath.Abs(out); err != nil {
		return err
	}
	if *synth == "" {
		if *synth, err = os.Executable(); err != nil {
			return fmt.Errorf("launch: where is synth? %w (pass --synth PATH)", err)
		}
	}
	if *synth, err = filepath.Abs(*synth); err != nil {
		return err
	}
	*workdir, err = os.Getwd()
	return err
}

// writeLaunchConfig writes the resolved config for the plan job, and checks
// that it reads back to the same config.
func writeLaunchConfig(dir string, cfg config.Config) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("launch: %w", err)
	}
	p := filepath.Join(dir, "synth.yaml")
	text := "# The config synth launch resolved from its flags; the plan job reads it.\n" + cfg.YAML()
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		return "", fmt.Errorf("launch: %w", err)
	}
	if err := readsBack(p, cfg); err != nil {
		return "", err
	}
	return p, nil
}

// readsBack checks that the config file p, written from cfg, reads back as
// the same config: the jobs must build what this command resolved.
func readsBack(p string, cfg config.Config) error {
	back, err := config.Load(p)
	if err != nil {
		return fmt.Errorf("launch: the config written to %s does not read back: %w (this is a bug in synth)", p, err)
	}
	if back.Hash() != cfg.Hash() {
		return fmt.Errorf("launch: the config written to %s reads back as another config (hash %s, want %s): this is a bug in synth", p, back.Hash(), cfg.Hash())
	}
	return nil
}

// textReadsBack is readsBack for a config that travels as text (the
// Kubernetes ConfigMap).
func textReadsBack(text string, cfg config.Config) error {
	dir, err := os.MkdirTemp("", "synth-launch-")
	if err != nil {
		return fmt.Errorf("launch: %w", err)
	}
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, "synth.yaml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		return fmt.Errorf("launch: %w", err)
	}
	return readsBack(p, cfg)
}

func newLaunchK8sCmd() *cobra.Command {
	var (
		f buildFlags
		k launch.K8s
	)
	cmd := &cobra.Command{
		Use:   "k8s -o DIR --shards N",
		Short: "Write Kubernetes Jobs: plan, an Indexed Job of N rollouts, merge, over a shared volume",
		Long: `launch k8s writes into the -o folder:

  plan.yaml      a ConfigMap with the resolved config, and a Job: synth plan
  rollout.yaml   an Indexed Job of N completions: synth rollout --shard auto --shards N
                 (each pod's JOB_COMPLETION_INDEX is its shard)
  merge.yaml     a Job: synth merge
  run.sh         kubectl apply each in turn, waiting for the last to complete

Every pod mounts the claim --pvc at --mount and works in --run under it; pods on
several nodes need a ReadWriteMany volume. The image must hold synth and the
sandbox's Python (Debian's python3 with the packages synth doctor lists, and
bubblewrap). A rollout pod that fails restarts and resumes its shard. It
submits nothing: run run.sh, or apply the files yourself. A value with a
control character in any flag is refused, and --name must be a Kubernetes
name (lower-case letters, digits and '-').`,
		Example: `  synth launch k8s -o k8s/ --shards 8 --image registry.example/synth:1 --pvc synth-data --config synth.yaml
  sh k8s/run.sh`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("out") {
				return usagef("launch k8s needs -o DIR: the folder to write the manifests into")
			}
			cfg, err := resolveConfig(cmd, f)
			if err != nil {
				return err
			}
			k.Config = cfg.YAML()
			if err := textReadsBack(k.Config, cfg); err != nil {
				return err
			}
			if k.Run == "" {
				k.Run = k.Mount + "/run"
			}
			files, err := launch.WriteK8s(f.out, k)
			if err != nil {
				return usageError{err}
			}
			for _, p := range files {
				fmt.Fprintln(cmd.OutOrStdout(), "wrote", p)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "run them in order with: sh %s\n", filepath.Join(f.out, launch.K8sRun))
			return nil
		},
	}
	addBuildFlags(cmd, &f)
	fl := cmd.Flags()
	fl.IntVar(&k.Shards, "shards", 1, "rollout shards: the Indexed Job's completions")
	fl.IntVar(&k.Parallel, "parallelism", 0, "rollout pods at once; default: --shards")
	fl.StringVar(&k.Name, "name", "synth", "prefix of the Jobs' and ConfigMap's names")
	fl.StringVar(&k.Image, "image", "", "container image holding synth and the sandbox's Python")
	fl.StringVar(&k.Synth, "synth", "synth", "the synth binary in the image")
	fl.StringVar(&k.PVC, "pvc", "", "PersistentVolumeClaim every pod mounts (ReadWriteMany across nodes)")
	fl.StringVar(&k.Mount, "mount", "/data", "where the volume is mounted in the pods")
	fl.StringVar(&k.Run, "run", "", "the run directory in the pods; default MOUNT/run")
	fl.StringVar(&k.CPU, "cpu", "", "CPU request and limit of each pod, e.g. 8")
	fl.StringVar(&k.Memory, "memory", "", "memory request and limit of each pod, e.g. 16Gi")
	return cmd
}
