# The battery's Python half, run in the reference's own sandbox after its
# steps. make_variants writes wrong copies of the reference's output tables
# under output/.synth-battery/<variant>/<path>, each the right shape with
# wrong values; perturb_inputs writes perturbed copies of the inputs under
# output/.synth-stale/data/<name> for the stale rerun. Each prints one JSON
# line after its mark.
import csv as _bcsv
import json as _bjson
import os as _bos

import numpy as _bnp
import pandas as _bpd

_B_ROOT = _bos.path.join("output", ".synth-battery")
_S_ROOT = _bos.path.join("output", ".synth-stale")
_B_TABLES = (".csv", ".tsv", ".xlsx", ".parquet")


def _b_sep(path, text):
    if path.lower().endswith(".tsv"):
        return "\t"
    try:
        return _bcsv.Sniffer().sniff(text[:65536], delimiters=",;\t|").delimiter
    except _bcsv.Error:
        return ","


def _b_read(path):
    ext = _bos.path.splitext(path)[1].lower()
    if ext == ".xlsx":
        return _bpd.read_excel(path), {}
    if ext == ".parquet":
        return _bpd.read_parquet(path), {}
    raw = open(path, "rb").read()
    enc = "utf-8-sig"
    try:
        text = raw.decode(enc)
    except UnicodeDecodeError:
        enc, text = "latin-1", raw.decode("latin-1")
    sep = _b_sep(path, text)
    return _bpd.read_csv(path, sep=sep, encoding=enc), {"sep": sep}


def _b_write(df, path, opts):
    _bos.makedirs(_bos.path.dirname(path), exist_ok=True)
    ext = _bos.path.splitext(path)[1].lower()
    if ext == ".xlsx":
        df.to_excel(path, index=False)
    elif ext == ".parquet":
        df.to_parquet(path, index=False)
    else:
        df.to_csv(path, index=False, sep=opts.get("sep", ","))


def _b_rows(df):
    return sorted(map(repr, df.astype(str).itertuples(index=False, name=None)))


def _b_variants(df):
    """The wrong tables made from df, by name; each differs from df as a
    multiset of rows, so no reordering the query allows makes it right."""
    out = {}
    num = [c for c in df.columns if _bpd.api.types.is_numeric_dtype(df[c]) and not _bpd.api.types.is_bool_dtype(df[c])]
    varied = [c for c in df.columns if df[c].nunique(dropna=True) >= 2]
    if num and any(df[c].fillna(0).ne(0).any() for c in num):
        z = df.copy()
        for c in num:
            z[c] = 0
        out["zeros"] = z
    if num:
        s = df.copy()
        for c in num:
            s[c] = s[c] * 1.1 + 1
        out["scaled"] = s
    if len(df.columns) >= 2 and len(df) >= 2:
        for c in varied:
            r = df.copy()
            r[c] = _bnp.roll(r[c].to_numpy(), 1)
            out["misaligned"] = r
            break
        for i, a in enumerate(df.columns):
            b = next((b for b in df.columns[i + 1:] if df[a].dtype == df[b].dtype and not df[a].equals(df[b])), None)
            if b is not None:
                w = df.copy()
                w[a], w[b] = df[b].to_numpy(), df[a].to_numpy()
                out["columns_swapped"] = w
                break
    if len(df) >= 2:
        out["last_row_dropped"] = df.iloc[:-1]
    if len(df) >= 1 and df.notna().to_numpy().any():
        out["empty_cells"] = _bpd.DataFrame({c: [None] * len(df) for c in df.columns})
    base = _b_rows(df)
    return {k: v for k, v in out.items() if _b_rows(v) != base}


def make_variants(limit):
    """Writes every variant of each output table (at most limit tables);
    returns {variant: [paths]} of the files written."""
    made = {}
    n = 0
    for root, dirs, files in _bos.walk("output"):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".synth-"))
        for f in sorted(files):
            path = _bos.path.join(root, f)
            if _bos.path.splitext(f)[1].lower() not in _B_TABLES or n >= limit:
                continue
            n += 1
            try:
                df, opts = _b_read(path)
                variants = _b_variants(df)
            except Exception:
                continue
            for name, v in variants.items():
                dst = _bos.path.join(_B_ROOT, name, path)
                try:
                    _b_write(v, dst, opts)
                except Exception:
                    continue
                made.setdefault(name, []).append(path)
    return made


def _b_perturb_frame(df):
    n = len(df)
    if n >= 3:
        df = df.iloc[[i for i in range(n) if i % 3 != 1]].reset_index(drop=True)
    k = 0
    for col in list(df.columns):
        if _bpd.api.types.is_float_dtype(df[col]):
            df[col] = df[col] * 1.5
            k += 1
    if n < 3 and k == 0:
        return None
    return df


