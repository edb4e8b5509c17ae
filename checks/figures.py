"""The figure recorder: what a chart held when it was saved.

Held resident by the sandbox's zygote (install, run once there), so that
every interpreter forked from it records, beside each figure it saves, the
data the figure plotted. Matplotlib's Figure.savefig (which pyplot, pandas'
.plot and seaborn go through), wordcloud's WordCloud.to_file, PIL's
Image.save and matplotlib.image.imsave of a word cloud's image are wrapped:
after the original has written the file, the wrapper reads the bytes
written and writes output/.figures/<sha256 of those bytes>.json, where
output/ is the nearest folder of that name above the saved file (else the
one in the working directory).

A record vouches only for the exact bytes whose digest names it; the
checks (charts.py in the checks library) recompute the digest of the file
they judge and compare the record's values with values they compute from
the real input. A rollout can write a record of its own: it passes only
when it holds the right values. Anything that goes wrong while recording
is swallowed: saving a figure never fails because of the recorder.
"""

import hashlib
import json
import math
import os
import sys

RECORD_DIR = ".figures"  # under output/
MAX_POINTS = 200000  # points of one line or scatter kept whole
MAX_CELLS = 40000  # cells of one image or mesh kept
MAX_BYTES = 64 << 20  # saved files larger than this are not recorded
MAX_WORDS = 300  # words of a word cloud kept, the heaviest first

_CLOUDS = {}  # sha256 of a word cloud's RGB array -> its words, the latest few
_ORIG = {}


def install():
    """Wraps the savers of the modules already imported and, through an
    import hook, of those imported later (wordcloud, matplotlib.image)."""
    _patch_loaded()
    sys.meta_path.insert(0, _Finder())


def _patch_loaded():
    mods = sys.modules
    if "matplotlib.figure" in mods and "savefig" not in _ORIG:
        fig = mods["matplotlib.figure"].Figure
        _ORIG["savefig"] = fig.savefig
        fig.savefig = _savefig
    if "matplotlib.image" in mods and "imsave" not in _ORIG:
        img = mods["matplotlib.image"]
        _ORIG["imsave"] = img.imsave
        img.imsave = _imsave
    if "wordcloud.wordcloud" in mods and "to_image" not in _ORIG:
        wc = mods["wordcloud.wordcloud"].WordCloud
        _ORIG["to_image"], _ORIG["to_file"] = wc.to_image, wc.to_file
        wc.to_image, wc.to_file = _to_image, _to_file
    if "PIL.Image" in mods and "pil_save" not in _ORIG:
        im = mods["PIL.Image"].Image
        _ORIG["pil_save"] = im.save
        im.save = _pil_save


class _Finder:
    """A meta path finder that finds nothing itself: it lets the others
    find a watched module, then wraps its loader so that the savers are
    patched once the module has run."""

    WATCHED = ("matplotlib.figure", "matplotlib.image", "wordcloud.wordcloud", "PIL.Image")

    def find_spec(self, name, path=None, target=None):
        if name not in self.WATCHED:
            return None
        for f in sys.meta_path:
            if f is self or not hasattr(f, "find_spec"):
                continue
            spec = f.find_spec(name, path, target)
            if spec is not None:
                loader = spec.loader
                if loader is not None and hasattr(loader, "exec_module"):
                    spec.loader = _Loader(loader)
                return spec
        return None


class _Loader:
    def __init__(self, inner):
        self.inner = inner

    def create_module(self, spec):
        return self.inner.create_module(spec)

    def exec_module(self, module):
        self.inner.exec_module(module)
        sys.modules[module.__name__] = module
        try:
            _patch_loaded()
        except Exception:
            pass


# ---- the wrappers ----

def _savefig(self, fname, *args, **kwargs):
    out = _ORIG["savefig"](self, fname, *args, **kwargs)
    try:
        path = _saved_path(fname, kwargs.get("format"))
        if path:
            _write(path, _figure(self))
    except Exception:
        pass
    return out


def _to_image(self, *args, **kwargs):
    img = _ORIG["to_image"](self, *args, **kwargs)
    try:
        words = sorted(getattr(self, "words_", {}).items(), key=lambda kv: -kv[1])[:MAX_WORDS]
        _CLOUDS[_array_digest(img)] = [[str(w), float(f)] for w, f in words]
        while len(_CLOUDS) > 8:
            del _CLOUDS[next(iter(_CLOUDS))]
    except Exception:
        pass
    return img


def _to_file(self, filename, *args, **kwargs):
    out = _ORIG["to_file"](self, filename, *args, **kwargs)
    return out  # to_file saves to_image()'s image with PIL: _pil_save records it


def _pil_save(self, fp, *args, **kwargs):
    out = _ORIG["pil_save"](self, fp, *args, **kwargs)
    try:
        if _CLOUDS:
            words = _CLOUDS.get(_array_digest(self))
            path = _saved_path(fp, None)
            if words is not None and path:
                _write(path, {"axes": [], "wordclouds": [words]})
    except Exception:
        pass
    return out


def _imsave(fname, arr, *args, **kwargs):
    out = _ORIG["imsave"](fname, arr, *args, **kwargs)
    try:
        if _CLOUDS:
            words = _CLOUDS.get(_array_digest(arr))
            path = _saved_path(fname, kwargs.get("format"))
            if words is not None and path:
                _write(path, {"axes": [], "wordclouds": [words]})
    except Exception:
        pass
    return out


# ---- where and what ----

