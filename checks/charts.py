

# ---- charts: what a saved figure held (checks/figures.py records it) ----
#
# Each chart_* helper asserts that the figure saved at path plotted the
# values a check computed from the real input. The values come from the
# record the sandbox's figure recorder wrote when the file was saved,
# output/.figures/<sha256 of the file>.json: a record whose digest is not
# the file's counts for nothing, and a record a rollout wrote itself passes
# only when it holds the right values.

NO_FIGURE_RECORD = ("%s carries no record of what it plots: synth judges a chart by the data "
                    "its figure held when matplotlib (pyplot, pandas .plot, seaborn) or wordcloud "
                    "saved it in the sandbox; a picture drawn another way (PIL, plotly) or changed "
                    "after saving cannot be judged")
MAX_FIGURE_RECORD = 256 << 20

# FIGURE_RECORDS says whether a chart must carry a figure record: True in
# synth's verifier, whose sandbox recorded every save. The exported
# tests.py sets it False: PyBench's and Harbor's interpreters record
# nothing, so there a chart without a record is judged by its other checks
# alone (a real, non-blank PNG of some size), as PyBench judges charts.
FIGURE_RECORDS = True


def figure_record(path):
    """The figure record of the file at path, checked to be a dict whose
    digest is the file's; an AssertionError that says so when there is none
    (None, where FIGURE_RECORDS is False and no record exists)."""
    import hashlib
    with open(path, "rb") as f:
        sha = hashlib.sha256(f.read()).hexdigest()
    rp = os.path.join("output", ".figures", sha + ".json")
    if not FIGURE_RECORDS and not os.path.lexists(rp):
        return None
    assert os.path.isfile(rp) and not os.path.islink(rp), NO_FIGURE_RECORD % path
    assert os.path.getsize(rp) <= MAX_FIGURE_RECORD, "the figure record of %s is too large" % path
    try:
        with open(rp, encoding="utf-8") as f:
            rec = json.load(f)
    except ValueError:
        rec = None
    assert isinstance(rec, dict) and rec.get("sha256") == sha, "the figure record of %s is not one" % path
    assert isinstance(rec.get("axes"), list) and isinstance(rec.get("wordclouds"), list), \
        "the figure record of %s is not one" % path
    return rec


def _rec_list(d, key):
    v = d.get(key) if isinstance(d, dict) else None
    return v if isinstance(v, list) else []


def _fnum(x):
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return None
    x = float(x)
    return x if math.isfinite(x) else None


def _close(a, b, rel=1e-6, abs_=1e-9):
    return a is not None and b is not None and abs(a - b) <= max(abs_, rel * max(abs(a), abs(b)))


def _same_values(got, want, rel=1e-6, abs_=1e-9):
    """got and want hold the same numbers in any order."""
    if len(got) != len(want) or any(g is None for g in got):
        return False
    return all(_close(g, w, rel, abs_) for g, w in zip(sorted(got), sorted(want)))


def _axes_of(rec):
    return [a for a in rec["axes"] if isinstance(a, dict)]


def _rects(ax):
    out = []
    for r in _rec_list(ax, "rects"):
        if isinstance(r, list) and len(r) == 4:
            v = [_fnum(x) for x in r]
            if None not in v:
                out.append(v)
    return out


def _tick_labels(ax, which):
    """Tick position -> label text, for the ticks that have a label."""
    out = []
    for t in _rec_list(ax, which + "ticks"):
        if isinstance(t, list) and len(t) == 2 and _fnum(t[0]) is not None and isinstance(t[1], str) and t[1].strip():
            out.append((_fnum(t[0]), t[1].strip()))
    return out


def _label_of(pos, ticks):
    best = None
    for loc, text in ticks:
        if abs(loc - pos) < 0.25 and (best is None or abs(loc - pos) < best[0]):
            best = (abs(loc - pos), text)
    return best[1] if best else None


def _bar_values(ax):
    """The bars of an axes as (value, position) both ways: vertical
    (height at x centre) and horizontal (width at y centre)."""
    rs = [r for r in _rects(ax) if r[2] != 0 or r[3] != 0]
    vert = [(r[3], r[0] + r[2] / 2) for r in rs]
    horiz = [(r[2], r[1] + r[3] / 2) for r in rs]
    return [(vert, "x"), (horiz, "y")]


