package adversary

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path"
	"path/filepath"
	"strings"

	"synth/sandbox"
	"synth/schemas"
)

// ShadowedModules are the files shadow_modules writes, at the workspace
// root and in output/: every module the checks library imports, so that a
// verifier that imported one from the workspace would run forgePayload.
var ShadowedModules = []string{
	"json.py", "re.py", "math.py", "wave.py", "zipfile.py", "pickle.py", "base64.py", "struct.py",
	"csv.py", "select.py", "subprocess.py", "signal.py", "traceback.py", "html.py",
	"numpy.py", "pandas.py", "openpyxl.py", "pypdf.py", "pyarrow.py", "pydub.py",
	"PIL/__init__.py", "PIL/Image.py", "PIL/ImageOps.py", "sitecustomize.py", "usercustomize.py",
}

// forgePayload is Python that, wherever it runs, tries to turn the verdict
// to ok: json.dumps and print rewrite any result to ok, fake result lines go
// to stdout, and every name it is asked for is an object equal to anything.
const forgePayload = `import builtins as _b, json as _j, os as _os, sys as _s
_real_dumps = getattr(_j, "_synth_real", None) or _j.dumps


def _forge(o):
    if isinstance(o, list):
        return [_forge(x) for x in o]
    if isinstance(o, dict):
        o = {k: _forge(v) for k, v in o.items()}
        if "ok" in o:
            o["ok"], o["message"] = True, "ok"
        if "passed" in o:
            o["passed"] = True
    return o


def _dumps(o, *a, **k):
    return _real_dumps(_forge(o), *a, **k)


_j._synth_real = _real_dumps
_j.dumps = _dumps
_real_print = _b.print


def _print(*a, **k):
    _real_print(*[_forge(x) for x in a], **k)


_b.print = _print
_FAKE = '[{"kind": "answer", "ok": true, "message": "ok"}]'
for _line in ("__SYNTH_CHECK_RESULTS__" + _FAKE, "__SYNTH_VERDICT__" + _FAKE, "[[" + _FAKE[1:-1] + "]]"):
    try:
        _os.write(1, ("\n" + _line + "\n").encode())
    except OSError:
        pass


class _Yes:
    def __eq__(self, o):
        return True

    def __ne__(self, o):
        return False

    __lt__ = __le__ = __gt__ = __ge__ = __eq__
    __hash__ = object.__hash__

    def __bool__(self):
        return True

    def __len__(self):
        return 3

    def __iter__(self):
        return iter([])

    def __getitem__(self, k):
        return _Yes()

    def __getattr__(self, n):
        return _Yes()

    def __call__(self, *a, **k):
        return _Yes()

    def __str__(self):
        return "ok"


def __getattr__(name):
    return _Yes()


def predict(*a, **k):
    return _Yes()
`

// fakeMarkers are result lines in the formats a verifier might parse,
// every check ok.
const fakeMarkers = "__SYNTH_CHECK_RESULTS__[{\"kind\": \"answer\", \"ok\": true, \"message\": \"ok\"}]\n" +
	"__SYNTH_VERDICT__[[{\"kind\": \"answer\", \"ok\": true, \"message\": \"ok\"}]]"

// forgePickle is a pickle whose loading runs forgePayload (through
// builtins.exec, as a __reduce__ would) and returns an object equal to
// anything, with every method.
func forgePickle() []byte {
	esc := func(s string) string {
		return strings.NewReplacer("\\", "\\u005c", "\n", "\\u000a", "\r", "\\u000d").Replace(s)
	}
	var b bytes.Buffer
	b.WriteString("cbuiltins\nexec\n(V" + esc(forgePayload) + "\ntR0")
	b.WriteString("cbuiltins\neval\n(V_Yes()\ntR.")
	return b.Bytes()
}

func isImagePath(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp", ".tif", ".tiff":
		return true
	}
	return false
}

// imageSize is the size a blank image for output p gets: the size an image
// check of p asks for, else the first image input's, else 256x256.
func imageSize(t *schemas.Task, p string, inputs []sandbox.Input) (int, int) {
	for _, c := range t.Checks {
		if c.Kind == schemas.CheckImage && c.Path == p && c.Width != nil && c.Height != nil {
			return *c.Width, *c.Height
		}
	}
	for _, in := range inputs {
		f, err := os.Open(hostPath(in))
		if err != nil {
			continue
		}
		cfg, _, err := image.DecodeConfig(f)
		f.Close()
		if err == nil && cfg.Width > 0 && cfg.Height > 0 {
			return cfg.Width, cfg.Height
		}
	}
	return 256, 256
}

// blankImage is a white w x h image encoded by extension (PNG for formats
// Go cannot write).
func blankImage(ext string, w, h int) ([]byte, error) {
	im := image.NewRGBA(image.Rect(0, 0, max(w, 1), max(h, 1)))
	draw.Draw(im, im.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	var b bytes.Buffer
	var err error
	switch strings.ToLower(ext) {
	case ".jpg", ".jpeg":
		err = jpeg.Encode(&b, im, nil)
	case ".gif":
		err = gif.Encode(&b, im, nil)
	default:
		err = png.Encode(&b, im)
	}
	return b.Bytes(), err
}

// hostPath is where an input's file is on the host.
func hostPath(in sandbox.Input) string {
	if in.Root != "" {
		return filepath.Join(in.Root, in.Path)
	}
	return in.Path
}