def _b_perturb_tree(v):
    # A JSON value with every third item of each array of three or more
    # dropped, every third entry of an object of three or more objects
    # (rows keyed by id) dropped, and floats scaled by 1.5.
    if isinstance(v, dict):
        rows = len(v) >= 3 and all(isinstance(x, dict) for x in v.values())
        return {k: _b_perturb_tree(x) for i, (k, x) in enumerate(v.items()) if not (rows and i % 3 == 1)}
    if isinstance(v, list):
        return [_b_perturb_tree(x) for i, x in enumerate(v) if len(v) < 3 or i % 3 != 1]
    if isinstance(v, float):
        return v * 1.5
    return v


def _b_perturb_text(src, dst):
    lines = open(src, "rb").read().split(b"\n")
    if len(lines) < 3:
        return "text too short to perturb"
    open(dst, "wb").write(b"\n".join(l for i, l in enumerate(lines) if i % 3 != 1))
    return None


def _b_perturb_one(name, kind, dst, media=False):
    src = _bos.path.join("data", name)
    if kind in ("csv", "tsv"):
        df, opts = _b_read(src)
        out = _b_perturb_frame(df)
        if out is None:
            return "table too small to perturb"
        out.to_csv(dst, sep=opts["sep"], index=False)
    elif kind == "xlsx":
        sheets = _bpd.read_excel(src, sheet_name=None)
        outs = {s: _b_perturb_frame(df) for s, df in sheets.items()}
        if all(o is None for o in outs.values()):
            return "table too small to perturb"
        with _bpd.ExcelWriter(dst) as w:
            for s, df in sheets.items():
                (df if outs[s] is None else outs[s]).to_excel(w, sheet_name=s, index=False)
    elif kind == "parquet":
        out = _b_perturb_frame(_bpd.read_parquet(src))
        if out is None:
            return "table too small to perturb"
        out.to_parquet(dst, index=False)
    elif kind in ("txt", "md", "text", "markdown", "jsonl"):
        return _b_perturb_text(src, dst)
    elif kind == "json":
        with open(src, encoding="utf-8-sig") as f:
            doc = _bjson.load(f)
        out = _b_perturb_tree(doc)
        if out == doc:
            return "a JSON document with no array of three or more items and no float"
        with open(dst, "w", encoding="utf-8") as f:
            _bjson.dump(out, f, ensure_ascii=False)
    elif not media:
        return "%s files are not perturbed" % kind
    elif kind == "pdf":
        from pypdf import PdfReader, PdfWriter
        r, w = PdfReader(src), PdfWriter()
        if len(r.pages) < 2:
            return "a PDF of one page is not perturbed"
        for page in r.pages[:-1]:
            w.add_page(page)
        with open(dst, "wb") as f:
            w.write(f)
    elif kind == "docx":
        import docx as _bdocx
        d = _bdocx.Document(src)
        ps = list(d.paragraphs)
        if len(ps) < 3:
            return "document too short to perturb"
        for i, p in enumerate(ps):
            if i % 3 == 1:
                p._element.getparent().remove(p._element)
        d.save(dst)
    elif kind == "wav":
        import wave as _bwave
        with _bwave.open(src) as r:
            params, frames = r.getparams(), r.readframes(r.getnframes())
            n = r.getnframes() * 2 // 3
        if n < 1:
            return "sound too short to perturb"
        with _bwave.open(dst, "wb") as w:
            w.setparams(params)
            w.writeframes(frames[:n * params.sampwidth * params.nchannels])
    elif kind in ("png", "jpeg", "jpg", "bmp", "webp"):
        from PIL import Image as _bimage
        im = _bimage.open(src)
        fmt = im.format
        w, h = im.size
        if w < 10 or h < 10:
            return "image too small to perturb"
        im.crop((0, 0, w * 9 // 10, h * 9 // 10)).save(dst, format=fmt)
    else:
        return "%s files are not perturbed" % kind
    if open(dst, "rb").read() == open(src, "rb").read():
        _bos.remove(dst)
        return "the perturbed copy is the same"
    return None


def perturb(files, layout, keep=False, media=False):
    """Writes a perturbed copy of each input (name, kind) at
    layout.format(i=i, name=name): every third row or line dropped, float
    columns scaled by 1.5 (in JSON, every third item of an array and row of
    an object keyed by id, floats scaled); with media also a PDF's last page dropped,
    every third paragraph of a DOCX dropped, a WAV cut to its first two
    thirds, an image cropped to 90% of its width and height. With keep,
    an input that cannot be perturbed is copied there as it is. One
    verdict per input: {"ok": true} or {"skip": reason}."""
    import shutil as _bshutil
    verdicts = []
    for i, (name, kind) in enumerate(files):
        dst = layout.format(i=i, name=name)
        _bos.makedirs(_bos.path.dirname(dst), exist_ok=True)
        try:
            skip = _b_perturb_one(name, kind, dst, media)
        except Exception as e:  # an input pandas cannot read is skipped
            skip = "%s unreadable (%s)" % (kind, type(e).__name__)
        if skip is not None and _bos.path.exists(dst):
            _bos.remove(dst)
        if skip is not None and keep:
            _bshutil.copyfile(_bos.path.join("data", name), dst)
        verdicts.append({"skip": skip} if skip else {"ok": True})
    return verdicts