def _labelled(bars, ax, which, want):
    """True when the bars' tick labels name want's keys and each bar holds
    its key's value; None when the labels do not name the keys."""
    ticks = _tick_labels(ax, which)
    keys = {str(k).strip(): v for k, v in want.items()}
    got = {}
    for v, pos in bars:
        lab = _label_of(pos, ticks)
        if lab is None or lab not in keys:
            return None
        got[lab] = v
    if len(got) != len(bars):
        return None
    return all(_close(got[k], float(keys[k])) for k in got)


def chart_bars(path, want):
    """The figure at path draws one bar per key of want (a pandas Series or
    dict: group -> value) with that value as its height (or width, for
    horizontal bars), in any order; where tick labels name the groups,
    each bar carries its own group's value."""
    rec = figure_record(path)
    if rec is None:
        return
    want = {k: float(v) for k, v in dict(want).items() if _fnum(float(v)) is not None}
    for ax in _axes_of(rec):
        for bars, which in _bar_values(ax):
            if not _same_values([b[0] for b in bars], list(want.values())):
                continue
            if _labelled(bars, ax, which, want) is False:
                continue
            return
    seen = [sorted(round(b[0], 6) for b in _bar_values(ax)[0][0])[:12] for ax in _axes_of(rec)]
    raise AssertionError("%s does not draw the %d expected bars %s; its bars are %s" % (
        path, len(want), _show(want), seen))


def _show(want, n=8):
    items = list(want.items())[:n]
    return "{" + ", ".join("%s: %.6g" % (k, v) for k, v in items) + (", ..." if len(want) > n else "") + "}"


def chart_pie(path, want):
    """The figure at path draws a pie whose slices are want's shares (want:
    group -> count or share), in any order; where the wedges are labelled
    with the groups, each wedge has its own group's share."""
    rec = figure_record(path)
    if rec is None:
        return
    want = {str(k).strip(): float(v) for k, v in dict(want).items()}
    tot = sum(want.values())
    shares = {k: v / tot for k, v in want.items()}
    for ax in _axes_of(rec):
        ws = [w for w in _rec_list(ax, "wedges") if isinstance(w, dict)]
        fr = [(_fnum(w.get("theta2")) or 0) - (_fnum(w.get("theta1")) or 0) for w in ws]
        if not fr or sum(fr) <= 0:
            continue
        fr = [f / 360.0 for f in fr]
        if not _same_values(fr, list(shares.values()), 1e-6, 1e-6):
            continue
        labels = [str(w.get("label", "")).strip() for w in ws]
        if all(l in shares for l in labels) and len(set(labels)) == len(labels):
            if not all(_close(f, shares[l], 1e-6, 1e-6) for f, l in zip(fr, labels)):
                continue
        return
    raise AssertionError("%s does not draw a pie of the shares %s" % (path, _show(shares)))


def chart_hist(path, values, bins):
    """The figure at path draws a histogram of values (the column's
    non-null values) with the given number of bins over their range:
    bar counts (or densities, or proportions) as numpy.histogram gives
    them, upright or lying."""
    import numpy as np
    rec = figure_record(path)
    if rec is None:
        return
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    counts, edges = np.histogram(v, bins=bins)
    n = float(len(v))
    span = float(edges[-1] - edges[0]) or 1.0
    for ax in _axes_of(rec):
        for upright in (True, False):
            bars = []
            for x, y, w, h in _rects(ax):
                lo, size, val = (x, w, h) if upright else (y, h, w)
                if size > 0:
                    bars.append((lo, size, val))
            bars.sort()
            if len(bars) != bins:
                continue
            if abs(bars[0][0] - edges[0]) > 1e-6 * span or abs(bars[-1][0] + bars[-1][1] - edges[-1]) > 1e-6 * span:
                continue
            vals = [b[2] for b in bars]
            for scale in (1.0, n, None):  # counts, proportions, densities
                got = [g * scale if scale else g * b[1] * n for g, b in zip(vals, bars)]
                if sum(abs(g - c) for g, c in zip(got, counts)) <= 0.5:
                    return
    raise AssertionError("%s does not draw a %d-bin histogram of the %d values from %.6g to %.6g (counts %s)" % (
        path, bins, len(v), edges[0], edges[-1], counts.tolist()[:20]))


