package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"synth/agent"
	"synth/internal/testenv"
	"synth/llm/llmtest"
	"synth/pyenv/pyenvtest"
	"synth/schemas"
)

// startSlurm starts (or finds) the one-node Slurm cluster of
// scripts/slurm-local.sh, points SLURM_CONF at it and builds synth into a
// fresh folder; it skips when a tool is missing (needs root).
func startSlurm(t *testing.T) (synth, dir string) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the Slurm cluster test takes minutes")
	}
	os.Setenv("PATH", os.Getenv("PATH")+":/usr/sbin")
	for _, b := range []string{"sbatch", "scancel", "scontrol", "slurmctld", "slurmd", "munged"} {
		testenv.LookPath(t, b, "install Debian's slurm-wlm and munge (make test does)")
	}
	// The daemons need root: as root the script runs as it is, otherwise
	// under sudo (as make test installs Slurm under sudo).
	start := []string{"scripts/slurm-local.sh"}
	if os.Getuid() != 0 {
		if err := exec.Command("sudo", "-n", "true").Run(); err != nil {
			testenv.Missing(t, "needs root or sudo without a password: scripts/slurm-local.sh starts munged, slurmctld and slurmd (sudo -n true: %v)", err)
		}
		start = append([]string{"sudo", "-n"}, start...)
	}
	pyenvtest.Python(t)
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(start[0], start[1:]...)
	cmd.Dir = repo
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(start, " "), err, out)
	}
	conf := regexp.MustCompile(`SLURM_CONF=(\S+)`).FindStringSubmatch(string(out))
	if conf == nil {
		t.Fatalf("scripts/slurm-local.sh printed no SLURM_CONF:\n%s", out)
	}
	t.Setenv("SLURM_CONF", conf[1])
	t.Setenv("CI", "true")

	dir = t.TempDir()
	synth = filepath.Join(dir, "synth")
	goCmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	if b, err := exec.Command(goCmd, "build", "-o", synth, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	return synth, dir
}

