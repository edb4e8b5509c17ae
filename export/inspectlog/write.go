package inspectlog

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// FileName is the log's file name as inspect_ai names logs, which inspect
// view's listing requires: the creation time, the task and the id,
// 2026-01-02T15-04-05+00-00_bench_<id>.json.
func FileName(l Log) string {
	created := strings.ReplaceAll(l.Eval.Created, ":", "-")
	return fmt.Sprintf("%s_%s_%s.json", created, l.Eval.Task, l.Eval.EvalID)
}

// Write writes the log into dir (made if missing) under FileName, through a
// .tmp file renamed when complete, and returns its path.
func Write(dir string, l Log) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, FileName(l))
	b, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return "", fmt.Errorf("inspect log: %w", err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return "", err
	}
	return path, nil
}