def _line_points(ln):
    xy = _rec_list(ln, "xy")
    out = []
    for p in xy:
        if isinstance(p, list) and len(p) == 2 and _fnum(p[0]) is not None and _fnum(p[1]) is not None:
            out.append((float(p[0]), float(p[1])))
    return out


def chart_line(path, ys):
    """The figure at path draws a line through the values ys in their
    order (points with no value left out)."""
    import numpy as np
    rec = figure_record(path)
    if rec is None:
        return
    want = [float(y) for y in np.asarray(ys, dtype=float) if math.isfinite(y)]
    for ax in _axes_of(rec):
        for ln in _rec_list(ax, "lines"):
            got = [p[1] for p in _line_points(ln)] if isinstance(ln, dict) else []
            if len(got) == len(want) and all(_close(g, w) for g, w in zip(got, want)):
                return
    raise AssertionError("%s draws no line through the %d expected values %s" % (
        path, len(want), [round(w, 6) for w in want[:8]]))


def _point_sets(ax):
    for s in _rec_list(ax, "scatters") + _rec_list(ax, "lines"):
        if isinstance(s, dict):
            yield s


def chart_scatter(path, xs, ys):
    """The figure at path draws the points (xs[i], ys[i]) where both are
    present, as a scatter (or markers of a line), x along the x axis."""
    import numpy as np
    rec = figure_record(path)
    if rec is None:
        return
    a = np.column_stack([np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)])
    a = a[np.isfinite(a).all(axis=1)]
    a = a[np.lexsort((a[:, 1], a[:, 0]))]
    for ax in _axes_of(rec):
        for s in _point_sets(ax):
            if _fnum(s.get("n")) != len(a):
                continue
            if "xy" in s:
                p = np.asarray(_line_points(s), dtype=float).reshape(-1, 2)
                if len(p) != len(a):
                    continue
                p = p[np.lexsort((p[:, 1], p[:, 0]))]
                if np.allclose(p, a, rtol=1e-6, atol=1e-9):
                    return
            else:
                q = np.linspace(0, 1, 101)
                xq, yq = s.get("xq"), s.get("yq")
                if isinstance(xq, list) and isinstance(yq, list) and len(xq) == 101 and len(yq) == 101 and \
                        np.allclose(np.asarray(xq, dtype=float), np.quantile(a[:, 0], q), rtol=1e-6) and \
                        np.allclose(np.asarray(yq, dtype=float), np.quantile(a[:, 1], q), rtol=1e-6):
                    return
    raise AssertionError("%s does not draw the %d points of the two columns (x first)" % (path, len(a)))


def chart_matrix(path, want, tol=5e-4):
    """The figure at path shows the square matrix want (a DataFrame) as an
    image or mesh (imshow, seaborn's heatmap): the same size, every cell
    shown within tol of want's at its labelled row and column (or, where
    ticks do not name them, want's values in any arrangement; masked cells,
    as a triangle, may be left out)."""
    import numpy as np
    rec = figure_record(path)
    if rec is None:
        return
    k = want.shape[0]
    wv = np.asarray(want, dtype=float)
    names = [str(c).strip() for c in want.columns]
    for ax in _axes_of(rec):
        for m in _rec_list(ax, "meshes"):
            if not isinstance(m, dict) or m.get("shape") != [k, k]:
                continue
            cells = [_fnum(c) if c is not None else None for c in _rec_list(m, "cells")]
            if len(cells) != k * k:
                continue
            g = np.array([np.nan if c is None else c for c in cells]).reshape(k, k)
            shown = np.isfinite(g)
            if shown.sum() < k * (k - 1) // 2:
                continue
            ri = _cell_names(_tick_labels(ax, "y"), k, names)
            ci = _cell_names(_tick_labels(ax, "x"), k, names)
            if ri is not None and ci is not None:
                if np.all(np.abs(g[shown] - wv[np.ix_(ri, ci)][shown]) <= tol):
                    return
                continue
            if _sub_multiset(g[shown].tolist(), wv.ravel().tolist(), tol):
                return
    raise AssertionError("%s shows no %dx%d matrix of the expected values" % (path, k, k))


