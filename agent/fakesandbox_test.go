package agent_test

import (
	"context"
	"regexp"
	"strings"
	"sync"

	"synth/sandbox"
	"synth/schemas"
)

// cellSandbox is an in-process stand-in for the Python sandbox: print(...)
// lines echo their argument, and a cell that says raise fails with a
// traceback. It records the cells it ran.
type cellSandbox struct {
	mu    sync.Mutex
	cells []string
}

var printArg = regexp.MustCompile(`print\((.*)\)`)

func (s *cellSandbox) Exec(_ context.Context, code string) (sandbox.Result, error) {
	s.mu.Lock()
	s.cells = append(s.cells, code)
	s.mu.Unlock()
	if strings.Contains(code, "raise") {
		return sandbox.Result{Status: schemas.StatusError, Output: "Traceback (most recent call last):\nValueError: broken"}, nil
	}
	var out []string
	for _, m := range printArg.FindAllStringSubmatch(code, -1) {
		out = append(out, strings.Trim(m[1], `"'`))
	}
	return sandbox.Result{Status: schemas.StatusOK, Output: strings.Join(out, "\n")}, nil
}

func (s *cellSandbox) Workspace() string { return "" }
func (s *cellSandbox) Close() error      { return nil }
