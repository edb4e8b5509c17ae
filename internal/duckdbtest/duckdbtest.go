package duckdbtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"synth/internal/testenv"
)

// ModulesEnv names an environment variable that points at a node_modules
// directory holding @duckdb/node-api, overriding the search from the
// repository root.
const ModulesEnv = "SYNTH_NODE_MODULES"

// Need stops t when node or the DuckDB module is missing (a skip on a
// developer's machine, a failure under CI=true). A test that reads Parquet
// after costly work calls it first, so it never skips half-way.
func Need(t testing.TB) (node, modules string) {
	t.Helper()
	node, modules, err := Available()
	if err != nil {
		testenv.Missing(t, "duckdbtest: %v", err)
	}
	return node, modules
}

// Query runs sql in a fresh in-memory DuckDB and returns its rows, each a map
// from column name to value as JSON decodes it (numbers are float64, lists
// []any, structs map[string]any, NULL nil). A failing query fails the test;
// a missing node or DuckDB module stops it as Need does. Paths in sql are
// relative to the test's working directory.
func Query(t testing.TB, sql string) []map[string]any {
	t.Helper()
	node, modules := Need(t)
	cmd := exec.Command(node, script(), modules)
	cmd.Stdin = strings.NewReader(sql)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("duckdb: %s\n%v: %s", sql, err, stderr.String())
	}
	var rows []map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &rows); err != nil {
		t.Fatalf("duckdb: %s: decoding its output: %v", sql, err)
	}
	return rows
}

// Quote returns s as a SQL string literal, for paths in queries.
func Quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// Available returns node's path and the node_modules directory holding
// @duckdb/node-api, or an error that says what is missing and how to get it.
func Available() (node, modules string, err error) {
	node, err = exec.LookPath("node")
	if err != nil {
		return "", "", errors.New("node is not on PATH: install Node.js 20 or later to read Parquet with DuckDB")
	}
	if m := os.Getenv(ModulesEnv); m != "" {
		if hasDuckDB(m) {
			return node, m, nil
		}
		return "", "", fmt.Errorf("%s=%s has no @duckdb/node-api: run make deps (npm install --no-save at the repository root)", ModulesEnv, m)
	}
	dir := filepath.Dir(script())
	for {
		m := filepath.Join(dir, "node_modules")
		if hasDuckDB(m) {
			return node, m, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", "", errors.New("@duckdb/node-api is not installed: run make deps (npm install --no-save at the repository root)")
		}
		dir = parent
	}
}

func hasDuckDB(modules string) bool {
	_, err := os.Stat(filepath.Join(modules, "@duckdb", "node-api", "package.json"))
	return err == nil
}

// script returns the path of query.mjs, beside this file.
func script() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "query.mjs")
}
