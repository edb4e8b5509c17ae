package checks

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"synth/sandbox"
	"synth/schemas"
)

// marker starts the output line that carries the check results back.
const marker = "__SYNTH_CHECK_RESULTS__"

// payload is what the checks cell receives.
type payload struct {
	Checks   []schemas.Check   `json:"checks"`
	Answer   string            `json:"answer"`
	Messages []schemas.Message `json:"messages"`
}

// Verify runs the checks in sb, whose working directory is the finished
// rollout's workspace, against answer and messages. It returns one result
// per check, in order. A failed check is a result, not an error; the error
// is for a sandbox that could not run the checks at all.
func Verify(ctx context.Context, sb sandbox.Sandbox, cs []schemas.Check, answer string, messages []schemas.Message) ([]schemas.CheckResult, error) {
	if len(cs) == 0 {
		return nil, nil
	}
	code, err := verifyCell(cs, answer, messages)
	if err != nil {
		return nil, err
	}
	res, err := sb.Exec(ctx, code)
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	results, err := parseResults(res.Output)
	if err != nil {
		return nil, fmt.Errorf("verify: checks cell ended %s: %w", res.Status, err)
	}
	if len(results) != len(cs) {
		return nil, fmt.Errorf("verify: %d results for %d checks", len(results), len(cs))
	}
	return results, nil
}

// verifyCell is the Python cell that runs the library over the payload.
// Both travel base64-encoded so no quoting can break the cell.
func verifyCell(cs []schemas.Check, answer string, messages []schemas.Message) (string, error) {
	if messages == nil {
		messages = []schemas.Message{}
	}
	data, err := json.Marshal(payload{Checks: cs, Answer: answer, Messages: messages})
	if err != nil {
		return "", fmt.Errorf("verify: %w", err)
	}
	lib := base64.StdEncoding.EncodeToString([]byte(Library))
	in := base64.StdEncoding.EncodeToString(data)
	return fmt.Sprintf(`def __synth_verify():
    import base64, json
    ns = {"__name__": "synth_checks"}
    exec(compile(base64.b64decode(%q).decode("utf-8"), "synth_checks.py", "exec"), ns)
    p = json.loads(base64.b64decode(%q).decode("utf-8"))
    out = ns["run_checks"](p["checks"], p["answer"], p["messages"])
    print("\n%s" + json.dumps(out), flush=True)
__synth_verify()
del __synth_verify
`, lib, in, marker), nil
}

// parseResults finds the marker line in a cell's output.
func parseResults(out string) ([]schemas.CheckResult, error) {
	i := strings.LastIndex(out, marker)
	if i < 0 {
		return nil, fmt.Errorf("no results in output: %s", tail(out, 600))
	}
	line := out[i+len(marker):]
	if j := strings.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	var rs []schemas.CheckResult
	if err := json.Unmarshal([]byte(line), &rs); err != nil {
		return nil, fmt.Errorf("bad results line: %w", err)
	}
	return rs, nil
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
