package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"synth/config"
)

// launchCLI runs synth in-process and returns what it printed.
func launchCLI(t *testing.T, args ...string) (string, error) {
	t.Helper()
	root := newRoot()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), err
}

// TestLaunchConfigRoundTrip launches every teacher on Slurm (dry run) and
// Kubernetes: the config the jobs read is the config the flags resolved,
// hash for hash.
func TestLaunchConfigRoundTrip(t *testing.T) {
	dir := t.TempDir()
	replay := filepath.Join(dir, "trajectories.jsonl")
	os.WriteFile(replay, []byte("{}\n"), 0o644)
	withExtra := filepath.Join(dir, "extra.yaml")
	os.WriteFile(withExtra, []byte(`teacher:
  kind: openai
  temperature: 0
llm:
  endpoints:
    - base_url: http://127.0.0.1:9/v1
      model: m1
      extra: {top_k: 20}
    - base_url: http://127.0.0.1:10/v1
      model: m1
      concurrency: 4
`), 0o644)
	cases := []struct {
		name string
		args []string
	}{
		{"reference", nil},
		{"openai", []string{"--teacher", "openai", "--model", "m", "--base-url", "http://127.0.0.1:9/v1"}},
		{"openai with a key variable and a temperature", []string{"--teacher", "openai", "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--api-key-env", "MY_KEY", "--temperature", "0.2"}},
		{"openai from a config with extra body fields", []string{"--config", withExtra}},
		{"openai writing the queries too", []string{"--teacher", "openai", "--query-writer", "llm", "--model", "m", "--base-url", "http://127.0.0.1:9/v1"}},
		{"replay", []string{"--replay", replay}},
		{"empty", []string{"--teacher", "empty"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			run := filepath.Join(t.TempDir(), "run")
			out, err := launchCLI(t, append([]string{"launch", "slurm", "-o", run, "--shards", "2", "--dry-run"}, tc.args...)...)
			if err != nil {
				t.Fatalf("launch slurm: %v\n%s", err, out)
			}
			back, err := config.Load(filepath.Join(run, "slurm", "synth.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			if tc.name != "reference" && back.Teacher.Kind == "reference" {
				t.Errorf("the written config lost the teacher: %+v", back.Teacher)
			}
			k8s := filepath.Join(t.TempDir(), "k8s")
			out, err = launchCLI(t, append([]string{"launch", "k8s", "-o", k8s, "--shards", "2", "--image", "reg/synth:1", "--pvc", "data"}, tc.args...)...)
			if err != nil {
				t.Fatalf("launch k8s: %v\n%s", err, out)
			}
			plan, err := os.ReadFile(filepath.Join(k8s, "plan.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(plan), "kind: "+back.Teacher.Kind) {
				t.Errorf("the ConfigMap lacks teacher kind %s:\n%s", back.Teacher.Kind, plan)
			}
		})
	}
}

// TestLaunchRefusesANewlineInAnyFlag runs the CLI with a newline in each
// value that reaches an sbatch script: each exits with a usage error.
func TestLaunchRefusesANewlineInAnyFlag(t *testing.T) {
	for _, flag := range []string{"--partition", "--mem", "--time", "--sbatch", "--synth"} {
		run := filepath.Join(t.TempDir(), "run")
		v := "x\necho pwned"
		if flag == "--sbatch" {
			v = "--account=x\necho pwned"
		}
		out, err := launchCLI(t, "launch", "slurm", "-o", run, "--shards", "1", "--dry-run", flag, v)
		var usage usageError
		if !errors.As(err, &usage) || !strings.Contains(err.Error(), flag) || !strings.Contains(err.Error(), "control character") {
			t.Errorf("launch slurm %s with a newline: %v, want a usage error naming it\n%s", flag, err, out)
		}
	}
}
