package checks

import (
	"context"
	"errors"
	"testing"

	"synth/sandbox"
	"synth/schemas"
)

// cellBackend opens sandboxes whose every cell ends with status and no
// output, or fails with err.
type cellBackend struct {
	status string
	err    error
}

func (b cellBackend) Open(context.Context, sandbox.Spec) (sandbox.Sandbox, error) {
	return cellBox(b), nil
}
func (b cellBackend) Close() error { return nil }

type cellBox cellBackend

func (s cellBox) Exec(context.Context, string) (sandbox.Result, error) {
	return sandbox.Result{Status: s.status, Output: "[crash: the interpreter died]\n"}, s.err
}
func (cellBox) Workspace() string { return "" }
func (cellBox) Close() error      { return nil }

// TestVerifyBlamesTheCase: what a case holds (a file name the checks cannot
// take, files whose checks killed or outlasted the cell) is a *CaseError
// with the rollout's failure; a backend that fails is not.
func TestVerifyBlamesTheCase(t *testing.T) {
	check := []schemas.Check{{Kind: schemas.CheckAnswer, ContainsAll: []string{"x"}}}
	one := []Case{{Checks: check, Answer: "x"}}
	cases := []struct {
		name   string
		b      sandbox.Backend
		cases  []Case
		reason string // "" for an error that is not a CaseError
	}{
		{"backslash", cellBackend{status: schemas.StatusOK}, []Case{{Checks: check, Files: []sandbox.Input{{Name: "output/a\\b.txt"}}}}, schemas.FailArtifactError},
		{"not utf-8", cellBackend{status: schemas.StatusOK}, []Case{{Checks: check, Files: []sandbox.Input{{Name: "output/\xff.txt"}}}}, schemas.FailArtifactError},
		{"control character", cellBackend{status: schemas.StatusOK}, []Case{{Checks: check, Files: []sandbox.Input{{Name: "output/a\nb.txt"}}}}, schemas.FailArtifactError},
		{"cell crashed on one case", cellBackend{status: schemas.StatusCrash}, one, schemas.FailCheckCrash},
		{"cell timed out on one case", cellBackend{status: schemas.StatusTimeout}, one, schemas.FailCheckCrash},
		{"cell crashed on a batch", cellBackend{status: schemas.StatusCrash}, []Case{one[0], one[0]}, ""},
		{"cell ended ok without results", cellBackend{status: schemas.StatusOK}, one, ""},
		{"backend failed", cellBackend{err: errors.New("zygote gone")}, one, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Verify(context.Background(), tc.b, tc.cases)
			if err == nil {
				t.Fatal("no error")
			}
			var ce *CaseError
			switch {
			case tc.reason == "" && errors.As(err, &ce):
				t.Errorf("%v: a CaseError, want an infrastructure error", err)
			case tc.reason != "" && !errors.As(err, &ce):
				t.Errorf("%v: not a CaseError, want %s", err, tc.reason)
			case tc.reason != "" && ce.Reason != tc.reason:
				t.Errorf("reason %s, want %s", ce.Reason, tc.reason)
			}
		})
	}
}