// TestSlurm runs a build on a real one-node Slurm cluster that
// scripts/slurm-local.sh starts on this machine: synth launch slurm submits
// plan, a 3-task rollout array and merge; shard 2 is cancelled with scancel
// mid-run and resubmitted, resumes and completes; the merged dataset and
// benchmark are byte for byte those of one synth build of the same config.
func TestSlurm(t *testing.T) {
	synth, dir := startSlurm(t)
	config := []string{"--templates", "table.sort,text.", "--bench-fraction", "0.1", "--concurrency", "1"}
	built := filepath.Join(dir, "built")
	sh(t, synth, append([]string{"build", "-o", built}, config...)...)

	run := filepath.Join(dir, "run")
	ids := launchSlurm(t, synth, run, 3, config)

	// Cancel shard 2 once it has journaled a rollout, before it finishes.
	shard2 := filepath.Join(run, "shards", "2-of-3")
	waitFor(t, 10*time.Minute, "shard 2-of-3 to journal a rollout", func() bool {
		checkNotFailed(t, ids["plan"], run)
		b, _ := os.ReadFile(filepath.Join(shard2, "trajectories.jsonl"))
		return bytes.Count(b, []byte("\n")) >= 1
	})
	sh(t, "scancel", ids["rollout"]+"_2")
	waitFor(t, 3*time.Minute, "shard 2-of-3 to stop", func() bool {
		out, _ := exec.Command("squeue", "-h", "-j", ids["rollout"]+"_2").Output()
		return jobState(ids["rollout"]+"_2") == "CANCELLED" && len(bytes.TrimSpace(out)) == 0
	})
	info := readJSON(t, filepath.Join(shard2, "shard.json"))
	partial := lines(t, filepath.Join(shard2, "trajectories.jsonl"))
	if info["finished"] != nil || len(partial) == 0 || len(partial) >= int(info["tasks"].(float64)) {
		t.Fatalf("cancelled shard 2-of-3: %d of %v rollouts journaled, shard.json %v: want it cut mid-run", len(partial), info["tasks"], info)
	}

	// The merge waits on a dependency that can no longer succeed: resubmit
	// shard 2, and the merge after it and after the rest of the array.
	sh(t, "scancel", ids["merge"])
	again := strings.TrimSpace(sh(t, "sbatch", "--parsable", "--array=2", filepath.Join(run, "slurm", "rollout.sbatch")))
	merge := strings.TrimSpace(sh(t, "sbatch", "--parsable", "--dependency=afterok:"+again+",afterany:"+ids["rollout"], filepath.Join(run, "slurm", "merge.sbatch")))
	t.Cleanup(func() { exec.Command("scancel", again, merge).Run() })
	waitFor(t, 10*time.Minute, "the merge job", func() bool {
		switch st := jobState(merge); st {
		case "COMPLETED":
			return true
		case "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY":
			logs, _ := filepath.Glob(filepath.Join(run, "slurm", "logs", "*"))
			var all strings.Builder
			for _, l := range logs {
				b, _ := os.ReadFile(l)
				all.WriteString("== " + l + "\n" + string(b))
			}
			t.Fatalf("merge job %s %s (shard job %s %s):\n%s", merge, st, again, jobState(again), all.String())
		}
		return false
	})

	resumed := lines(t, filepath.Join(shard2, "trajectories.jsonl"))
	if !strings.HasPrefix(strings.Join(resumed, "\n"), strings.Join(partial, "\n")) || len(resumed) != int(info["tasks"].(float64)) {
		t.Fatalf("resumed shard 2-of-3 journal: %d lines (had %d, wants %v), earlier lines kept: %v",
			len(resumed), len(partial), info["tasks"], strings.HasPrefix(strings.Join(resumed, "\n"), strings.Join(partial, "\n")))
	}
	for _, f := range []string{"bench/tasks.jsonl", "dataset/data/train-00000-of-00001.parquet"} {
		a, err := os.ReadFile(filepath.Join(built, f))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(run, f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between synth build and the Slurm run", f)
		}
	}
}

