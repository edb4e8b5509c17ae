package checks

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"

	"synth/sandbox"
	"synth/schemas"
)

// nonceRE finds the nonce a verification cell prints its results after.
var nonceRE = regexp.MustCompile(`__SYNTH_VERDICT_[0-9a-f]{48}__`)

// printingBackend opens sandboxes whose one cell prints what out makes of
// the cell's nonce ("" when the cell holds none), as a verification cell
// would, without running it.
type printingBackend struct {
	out       func(nonce string) string
	truncated bool
}

func (b printingBackend) Open(context.Context, sandbox.Spec) (sandbox.Sandbox, error) {
	return printingBox(b), nil
}
func (printingBackend) Close() error { return nil }

type printingBox printingBackend

func (s printingBox) Exec(_ context.Context, code string) (sandbox.Result, error) {
	return sandbox.Result{Status: schemas.StatusOK, Output: s.out(nonceRE.FindString(code)), Truncated: s.truncated}, nil
}
func (printingBox) Workspace() string { return "" }
func (printingBox) Close() error      { return nil }

// TestVerifyResultsLine holds rule 5 of docs/CHECKS.md ("How a verdict is
// made"): the verdict is the one line that starts with this verification's
// nonce, holding one result of the right kind per check, and anything else
// is an error of the verifier, never a pass. Every bad line below is made
// of results that all pass, so a guard that lets it through turns its case
// green into a verdict.
func TestVerifyResultsLine(t *testing.T) {
	cases := []Case{{
		Checks: []schemas.Check{{Kind: schemas.CheckAnswer, ContainsAll: []string{"x"}}, {Kind: schemas.CheckFile, Path: "output/a.csv"}},
		Answer: "x",
	}}
	const good = `[[{"kind":"answer","ok":true,"message":""},{"kind":"file","ok":true,"message":""}]]`
	const forged = "__SYNTH_VERDICT_" + "000000000000000000000000000000000000000000000000" + "__"
	tests := []struct {
		name      string
		out       func(nonce string) string
		truncated bool
		err       string // substring of the error; "" for none
	}{
		{"one results line", func(n string) string { return "checks ran\n" + n + good + "\n" }, false, ""},
		{"no results line", func(n string) string { return "checks ran\n" }, false, "no results in output"},
		{"a forged nonce", func(n string) string { return forged + good + "\n" }, false, "no results in output"},
		{"a second results line", func(n string) string { return n + good + "\n" + n + good + "\n" }, false, "2 results lines"},
		{"a truncated results line", func(n string) string { return n + good[:len(good)-9] }, false, "bad results line"},
		{"output cut at its limit", func(n string) string { return n + good + "\n" }, true, "output cut at"},
		{"an oversized results line", func(n string) string {
			return n + good[:len(good)-1] + strings.Repeat(" ", verifyOutputBytes) + "]\n"
		}, false, "more than the"},
		{"a result for the wrong kind of check", func(n string) string {
			return n + `[[{"kind":"file","ok":true,"message":""},{"kind":"answer","ok":true,"message":""}]]` + "\n"
		}, false, "is for a file check, expected answer"},
		{"too few results", func(n string) string { return n + `[[{"kind":"answer","ok":true,"message":""}]]` + "\n" }, false, "1 results for 2 checks"},
		{"results for another case", func(n string) string { return n + "[" + good[1:len(good)-1] + "," + good[1:] + "\n" }, false, "results for 2 cases, expected 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rs, err := Verify(context.Background(), printingBackend{out: tc.out, truncated: tc.truncated}, cases)
			if tc.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				if len(rs) != 1 || len(rs[0]) != 2 || !rs[0][0].OK || rs[0][1].Kind != schemas.CheckFile {
					t.Fatalf("results %+v", rs)
				}
				return
			}
			if err == nil {
				t.Fatalf("accepted as %+v, want an error with %q", rs, tc.err)
			}
			if !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %q, want one with %q", err, tc.err)
			}
			var ce *CaseError
			if errors.As(err, &ce) {
				t.Fatalf("%v: a CaseError; a bad results line is the verifier's error", err)
			}
		})
	}
}

// TestVerifyNonceIsFresh: every verification draws its own nonce, so a
// results line seen in one run cannot be replayed into the next.
func TestVerifyNonceIsFresh(t *testing.T) {
	seen := map[string]bool{}
	b := printingBackend{out: func(n string) string {
		seen[n] = true
		return ""
	}}
	for range 3 {
		Verify(context.Background(), b, []Case{{Checks: []schemas.Check{{Kind: schemas.CheckAnswer, ContainsAll: []string{"x"}}}}})
	}
	if len(seen) != 3 || seen[""] {
		t.Fatalf("nonces %v, want 3 distinct", seen)
	}
}