def _cell_names(ticks, k, names):
    """The index in names of the label of each of k cells along an axis,
    or None when the ticks do not name every cell."""
    off = _mesh_offset(ticks)
    out = []
    for i in range(k):
        lab = _label_of(i + off, ticks)
        if lab not in names:
            return None
        out.append(names.index(lab))
    return out


def _mesh_offset(ticks):
    """imshow puts cell i at i, pcolormesh (seaborn) at i + 0.5."""
    locs = [l for l, _ in ticks]
    return 0.5 if locs and all(abs(l - math.floor(l) - 0.5) < 1e-9 for l in locs) else 0.0


def _sub_multiset(got, want, tol):
    want = sorted(want)
    used = [False] * len(want)
    import bisect
    for g in sorted(got):
        i = bisect.bisect_left(want, g - tol)
        while i < len(want) and (used[i] or want[i] < g - tol):
            i += 1
        if i >= len(want) or want[i] > g + tol:
            return False
        used[i] = True
    return True


def chart_boxes(path, groups):
    """The figure at path draws a box per group (groups: name -> values):
    each group's median and quartiles (as numpy's linear percentiles, which
    matplotlib and seaborn use) appear among the figure's line and box
    coordinates, along the value axis (x when the y tick labels name the
    groups, else y), and the figure draws at least one box per group."""
    import numpy as np
    rec = figure_record(path)
    if rec is None:
        return
    stats = []
    for name, vals in dict(groups).items():
        v = np.asarray(vals, dtype=float)
        v = v[np.isfinite(v)]
        if len(v):
            stats.append((name, np.percentile(v, [25, 50, 75])))
    assert _box_count(rec) >= len(stats), "%s draws %d boxes for %d groups" % (path, _box_count(rec), len(stats))
    allv = np.concatenate([s for _, s in stats]) if stats else np.zeros(1)
    tol = 1e-6 * (float(allv.max() - allv.min()) + 1.0)
    for axis in _value_axes(rec, [str(k).strip() for k, _ in stats]):
        coords = []
        for ax in _axes_of(rec):
            for ln in _rec_list(ax, "lines"):
                if isinstance(ln, dict):
                    coords += [p[axis] for p in _line_points(ln)]
            for p in _rec_list(ax, "patches"):
                if isinstance(p, list):
                    coords += [c for c in p[axis::2] if _fnum(c) is not None]
            for r in _rects(ax):
                coords += [r[axis], r[axis] + r[axis + 2]]
        coords = np.sort(np.asarray(coords, dtype=float))
        if not len(coords):
            continue

        def has(x):
            i = np.searchsorted(coords, x - tol)
            return i < len(coords) and coords[i] <= x + tol
        if all(has(x) for _, s in stats for x in s):
            return
    raise AssertionError("%s does not draw the boxes of the %d groups (medians %s)" % (
        path, len(stats), {str(k): round(float(s[1]), 6) for k, s in stats[:8]}))


def _value_axes(rec, names):
    """The axes (1 for y, 0 for x) along which boxes may plot their
    values: y when the x tick labels name every group, x when the y tick
    labels do, else y (upright boxes, every library's default)."""
    for which, axis in (("x", 1), ("y", 0)):
        labels = {t for ax in _axes_of(rec) for _, t in _tick_labels(ax, which)}
        if names and all(n in labels for n in names):
            return (axis,)
    return (1,)


def _box_count(rec):
    """How many boxes a figure draws: closed outlines of five points
    (matplotlib's boxes as lines) and patches that are not rectangles
    (boxes as patches: patch_artist, seaborn)."""
    n = 0
    for ax in _axes_of(rec):
        for ln in _rec_list(ax, "lines"):
            p = _line_points(ln) if isinstance(ln, dict) else []
            if len(p) == 5 and p[0] == p[-1]:
                n += 1
        n += sum(1 for p in _rec_list(ax, "patches") if isinstance(p, list) and len(p) >= 8)
    return n