// TestSlurmOpenAITeacher launches a build whose teacher is an OpenAI
// endpoint (an httptest server on loopback that plays each task's
// reference solution) on the real Slurm cluster: the jobs read back the
// config launch wrote, call the endpoint, and the merged dataset is byte
// for byte the one synth build makes with the same teacher.
func TestSlurmOpenAITeacher(t *testing.T) {
	synth, dir := startSlurm(t)
	built := filepath.Join(dir, "built")
	run := filepath.Join(dir, "run")
	var mu sync.Mutex
	current := built // the run whose tasks the server answers from
	srv := llmtest.NewServer(t, func(c llmtest.Call) llmtest.Reply {
		mu.Lock()
		d := current
		mu.Unlock()
		return solveFrom(t, d, c)
	})
	config := []string{"--templates", "table.sort", "--bench-fraction", "0", "--concurrency", "1",
		"--teacher", "openai", "--model", "teacher-1", "--base-url", srv.URL, "--api-key-env", "SYNTH_TEST_NO_KEY"}
	sh(t, synth, append([]string{"build", "-o", built}, config...)...)
	builtCalls := len(srv.Calls())
	if builtCalls == 0 {
		t.Fatal("synth build made no call to the teacher")
	}
	mu.Lock()
	current = run
	mu.Unlock()

	ids := launchSlurm(t, synth, run, 2, config)
	waitFor(t, 10*time.Minute, "the merge job", func() bool {
		switch st := jobState(ids["merge"]); st {
		case "COMPLETED":
			return true
		case "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "DEPENDENCY_NEVER_SATISFIED":
			t.Fatalf("merge job %s %s:\n%s", ids["merge"], st, slurmLogs(run))
		}
		if st := jobState(ids["plan"]); st == "FAILED" {
			t.Fatalf("plan job failed:\n%s", slurmLogs(run))
		}
		return false
	})
	if n := len(srv.Calls()) - builtCalls; n == 0 {
		t.Error("the Slurm jobs made no call to the teacher")
	}
	a, err := os.ReadFile(filepath.Join(built, "dataset/data/train-00000-of-00001.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(run, "dataset/data/train-00000-of-00001.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Error("the dataset differs between synth build and the Slurm run with the openai teacher")
	}
}

// solveFrom answers a teacher call by playing the reference solution of the
// task with the call's query, read from the run directory dir.
func solveFrom(t *testing.T, dir string, c llmtest.Call) llmtest.Reply {
	b, err := os.ReadFile(filepath.Join(dir, "tasks.jsonl"))
	if err != nil {
		return llmtest.Reply{Content: "Finished: no tasks yet."}
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		var task schemas.Task
		if json.Unmarshal(line, &task) != nil || task.Query != c.Query() || task.Reference == nil {
			continue
		}
		if k := c.Turn(); k < len(task.Reference.Steps) {
			st := task.Reference.Steps[k]
			return llmtest.Reply{Content: agent.NewPyBench().Render(agent.Action{Code: st.Code}, st.Thought).Content, PromptTokens: 100, CompletionTokens: 50}
		}
		return llmtest.Reply{Content: "Finished: " + task.Reference.Answer, PromptTokens: 100, CompletionTokens: 20}
	}
	return llmtest.Reply{Content: "Finished: I do not know."}
}

func slurmLogs(run string) string {
	logs, _ := filepath.Glob(filepath.Join(run, "slurm", "logs", "*"))
	var all strings.Builder
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		all.WriteString("== " + l + "\n" + string(b))
	}
	return all.String()
}

func sh(t *testing.T, name string, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// jobState is Slurm's state of a job (or array task, ID_I), "" while
// scontrol does not know it.
func jobState(id string) string {
	out, _ := exec.Command("scontrol", "show", "job", "-o", id).Output()
	m := regexp.MustCompile(`JobState=(\S+)`).FindSubmatch(out)
	if m == nil {
		return ""
	}
	return string(m[1])
}

func checkNotFailed(t *testing.T, id, run string) {
	t.Helper()
	if st := jobState(id); st == "FAILED" || st == "CANCELLED" || st == "TIMEOUT" {
		logs, _ := filepath.Glob(filepath.Join(run, "slurm", "logs", "plan-*"))
		var b []byte
		if len(logs) > 0 {
			b, _ = os.ReadFile(logs[0])
		}
		t.Fatalf("plan job %s %s:\n%s", id, st, b)
	}
}

func waitFor(t *testing.T, limit time.Duration, what string, done func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !done() {
		if time.Now().After(deadline) {
			out, _ := exec.Command("squeue").CombinedOutput()
			t.Fatalf("waited %s for %s; squeue:\n%s", limit, what, out)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

func lines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// launchSlurm runs synth launch slurm for run in shards and returns the job
// ids it printed, by job (plan, rollout, merge); the jobs are cancelled
// when the test ends.
func launchSlurm(t *testing.T, synth, run string, shards int, config []string) map[string]string {
	t.Helper()
	launched := sh(t, synth, append([]string{"launch", "slurm", "-o", run, "--shards", strconv.Itoa(shards), "--time", "20", "--cpus-per-task", "1", "--synth", synth}, config...)...)
	ids := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^(plan|rollout|merge)\s+job (\d+)`).FindAllStringSubmatch(launched, -1) {
		ids[m[1]] = m[2]
	}
	if len(ids) != 3 {
		t.Fatalf("launch slurm printed job ids %v:\n%s", ids, launched)
	}
	t.Cleanup(func() { exec.Command("scancel", ids["plan"], ids["rollout"], ids["merge"]).Run() })
	return ids
}
