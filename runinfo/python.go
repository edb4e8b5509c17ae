package runinfo

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"synth/hostpy"
	"synth/pyenv"
)

// pythonProbe prints the interpreter's version and every installed
// distribution with its version, as JSON.
const pythonProbe = `
import json, sys
from importlib import metadata
dists = {}
for d in metadata.distributions():
    name = d.metadata["Name"]
    if name:
        dists[name] = d.version
fixed = False
try:
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    libc.personality.restype = ctypes.c_int
    libc.personality.argtypes = [ctypes.c_ulong]
    cur = libc.personality(0xFFFFFFFF)
    fixed = cur >= 0 and libc.personality(cur | 0x0040000) >= 0 and bool(libc.personality(0xFFFFFFFF) & 0x0040000)
except Exception:
    pass
print(json.dumps({"version": sys.version.split()[0], "distributions": dists, "fixed_addresses": fixed}))
`

// mainPackages are the distributions run.json and the dataset card name,
// the ones whose versions shape what task code prints.
var mainPackages = []string{"pandas", "numpy", "matplotlib", "seaborn", "scipy", "scikit-learn",
	"statsmodels", "sympy", "openpyxl", "pyarrow", "pillow", "opencv-python-headless",
	"scikit-image", "pymupdf", "pypdf", "python-docx", "pydub", "wordcloud", "jieba"}

// ProbePython asks the interpreter for its version and distributions, and
// compares them with the sandbox lock, for run.json and synth doctor. A
// missing interpreter gives a record with only Executable set.
func ProbePython(ctx context.Context, python string) PythonInfo {
	info := PythonInfo{Executable: python, Packages: map[string]string{}}
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	out, err := hostpy.Command(ctx, python, "-c", pythonProbe).Output()
	if err != nil {
		return info
	}
	var raw struct {
		Version        string            `json:"version"`
		Distributions  map[string]string `json:"distributions"`
		FixedAddresses bool              `json:"fixed_addresses"`
	}
	if json.Unmarshal(out, &raw) != nil || raw.Version == "" {
		return info
	}
	info.Version, info.FixedAddresses = raw.Version, raw.FixedAddresses
	info.Distributions = make(map[string]string, len(raw.Distributions))
	for name, v := range raw.Distributions {
		info.Distributions[pyenv.Normalize(name)] = v
	}
	for _, name := range mainPackages {
		if v, ok := info.Distributions[name]; ok {
			info.Packages[name] = v
		}
	}
	info.Fingerprint = fingerprint(info.Version, info.Distributions)
	if missing, different := pyenv.Sandbox.Drift(info.Distributions); len(missing)+len(different) == 0 {
		info.Lock = pyenv.Sandbox.ID()
	}
	return info
}

// fingerprint identifies an environment by its Python version and every
// distribution's name and version.
func fingerprint(version string, dists map[string]string) string {
	names := make([]string, 0, len(dists))
	for n := range dists {
		names = append(names, n)
	}
	sort.Strings(names)
	h := sha256.New()
	fmt.Fprintf(h, "python %s\n", version)
	for _, n := range names {
		fmt.Fprintf(h, "%s==%s\n", n, dists[n])
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// Describe names an environment for messages: its lock when it matches
// one, else its interpreter, version and fingerprint.
func (p PythonInfo) Describe() string {
	if p.Version == "" {
		return p.Executable + " (not usable)"
	}
	var b strings.Builder
	if p.Lock != "" {
		fmt.Fprintf(&b, "locked environment %s (%s, Python %s)", p.Lock, p.Executable, p.Version)
	} else {
		fmt.Fprintf(&b, "%s (Python %s, %d packages, fingerprint %s, not the lock %s)", p.Executable, p.Version, len(p.Distributions), p.Fingerprint, pyenv.Sandbox.ID())
	}
	return b.String()
}

// PythonInfo is the sandbox interpreter: its version, the main packages
// tasks use, and what identifies the whole environment.
type PythonInfo struct {
	Executable string            `json:"executable"`
	Version    string            `json:"version"`
	Packages   map[string]string `json:"packages"` // the main distributions, by normalized name
	// Lock is the sandbox lock (name-hash) when every locked package is
	// installed at its locked version; empty for another environment.
	Lock string `json:"lock,omitempty"`
	// Fingerprint hashes the Python version and every installed
	// distribution with its version; a resume under another refuses.
	Fingerprint   string            `json:"fingerprint,omitempty"`
	Distributions map[string]string `json:"distributions,omitempty"`
	// FixedAddresses: this machine lets an interpreter turn off its
	// address-space randomisation (personality ADDR_NO_RANDOMIZE), as the
	// sandbox's zygote does.
	FixedAddresses bool `json:"fixed_addresses"`
}
