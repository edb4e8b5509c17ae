package pyenv_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"testing"

	"synth/generators/template"
	"synth/hostpy"
	"synth/pyenv"
	"synth/pyenv/pyenvtest"
)

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"PyYAML": "pyyaml", "scikit_learn": "scikit-learn", "zope.interface": "zope-interface",
		"opencv-python-headless": "opencv-python-headless", "Foo__Bar": "foo-bar",
	} {
		if got := pyenv.Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPinsAndDrift(t *testing.T) {
	env := pyenv.Env{Name: "x", Lock: []byte(`# a comment
numpy==2.4.6 \
    --hash=sha256:aa
    # via pandas
Pandas==2.3.3 \
    --hash=sha256:bb
--index-url https://example.invalid
`)}
	pins := env.Pins()
	if len(pins) != 2 || pins["numpy"] != "2.4.6" || pins["pandas"] != "2.3.3" {
		t.Fatalf("Pins = %v", pins)
	}
	missing, different := env.Drift(map[string]string{"pandas": "2.2.0", "extra": "1"})
	if !slices.Equal(missing, []string{"numpy==2.4.6"}) || !slices.Equal(different, []string{"pandas 2.3.3 -> 2.2.0"}) {
		t.Errorf("Drift = %v, %v", missing, different)
	}
	if m, d := env.Drift(map[string]string{"numpy": "2.4.6", "pandas": "2.3.3"}); len(m)+len(d) != 0 {
		t.Errorf("an exact install drifts: %v %v", m, d)
	}
}

// The embedded lock is the file in the repository, and the folder and
// marker follow its hash.
func TestSandboxLockIsTheFile(t *testing.T) {
	b, err := os.ReadFile("sandbox.lock")
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != string(pyenv.Sandbox.Lock) {
		t.Fatal("the embedded lock differs from pyenv/sandbox.lock")
	}
	t.Setenv(pyenv.RootVar, t.TempDir())
	env := pyenv.Sandbox
	if env.Built() {
		t.Fatal("an empty root holds a built environment")
	}
	if err := os.MkdirAll(env.Dir(), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(env.Dir()+"/.complete", []byte("000000000000\n"), 0o644)
	if env.Built() {
		t.Fatal("a marker of another lock counts as built")
	}
	os.WriteFile(env.Dir()+"/.complete", []byte(env.Hash()+"\n"), 0o644)
	if !env.Built() {
		t.Fatal("the marker of this lock does not count as built")
	}
}

// The built environment holds exactly what the lock pins, and every Python
// module a template needs imports in it: no template is skipped.
func TestBuiltEnvironmentMatchesLock(t *testing.T) {
	python := pyenvtest.Python(t)
	out, err := hostpy.Command(context.Background(), python, "-c", `
import json
from importlib import metadata
print(json.dumps({d.metadata["Name"]: d.version for d in metadata.distributions()}))`).Output()
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]string
	if err := json.Unmarshal(out, &raw); err != nil {
		t.Fatal(err)
	}
	have := map[string]string{}
	for k, v := range raw {
		have[pyenv.Normalize(k)] = v
	}
	if missing, different := pyenv.Sandbox.Drift(have); len(missing)+len(different) > 0 {
		t.Errorf("the built environment drifts from its lock: missing %v, different %v", missing, different)
	}
	mods, err := template.ProbeModules(context.Background(), python, template.Modules())
	if err != nil {
		t.Fatal(err)
	}
	for m, ok := range mods {
		if !ok {
			t.Errorf("module %s, which a template needs, is not in the locked environment", m)
		}
	}
	if _, skipped := template.Available(mods); len(skipped) > 0 {
		t.Errorf("templates skipped in the locked environment: %v", skipped)
	}
}

// PyBench's tasks import these (scripts/pyimports.py over its trajectories
// and tests); each imports in the locked environment without touching the
// network, and pydub finds ffmpeg.
func TestPyBenchModulesImport(t *testing.T) {
	python := pyenvtest.Python(t)
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Fatalf("ffmpeg is missing (scripts/deps.sh installs it): %v", err)
	}
	code := `
import importlib, warnings
warnings.simplefilter("ignore")
for m in ["pandas", "numpy", "matplotlib", "seaborn", "sklearn", "scipy", "sympy", "PIL", "cv2",
          "skimage", "imageio", "moviepy", "pydub", "mutagen", "fitz", "PyPDF2", "pypdf", "pdf2docx",
          "docx", "openpyxl", "xlrd", "bs4", "lxml", "jieba", "wordcloud", "qrcode", "pyarrow",
          "joblib", "ffmpeg", "requests", "statsmodels", "soundfile", "pygame"]:
    importlib.import_module(m)
from pydub.utils import which
assert which("ffmpeg"), "pydub finds no ffmpeg"
print("ok")
`
	cmd := hostpy.Command(context.Background(), python, "-c", code)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}
