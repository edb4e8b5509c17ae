# Perturbs a task's input tables, in the sandbox, so that an honest answer
# changes: every third row is dropped (from the second on, when there are
# three or more) and float columns are scaled by 1.5. Rows keep their
# values together, so duplicates stay duplicates and groups stay groups. The copy keeps the format, the
# delimiter and the encoding, and is written to output/<i>/<name>. One
# verdict per input: {"ok": true} or {"skip": reason}.
import csv as _csv
import os as _os

import pandas as _pd


def _perturb_frame(df):
    n = len(df)
    if n >= 3:
        df = df.iloc[[i for i in range(n) if i % 3 != 1]].reset_index(drop=True)
    k = 0
    for col in list(df.columns):
        if _pd.api.types.is_float_dtype(df[col]):
            df[col] = df[col] * 1.5
            k += 1
    if n < 3 and k == 0:
        return None
    return df


def _perturb_one(name, kind, dst):
    src = _os.path.join("data", name)
    if kind in ("csv", "tsv"):
        raw = open(src, "rb").read()
        for enc in ("utf-8-sig", "latin-1"):
            try:
                text = raw.decode(enc)
                break
            except UnicodeDecodeError:
                continue
        sep = "\t" if kind == "tsv" else ","
        if kind == "csv":
            try:
                sep = _csv.Sniffer().sniff(text[:65536], delimiters=",;\t|").delimiter
            except _csv.Error:
                pass
        df = _pd.read_csv(src, sep=sep, encoding=enc)
        out = _perturb_frame(df)
        if out is None:
            return "table too small to perturb"
        out.to_csv(dst, sep=sep, index=False, encoding="utf-8" if enc == "utf-8-sig" else enc)
    elif kind == "xlsx":
        sheets = _pd.read_excel(src, sheet_name=None)
        outs = {s: _perturb_frame(df) for s, df in sheets.items()}
        if all(o is None for o in outs.values()):
            return "table too small to perturb"
        with _pd.ExcelWriter(dst) as w:
            for s, df in sheets.items():
                (df if outs[s] is None else outs[s]).to_excel(w, sheet_name=s, index=False)
    elif kind == "parquet":
        out = _perturb_frame(_pd.read_parquet(src))
        if out is None:
            return "table too small to perturb"
        out.to_parquet(dst, index=False)
    else:
        return "%s files are not perturbed" % kind
    if open(dst, "rb").read() == open(src, "rb").read():
        _os.remove(dst)
        return "the perturbed copy is the same"
    return None


def perturb(files):
    verdicts = []
    for i, (name, kind) in enumerate(files):
        dst = _os.path.join("output", str(i), name)
        _os.makedirs(_os.path.dirname(dst), exist_ok=True)
        try:
            skip = _perturb_one(name, kind, dst)
        except Exception as e:  # an input pandas cannot read is skipped
            skip = "%s unreadable as a table (%s)" % (kind, type(e).__name__)
        if skip is not None and _os.path.exists(dst):
            _os.remove(dst)
        verdicts.append({"skip": skip} if skip else {"ok": True})
    return verdicts
