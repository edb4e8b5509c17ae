package checks

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"synth/sandbox"
	"synth/schemas"
)

// Case is one finished rollout to verify: the task's checks, the rollout's
// final answer and messages, and the files of its workspace.
type Case struct {
	Checks   []schemas.Check
	Answer   string
	Messages []schemas.Message
	// Files are the rollout's inputs and outputs: Name is the
	// workspace-relative path ("data/a.csv", "output/3.png"), Path the host
	// file to copy or link (the run's read-only stores).
	Files []sandbox.Input
	// Transcript marks Answer as everything a solution printed rather than
	// its final answer: it may state any number of numbers.
	Transcript bool
	// Observations is what the rollout's code printed, one entry per cell
	// (its steps' observations), or nil when that is not known. When it is
	// known, a number the answer states for an answer check must be among
	// the numbers printed, up to rounding (docs/CHECKS.md, "Answers the
	// output supports"): a rollout that printed 10 and answers "4 times"
	// fails. It reaches the verifier bounded (boundObservations).
	Observations []string
}

// Bounds on the observations a case carries to the verifier: each cell's
// output keeps its head and tail within maxCellObservation bytes, and the
// cells kept, the last ones first, total at most maxObservations. The
// agent's default observation cap (8000 characters a cell) is far below.
const (
	maxCellObservation = 64 << 10
	maxObservations    = 512 << 10
)

// Unsupported reports whether a check's message says the answer states a
// value the rollout's code never printed.
func Unsupported(message string) bool { return strings.Contains(message, unsupportedMarker) }

// unsupportedMarker is checks.py's UNSUPPORTED.
const unsupportedMarker = "which the code's output never showed"

// boundObservations cuts obs to the bounds above; cut text is replaced
// by a marker without digits. nil stays nil.
func boundObservations(obs []string) []string {
	if obs == nil {
		return nil
	}
	out := make([]string, len(obs))
	total := 0
	for i := len(obs) - 1; i >= 0; i-- {
		o := obs[i]
		if len(o) > maxCellObservation {
			h := headUTF8(o, maxCellObservation/2)
			t := tailUTF8(o, maxCellObservation/2)
			o = h + "\n…cut…\n" + t
		}
		if total+len(o) > maxObservations {
			break
		}
		total += len(o)
		out[i] = o
	}
	return out
}

