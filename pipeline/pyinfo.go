package pipeline

import (
	"context"
	"encoding/json"
	"time"

	"synth/hostpy"
)

// pythonProbe prints the interpreter's version and the versions of the
// packages tasks use, as JSON.
const pythonProbe = `
import json, sys, importlib
out = {"version": sys.version.split()[0], "packages": {}}
for name in ["pandas", "numpy", "matplotlib", "openpyxl", "PIL", "scipy", "sklearn", "sympy", "pypdf", "docx", "cv2", "qrcode", "wordcloud", "pydub", "soundfile", "seaborn", "networkx"]:
    try:
        m = importlib.import_module(name)
        out["packages"][name] = str(getattr(m, "__version__", "present"))
    except Exception:
        pass
try:
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    libc.personality.restype = ctypes.c_int
    libc.personality.argtypes = [ctypes.c_ulong]
    cur = libc.personality(0xFFFFFFFF)
    out["fixed_addresses"] = cur >= 0 and libc.personality(cur | 0x0040000) >= 0 and bool(libc.personality(0xFFFFFFFF) & 0x0040000)
except Exception:
    out["fixed_addresses"] = False
print(json.dumps(out))
`

// ProbePython asks the interpreter for its version and packages, for
// run.json and synth doctor. A missing interpreter gives an empty record.
func ProbePython(ctx context.Context, python string) PythonInfo {
	info := PythonInfo{Executable: python, Packages: map[string]string{}}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := hostpy.Command(ctx, python, "-c", pythonProbe).Output()
	if err != nil {
		return info
	}
	_ = json.Unmarshal(out, &info)
	info.Executable = python
	return info
}
