package launch

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// K8s is how the Kubernetes Jobs run: an image holding synth and the
// sandbox's Python, and a PersistentVolumeClaim every pod mounts (ReadWriteMany
// when pods land on several nodes).
type K8s struct {
	Name     string // prefix of every object's name
	Image    string
	PVC      string // claim mounted at Mount
	Mount    string // where the volume is mounted, e.g. /data
	Run      string // the run directory inside the pods, under Mount
	Config   string // synth.yaml's text, shipped as a ConfigMap
	Shards   int
	CPU      string // requests and limits per pod, e.g. "4"; empty: none
	Memory   string // e.g. "16Gi"
	Synth    string // the binary in the image; default "synth"
	Parallel int    // rollout pods at once; default Shards
}

// Manifest file names in the output folder, in the order they are applied.
const (
	K8sPlan    = "plan.yaml"
	K8sRollout = "rollout.yaml"
	K8sMerge   = "merge.yaml"
	K8sRun     = "run.sh"
)

const configMount = "/etc/synth"

// WriteK8s writes into dir the plan Job (with the config as a ConfigMap),
// the rollouts as an Indexed Job of k.Shards completions, the merge Job,
// and run.sh, which applies them in order and waits for each: Kubernetes
// has no dependencies between Jobs.
func WriteK8s(dir string, k K8s) ([]string, error) {
	if k.Shards < 1 {
		return nil, fmt.Errorf("k8s: --shards %d: want at least 1", k.Shards)
	}
	if k.Image == "" || k.PVC == "" {
		return nil, fmt.Errorf("k8s: needs --image (an image with synth and Python) and --pvc (a claim every pod mounts)")
	}
	if k.Synth == "" {
		k.Synth = "synth"
	}
	if k.Parallel < 1 {
		k.Parallel = k.Shards
	}
	if err := k.check(); err != nil {
		return nil, err
	}
	if !strings.HasPrefix(k.Run, k.Mount+"/") {
		return nil, fmt.Errorf("k8s: run directory %s is not under the volume's mount %s", k.Run, k.Mount)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("k8s: %w", err)
	}
	config := map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": k.Name + "-config"},
		"data":     map[string]any{"synth.yaml": k.Config},
	}
	plan := k.job("plan", []string{"plan", "-o", k.Run, "--config", configMount + "/synth.yaml"}, nil)
	rollout := k.job("rollout", []string{"rollout", "-o", k.Run, "--shard", "auto", "--shards", fmt.Sprint(k.Shards)}, map[string]any{
		"completionMode": "Indexed", "completions": k.Shards, "parallelism": k.Parallel,
	})
	merge := k.job("merge", []string{"merge", "-o", k.Run, "--shards", fmt.Sprint(k.Shards)}, nil)
	files := []struct {
		name string
		docs []any
	}{{K8sPlan, []any{config, plan}}, {K8sRollout, []any{rollout}}, {K8sMerge, []any{merge}}}
	var paths []string
	for _, f := range files {
		var b strings.Builder
		b.WriteString("# Written by synth launch k8s; apply with run.sh (plan, then rollout, then merge).\n")
		for i, d := range f.docs {
			if i > 0 {
				b.WriteString("---\n")
			}
			y, err := yaml.Marshal(d)
			if err != nil {
				return nil, fmt.Errorf("k8s: %w", err)
			}
			b.Write(y)
		}
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			return nil, fmt.Errorf("k8s: %w", err)
		}
		paths = append(paths, p)
	}
	var sh strings.Builder
	sh.WriteString("#!/bin/sh\n# Written by synth launch k8s: plan, then the rollout shards, then merge, each after the last completed.\n")
	sh.WriteString("# A failed rollout pod is retried and resumes its shard; rerun this script to go on after a failure.\nset -eu\ncd \"$(dirname \"$0\")\"\n")
	for _, st := range []struct{ file, job string }{{K8sPlan, "plan"}, {K8sRollout, "rollout"}, {K8sMerge, "merge"}} {
		fmt.Fprintf(&sh, "kubectl apply -f %s\nkubectl wait --for=condition=complete --timeout=-1s %s\n", st.file, shellQuote("job/"+k.Name+"-"+st.job))
	}
	p := filepath.Join(dir, K8sRun)
	if err := os.WriteFile(p, []byte(sh.String()), 0o755); err != nil {
		return nil, fmt.Errorf("k8s: %w", err)
	}
	return append(paths, p), nil
}

// check refuses a value that could change what the manifests or run.sh
// do: a control character in any value, a name that is not a Kubernetes
// name, a mount or run directory that is not an absolute path. The config
// text is multi-line by nature: it goes into the ConfigMap as a YAML string.
func (k K8s) check() error {
	if err := noControl("k8s", value{"--name", k.Name}, value{"--image", k.Image}, value{"--pvc", k.PVC}, value{"--mount", k.Mount},
		value{"--run", k.Run}, value{"--synth", k.Synth}, value{"--cpu", k.CPU}, value{"--memory", k.Memory}); err != nil {
		return err
	}
	if len(k.Name) > 50 || !dnsLabel.MatchString(k.Name) {
		return fmt.Errorf("k8s: --name %q: want a Kubernetes name: lower-case letters, digits and '-', starting and ending with a letter or digit, at most 50 characters", k.Name)
	}
	if len(k.PVC) > 253 || !dnsSubdomain.MatchString(k.PVC) {
		return fmt.Errorf("k8s: --pvc %q: want a Kubernetes claim name: lower-case letters, digits, '-' and '.', starting and ending with a letter or digit", k.PVC)
	}
	for _, x := range []value{{"--mount", k.Mount}, {"--run", k.Run}} {
		if !strings.HasPrefix(x.v, "/") {
			return fmt.Errorf("k8s: %s %q: want an absolute path in the pods", x.flag, x.v)
		}
	}
	return nil
}

// job is a batch/v1 Job running synth with args; extra goes into its spec.
func (k K8s) job(step string, args []string, extra map[string]any) map[string]any {
	container := map[string]any{
		"name": "synth", "image": k.Image,
		"command": append([]string{k.Synth}, args...),
		"env":     []any{map[string]any{"name": "CI", "value": "true"}},
		"volumeMounts": []any{
			map[string]any{"name": "run", "mountPath": k.Mount},
			map[string]any{"name": "config", "mountPath": configMount, "readOnly": true},
		},
	}
	if k.CPU != "" || k.Memory != "" {
		res := map[string]any{}
		if k.CPU != "" {
			res["cpu"] = k.CPU
		}
		if k.Memory != "" {
			res["memory"] = k.Memory
		}
		container["resources"] = map[string]any{"requests": res, "limits": res}
	}
	spec := map[string]any{
		"backoffLimit": 3 * max(1, k.Shards),
		"template": map[string]any{
			"metadata": map[string]any{"labels": map[string]any{"app": k.Name, "step": step}},
			"spec": map[string]any{
				// A pod that fails restarts in place and resumes its shard.
				"restartPolicy": "OnFailure",
				"containers":    []any{container},
				"volumes": []any{
					map[string]any{"name": "run", "persistentVolumeClaim": map[string]any{"claimName": k.PVC}},
					map[string]any{"name": "config", "configMap": map[string]any{"name": k.Name + "-config"}},
				},
			},
		},
	}
	for key, v := range extra {
		spec[key] = v
	}
	return map[string]any{
		"apiVersion": "batch/v1", "kind": "Job",
		"metadata": map[string]any{"name": k.Name + "-" + step, "labels": map[string]any{"app": k.Name}},
		"spec":     spec,
	}
}