// headUTF8 is the longest prefix of s of at most n bytes that ends on a
// rune boundary.
func headUTF8(s string, n int) string {
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// tailUTF8 is the longest suffix of s of at most n bytes that starts on a
// rune boundary.
func tailUTF8(s string, n int) string {
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}

// verifyOutputBytes bounds what one verification cell may print; results of
// a batch of cases are larger than a rollout cell's output.
const verifyOutputBytes = 8 << 20

// Verify runs each case's checks in one fresh sandbox from b and returns
// one result per check of each case, in order.
//
// The verdict cannot be written by the code it judges:
//   - the sandbox holds no rollout's live workspace, only copies (or links)
//     of each case's files, read-only, under data/<case>/, and the checks
//     run with that as their working directory;
//   - the interpreter drops the workspace and working directory from
//     sys.path and every PYTHON* variable, then imports every module a
//     check may need, before any rollout content is read (isolate in
//     checks.py), so no shadow module is ever imported;
//   - produced code (a module, a pickle) runs only in disposable child
//     interpreters that answer plain JSON, which the checks validate;
//   - the results travel on a line that starts with a nonce drawn for this
//     verification, which no produced code sees.
//
// A failed check is a result, not an error. The error is a *CaseError when
// what a case holds stopped the verification (a file name the verifier
// cannot take; checks that a single case's files made time out or kill the
// verification cell): the rollout's failure, never the infrastructure's.
// Any other error is for a sandbox that could not run the checks.
func Verify(ctx context.Context, b sandbox.Backend, cases []Case) ([][]schemas.CheckResult, error) {
	out := make([][]schemas.CheckResult, len(cases))
	var run []int // cases with checks
	var inputs []sandbox.Input
	for i, c := range cases {
		if len(c.Checks) == 0 {
			continue
		}
		run = append(run, i)
		for _, f := range c.Files {
			name, err := caseFileName(f.Name)
			if err != nil {
				return nil, &CaseError{Case: i, Reason: schemas.FailArtifactError, Err: err}
			}
			inputs = append(inputs, sandbox.Input{Name: strconv.Itoa(i) + "/" + name, Path: f.Path, Root: f.Root})
		}
	}
	if len(run) == 0 {
		return out, nil
	}
	nonce, err := newNonce()
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	code, err := verifyCell(cases, run, nonce)
	if err != nil {
		return nil, err
	}
	sb, err := b.Open(ctx, sandbox.Spec{Inputs: inputs, Limits: sandbox.Limits{OutputBytes: verifyOutputBytes}})
	if err != nil {
		return nil, fmt.Errorf("verify: open sandbox: %w", err)
	}
	defer sb.Close()
	res, err := sb.Exec(ctx, code)
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	all, err := parseResults(res.Output, nonce)
	if err == nil && res.Truncated {
		// The results line is the last thing the cell prints: output cut
		// at its limit may have cut or dropped it.
		err = fmt.Errorf("output cut at %d bytes", verifyOutputBytes)
	}
	if err != nil {
		err = fmt.Errorf("checks cell ended %s: %w", res.Status, err)
		if len(run) == 1 && (res.Status == schemas.StatusTimeout || res.Status == schemas.StatusCrash) {
			// The cell ran the checks on this case's files alone, and
			// they killed it or outlasted its time.
			return nil, &CaseError{Case: run[0], Reason: schemas.FailCheckCrash, Err: err}
		}
		return nil, fmt.Errorf("verify: %w", err)
	}
	if len(all) != len(run) {
		return nil, fmt.Errorf("verify: results for %d cases, expected %d", len(all), len(run))
	}
	for k, i := range run {
		if len(all[k]) != len(cases[i].Checks) {
			return nil, fmt.Errorf("verify: case %d: %d results for %d checks", i, len(all[k]), len(cases[i].Checks))
		}
		for j, r := range all[k] {
			if want := cases[i].Checks[j].Kind; r.Kind != want {
				return nil, fmt.Errorf("verify: case %d: result %d is for a %s check, expected %s", i, j, r.Kind, want)
			}
		}
		out[i] = all[k]
	}
	if err := sb.Close(); err != nil {
		return nil, fmt.Errorf("verify: close sandbox: %w", err)
	}
	return out, nil
}

// CaseError is a verification that what a case holds stopped: a file name
// the verifier cannot take, or checks that its files made time out or kill
// the verification cell. A rollout controls both, so it is that rollout's
// failure, with Reason its taxonomy word (schemas.FailArtifactError,
// schemas.FailCheckCrash), and never an infrastructure error to retry.
type CaseError struct {
	Case   int // the index of the case in Verify's cases
	Reason string
	Err    error
}

func (e *CaseError) Error() string {
	return fmt.Sprintf("verify: case %d: %s: %v", e.Case, e.Reason, e.Err)
}

func (e *CaseError) Unwrap() error { return e.Err }

// CheckFileName reports whether name can be a case file's
// workspace-relative name: a clean relative path under data/ or output/, in
// UTF-8, without backslashes or control characters.
func CheckFileName(name string) error {
	_, err := caseFileName(name)
	return err
}

// caseFileName cleans a case file's workspace-relative name, which must lie
// under data/ or output/.
func caseFileName(name string) (string, error) {
	if !utf8.ValidString(name) {
		return "", fmt.Errorf("file %q: the name is not UTF-8; the checks take only UTF-8 names", name)
	}
	if strings.ContainsFunc(name, func(r rune) bool { return r == '\\' || unicode.IsControl(r) }) {
		return "", fmt.Errorf("file %q: the name holds a backslash or a control character; the checks take neither", name)
	}
	c := path.Clean(name)
	if c != name || path.IsAbs(c) || !(strings.HasPrefix(c, "data/") || strings.HasPrefix(c, "output/")) || strings.Contains("/"+c+"/", "/../") {
		return "", fmt.Errorf("file %q: want a clean path under data/ or output/", name)
	}
	return c, nil
}

func newNonce() (string, error) {
	var b [24]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return "__SYNTH_VERDICT_" + hex.EncodeToString(b[:]) + "__", nil
}

// payloadCase is what the checks cell receives for one case.
type payloadCase struct {
	Root       string            `json:"root"`
	Checks     []schemas.Check   `json:"checks"`
	Answer     string            `json:"answer"`
	Messages   []schemas.Message `json:"messages"`
	Transcript bool              `json:"transcript,omitempty"`
	// Observed says Observations is known (possibly empty).
	Observed     bool     `json:"observed,omitempty"`
	Observations []string `json:"observations,omitempty"`
}

// libraryBase64 is Library as the cell carries it, for a sandbox whose
// zygote does not hold it resident.
var libraryBase64 = base64.StdEncoding.EncodeToString([]byte(Library))

// verifyCell is the Python cell that isolates the interpreter, takes the
// library (the zygote's resident copy when its digest matches, else the
// source the cell carries) and runs the cases. Library and payload travel base64-encoded so
// no quoting can break the cell; sys.path is cleaned before the first
// import the cell makes.
func verifyCell(cases []Case, run []int, nonce string) (string, error) {
	var p []payloadCase
	for _, i := range run {
		c := cases[i]
		msgs := c.Messages
		if msgs == nil {
			msgs = []schemas.Message{}
		}
		p = append(p, payloadCase{Root: strconv.Itoa(i), Checks: c.Checks, Answer: c.Answer, Messages: msgs, Transcript: c.Transcript,
			Observed: c.Observations != nil, Observations: boundObservations(c.Observations)})
	}
	exts := map[string]bool{"": true} // never an empty list
	for _, i := range run {
		for _, f := range cases[i].Files {
			exts[strings.ToLower(path.Ext(f.Name))] = true
		}
	}
	data, err := json.Marshal(map[string]any{"cases": p, "exts": slices.Sorted(maps.Keys(exts))})
	if err != nil {
		return "", fmt.Errorf("verify: %w", err)
	}
	in := base64.StdEncoding.EncodeToString(data)
	return fmt.Sprintf(`def __synth_verify():
    import sys, os
    root = os.path.realpath(os.getcwd())
    sys.path[:] = [p for p in sys.path if p not in ("", ".") and not os.path.realpath(p).startswith(root)]
    sys.path_importer_cache.clear()
    import base64, json
    m = sys.modules.get("synth_checks")
    if m is not None and getattr(m, "__synth_sha256__", None) == %q:
        ns = m.__dict__
    else:
        ns = {"__name__": "synth_checks"}
        exec(compile(base64.b64decode(%q).decode("utf-8"), "synth_checks.py", "exec"), ns)
    p = json.loads(base64.b64decode(%q).decode("utf-8"))
    ns["isolate"](root, p["exts"])
    out = ns["verify_cases"](os.path.join(root, "data"), p["cases"])
    line = ("\n%s" + json.dumps(out) + "\n").encode("utf-8")
    while line:
        line = line[os.write(1, line):]
__synth_verify()
del __synth_verify
`, residentSHA256, libraryBase64, in, nonce), nil
}

// parseResults finds the one line of a cell's output that starts with
// nonce.
func parseResults(out, nonce string) ([][]schemas.CheckResult, error) {
	var line string
	found := 0
	for l := range strings.SplitSeq(out, "\n") {
		if strings.HasPrefix(l, nonce) {
			line, found = l[len(nonce):], found+1
		}
	}
	switch found {
	case 0:
		return nil, fmt.Errorf("no results in output: %s", tail(out, 600))
	case 1:
	default:
		return nil, fmt.Errorf("%d results lines in output", found)
	}
	if len(line) > verifyOutputBytes {
		return nil, fmt.Errorf("results line of %d bytes, more than the %d a verification cell may print", len(line), verifyOutputBytes)
	}
	var rs [][]schemas.CheckResult
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
