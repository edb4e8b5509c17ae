// Package pyenv describes the locked Python environments synth runs code in:
// the lock files it was built with (embedded), where scripts/pyenv.sh
// installs each one, and how an interpreter compares with its lock.
package pyenv

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

//go:embed sandbox.lock
var sandboxLock []byte

// Sandbox is the environment rollouts, verification and probes run in:
// what synth's templates and checks import and what PyBench's tasks import.
var Sandbox = Env{Name: "sandbox", Lock: sandboxLock}

// RootVar names the variable that moves every environment's root from
// DefaultRoot, as it does for scripts/pyenv.sh.
const RootVar = "SYNTH_PYENV_ROOT"

// DefaultRoot is where scripts/pyenv.sh builds the environments: readable
// by the sandbox's unprivileged uids, unlike a home directory.
const DefaultRoot = "/opt/synth/python"

// Env is one locked environment: its name and the lock file's bytes.
type Env struct {
	Name string
	Lock []byte
}

// Hash is the first 12 hex digits of the lock's sha256, as scripts/pyenv.sh
// names the environment's folder.
func (e Env) Hash() string {
	sum := sha256.Sum256(e.Lock)
	return hex.EncodeToString(sum[:])[:12]
}

// ID names the environment and its lock: sandbox-2a48828bdf62.
func (e Env) ID() string { return e.Name + "-" + e.Hash() }

// Dir is the folder the environment is built in.
func (e Env) Dir() string {
	root := os.Getenv(RootVar)
	if root == "" {
		root = DefaultRoot
	}
	return filepath.Join(root, e.ID())
}

// Python is the environment's interpreter.
func (e Env) Python() string { return filepath.Join(e.Dir(), "bin", "python") }

// Built reports whether scripts/pyenv.sh finished building this lock: the
// folder holds a .complete marker naming the lock's hash.
func (e Env) Built() bool {
	b, err := os.ReadFile(filepath.Join(e.Dir(), ".complete"))
	return err == nil && strings.TrimSpace(string(b)) == e.Hash()
}

// Pins lists the lock's packages, by normalized name, with their versions.
func (e Env) Pins() map[string]string {
	pins := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(e.Lock))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == ' ' || line[0] == '#' || line[0] == '-' {
			continue
		}
		spec, _, _ := strings.Cut(line, " ")
		name, version, ok := strings.Cut(spec, "==")
		if ok {
			pins[Normalize(name)] = version
		}
	}
	return pins
}

// Normalize is a distribution name as PEP 503 compares them: lower case,
// runs of -, _ and . as one -.
func Normalize(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r == '-' || r == '_' || r == '.' {
			dash = true
			continue
		}
		if dash && b.Len() > 0 {
			b.WriteByte('-')
		}
		dash = false
		b.WriteRune(r)
	}
	return b.String()
}

// Drift compares installed distributions (normalized name -> version) with
// the lock: the locked packages missing, and those of another version as
// "name lock-version -> installed-version". Extra packages are not drift.
func (e Env) Drift(installed map[string]string) (missing, different []string) {
	for name, want := range e.Pins() {
		got, ok := installed[name]
		switch {
		case !ok:
			missing = append(missing, name+"=="+want)
		case got != want:
			different = append(different, name+" "+want+" -> "+got)
		}
	}
	sort.Strings(missing)
	sort.Strings(different)
	return missing, different
}