def _saved_path(fname, fmt):
    """The file a saver wrote: a path, or the name of an open file
    (flushed); None for anything else (a BytesIO)."""
    if isinstance(fname, (str, bytes, os.PathLike)):
        p = os.fsdecode(fname)
    else:
        p = getattr(fname, "name", None)
        if not isinstance(p, str):
            return None
        try:
            fname.flush()
        except Exception:
            pass
    if not os.path.isfile(p):
        import matplotlib
        ext = fmt or matplotlib.rcParams.get("savefig.format", "png")
        if os.path.isfile(p + "." + ext):
            p = p + "." + ext
        else:
            return None
    return os.path.abspath(p)


def _record_dir(path):
    d = os.path.dirname(path)
    while d and d != os.path.dirname(d):
        if os.path.basename(d) == "output":
            return os.path.join(d, RECORD_DIR)
        d = os.path.dirname(d)
    return os.path.join(os.getcwd(), "output", RECORD_DIR)


def _write(path, rec):
    if os.path.getsize(path) > MAX_BYTES:
        return
    with open(path, "rb") as f:
        sha = hashlib.sha256(f.read()).hexdigest()
    rec = dict(rec, version=1, sha256=sha, path=os.path.basename(path))
    if "wordclouds" not in rec:
        rec["wordclouds"] = []
    d = _record_dir(path)
    os.makedirs(d, exist_ok=True)
    tmp = os.path.join(d, sha + ".json.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(rec, f)
    os.replace(tmp, os.path.join(d, sha + ".json"))


def _array_digest(a):
    import numpy as np
    arr = np.ascontiguousarray(np.asarray(a))
    return hashlib.sha256(str(arr.shape).encode() + str(arr.dtype).encode() + arr.tobytes()).hexdigest()


def _num(x):
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def _nums(a, cap):
    """A flat list of floats (None for NaN, masked or non-numeric), at
    most cap of them."""
    import numpy as np
    a = np.ma.asarray(a)
    try:
        a = a.astype(float).filled(np.nan)
    except (TypeError, ValueError):
        return []
    return [v if math.isfinite(v) else None for v in a.ravel()[:cap].tolist()]


def _points(xy):
    """A record of an (n, 2) array of points: the points when there are at
    most MAX_POINTS, else their count and 101 quantiles of each axis."""
    import numpy as np
    a = np.ma.asarray(xy)
    try:
        a = a.astype(float).filled(np.nan).reshape(-1, 2)
    except (TypeError, ValueError):
        return {"n": 0, "xy": []}
    ok = a[np.isfinite(a).all(axis=1)]
    if len(ok) <= MAX_POINTS:
        return {"n": int(len(ok)), "xy": ok.tolist()}
    q = np.linspace(0, 1, 101)
    return {"n": int(len(ok)), "xq": np.quantile(ok[:, 0], q).tolist(), "yq": np.quantile(ok[:, 1], q).tolist()}


def _ticks(ax, which):
    try:
        locs = getattr(ax, "get_%sticks" % which)()
        labels = [t.get_text() for t in getattr(ax, "get_%sticklabels" % which)()]
    except Exception:
        return []
    return [[_num(l), s] for l, s in zip(locs, labels)]


def _figure(fig):
    axes = []
    for ax in fig.get_axes():
        try:
            axes.append(_axes(ax))
        except Exception:
            pass
    words = []
    for ax in fig.get_axes():
        for im in ax.images:
            try:
                w = _CLOUDS.get(_array_digest(im.get_array()))
            except Exception:
                w = None
            if w is not None:
                words.append(w)
    return {"axes": axes, "wordclouds": words}


def _axes(ax):
    d = {"name": ax.name, "title": ax.get_title(), "xlabel": ax.get_xlabel(), "ylabel": ax.get_ylabel(),
         "xticks": _ticks(ax, "x"), "yticks": _ticks(ax, "y"),
         "rects": [], "wedges": [], "patches": [], "lines": [], "scatters": [], "meshes": [], "texts": []}
    from matplotlib import patches as mp
    for p in ax.patches:
        if not p.get_visible():
            continue
        if isinstance(p, mp.Wedge):
            d["wedges"].append({"theta1": _num(p.theta1), "theta2": _num(p.theta2), "label": str(p.get_label())})
        elif isinstance(p, mp.Rectangle):
            d["rects"].append([_num(p.get_x()), _num(p.get_y()), _num(p.get_width()), _num(p.get_height())])
        else:
            try:
                v = p.get_patch_transform().transform(p.get_path().vertices)
                d["patches"].append(_nums(v, 2000))
            except Exception:
                pass
    for ln in ax.lines:
        if ln.get_visible():
            rec = _points(ln.get_xydata())
            rec["label"] = str(ln.get_label())
            d["lines"].append(rec)
    from matplotlib.collections import PathCollection, QuadMesh
    for c in ax.collections:
        if not c.get_visible():
            continue
        if isinstance(c, PathCollection):
            d["scatters"].append(_points(c.get_offsets()))
        elif isinstance(c, QuadMesh):
            _mesh(d, c.get_array())
    for im in ax.images:
        _mesh(d, im.get_array())
    for t in ax.texts:
        if t.get_visible():
            d["texts"].append([t.get_text()[:200], _num(t.get_fontsize())])
    return d


def _mesh(d, arr):
    import numpy as np
    a = np.ma.asarray(arr)
    if a.ndim != 2 or a.size > MAX_CELLS:
        return
    d["meshes"].append({"shape": list(a.shape), "cells": _nums(a, MAX_CELLS)})