def chart_profiles(path, rows):
    """The figure at path draws, for each row of rows (a DataFrame: group
    -> values), a line through that row's values in any order (a closed
    line may repeat its first point), as a radar chart does; the values as
    they are, or scaled per column to the column's maximum or to its range
    across the groups."""
    import numpy as np
    rec = figure_record(path)
    if rec is None:
        return
    m = np.asarray(rows, dtype=float)
    lines = []
    for ax in _axes_of(rec):
        for ln in _rec_list(ax, "lines"):
            if isinstance(ln, dict):
                ys = [p[1] for p in _line_points(ln)]
                if len(ys) == m.shape[1] + 1 and _close(ys[0], ys[-1]):
                    ys = ys[:-1]
                if len(ys) == m.shape[1]:
                    lines.append(ys)
    with np.errstate(all="ignore"):
        mx = np.nanmax(np.abs(m), axis=0)
        lo, hi = np.nanmin(m, axis=0), np.nanmax(m, axis=0)
        forms = [m, m / np.where(mx == 0, 1, mx), (m - lo) / np.where(hi == lo, 1, hi - lo)]
    for f in forms:
        if all(any(_same_values(ys, [float(x) for x in row], 1e-6, 1e-9) for ys in lines) for row in f):
            return
    raise AssertionError("%s does not draw a profile for each of the %d groups through its values %s" % (
        path, m.shape[0], np.round(m[:3], 6).tolist()))


def chart_words(path, text, top=30):
    """The figure at path is a word cloud of text (drawn by wordcloud, or
    as words of matplotlib text weighted by their font size): at least 90%
    of its 50 heaviest words (each word of a two-word phrase) are words of the text
    (case aside, a trailing 's or plural s aside), and its heaviest word
    is among the text's top most frequent words."""
    import collections
    rec = figure_record(path)
    if rec is None:
        return
    clouds = [c for c in rec["wordclouds"] if isinstance(c, list)]
    for ax in _axes_of(rec):  # a cloud drawn as text: each word weighs its font size
        texts = [t for t in _rec_list(ax, "texts") if isinstance(t, list) and len(t) == 2 and isinstance(t[0], str)]
        if len(texts) >= 3:
            clouds.append(texts)
    assert clouds, "%s holds no word cloud (its record names no words)" % path
    toks = re.findall(r"\w[\w']*", text.lower())
    counts = collections.Counter(t[:-2] if t.endswith("'s") else t for t in toks)

    low = text.lower()

    def count(w):
        if not w.isascii():  # a word of a script written without spaces, cut by a segmenter
            return low.count(w) if w else 0
        n = counts.get(w, 0) + counts.get(w + "s", 0)
        if w.endswith("s"):
            n += counts.get(w[:-1], 0)
        return n
    ranked = sorted(counts.values(), reverse=True)
    bar = ranked[min(top, len(ranked)) - 1] if ranked else 1
    for cloud in clouds:
        words = [w for w in cloud if isinstance(w, list) and len(w) == 2 and isinstance(w[0], str) and _fnum(w[1]) is not None]
        words.sort(key=lambda w: -w[1])
        heavy = words[:50]
        if len(heavy) < min(3, len(counts)):
            continue
        parts = [p for w, _ in heavy for p in w.lower().split()]
        known = [p for p in parts if count(p.replace("'s", "")) > 0]
        if len(known) < 0.9 * len(parts):
            continue
        if max(count(p) for p in heavy[0][0].lower().split()) >= bar:
            return
    raise AssertionError("%s is not a word cloud of the text's words (its heaviest words: %s)" % (
        path, [w[0] for w in (clouds[0] if clouds else [])[:8] if isinstance(w, list)]))


_HELPERS.update({
    "figure_record": figure_record, "chart_bars": chart_bars, "chart_pie": chart_pie, "chart_hist": chart_hist,
    "chart_line": chart_line, "chart_scatter": chart_scatter, "chart_matrix": chart_matrix,
    "chart_boxes": chart_boxes, "chart_profiles": chart_profiles, "chart_words": chart_words,
})
