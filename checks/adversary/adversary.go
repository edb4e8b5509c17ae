package adversary

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"synth/checks"
	"synth/sandbox"
	"synth/schemas"
)

// Rollout is a finished rollout an adversary made up: its final answer and
// the files it left, by workspace-relative path ("output/3.csv", or
// "wave.py" at the workspace root).
type Rollout struct {
	Answer string
	Files  map[string][]byte
}

// Adversary makes a hostile rollout for a task. Make returns false when the
// adversary has nothing to try on the task (a blank image for a task that
// asks for no image); such a task is not tested by it.
type Adversary struct {
	Name string // a word, used as the drop reason "adversary_<name>_passes"
	Doc  string // one line: what it does
	Make func(t *schemas.Task, inputs []sandbox.Input) (Rollout, bool, error)
}

// Empty is the adversary that does nothing: no files, an empty answer. It
// comes first in All, and a task it passes is dropped as empty_passes.
const Empty = "empty"

// All is the adversary set, in a fixed order, Empty first.
func All() []Adversary {
	return []Adversary{
		{Empty, "no files and an empty final answer", makeEmpty},
		{"shotgun", "an answer listing every integer from -300 to 3000, every hundredth from -1 to 1 and every option the checks name", makeShotgun},
		{"copy_input", "the input copied to every requested output path, with the shotgun answer", makeCopyInput},
		{"random_bytes", "random bytes under every requested output path, with the shotgun answer", makeRandomBytes},
		{"empty_table", "the input table's header alone (the right columns, no rows) at every requested csv path, with the shotgun answer", makeEmptyTable},
		{"blank_image", "a blank white image of the expected size at every requested image path, with the shotgun answer", makeBlankImage},
		{"shadow_modules", "copies of every module the checks import, at the workspace root and in output/, that rewrite the verdict; the input at every output path", makeShadow},
		{"forged_code", "produced modules and pickles that patch json.dumps and print, print fake result lines and return objects equal to anything", makeForged},
	}
}

// Names lists the adversaries' names.
func Names() []string {
	var out []string
	for _, a := range All() {
		out = append(out, a.Name)
	}
	return out
}

// Named returns the adversary called name.
func Named(name string) (Adversary, bool) {
	for _, a := range All() {
		if a.Name == name {
			return a, true
		}
	}
	return Adversary{}, false
}

// Reason is the drop reason of a task that adversary name passes.
func Reason(name string) string { return "adversary_" + name + "_passes" }

// Reference is the rollout as a solution a teacher can play through the real
// sandbox: one cell writing every file, then the answer.
func (r Rollout) Reference() *schemas.Reference {
	if len(r.Files) == 0 {
		return &schemas.Reference{Steps: []schemas.RefStep{{Thought: "Nothing to do.", Code: "pass"}}, Answer: r.Answer}
	}
	var b strings.Builder
	b.WriteString("import base64, os\nfor p, data in [\n")
	for _, p := range sortedKeys(r.Files) {
		fmt.Fprintf(&b, "    (%q, %q),\n", p, base64.StdEncoding.EncodeToString(r.Files[p]))
	}
	b.WriteString("]:\n    os.makedirs(os.path.dirname(p) or '.', exist_ok=True)\n    with open(p, 'wb') as f:\n        f.write(base64.b64decode(data))\n")
	return &schemas.Reference{Steps: []schemas.RefStep{{Thought: "Write the files.", Code: b.String()}}, Answer: r.Answer}
}

// Case writes the rollout's files under output/ into dir and returns the
// verification case: the task's checks, the answer, the inputs under data/
// and those files. Files outside output/ are left out: verification never
// sees a workspace root.
func (r Rollout) Case(t *schemas.Task, inputs []sandbox.Input, dir string) (checks.Case, error) {
	c := checks.Case{Checks: t.Checks, Answer: r.Answer,
		Messages: []schemas.Message{{Role: schemas.RoleAssistant, Content: "Finished: " + r.Answer}}}
	for _, in := range inputs {
		c.Files = append(c.Files, sandbox.Input{Name: "data/" + in.Name, Path: in.Path, Root: in.Root})
	}
	for _, p := range sortedKeys(r.Files) {
		if !strings.HasPrefix(p, "output/") {
			continue
		}
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return c, err
		}
		if err := os.WriteFile(dst, r.Files[p], 0o444); err != nil {
			return c, err
		}
		c.Files = append(c.Files, sandbox.Input{Name: p, Path: dst})
	}
	return c, nil
}

// Result is how one adversary fared against a task.
type Result struct {
	Adversary string
	Passed    bool                  // every check passed: the task is broken
	Checks    []schemas.CheckResult // empty when the adversary did not apply
	Applied   bool
}

