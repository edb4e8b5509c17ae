package launch

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestWriteSlurm(t *testing.T) {
	run := filepath.Join(t.TempDir(), "run$1")
	scripts, err := WriteSlurm(Slurm{Run: run, Synth: "/opt/synth", Config: run + "/slurm/synth.yaml", Shards: 3,
		Partition: "cpu", Time: "01:00:00", CPUsPerTask: 4, Mem: "8G", Extra: []string{"--account=abc"}, Workdir: "/home/u"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		PlanScript: {"#SBATCH --job-name=synth-plan", "plan -o '" + run + "' --config '" + run + "/slurm/synth.yaml'"},
		RolloutScript: {"#SBATCH --array=1-3", "rollout -o '" + run + "' --shard auto --shards 3",
			"#SBATCH --output=" + run + "/slurm/logs/rollout-%A_%a.out"},
		MergeScript: {"merge -o '" + run + "' --shards 3"},
	}
	common := []string{"#!/bin/bash\n", "#SBATCH --partition=cpu", "#SBATCH --time=01:00:00", "#SBATCH --cpus-per-task=4", "#SBATCH --mem=8G", "#SBATCH --account=abc", "#SBATCH --chdir=/home/u", "exec /opt/synth "}
	for _, p := range scripts {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range append(common, want[filepath.Base(p)]...) {
			if !strings.Contains(string(b), w) {
				t.Errorf("%s lacks %q:\n%s", filepath.Base(p), w, b)
			}
		}
		if filepath.Base(p) != RolloutScript && strings.Contains(string(b), "#SBATCH --array") {
			t.Errorf("%s is an array", filepath.Base(p))
		}
	}
	for _, bad := range []string{"account=abc", "--x\n#SBATCH --y"} {
		if _, err := WriteSlurm(Slurm{Run: run, Shards: 1, Extra: []string{bad}}); err == nil {
			t.Errorf("--sbatch %q was taken", bad)
		}
	}
	if _, err := WriteSlurm(Slurm{Run: run + " 2", Shards: 1}); err == nil || !strings.Contains(err.Error(), "space") {
		t.Errorf("a run directory with a space was taken: %v", err)
	}
	if _, err := WriteSlurm(Slurm{Run: run, Shards: 0}); err == nil {
		t.Error("0 shards were taken")
	}
}

// TestSubmitChainsWithAfterok submits through a fake sbatch that records
// its arguments and prints job ids as --parsable does.
func TestSubmitChainsWithAfterok(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "sbatch")
	calls := filepath.Join(dir, "calls")
	script := "#!/bin/sh\necho \"$@\" >> " + calls + "\nn=$(wc -l < " + calls + ")\necho \"$((100+n));cluster\"\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	jobs, err := Submit(context.Background(), fake, []string{"a.sbatch", "b.sbatch", "c.sbatch"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(calls)
	want := "--parsable a.sbatch\n--parsable --dependency=afterok:101 b.sbatch\n--parsable --dependency=afterok:102 c.sbatch\n"
	if string(b) != want {
		t.Fatalf("sbatch calls:\n%s\nwant:\n%s", b, want)
	}
	if len(jobs) != 3 || jobs[2].ID != "103" {
		t.Fatalf("jobs %+v", jobs)
	}
}

func TestWriteK8s(t *testing.T) {
	dir := t.TempDir()
	files, err := WriteK8s(dir, K8s{Name: "syn", Image: "reg/synth:1", PVC: "data", Mount: "/data", Run: "/data/run1",
		Config: "seed: 7\n", Shards: 5, CPU: "4", Memory: "8Gi"})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 4 {
		t.Fatalf("files %v", files)
	}
	docs := map[string]map[string]any{}
	for _, f := range files[:3] {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(strings.NewReader(string(b)))
		for {
			var d map[string]any
			if err := dec.Decode(&d); err != nil {
				break
			}
			name := dig(d, "metadata", "name").(string)
			docs[dig(d, "kind").(string)+"/"+name] = d
		}
	}
	cm := docs["ConfigMap/syn-config"]
	if cm == nil || dig(cm, "data", "synth.yaml") != "seed: 7\n" {
		t.Fatalf("ConfigMap: %v", cm)
	}
	ro := docs["Job/syn-rollout"]
	if ro == nil {
		t.Fatalf("no rollout Job among %v", keys(docs))
	}
	for path, want := range map[string]any{"spec.completionMode": "Indexed", "spec.completions": 5, "spec.parallelism": 5, "apiVersion": "batch/v1"} {
		if got := dig(ro, strings.Split(path, ".")...); got != want {
			t.Errorf("rollout %s = %v, want %v", path, got, want)
		}
	}
	for _, step := range []string{"plan", "rollout", "merge"} {
		j := docs["Job/syn-"+step]
		if j == nil {
			t.Fatalf("no %s Job", step)
		}
		c := dig(j, "spec", "template", "spec", "containers").([]any)[0].(map[string]any)
		cmd := strings.Join(toStrings(c["command"]), " ")
		wantCmd := map[string]string{
			"plan":    "synth plan -o /data/run1 --config /etc/synth/synth.yaml",
			"rollout": "synth rollout -o /data/run1 --shard auto --shards 5",
			"merge":   "synth merge -o /data/run1 --shards 5",
		}[step]
		if cmd != wantCmd || c["image"] != "reg/synth:1" {
			t.Errorf("%s runs %q in %v, want %q", step, cmd, c["image"], wantCmd)
		}
		vols := dig(j, "spec", "template", "spec", "volumes").([]any)
		if dig(vols[0].(map[string]any), "persistentVolumeClaim", "claimName") != "data" {
			t.Errorf("%s volumes %v", step, vols)
		}
		if dig(c, "resources", "limits", "memory") != "8Gi" {
			t.Errorf("%s resources %v", step, c["resources"])
		}
	}
	sh, _ := os.ReadFile(files[3])
	order := []string{"apply -f plan.yaml", "job/syn-plan", "apply -f rollout.yaml", "job/syn-rollout", "apply -f merge.yaml", "job/syn-merge"}
	last := -1
	for _, w := range order {
		i := strings.Index(string(sh), w)
		if i <= last {
			t.Fatalf("run.sh does not %q in order:\n%s", w, sh)
		}
		last = i
	}
	if _, err := WriteK8s(dir, K8s{Name: "syn", Image: "i", PVC: "p", Mount: "/data", Run: "/elsewhere", Shards: 1}); err == nil {
		t.Error("a run directory outside the volume was taken")
	}
}

func dig(v any, path ...string) any {
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

func keys(m map[string]map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
