package launch

import (
	"context"
	"fmt"
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

// TestLaunchRefusesControlCharacters puts a newline (and other control
// characters) into every value that reaches an sbatch script, a manifest
// or run.sh: each is refused with an error naming the flag, and nothing
// is written.
func TestLaunchRefusesControlCharacters(t *testing.T) {
	base := func(run string) Slurm {
		return Slurm{Run: run, Synth: "/opt/synth", Config: run + "/slurm/synth.yaml", Shards: 2, Workdir: "/home/u"}
	}
	slurm := map[string]func(*Slurm, string){
		"-o":                    func(s *Slurm, v string) { s.Run += v },
		"--synth":               func(s *Slurm, v string) { s.Synth += v },
		"--config":              func(s *Slurm, v string) { s.Config += v },
		"the working directory": func(s *Slurm, v string) { s.Workdir += v },
		"--partition":           func(s *Slurm, v string) { s.Partition = "cpu" + v },
		"--time":                func(s *Slurm, v string) { s.Time = "10" + v },
		"--mem":                 func(s *Slurm, v string) { s.Mem = "8G" + v },
		"--sbatch":              func(s *Slurm, v string) { s.Extra = []string{"--account=a" + v} },
	}
	for flag, set := range slurm {
		for _, bad := range []string{"\necho pwned", "\r", "\x00", "\u2028x"} {
			t.Run("slurm "+flag+fmt.Sprintf(" %q", bad), func(t *testing.T) {
				run := filepath.Join(t.TempDir(), "run")
				s := base(run)
				set(&s, bad)
				_, err := WriteSlurm(s)
				if err == nil || !strings.Contains(err.Error(), flag) || !strings.Contains(err.Error(), "control character") {
					t.Fatalf("WriteSlurm with %s %q: %v, want an error naming %s and the control character", flag, bad, err, flag)
				}
				if _, err := os.Stat(Dir(run)); err == nil {
					t.Errorf("scripts were written for a refused value")
				}
			})
		}
	}
	k8s := map[string]func(*K8s, string){
		"--name":   func(k *K8s, v string) { k.Name += v },
		"--image":  func(k *K8s, v string) { k.Image += v },
		"--pvc":    func(k *K8s, v string) { k.PVC += v },
		"--mount":  func(k *K8s, v string) { k.Mount += v; k.Run = k.Mount + "/run" },
		"--run":    func(k *K8s, v string) { k.Run += v },
		"--synth":  func(k *K8s, v string) { k.Synth += v },
		"--cpu":    func(k *K8s, v string) { k.CPU = "4" + v },
		"--memory": func(k *K8s, v string) { k.Memory = "8Gi" + v },
	}
	for flag, set := range k8s {
		t.Run("k8s "+flag, func(t *testing.T) {
			k := K8s{Name: "syn", Image: "reg/synth:1", PVC: "data", Mount: "/data", Run: "/data/run1", Synth: "synth", Config: "seed: 7\n", Shards: 2}
			set(&k, "\necho pwned")
			dir := filepath.Join(t.TempDir(), "k8s")
			_, err := WriteK8s(dir, k)
			if err == nil || !strings.Contains(err.Error(), flag) {
				t.Fatalf("WriteK8s with a newline in %s: %v, want an error naming it", flag, err)
			}
			if _, err := os.Stat(dir); err == nil {
				t.Errorf("manifests were written for a refused value")
			}
		})
	}
	for _, name := range []string{"Syn", "syn;id", "-syn", "syn$(id)"} {
		if _, err := WriteK8s(t.TempDir(), K8s{Name: name, Image: "i", PVC: "data", Mount: "/data", Run: "/data/r", Shards: 1}); err == nil || !strings.Contains(err.Error(), "--name") {
			t.Errorf("--name %q: %v, want refused", name, err)
		}
	}
	// A space in an #SBATCH value is refused too; a quote in a path is quoted.
	s := base(filepath.Join(t.TempDir(), "run"))
	s.Partition = "cpu --wrap=id"
	if _, err := WriteSlurm(s); err == nil || !strings.Contains(err.Error(), "--partition") {
		t.Errorf("--partition with a space: %v", err)
	}
	s = base(filepath.Join(t.TempDir(), "run"))
	s.Synth = "/opt/it's $(id)/synth"
	scripts, err := WriteSlurm(s)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(scripts[0])
	if !strings.Contains(string(b), `exec '/opt/it'\''s $(id)/synth' plan`) {
		t.Errorf("--synth with a quote and $( is not quoted:\n%s", b)
	}
}