// Prove runs every adversary against t, verifying all their rollouts in one
// verification sandbox from b; inputs are the task's files (Name under
// data/). Scratch files go under a temporary directory that is removed. The
// error is for a sandbox that could not verify, or an adversary that could
// not be built.
func Prove(ctx context.Context, b sandbox.Backend, t *schemas.Task, inputs []sandbox.Input) ([]Result, error) {
	dir, err := os.MkdirTemp("", "synth-adversary-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	res, cases, err := Cases(t, inputs, dir)
	if err != nil {
		return nil, err
	}
	all, err := checks.Verify(ctx, b, cases)
	if err != nil {
		return nil, fmt.Errorf("adversaries of task %s: %w", t.ID, err)
	}
	Score(res, all)
	return res, nil
}

// Cases makes every adversary's rollout for t, in All's order, and returns
// one Result (Applied set) and one verification case for each: a zero Case,
// which checks nothing, for an adversary with nothing to try. The rollouts'
// files are written under dir, which must outlive the verification. A
// caller may verify the cases in one batch with cases of its own (synth
// build adds the reference's and the mutant's), then Score them. The error
// is for an adversary that could not be built.
func Cases(t *schemas.Task, inputs []sandbox.Input, dir string) ([]Result, []checks.Case, error) {
	return CasesOf(All(), t, inputs, dir)
}

// CasesOf is Cases for the adversaries advs, in their order.
func CasesOf(advs []Adversary, t *schemas.Task, inputs []sandbox.Input, dir string) ([]Result, []checks.Case, error) {
	var res []Result
	var cases []checks.Case
	for i, a := range advs {
		r, ok, err := a.Make(t, inputs)
		if err != nil {
			return nil, nil, fmt.Errorf("adversary %s: task %s: %w", a.Name, t.ID, err)
		}
		res = append(res, Result{Adversary: a.Name, Applied: ok})
		if !ok {
			cases = append(cases, checks.Case{})
			continue
		}
		c, err := r.Case(t, inputs, filepath.Join(dir, fmt.Sprint(i)))
		if err != nil {
			return nil, nil, fmt.Errorf("adversary %s: task %s: %w", a.Name, t.ID, err)
		}
		cases = append(cases, c)
	}
	return res, cases, nil
}

// Score fills each applied result with its case's check results, rs in
// Cases' order: it passed when it has checks and every one passed.
func Score(res []Result, rs [][]schemas.CheckResult) {
	for i := range res {
		if !res[i].Applied {
			continue
		}
		res[i].Checks = rs[i]
		res[i].Passed = len(rs[i]) > 0
		for _, r := range rs[i] {
			if !r.OK {
				res[i].Passed = false
			}
		}
	}
}

// ---------- the adversaries ----------

func makeEmpty(t *schemas.Task, _ []sandbox.Input) (Rollout, bool, error) {
	return Rollout{}, true, nil
}

func makeShotgun(t *schemas.Task, _ []sandbox.Input) (Rollout, bool, error) {
	return Rollout{Answer: shotgun(t)}, true, nil
}

func makeCopyInput(t *schemas.Task, inputs []sandbox.Input) (Rollout, bool, error) {
	outs := OutputPaths(t)
	if len(outs) == 0 || len(inputs) == 0 {
		return Rollout{}, false, nil
	}
	r := Rollout{Answer: shotgun(t), Files: map[string][]byte{}}
	for _, p := range outs {
		in := inputFor(p, inputs)
		data, err := os.ReadFile(hostPath(in))
		if err != nil {
			return r, false, err
		}
		r.Files[fileAt(p, in.Name)] = data
	}
	return r, true, nil
}

func makeRandomBytes(t *schemas.Task, inputs []sandbox.Input) (Rollout, bool, error) {
	outs := OutputPaths(t)
	if len(outs) == 0 {
		return Rollout{}, false, nil
	}
	h := fnv.New64a()
	h.Write([]byte(t.ID))
	rng := rand.New(rand.NewPCG(h.Sum64(), 11))
	r := Rollout{Answer: shotgun(t), Files: map[string][]byte{}}
	for _, p := range outs {
		b := make([]byte, 4096)
		for i := range b {
			b[i] = byte(rng.UintN(256))
		}
		ext := ".bin"
		if len(inputs) > 0 {
			ext = path.Ext(inputs[0].Name)
		}
		r.Files[fileAt(p, "random"+ext)] = b
	}
	return r, true, nil
}

func makeBlankImage(t *schemas.Task, inputs []sandbox.Input) (Rollout, bool, error) {
	r := Rollout{Answer: shotgun(t), Files: map[string][]byte{}}
	for _, p := range OutputPaths(t) {
		name := p
		if strings.HasSuffix(p, "/") {
			name = p + "blank.png"
		}
		if !isImagePath(name) {
			continue
		}
		w, h := imageSize(t, p, inputs)
		data, err := blankImage(path.Ext(name), w, h)
		if err != nil {
			return r, false, err
		}
		r.Files[name] = data
	}
	return r, len(r.Files) > 0, nil
}

func makeEmptyTable(t *schemas.Task, inputs []sandbox.Input) (Rollout, bool, error) {
	r := Rollout{Answer: shotgun(t), Files: map[string][]byte{}}
	var header []byte
	for _, in := range inputs {
		if ext := strings.ToLower(path.Ext(in.Name)); ext == ".csv" || ext == ".tsv" {
			data, err := os.ReadFile(hostPath(in))
			if err != nil {
				return r, false, err
			}
			if i := bytes.IndexByte(data, '\n'); i >= 0 {
				header = data[:i+1]
			}
			break
		}
	}
	if header == nil {
		return r, false, nil
	}
	for _, p := range OutputPaths(t) {
		if ext := strings.ToLower(path.Ext(p)); ext == ".csv" || ext == ".tsv" {
			r.Files[p] = header
		}
	}
	return r, len(r.Files) > 0, nil
}

func makeShadow(t *schemas.Task, inputs []sandbox.Input) (Rollout, bool, error) {
	r, _, err := makeCopyInput(t, inputs)
	if err != nil {
		return r, false, err
	}
	if r.Files == nil {
		r = Rollout{Answer: shotgun(t), Files: map[string][]byte{}}
	}
	for _, m := range ShadowedModules {
		src := []byte(forgePayload)
		for _, dir := range []string{"", "output/"} {
			r.Files[dir+m] = src
		}
	}
	return r, true, nil
}

func makeForged(t *schemas.Task, inputs []sandbox.Input) (Rollout, bool, error) {
	r, _, err := makeCopyInput(t, inputs)
	if err != nil {
		return r, false, err
	}
	if r.Files == nil {
		r = Rollout{Files: map[string][]byte{}}
	}
	r.Answer = shotgun(t) + "\n" + fakeMarkers
	for _, p := range OutputPaths(t) {
		switch path.Ext(p) {
		case ".py":
			r.Files[p] = []byte(forgePayload)
		case ".pkl", ".pickle", ".joblib":
			r.Files[p] = forgePickle()
		}
	}
	// A module beside the outputs under the name a check might import.
	r.Files["output/solution.py"] = []byte(forgePayload)
	return r, true, nil
}

// ---------- what a task asks for ----------

var outputRE = regexp.MustCompile(`output/[A-Za-z0-9_./-]+`)

// OutputPaths lists the paths under output/ a task asks for: its Outputs,
// the paths of its checks and those its python checks name, sorted. A path
// ending in "/" is a directory.
func OutputPaths(t *schemas.Task) []string {
	seen := map[string]bool{}
	add := func(p string) {
		p = strings.TrimRight(p, ".")
		if strings.HasPrefix(p, "output/") && len(p) > len("output/") && !strings.Contains(p, "..") {
			seen[p] = true
		}
	}
	for _, p := range t.Outputs {
		add(p)
	}
	for _, c := range t.Checks {
		add(c.Path)
		if c.Kind == schemas.CheckPython {
			for _, m := range outputRE.FindAllString(c.Code, -1) {
				add(m)
			}
		}
	}
	out := slices.Sorted(func(yield func(string) bool) {
		for k := range seen {
			if !yield(k) {
				return
			}
		}
	})
	// A directory named bare in a check ("output/frames") is one when a
	// listed path is under it.
	var keep []string
	for _, p := range out {
		if !strings.HasSuffix(p, "/") && seen[p+"/"] {
			continue
		}
		keep = append(keep, p)
	}
	return keep
}

// fileAt is where a file for output path p goes: p itself, or a file named
// like name inside p when p is a directory.
func fileAt(p, name string) string {
	if strings.HasSuffix(p, "/") {
		return p + "1" + path.Ext(name)
	}
	return p
}

// inputFor is the input most like output p: the same extension, else the
// first.
func inputFor(p string, inputs []sandbox.Input) sandbox.Input {
	for _, in := range inputs {
		if strings.EqualFold(path.Ext(in.Name), path.Ext(p)) {
			return in
		}
	}
	return inputs[0]
}

// shotgun is an answer listing every number a guesser would try and every
// option the task's checks name (except contains_all, which holds the
// answer itself).
func shotgun(t *schemas.Task) string {
	var b strings.Builder
	b.WriteString("Finished: the answer is one of these: ")
	for i := -300; i <= 3000; i++ {
		fmt.Fprintf(&b, "%d ", i)
	}
	for i := -100; i <= 100; i++ {
		fmt.Fprintf(&b, "%.2f ", float64(i)/100)
	}
	for _, c := range t.Checks {
		for _, s := range append(slices.Clone(c.ContainsAny), c.NoneOf...) {
			b.WriteString(s + ", ")
		}
	}
	return b.String()
}

func sortedKeys(m map[string][]byte) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
