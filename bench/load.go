package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"synth/checks"
	"synth/schemas"
)

// Load reads a benchmark's tasks (tasks.jsonl). Use Usable to tell which of
// them can run.
func Load(dir string) ([]schemas.Task, error) {
	f, err := os.Open(filepath.Join(dir, TasksFile))
	if err != nil {
		return nil, fmt.Errorf("bench %s: %w (is it a benchmark folder made by synth build or synth import?)", dir, err)
	}
	defer f.Close()
	var tasks []schemas.Task
	dec := json.NewDecoder(f)
	for dec.More() {
		var t schemas.Task
		if err := dec.Decode(&t); err != nil {
			return nil, fmt.Errorf("bench %s: %s task %d: %w", dir, TasksFile, len(tasks)+1, err)
		}
		tasks = append(tasks, t)
	}
	return tasks, nil
}

// Usable says why a benchmark task cannot run, or nil: an input file is
// missing, or its checks do not validate (an imported benchmark may hold such
// tasks so that its numbering stays its own).
func Usable(dir string, t *schemas.Task) error {
	for _, in := range t.Files {
		if _, err := os.Stat(filepath.Join(dir, DataDir, in.Name)); err != nil {
			return fmt.Errorf("task %s: input data/%s is missing", t.Index, in.Name)
		}
	}
	if err := checks.Validate(t); err != nil {
		return fmt.Errorf("task %s: %w", t.Index, err)
	}
	return nil
}
