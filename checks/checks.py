# synth checks library: runs a task's checks against a finished rollout's
# workspace (the current directory, with data/ and output/) and its final
# answer. Every check returns (ok, message); the message says what to fix.
import json
import math
import os
import re

_MSG_MAX = 400


def final_answer_of(text):
    """The answer text: what follows a "Finished:" marker when the text has
    one (PyBench's last turn may open with an Analyse part), else the text."""
    text = (text or "").strip()
    i = text.lower().find("finished:")
    if i >= 0:
        text = text[i + 9:].strip()
    return text


def _short(x, n=60):
    s = str(x)
    return s if len(s) <= n else s[: n - 1] + "…"


def _fmt(x):
    if isinstance(x, float):
        return "%.6g" % x
    return str(x)


# ---------- numbers in text ----------

_NUM_RE = re.compile(
    r"[-+]?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?\s?%?"
)


def numbers_in(text):
    """Every number written in text, with common formatting undone:
    1,234.5  1.2345e3  12% (also read as 0.12)  −3 (unicode minus)."""
    text = (text or "").replace("\u2212", "-").replace("\uff0c", ",").replace("\uff05", "%")
    out = []
    for m in _NUM_RE.finditer(text):
        tok = m.group(0).replace(" ", "")
        pct = tok.endswith("%")
        tok = tok.rstrip("%")
        try:
            v = float(tok.replace(",", ""))
        except ValueError:
            continue
        out.append(v)
        if pct:
            out.append(v / 100.0)
        if "," in tok:
            for part in tok.split(","):
                try:
                    out.append(float(part))
                except ValueError:
                    pass
    return out


def number_close(x, want, rel_tol=0.0, abs_tol=0.0):
    """|x - want| within max(abs_tol, rel_tol*|want|); with both zero, the
    default tolerance: rel 1e-6, abs 1e-9."""
    if rel_tol == 0 and abs_tol == 0:
        rel_tol, abs_tol = 1e-6, 1e-9
    return abs(x - want) <= max(abs_tol, rel_tol * abs(want))


def _normalize(text):
    return (text or "").replace("\u2212", "-").replace("\uff0c", ",").replace("\uff05", "%")


def _spans(text):
    """(start, end, values) of each number text states (see candidates),
    on _normalize(text), in order. Versions and full dates are names, not
    quantities: their digits are not stated (see _unasserted)."""
    text = _unasserted(text)
    out = []
    for m in _NUM_RE.finditer(text):
        start = m.start()
        tok = m.group(0)
        if tok[:1] in "+-" and start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_"):
            if tok[0] == "-" and (text[start - 1].isalpha() or text[start - 1] == "_"):
                continue  # the number of an identifier (VAN-1, cell-1), as candidates reads it
            tok, start = tok[1:], start + 1
        before = text[start - 1] if start > 0 else " "
        if (before.isalnum() or before in "_/\\.") and not _DIMENSION_RE.match(text, max(0, start - 2), start):
            continue
        vals, end = numbers_in(tok), m.end()
        f = _FRACTION_RE.match(text, end)
        if f and vals and "%" not in tok and float(f.group(1)) != 0:
            vals, end = vals + [vals[0] / float(f.group(1))], f.end()
        if vals:
            out.append((start, end, vals))
    return out


# A version (0.11.0, 1.2.3) or a full date (2024-03-07, 12/03/2019): it
# names a release or a day, so a heading "[0.11.0] - 2024-03-07" states no
# number, neither 0.11 nor 2024.
_UNASSERTED_RE = re.compile(
    r"(?<![\w.])(?:\d+(?:\.\d+){2,}|\d{4}([-/])\d{1,2}\1\d{1,2}|\d{1,2}([-/])\d{1,2}\2\d{2,4})(?!\d|\.\d)")


def _unasserted(text):
    """text with its versions and full dates blanked (positions kept)."""
    return _UNASSERTED_RE.sub(lambda m: " " * len(m.group(0)), text)


# The x of a dimension (800x600 states 800 and 600).
_DIMENSION_RE = re.compile(r"\d[x×X]")

# The denominator of a fraction (3/2), not of a date (2023/10/05).
_FRACTION_RE = re.compile(r"/(\d+)(?![\d/.])")


def candidates(text):
    """The numbers an answer states: numbers_in, less those inside words,
    file names and identifiers (output/5b98.csv, x2, v1.2.3 states none),
    a sign glued to a previous word or number read as a dash (2023-10 is
    2023 and 10), and each value once (12% is 12 and 0.12)."""
    out, seen = [], set()
    for _, _, vals in _spans(_normalize(text)):
        for v in vals:
            key = float("%.9g" % v)
            if key not in seen:
                seen.add(key)
                out.append(v)
    return out


# What may stand between two numbers of a list of candidates: nothing but
# separators (1, 2, 3 or 4; 1/2; 5 and 6; 1、2、3).
_LIST_GAP_RE = re.compile(r"\s*(?:[,;|&、，；]|\bor\b|\band\b|或|和|及|,\s*(?:or|and)\b)?\s*", re.IGNORECASE)

# Cues that assert the number right after them. A verb asserts it ("the
# mean is 5.84", "共有 19 行", "均值为 5.84"); a sign or "of" asserts it
# more weakly ("x = 1", "rows: 150", "a total of 12"), so that in "the
# derivative at x = 1 is 3.06" the verb wins. The last assertion is the
# answer: "9 rows had gaps and were removed; 237 rows remain" states 237.
_HEDGE = r"\s*(?:\b(?:about|approximately|approx\.?|around|roughly|exactly|nearly|just)\b\s*|[~≈约])?\s*[$€£¥]?\s*$"
_VERB_CUE_RE = re.compile(
    r"(?:\b(?:is|are|was|were|equals?|equal\s+to|be|becomes|gives|yields|totals?|has|have|had|contains?)|为|是|有|共|等于)" + _HEDGE,
    re.IGNORECASE)
_SIGN_CUE_RE = re.compile(r"(?:\b(?<!out\s)of|[=:≈~→＝：]|->|约)" + _HEDGE, re.IGNORECASE)
# A count that is the subject of its sentence asserts itself: "12 are
# missing", "15 rows have fee > 89.50".
_SUBJECT_RE = re.compile(r"[ \t]*(?:[^\W\d]\w*[ \t]+)?(?:are|were|have|has|had|match|matched|remain|remained)\b", re.IGNORECASE)

# What joins a part to its whole: "237 of 246", "9 out of the 10".
_PART_OF_RE = re.compile(r"\s*(?:out\s+)?of\s+(?:the\s+|all\s+)?", re.IGNORECASE)

# Brackets hold context ("(n = 150)"), not the answer.
_BRACKETS_RE = re.compile(r"\([^()]*\)|\[[^\[\]]*\]|（[^（）]*）")


def list_runs(text, outside_brackets=False):
    """The lists of candidates text states: runs of two or more numbers with
    only separators between them, each as a list of their values. With
    outside_brackets, lists in brackets ("over [1, 2]") do not count unless
    nothing is stated outside them."""
    text = _normalize(text)
    if outside_brackets:
        bare = _BRACKETS_RE.sub(lambda m: " " * len(m.group(0)), text)
        if _spans(bare):
            text = bare
    runs, cur, prev_end = [], [], None
    for start, end, vals in _spans(text):
        if cur and _LIST_GAP_RE.fullmatch(text, prev_end, start):
            cur.append(vals[0])
        else:
            if len(cur) >= 2:
                runs.append(cur)
            cur = [vals[0]]
        prev_end = end
    if len(cur) >= 2:
        runs.append(cur)
    return runs


def stated_value(text):
    """The one value an answer to a single-valued question states, as its
    readings (12% is 12 and 0.12): the last number a verb asserts outside
    brackets ("The mean is 5.84 (n = 150)" states 5.84, "12 are missing"
    12, "237 of 246 rows have no gap" 237), else the last a sign asserts ("x = 3"), else the last number
    stated outside brackets, else the last one inside them. A fraction
    a/b reads as a and as a/b. [] when
    text states no number."""
    span = _stated_span(_normalize(text))
    return span[2] if span else []


def _stated_span(text):
    """The (start, end, values) of stated_value on normalized text, or
    None."""
    bare = _BRACKETS_RE.sub(lambda m: " " * len(m.group(0)), text)
    spans = _spans(bare)
    for i in range(len(spans) - 1, -1, -1):
        start, end, _ = spans[i]
        if _VERB_CUE_RE.search(bare, max(0, start - 40), start):
            return spans[i]
        if _SUBJECT_RE.match(bare, end):
            # "237 of 246 rows have no gap": the part is the subject.
            if i and _PART_OF_RE.fullmatch(bare, spans[i - 1][1], start):
                return spans[i - 1]
            return spans[i]
    for span in reversed(spans):
        if _SIGN_CUE_RE.search(bare, max(0, span[0] - 40), span[0]):
            return span
    if spans:
        return spans[-1]
    spans = _spans(text)
    return spans[-1] if spans else None


# An answer may state at most this many numbers per number the task asks
# for, and never fewer than _MIN_CANDIDATES: more is a list of guesses.
_CANDIDATES_PER_ASKED = 3
_MIN_CANDIDATES = 8

# How many numbers the task being checked asks for, and whether the text
# checked as its answer is a transcript of printed output; set by run_checks.
_asked = [1]
_transcript = [False]


def numbers_asked(checks):
    """How many numbers a task's answer checks ask for: one per number
    check, one per numeric contains_all item, one per numeric contains_any."""
    n = 0
    for c in checks or []:
        if c.get("kind") != "answer":
            continue
        if c.get("number"):
            n += 1
        n += sum(1 for s in c.get("contains_all") or [] if numbers_in(str(s)))
        if any(numbers_in(str(s)) for s in c.get("contains_any") or []):
            n += 1
    return max(n, 1)


def candidate_limit(asked):
    return max(_MIN_CANDIDATES, _CANDIDATES_PER_ASKED * asked)


def in_order(text, values, labels=None):
    """Whether text states values (two or more numbers: a width and a
    height, a pair, a ranking's figures) in their order, as (ok, message).
    A number named by a label (labels[i] is a pair of regexes: a word
    before it, "width: 800", and a word after it, "800 pixels wide") must be
    values[i]; when no number is labelled, every number that is values[i]
    must come before every number that is values[i+1] ("800 x 600", not
    "600 x 800", nor both). Numbers are the ones the text states
    (candidates); tolerance is number_close's default."""
    text = _normalize(final_answer_of(text))
    spans = _spans(text)
    hits = [[sp for sp in spans if any(number_close(x, float(v)) for x in sp[2])] for v in values]
    for v, h in zip(values, hits):
        if not h:
            return False, "the answer does not state %s" % _fmt(v)
    labelled = False
    for k, (start, end, vals) in enumerate(spans):
        lo = spans[k - 1][1] if k else 0
        hi = spans[k + 1][0] if k + 1 < len(spans) else len(text)
        before, after = text[max(lo, start - 30):start], text[end:min(hi, end + 30)]
        for i, (b, a) in enumerate(labels or []):
            if (b and re.search(r"(?<![A-Za-z])(?:" + b + r")\W{0,3}(?:\s*(?:is|of|are|was|为|是|约)\s*)?$", before, re.IGNORECASE)) or \
                    (a and re.match(r"\s*(?:" + a + r")(?![A-Za-z])", after, re.IGNORECASE)):
                labelled = True
                if not any(number_close(x, float(values[i])) for x in vals):
                    return False, "the answer gives %s as the value labelled %d, expected %s" % (_short(text[start:end].strip(), 20), i + 1, _fmt(values[i]))
    if labelled:
        return True, "labelled values ok"
    for i in range(len(values) - 1):
        if number_close(float(values[i]), float(values[i + 1])):
            continue
        if max(sp[0] for sp in hits[i]) > min(sp[0] for sp in hits[i + 1]):
            return False, "the answer states %s and %s in the wrong order (or both orders): expected %s" % (
                _fmt(values[i]), _fmt(values[i + 1]), ", ".join(_fmt(v) for v in values))
    return True, "values in order"


def stated_to_its_digits(text, want, label=""):
    """Whether the value text states (stated_value) is want to the digits
    it writes, as (ok, message): 0.825 is known to 0.0005, so it does not
    state a maximum of 0.8281 (the second largest value rounds nowhere
    near), while 0.83 and 0.828 do. The value is the one label names,
    as for a number check's label, else stated_value's. Each reading counts (12% is 12 and
    0.12, 3.2 million is 3200000 to 50000), within its last digit and a
    float's error."""
    text = _normalize(final_answer_of(text))
    span = _answer_span(text, {"label": label})
    if not span:
        return False, "the answer states no number"
    for r, h in _readings(text, span):
        if abs(r - want) <= h * (1 + 1e-9) + 1e-9 * max(1.0, abs(want)):
            return True, "stated to its digits"
    return False, "the answer states %s, which %s does not round to: state the value to the digits you know" % (
        _short(text[span[0]:span[1]].strip(), 30), _fmt(want))


# What may stand between a label and the number it names: a few words
# (the column's name, a verb, "of"), no digit and no clause break.
_LABEL_GAP = r"[^\d,;:，；。.!?！？]{0,40}?[:：=]?\s*[$€£¥]?\s*$"


def _labelled_span(text, label):
    """The (start, end, values) of the last number text (normalized) names
    by label, a regular expression of words (median|中位数): the label,
    then a few words without digits or clause breaks ("the median of
    Ozone is 31.5", "中位数为 31.5", "用中位数 31.5 填充"), then the
    number. None when no number is named so."""
    if not label:
        return None
    bare = _BRACKETS_RE.sub(lambda m: " " * len(m.group(0)), text)
    found = None
    for span in _spans(bare):
        before = bare[max(0, span[0] - 60):span[0]]
        if re.search(r"(?<![A-Za-z])(?:" + label + r")" + _LABEL_GAP, before, re.IGNORECASE):
            found = span
    return found


def _answer_span(text, spec):
    """The span of the value an answer to one number states: the last one
    spec's label names, else stated_value's. When a verb asserts
    stated_value's after the labelled one in the same clause, the label
    named part of a name and the verb the value ("the median of 2021
    votes is 10045" states 10045)."""
    lab = _labelled_span(text, (spec or {}).get("label"))
    st = _stated_span(text)
    if lab and st and st[0] > lab[0] and not _CLAUSE_BREAK_RE.search(text, lab[1], st[0]) and \
            _VERB_CUE_RE.search(text, max(lab[1], st[0] - 40), st[0]):
        return st
    return lab or st


# What ends a clause: a comma, semicolon or stop (not a decimal point).
_CLAUSE_BREAK_RE = re.compile(r"[,;，；。!?！？]|\.(?!\d)")


def _check_number(text, spec, what, single=False):
    """Whether text states spec's number. With single (an answer to a task
    asking for one number), only the value it states counts (the last
    number spec's label names, else stated_value); else any number it
    states."""
    want = float(spec["value"])
    rel, ab = float(spec.get("rel_tol", 0) or 0), float(spec.get("abs_tol", 0) or 0)
    if single:
        span = _answer_span(_normalize(text), spec)
        found = span[2] if span else []
    else:
        found = candidates(text)
    if any(number_close(x, want, rel, ab) for x in found):
        return True, ""
    tol = max(ab, rel * abs(want)) if (rel or ab) else 0
    shown = ", ".join(_fmt(x) for x in found[:6]) or "none"
    if single:
        return False, "%s states %s, not a number within %s of %s (the value a sentence asserts, or the last one stated)" % (what, shown, _fmt(tol), _fmt(want))
    return False, "%s has no number within %s of %s (found: %s)" % (what, _fmt(tol), _fmt(want), shown)


def _mentions(text, word):
    """Whether text mentions word as a whole word (any case)."""
    return re.search(r"(?<!\w)" + re.escape(word) + r"(?!\w)", text, re.IGNORECASE) is not None


# An item of contains_all or contains_any that is a number and nothing else.
_NUMBER_ITEM_RE = re.compile(r"[-+]?\d+(?:\.\d+)?")


def _has_item(text, low, item, stated):
    """Whether text holds a contains_all or contains_any item. In an answer
    (stated is its candidates), a number item must be a number the answer
    states, not digits inside a word or a file name (years_1999.txt states
    no 1999); any other item, and any item in other text, is found as a
    substring in any case."""
    item = str(item)
    if stated is not None and _NUMBER_ITEM_RE.fullmatch(item.strip()):
        want = float(item)
        return any(number_close(x, want) for x in stated)
    return item.lower() in low


def _text_checks(text, c, what, answer=False):
    """contains_all, contains_any, none_of, regex and number over a text.
    In an answer, listing guesses fails: more numbers than candidate_limit
    allows, every option of a contains_any of three or more, or a none_of
    option. A transcript of printed output may list anything."""
    answer = answer and not _transcript[0]
    low = text.lower()
    errs = []
    if answer:
        n, limit = len(candidates(text)), candidate_limit(_asked[0])
        if n > limit:
            errs.append("%s states %d numbers, more than the %d a task asking for %d may: state the answer, not a list of guesses" % (what, n, limit, _asked[0]))
        # A single-valued answer is judged by the one value it states
        # outside brackets, so only lists there are guesses; any number of
        # a multi-valued answer counts, so a list anywhere is.
        for run in list_runs(text, outside_brackets=_asked[0] == 1):
            if len(run) > _asked[0]:
                errs.append("%s lists %d candidates (%s), more than the %d the task asks for: state the answer, not a list of guesses" % (
                    what, len(run), ", ".join(_fmt(x) for x in run[:6]) + (", …" if len(run) > 6 else ""), _asked[0]))
                break
    stated = candidates(text) if answer else None
    missing = [s for s in c.get("contains_all") or [] if not _has_item(text, low, s, stated)]
    if missing:
        errs.append("%s lacks %s" % (what, ", ".join(repr(s) for s in missing)))
    anyof = c.get("contains_any") or []
    hits = [s for s in anyof if _has_item(text, low, s, stated)]
    if anyof and not hits:
        errs.append("%s mentions none of %s" % (what, ", ".join(repr(s) for s in anyof)))
    elif answer and len(anyof) >= 3 and len(hits) == len(anyof):
        errs.append("%s lists every option (%s): state one" % (what, ", ".join(repr(s) for s in anyof)))
    wrong = [] if _transcript[0] else [s for s in c.get("none_of") or [] if _mentions(text, str(s))]
    if wrong:
        errs.append("%s mentions %s, which is wrong" % (what, ", ".join(repr(s) for s in wrong)))
    if c.get("regex") and not re.search(c["regex"], text, re.IGNORECASE | re.MULTILINE):
        errs.append("%s does not match /%s/" % (what, c["regex"]))
    if c.get("number"):
        ok, msg = _check_number(text, c["number"], what, single=answer and _asked[0] == 1)
        if not ok:
            errs.append(msg)
    return errs


def check_answer(c, answer, messages):
    answer = final_answer_of(answer)
    if not answer:
        return False, "the final answer is empty"
    errs = _unsupported(answer, c) + _text_checks(answer, c, "the answer", answer=True)
    return (not errs), "; ".join(errs) or "answer ok"


# ---------- answers the printed output supports ----------

# The numbers the rollout's code printed, as (|value|, half a unit of the
# last digit printed), when the case carries its output; None when it is
# not known, and then no answer is held to it. Set by run_checks.
_printed = [None]

# Words that scale the number before them: "5.8 million" may state 5800000.
_SCALE_RE = re.compile(r"\s*(thousand|million|billion|trillion|bn|k|m|万|亿)(?![A-Za-z])", re.IGNORECASE)
_SCALES = {"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9,
           "trillion": 1e12, "万": 1e4, "亿": 1e8}


def _half_unit(tok):
    """Half a unit of the last digit tok writes: 5.84 -> 0.005, 1.2e3 ->
    50, 736 -> 0.5, 123,000 -> 0.5."""
    tok = "".join(tok.split()).replace(",", "").rstrip("%").lstrip("+-")
    mant, _, exp = tok.lower().partition("e")
    try:
        e = int(exp) if exp else 0
    except ValueError:
        e = 0
    e = max(-300, min(300, e))  # 1e999999 is printed text, not a float
    if "." in mant:
        return 0.5 * 10.0 ** (e - len(mant.split(".", 1)[1]))
    # An integer is known to its last digit: 123000 is not 123000 ± 500
    # (no rounding to a power of ten).
    return 0.5 * 10.0 ** e


def _readings(text, span):
    """(value, tolerance) of each reading of a stated number: as written
    (within its last digit), as a percentage (12.5% is 0.125), scaled by a
    word after it (3.2 million), and a fraction's quotient."""
    start, end, vals = span
    m = _NUM_RE.match(text, start)
    tok = m.group(0) if m else text[start:end]
    try:
        v = float("".join(tok.split()).replace(",", "").rstrip("%"))
        h = _half_unit(tok)
    except (ValueError, OverflowError):
        return [(x, 1e-6 * abs(x)) for x in vals]
    out = [(v, h)]
    if tok.rstrip().endswith("%"):
        out.append((v / 100.0, h / 100.0))
    sc = _SCALE_RE.match(text, m.end() if m else end)
    if sc:
        k = _SCALES[sc.group(1).lower()]
        out.append((v * k, h * k))
    if len(vals) >= 2 and not tok.rstrip().endswith("%") and "," not in tok:
        out.append((vals[-1], 1e-3 * abs(vals[-1])))  # a/b
    return out


def printed_numbers(observations):
    """Every number the printed output shows, as (|value|, half a unit of
    its last digit): 5.843333 is known to 5e-7, 1.234568e+06 to 0.5, 12.5%
    also reads 0.125. Only numbers that stand as numbers count: not inside
    a word or an identifier (<cell-1>, x2, run_3), a traceback, a date or a
    time of day (2019-03-12, 12/03/2019, 10:30)."""
    out = []
    for o in observations or []:
        text = _standing_text(_normalize(str(o)))
        for m in _NUM_RE.finditer(text):
            tok = m.group(0)
            if _glued(text, m.start(), m.end()):
                continue
            try:
                v = abs(float("".join(tok.split()).replace(",", "").rstrip("%")))
                h = _half_unit(tok)
            except (ValueError, OverflowError):
                continue
            if not (math.isfinite(v) and math.isfinite(h)):
                continue
            out.append((v, h))
            if tok.rstrip().endswith("%"):
                out.append((v / 100.0, h / 100.0))
            if "," in tok:
                for part in "".join(tok.split()).rstrip("%").split(","):
                    try:
                        out.append((abs(float(part)), _half_unit(part)))
                    except (ValueError, OverflowError):
                        pass
    return out


# A traceback, from its header to the exception's line, and the location
# lines of a syntax error: what they print is the code's text, not its
# results.
_TRACEBACK_RE = re.compile(r"^Traceback \(most recent call last\):\n(?:[ \t].*\n|\n)*.*$|^[ \t]*File \"[^\"\n]*\", line \d+.*$", re.MULTILINE)
# A full date or a time of day: its parts are no quantities.
_DATE_TIME_RE = re.compile(r"(?<![\w.])\d{1,4}([-/.])\d{1,2}\1\d{1,4}(?![\w.])|(?<![\w.:])\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?![\w:])")


def _standing_text(text):
    """Printed text with tracebacks, dates and times blanked out."""
    text = _TRACEBACK_RE.sub(lambda m: " " * len(m.group(0)), text)
    return _DATE_TIME_RE.sub(lambda m: " " * len(m.group(0)), text)


def _glued(text, start, end):
    """Whether the number text[start:end] is part of a word or an
    identifier: a letter, _ or . right before it (x2, v1.2), a dash or <
    glued to a word before it (cell-1; 2023-10 is two numbers), or _ or
    letters and then a digit right after it (3_b, 1a2)."""
    tok = text[start:end]
    if tok[:1] in "+-":
        start += 1
    before = text[start - 1] if start > 0 else " "
    if before.isalnum() or before in "_.\\/":
        return True
    if before in "-<" and start > 1 and (text[start - 2].isalpha() or text[start - 2] in "_<"):
        return True
    after = text[end:end + 24]
    if after[:1] == "_":
        return True
    word = re.match(r"[^\W\d_]+\d", after)
    return word is not None


def _supported(text, span):
    """Whether a number the answer states is one the code printed, up to
    the rounding of either and its sign: printed 5.8433 supports 5.84 and
    6, printed 0.125 supports 12.5%, printed 1234567 supports 1,234,567
    and "1.23 million"; printed 734 does not support 736, and a printed 1
    or 2 does not support 0.6972."""
    for r, tol in _readings(text, span):
        r = abs(r)
        for o, h in _printed[0]:
            # The two intervals overlap: printed 31 (30.5 to 31.5) does not
            # support 30 (29.5 to 30.5), printed 5.85 supports 5.8.
            if abs(r - o) < tol + h and _as_precise(r, tol, o, h):
                return True
    return False


def _as_precise(r, tol, o, h):
    """Whether printed o (known to h) is precise enough to be the source of
    a stated r (known to tol): the same value, or printed with as many
    digits as stated, or with at least five significant digits (a display
    cut, 1.234568e+06). An answer cannot know digits its output never
    showed: printed 5.8 does not support 5.84, and the 1 of a line number
    or a shape does not support an R² of 0.6972."""
    return abs(r - o) <= 1e-9 * max(1.0, o) or h <= tol * (1 + 1e-9) or h <= 1e-4 * o


def _asks_number(c):
    return bool(c.get("number")) or any(numbers_in(str(s)) for s in (c.get("contains_all") or []) + (c.get("contains_any") or []))


def _unsupported(answer, c):
    """The reasons answer check c fails because the answer states a value
    the rollout's code never printed, when the case carries that output.
    For a task asking one number, the value the answer states
    (stated_value) must be printed; for more, each number that meets a
    number check or a numeric contains_all item must. The rule only ever
    adds a failure: a printed number supports, it never passes."""
    if _printed[0] is None or _transcript[0] or not _asks_number(c):
        return []
    text = _normalize(answer)
    groups = []
    if _asked[0] == 1:
        span = _answer_span(text, c.get("number"))
        if span:
            groups.append([span])
    else:
        spans = _spans(text)
        spec = c.get("number")
        if spec:
            want = float(spec["value"])
            rel, ab = float(spec.get("rel_tol", 0) or 0), float(spec.get("abs_tol", 0) or 0)
            groups.append([sp for sp in spans if any(number_close(x, want, rel, ab) for x in sp[2])])
        for item in c.get("contains_all") or []:
            ws = numbers_in(str(item))
            if ws:
                groups.append([sp for sp in spans if any(number_close(x, ws[0]) for x in sp[2])])
    errs = []
    for g in groups:
        if g and not any(_supported(text, sp) for sp in g):
            start, end, _ = g[0]
            errs.append("the answer states %s, %s (nor a number that rounds to it): state what the code printed" % (
                _short(text[start:end].strip(), 30), UNSUPPORTED))
    return errs



# ---------- answers held to values recomputed from the inputs ----------

def answer_states(answer, want, rel_tol=0.0, abs_tol=0.0, label=""):
    """Asserts that answer states want, a value the calling python check
    computed from the inputs in the verification sandbox (the reference's
    own read and statistic), within rel_tol or abs_tol: for a task asking
    one number, the value the answer states (the one label names, as a
    number check's label, else stated_value); else any number it states. The expected value is never the one recorded when
    the task was written, so an answer computed on other data (a stale
    answer) fails wherever the truth moved."""
    want = float(want)
    if not math.isfinite(want):
        raise AssertionError("the value computed from the inputs is %s: the task cannot be checked" % want)
    ok, msg = _check_number(final_answer_of(answer), {"value": want, "rel_tol": rel_tol, "abs_tol": abs_tol, "label": label},
                            "the answer", single=_asked[0] == 1)
    if not ok:
        raise AssertionError(msg + " (computed from the inputs)")

# What an answer check's message says when the answer states a value the
# code never printed; synth's Go side looks for it (checks.Unsupported).
UNSUPPORTED = "which the code's output never showed"


# ---------- files ----------

def sniff_type(path):
    """The file's type by content: png, jpeg, gif, webp, pdf, wav, mp3,
    xlsx, docx, zip, json, html, csv, txt, pickle, or unknown."""
    with open(path, "rb") as f:
        head = f.read(4096)
    if head.startswith(b"\x89PNG"):
        return "png"
    if head.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return "gif"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "webp"
    if head[:4] == b"RIFF" and head[8:12] == b"WAVE":
        return "wav"
    if head.startswith(b"%PDF"):
        return "pdf"
    if head.startswith(b"ID3") or (len(head) > 1 and head[0] == 0xFF and head[1] & 0xE0 == 0xE0):
        return "mp3"
    if head[:2] == b"BM":
        return "bmp"
    if head[:4] in (b"II*\x00", b"MM\x00*"):
        return "tiff"
    if head.startswith(b"fLaC"):
        return "flac"
    if head.startswith(b"PAR1"):
        return "parquet"
    if head.startswith(b"PK"):
        import zipfile
        try:
            names = zipfile.ZipFile(path).namelist()
        except Exception:
            return "zip"
        if any(n.startswith("xl/") for n in names):
            return "xlsx"
        if any(n.startswith("word/") for n in names):
            return "docx"
        return "zip"
    if head[:1] == b"\x80":
        return "pickle"
    text = None
    for cut in range(4):  # a character cut at the head's end is not an error
        try:
            text = head[:len(head) - cut].decode("utf-8")
            break
        except UnicodeDecodeError:
            continue
    if text is None:
        return "unknown"
    s = text.lstrip().lower()
    if s.startswith("<!doctype html") or s.startswith("<html") or "<body" in s:
        return "html"
    if s[:1] in "[{":
        try:
            with open(path, encoding="utf-8") as f:
                json.load(f)
            return "json"
        except Exception:
            pass
    first = text.splitlines()[0] if text.splitlines() else ""
    if first.count(",") >= 1 and len(text.splitlines()) > 1:
        return "csv"
    if first.count("\t") >= 1:
        return "tsv"
    return "txt"


_TYPE_ALIASES = {"jpg": "jpeg", "tsv": "csv", "md": "txt", "py": "txt", "htm": "html"}


def _same_type(got, want):
    got, want = _TYPE_ALIASES.get(got, got), _TYPE_ALIASES.get(want, want)
    if want == "txt":
        return got in ("txt", "csv", "json", "html")
    return got == want


def _missing(path):
    if not os.path.exists(path):
        parent = os.path.dirname(path) or "."
        there = sorted(os.listdir(parent))[:8] if os.path.isdir(parent) else []
        return "%s does not exist (%s has: %s)" % (path, parent, ", ".join(there) or "nothing")
    return None


def check_file(c, answer, messages):
    path = c["path"]
    exists = c.get("exists", True)
    if exists is False:
        if os.path.exists(path):
            return False, "%s exists but should not" % path
        return True, "%s absent as expected" % path
    miss = _missing(path)
    if miss:
        return False, miss
    size = os.path.getsize(path)
    need = max(int(c.get("min_bytes") or 0), 1)
    if size < need:
        return False, "%s is %d bytes, expected at least %d" % (path, size, need)
    if c.get("type"):
        got = sniff_type(path)
        if not _same_type(got, c["type"]):
            return False, "%s is a %s file, expected %s" % (path, got, c["type"])
    return True, "%s ok (%d bytes)" % (path, size)


# ---------- tables ----------

def read_table(path):
    """A csv, tsv, xlsx, json or parquet file as a DataFrame, without the
    unnamed index column pandas writes when index=True was left on."""
    import pandas as pd
    ext = os.path.splitext(path)[1].lower()
    if ext in (".xlsx", ".xls"):
        df = pd.read_excel(path)
    elif ext == ".json":
        df = pd.read_json(path)
    elif ext == ".parquet":
        df = pd.read_parquet(path)
    elif ext == ".tsv":
        df = pd.read_csv(path, sep="\t")
    elif ext == ".csv":
        df = pd.read_csv(path)
    else:
        df = pd.read_csv(path, sep=None, engine="python")
    if len(df.columns) and str(df.columns[0]).startswith("Unnamed: 0"):
        df = df.drop(columns=[df.columns[0]])
    return df


def pandas_names(header):
    """A header row's names as pandas names the columns it reads: a blank
    one "Unnamed: i", a repeated one "name.1", "name.2" … in order."""
    out, count = [], {}
    for i, h in enumerate(header):
        h = str(h).strip() or "Unnamed: %d" % i
        if h in count:
            count[h] += 1
            h = "%s.%d" % (h, count[h])
        else:
            count[h] = 0
        out.append(h)
    return out


def written_cell(path, df, row, col):
    """The text of cell (row, col) of DataFrame df as the CSV file at path
    wrote it (df read from path by read_table, its unnamed index column
    left out); None when path is not a CSV file or the cell cannot be
    found."""
    import csv
    if not str(path).lower().endswith(".csv"):
        return None
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            lines = list(csv.reader(f))
        shift = len(lines[0]) - len(df.columns)
        return lines[1 + row][list(df.columns).index(col) + shift].strip()
    except (OSError, UnicodeDecodeError, IndexError, ValueError, csv.Error):
        return None


def close_as_written(text, value, want, rel_tol=1e-4):
    """value (read from text, as a file wrote it) agrees with want to the
    digits it shows: within rel_tol of want, or, when it was rounded on
    writing to two decimals or more, within half a unit of its last decimal
    (0.08 for 0.0837, 3.27 for 3.2714); rounded to fewer, within 0.1% too.
    A value written in full must be right to rel_tol: the population std
    beside the sample's, say."""
    if abs(value - want) <= rel_tol * abs(want) + 1e-12:
        return True
    if text is None:
        return False
    m = re.fullmatch(r"\s*[-+]?\d*(?:\.(\d*))?\s*", text)
    if not m:
        return False
    decimals = len(m.group(1) or "")
    tol = 0.5 * 10 ** -decimals * 1.0001
    if decimals < 2:
        tol = min(tol, 1e-3 * abs(want))
    return abs(value - want) <= tol


def find_column(df, name):
    """The column called name, matched exactly, then ignoring case, spaces
    and underscores; None if absent."""
    if name in df.columns:
        return name
    norm = lambda s: re.sub(r"[\s_]+", "", str(s)).lower()
    for col in df.columns:
        if norm(col) == norm(name):
            return col
    return None


def same_table(path, want, ordered=False, rel_tol=1e-3, abs_tol=0.005):
    """Asserts that the table at path (or the DataFrame path) holds what
    DataFrame want holds: as
    many rows, and every column of want (found by find_column; extra
    columns are allowed) with the same values, numbers within
    max(abs_tol, rel_tol*|value|), text as text (stripped), empty where want
    is empty. Unless ordered, rows may come in any order: both tables are
    sorted on want's columns, text columns first. The message names the
    first cell that differs."""
    import pandas as pd
    if isinstance(path, str):
        got = read_table(path)
    else:
        got, path = path, "the table"
    assert len(got) == len(want), "%s has %d rows, expected %d" % (path, len(got), len(want))
    cols = []
    for w in want.columns:
        g = find_column(got, str(w))
        assert g is not None, "%s lacks column %r (has %s)" % (path, str(w), ", ".join(map(str, list(got.columns)[:12])))
        cols.append((str(w), want[w], got[g]))
    if not cols:
        return
    kinds = [_numeric(w) for _, w, _ in cols]
    def cells(series, numeric):
        out = []
        for x in series.tolist():
            if _empty(x):
                out.append(None)
            elif numeric:
                try:
                    v = float(x)
                except (TypeError, ValueError):
                    v = float("nan")
                out.append(v)
            else:
                out.append(_text_cell(x))
        return out
    W = list(zip(*[cells(w, k) for (_, w, _), k in zip(cols, kinds)]))
    G = list(zip(*[cells(g, k) for (_, _, g), k in zip(cols, kinds)]))
    if not ordered:
        order = [i for i, k in enumerate(kinds) if not k] + [i for i, k in enumerate(kinds) if k]
        key = lambda row: [_sort_key(row[i]) for i in order]
        W, G = sorted(W, key=key), sorted(G, key=key)
    for r, (wr, gr) in enumerate(zip(W, G)):
        for (name, _, _), k, w, g in zip(cols, kinds, wr, gr):
            if w is None or g is None:
                ok = w is None and g is None
            elif k:
                ok = (math.isnan(w) and math.isnan(g)) or (not math.isnan(g) and number_close(g, w, rel_tol, abs_tol))
            else:
                ok = g == w or _same_date(g, w) or _same_number_text(g, w, rel_tol, abs_tol)
            assert ok, "%s: column %s, row %d%s is %s, expected %s" % (
                path, name, r + 1, "" if ordered else " (rows sorted)", _short(g, 30), _short(w, 30))


def _empty(x):
    if x is None:
        return True
    if isinstance(x, float) and math.isnan(x):
        return True
    try:
        import pandas as pd
        if x is pd.NaT or pd.isna(x) is True:
            return True
    except (TypeError, ValueError):
        pass
    return isinstance(x, str) and not x.strip()


def _numeric(series):
    """Whether every non-empty cell of series is a number (bools are not)."""
    vals = [x for x in series.tolist() if not _empty(x)]
    if not vals:
        return False
    for x in vals:
        if isinstance(x, bool):
            return False
        try:
            float(x)
        except (TypeError, ValueError):
            return False
    return True


def _same_number_text(g, w, rel_tol, abs_tol):
    """Whether two text cells write the same number (783.6 and 783.60): a
    column of the reference's output read as text still compares by value."""
    try:
        return number_close(float(g), float(w), rel_tol, abs_tol)
    except (TypeError, ValueError):
        return False


def _text_cell(x):
    if isinstance(x, float) and x.is_integer():
        x = int(x)
    if hasattr(x, "isoformat") and hasattr(x, "hour") and not hasattr(x, "year"):
        return x.isoformat()  # a time of day alone (a spreadsheet's time cell)
    if hasattr(x, "isoformat") and hasattr(x, "hour"):
        # A date read back as a timestamp (pandas' read_json): midnight is the date.
        if (x.hour, x.minute, x.second, getattr(x, "microsecond", 0)) == (0, 0, 0, 0):
            return x.strftime("%Y-%m-%d")
        return x.isoformat(sep=" ")
    return " ".join(str(x).split())


_DATEISH_RE = re.compile(r"\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}")


def _same_date(a, b):
    """Whether two text cells that both hold a date name the same moment
    (2019-01-02 and 2019-01-02 00:00:00, or the same date written as a
    timestamp; a date without a zone beside one in UTC, 2004-01-05 and
    2004-01-05T00:00:00Z, as UTC)."""
    if not (_DATEISH_RE.search(a) and _DATEISH_RE.search(b)):
        return False
    try:
        import pandas as pd
        ta, tb = pd.Timestamp(a), pd.Timestamp(b)
        if (ta.tzinfo is None) != (tb.tzinfo is None):
            # 2004-01-05 and 2004-01-05T00:00:00Z: the naive one read as UTC
            ta, tb = [t.tz_convert("UTC").tz_localize(None) if t.tzinfo is not None else t for t in (ta, tb)]
        return ta == tb
    except (ValueError, TypeError, OverflowError):
        return False


def _sort_key(x):
    if x is None:
        return (0, 0.0, "")
    if isinstance(x, float):
        return (1, -math.inf if math.isnan(x) else x, "")
    return (2, 0.0, x)


def iqr_bounds(series, k=1.5):
    import pandas as pd
    s = pd.to_numeric(series, errors="coerce").dropna()
    q1, q3 = s.quantile(0.25), s.quantile(0.75)
    return q1 - k * (q3 - q1), q3 + k * (q3 - q1)


def check_table(c, answer, messages):
    path = c["path"]
    miss = _missing(path)
    if miss:
        return False, miss
    try:
        df = read_table(path)
    except Exception as e:
        return False, "%s cannot be read as a table: %s" % (path, _short(e, 120))
    errs = []
    if c.get("rows") is not None and len(df) != int(c["rows"]):
        errs.append("%s has %d rows, expected %d" % (path, len(df), c["rows"]))
    cols = [x for x in c.get("columns_include") or [] if find_column(df, x) is None]
    if cols:
        errs.append("%s lacks column %s (has %s)" % (path, ", ".join(repr(x) for x in cols),
                                                   ", ".join(map(str, list(df.columns)[:12]))))
    if c.get("no_duplicates"):
        n = int(df.duplicated().sum())
        if n:
            errs.append("%s has %d duplicate rows" % (path, n))
    if c.get("no_nulls"):
        nulls = df.isna().sum()
        n = int(nulls.sum())
        if n:
            where = ", ".join(str(k) for k, v in nulls.items() if v)
            errs.append("%s has %d empty cells (in %s)" % (path, n, where))
    # no_iqr_outliers: no value outside the 1.5 IQR fences of the table's own column.
    for name in c.get("no_iqr_outliers") or []:
        col = find_column(df, name)
        if col is None:
            errs.append("%s lacks column %r" % (path, name))
            continue
        import pandas as pd
        s = pd.to_numeric(df[col], errors="coerce")
        lo, hi = iqr_bounds(s)
        n = int(((s < lo) | (s > hi)).sum())
        if n:
            errs.append("%s has %d IQR outliers in %s (outside %s..%s)" % (path, n, col, _fmt(float(lo)), _fmt(float(hi))))
    sk = c.get("sorted_by")
    if sk:
        col = find_column(df, sk["column"])
        if col is None:
            errs.append("%s lacks column %r to be sorted by" % (path, sk["column"]))
        else:
            bad = _unsorted_at(df[col], bool(sk.get("descending")))
            if bad is not None:
                i, a, b = bad
                errs.append("%s is not sorted by %s (%s): row %d (%s) comes before row %d (%s)" % (
                    path, col, "descending" if sk.get("descending") else "ascending", i + 1, _short(a, 20), i + 2, _short(b, 20)))
    return (not errs), "; ".join(errs) or "%s ok (%d rows)" % (path, len(df))


def _unsorted_at(series, desc):
    import pandas as pd
    vals = series.dropna()
    num = pd.to_numeric(vals, errors="coerce")
    if num.notna().all():
        vals = num
    vals = list(vals)
    for i in range(len(vals) - 1):
        a, b = vals[i], vals[i + 1]
        if (a < b) if desc else (a > b):
            return i, a, b
    return None


# ---------- images ----------

def _open_image(path):
    from PIL import Image
    im = Image.open(path)
    im.load()
    return im


def apply_transform(im, transform):
    """im with a stated transform applied: rotate:DEG (counterclockwise,
    expanding), rotate90/rotate180/rotate270, flip_h, flip_v, grayscale,
    crop:x,y,w,h, resize:w,h; several joined by '|'."""
    from PIL import Image, ImageOps
    for t in [x for x in (transform or "").split("|") if x and x != "none"]:
        name, _, arg = t.partition(":")
        if name.startswith("rotate") and not arg:
            arg = name[len("rotate"):] or "90"
            name = "rotate"
        if name == "rotate":
            im = im.rotate(float(arg), expand=True)
        elif name == "flip_h":
            im = ImageOps.mirror(im)
        elif name == "flip_v":
            im = ImageOps.flip(im)
        elif name == "grayscale":
            im = im.convert("L")
        elif name == "crop":
            x, y, w, h = [int(v) for v in arg.split(",")]
            im = im.crop((x, y, x + w, y + h))
        elif name == "resize":
            w, h = [int(v) for v in arg.split(",")]
            im = im.resize((w, h))
        else:
            raise ValueError("unknown transform %r" % t)
    return im


def _opaque_mask(src, transform):
    """Where src, after the transform's geometry, is opaque, as a 64x64
    boolean array; None when src has no transparency. A transparent pixel
    hides a colour (often black) a viewer never shows: an output may keep
    the transparency, composite it over white, or drop it as PIL's
    convert('L') and OpenCV's imread do, and all three are the edit asked
    for, so only the opaque pixels compare."""
    import numpy as np
    if not has_alpha(src):
        return None
    alpha = src.convert("RGBA").getchannel("A")
    geometry = "|".join(x for x in (transform or "").split("|") if x and not x.startswith("grayscale"))
    alpha = apply_transform(alpha, geometry)
    return np.asarray(alpha.resize((64, 64)), dtype=float) >= 250


def has_alpha(im):
    """Whether im has transparency: an alpha band (RGBA, LA, PA) or a
    transparent colour (a PNG's tRNS, in modes 1, L, RGB and P)."""
    return im.mode in ("RGBA", "LA", "PA", "RGBa", "La") or "transparency" in im.info


def flatten(im):
    """im as a viewer shows it, in RGB: any transparency composited over
    white. A transparent PNG's hidden pixels (often black) never count."""
    from PIL import Image
    if not has_alpha(im):
        return im.convert("RGB")
    im = im.convert("RGBA")
    bg = Image.new("RGBA", im.size, (255, 255, 255, 255))
    return Image.alpha_composite(bg, im).convert("RGB")


def _gray_array(im, size=(64, 64)):
    import numpy as np
    if has_alpha(im):
        im = flatten(im)
    return np.asarray(im.convert("L").resize(size), dtype=float)


def similarity(a, b, mask=None):
    """Pearson correlation of two images' 64x64 grayscale thumbnails, in
    [-1, 1]; flat images compare by mean brightness. With mask (a 64x64
    boolean array, _opaque_mask), only its pixels count."""
    import numpy as np
    x, y = _gray_array(a).ravel(), _gray_array(b).ravel()
    if mask is not None and mask.shape == (64, 64) and mask.sum() >= 64 * 64 // 20:
        x, y = x[mask.ravel()], y[mask.ravel()]
    sx, sy = x.std(), y.std()
    if sx < 1e-6 or sy < 1e-6:
        return 1.0 - abs(x.mean() - y.mean()) / 255.0 if sx < 1e-6 and sy < 1e-6 else 0.0
    return float(((x - x.mean()) * (y - y.mean())).mean() / (sx * sy))


def is_gray(im):
    import numpy as np
    if im.mode in ("L", "LA", "1", "I", "F", "I;16"):
        return True
    a = np.asarray(im.convert("RGB"), dtype=int)
    return bool(np.abs(a[..., 0] - a[..., 1]).max() <= 2 and np.abs(a[..., 1] - a[..., 2]).max() <= 2)


def brightness(path):
    """Mean luminance (0..255)."""
    return float(_gray_array(_open_image(path), (128, 128)).mean())


def contrast(path):
    """Standard deviation of luminance."""
    return float(_gray_array(_open_image(path), (128, 128)).std())


def sharpness(path):
    """Variance of the Laplacian of the luminance: higher is sharper."""
    import numpy as np
    im = _open_image(path)
    if has_alpha(im):
        im = flatten(im)
    g = np.asarray(im.convert("L"), dtype=float)
    lap = -4 * g[1:-1, 1:-1] + g[:-2, 1:-1] + g[2:, 1:-1] + g[1:-1, :-2] + g[1:-1, 2:]
    return float(lap.var())


def _luma(im):
    """The 128x128 grayscale thumbnail of im as PIL's L conversion makes it
    (transparency over white): what brightness and contrast measure."""
    return _gray_array(im, (128, 128))


def enhanced_as_asked(out, src, kind, factor):
    """Whether the image at out changes src's brightness (its mean
    luminance) or contrast (its standard deviation) as PIL's ImageEnhance
    with factor does, as (ok, message). The change out makes must be
    between half and twice the change PIL's makes, and of its sign: darker
    for brighter, or lowered contrast, fails. Where PIL's change is under
    one grey level (a picture already at black and white, as a
    silhouette), the image cannot show the change: then out must only not
    go the other way, so a copy passes and a task asking it cannot be
    proven. Measured the same way on all three images, so the grey formula
    a solution uses (PIL's L, OpenCV's, an average) does not matter. The
    output must also look like PIL's result (similarity at least 0.8): a
    nearly white chart brightened loses most of its likeness to the input,
    not to the input brightened."""
    from PIL import ImageEnhance
    measure = {"brightness": lambda a: float(a.mean()), "contrast": lambda a: float(a.std())}[kind]
    enhance = {"brightness": ImageEnhance.Brightness, "contrast": ImageEnhance.Contrast}[kind]
    base = _open_image(src)
    pil = enhance(flatten(base)).enhance(float(factor))
    im = _open_image(out)
    b, w, a = measure(_luma(base)), measure(_luma(pil)), measure(_luma(im))
    want, got = w - b, a - b
    sim = similarity(im, pil)
    if sim < 0.8:
        return False, "%s does not look like the input with its %s changed (similarity %.2f to PIL's result, at least 0.80 needed)" % (out, kind, sim)
    if abs(want) < 1.0:
        if got * (1 if want >= 0 else -1) < -0.5:
            return False, "%s changes the %s the other way (%.1f, the input %.1f)" % (out, kind, a, b)
        return True, "%s: the input's %s can hardly change (%.1f to %.1f)" % (out, kind, b, w)
    ratio = got / want
    if ratio < 0.5 or ratio > 2.0:
        return False, "%s has %s %.1f, the input %.1f: a change of %+.1f where factor %s makes %+.1f (half to twice that passes)" % (
            out, kind, a, b, got, _fmt(float(factor)), want)
    return True, "%s %s %.1f (input %.1f, factor %s makes %.1f)" % (out, kind, a, b, _fmt(float(factor)), w)


def check_image(c, answer, messages):
    path = c["path"]
    miss = _missing(path)
    if miss:
        return False, miss
    try:
        im = _open_image(path)
    except Exception as e:
        return False, "%s is not an image PIL can open: %s" % (path, _short(e, 100))
    errs = []
    w, h = im.size
    if (c.get("width") is not None and w != c["width"]) or (c.get("height") is not None and h != c["height"]):
        want = "%sx%s" % (c.get("width", w), c.get("height", h))
        errs.append("%s is %dx%d, expected %s" % (path, w, h, want))
    if c.get("mode"):
        if c["mode"] == "L" and not is_gray(im):
            errs.append("%s has colour (mode %s), expected grayscale" % (path, im.mode))
        elif c["mode"] != "L" and im.mode != c["mode"]:
            errs.append("%s has mode %s, expected %s" % (path, im.mode, c["mode"]))
    cmp = c.get("compare")
    if cmp:
        ref = cmp["ref"]
        if not os.path.exists(ref):
            errs.append("reference image %s does not exist" % ref)
        else:
            t = cmp.get("transform", "")
            src = _open_image(ref)
            want = apply_transform(src, t)
            if "grayscale" in t and not is_gray(im):
                errs.append("%s still has colour, expected grayscale" % path)
            sim = similarity(im, want, mask=_opaque_mask(src, t))
            if sim < float(cmp.get("min_similarity") or 0.9):
                errs.append("%s differs from %s%s: similarity %.2f, expected at least %.2f" % (
                    path, ref, (" after " + t) if t else "", sim, float(cmp.get("min_similarity") or 0.9)))
    for key, fn, cmpop, word in (("brighter_than", brightness, lambda a, b: a > b + 3, "brighter"),
                                 ("darker_than", brightness, lambda a, b: a < b - 3, "darker"),
                                 ("sharper_than", sharpness, lambda a, b: a > b * 1.1, "sharper")):
        ref = c.get(key)
        if not ref:
            continue
        if not os.path.exists(ref):
            errs.append("reference image %s does not exist" % ref)
            continue
        a, b = fn(path), fn(ref)
        if not cmpop(a, b):
            errs.append("%s is not %s than %s (%.1f vs %.1f)" % (path, word, ref, a, b))
    return (not errs), "; ".join(errs) or "%s ok (%dx%d %s)" % (path, w, h, im.mode)


# ---------- audio ----------

def read_audio(path):
    """(samples as float mono in -1..1, rate). WAV through the wave module;
    other formats through pydub when it is installed."""
    import numpy as np
    if sniff_type(path) == "wav":
        import wave
        with wave.open(path, "rb") as w:
            rate, ch, width, n = w.getframerate(), w.getnchannels(), w.getsampwidth(), w.getnframes()
            raw = w.readframes(n)
        if width == 1:
            x = (np.frombuffer(raw, dtype=np.uint8).astype(float) - 128) / 128
        elif width == 2:
            x = np.frombuffer(raw, dtype="<i2").astype(float) / 32768
        elif width == 4:
            x = np.frombuffer(raw, dtype="<i4").astype(float) / 2147483648
        elif width == 3:
            b = np.frombuffer(raw, dtype=np.uint8).reshape(-1, 3).astype(np.int32)
            v = b[:, 0] | (b[:, 1] << 8) | (b[:, 2] << 16)
            v = np.where(v >= 1 << 23, v - (1 << 24), v)
            x = v.astype(float) / (1 << 23)
        else:
            raise ValueError("unsupported sample width %d" % width)
        if ch > 1:
            x = x[: len(x) // ch * ch].reshape(-1, ch).mean(axis=1)
        return x, rate
    try:
        from pydub import AudioSegment
    except ImportError:
        raise RuntimeError("cannot read %s: install pydub and ffmpeg (apt-get install python3-pydub ffmpeg)" % path)
    seg = AudioSegment.from_file(path)
    x = np.array(seg.get_array_of_samples(), dtype=float) / float(1 << (8 * seg.sample_width - 1))
    if seg.channels > 1:
        x = x.reshape(-1, seg.channels).mean(axis=1)
    return x, seg.frame_rate


def duration(path):
    x, rate = read_audio(path)
    return len(x) / float(rate)


def loudness_db(path):
    """RMS level in dBFS."""
    import numpy as np
    x, _ = read_audio(path)
    rms = float(np.sqrt(np.mean(x * x))) if len(x) else 0.0
    return 20 * math.log10(rms) if rms > 0 else -120.0


def _envelope(x, rate, frame=0.01):
    """RMS of each 10 ms frame of mono samples x."""
    import numpy as np
    n = max(1, int(rate * frame))
    m = len(x) // n
    if m == 0:
        return np.zeros(0)
    return np.sqrt((np.asarray(x[: m * n], dtype=float).reshape(m, n) ** 2).mean(axis=1))


def same_sound(path, ref, max_lag=0.15, parts=4, keep=0.3, min_corr=0.7):
    """Asserts that the audio at path holds the sound of the audio at ref
    from start to end, whatever the format and encoder: their loudness
    envelopes (RMS per 10 ms), aligned by the lag within max_lag seconds
    that matches them best (an encoder's delay or padding; a steady sound is
    compared in place), correlate by
    min_corr or more when ref's loudness varies, and in each of ref's parts
    (quarters of its length) that is not near silence, path reaches keep of
    ref's loudness. A conversion of only the first half, a second half
    silenced, or the sound reversed fails."""
    import numpy as np
    x, rx = read_audio(path)
    y, ry = read_audio(ref)
    ex, ey = _envelope(x, rx), _envelope(y, ry)
    assert len(ex) and len(ey), "%s or %s holds no sound" % (path, ref)
    # A steady sound has no shape to align by: it is compared in place.
    varies = ey.std() > 0.05 * ey.mean()
    best, lag = -2.0, 0
    for k in range(-int(max_lag / 0.01), int(max_lag / 0.01) + 1) if varies else ():
        a = ex[max(k, 0):][: len(ey) - max(-k, 0)]
        b = ey[max(-k, 0):][: len(a)]
        if len(b) < len(ey) // 2:
            continue
        c = float(np.corrcoef(a, b)[0, 1]) if a.std() > 1e-9 and b.std() > 1e-9 else -1.0
        if c > best:
            best, lag = c, k
    ex = ex[max(lag, 0):]
    if lag < 0:
        ex = np.concatenate([np.zeros(-lag), ex])
    ex = np.concatenate([ex, np.zeros(max(0, len(ey) - len(ex)))])[: len(ey)]
    assert not varies or best >= min_corr, \
        "%s does not sound like %s from start to end (loudness correlates %.2f, want %.2f)" % (path, ref, best, min_corr)
    spans = np.array_split(np.arange(len(ey)), parts)
    loud = max(float(np.sqrt((ey[s] ** 2).mean())) for s in spans if len(s))
    for i, s in enumerate(spans):
        if not len(s):
            continue
        want = float(np.sqrt((ey[s] ** 2).mean()))
        got = float(np.sqrt((ex[s] ** 2).mean()))
        if want > 0.1 * loud:
            assert got >= keep * want, "part %d of %d of %s is missing or silent in %s (level %.3g, the input's %.3g)" % (
                i + 1, parts, ref, path, got, want)


def audio_match(path, expected, rate):
    """How well the audio at path matches the expected samples (mono, at
    rate): the Pearson correlation of the two, after resampling the file to
    rate, over the shorter length; 0 when either is constant or their
    lengths differ by more than 5%. Order matters: A then B does not match
    B then A."""
    import numpy as np
    x, r = read_audio(path)
    y = np.asarray(expected, dtype=float)
    if r != rate and len(x):
        t = np.arange(int(len(x) * rate / r)) / float(rate)
        x = np.interp(t, np.arange(len(x)) / float(r), x)
    if not len(x) or not len(y) or abs(len(x) - len(y)) > 0.05 * max(len(x), len(y)):
        return 0.0
    n = min(len(x), len(y))
    x, y = x[:n], y[:n]
    if x.std() < 1e-9 or y.std() < 1e-9:
        return 0.0
    return float(np.corrcoef(x, y)[0, 1])


def level_db(samples):
    """RMS level of samples in dBFS."""
    import numpy as np
    s = np.asarray(samples, dtype=float)
    rms = float(np.sqrt(np.mean(s * s))) if len(s) else 0.0
    return 20 * math.log10(rms) if rms > 0 else -120.0


def check_audio(c, answer, messages):
    path = c["path"]
    miss = _missing(path)
    if miss:
        return False, miss
    try:
        d = duration(path)
    except Exception as e:
        return False, "%s cannot be read as audio: %s" % (path, _short(e, 120))
    errs = []
    rng = c.get("duration")
    if rng:
        lo, hi = float(rng.get("min") or 0), float(rng.get("max") or 0)
        if (lo and d < lo) or (hi and d > hi):
            errs.append("%s lasts %.2f s, expected %s" % (path, d, "%.2f–%.2f s" % (lo, hi) if lo and hi else
                                                          (">= %.2f s" % lo if lo else "<= %.2f s" % hi)))
    for key, fn, ok, word in (("louder_than", loudness_db, lambda a, b: a > b + 1, "louder"),
                              ("quieter_than", loudness_db, lambda a, b: a < b - 1, "quieter"),
                              ("shorter_than", duration, lambda a, b: a < b - 0.05, "shorter")):
        ref = c.get(key)
        if not ref:
            continue
        if not os.path.exists(ref):
            errs.append("reference audio %s does not exist" % ref)
            continue
        a, b = fn(path), fn(ref)
        if not ok(a, b):
            unit = "s" if key == "shorter_than" else "dB"
            errs.append("%s is not %s than %s (%.2f %s vs %.2f %s)" % (path, word, ref, a, unit, b, unit))
    return (not errs), "; ".join(errs) or "%s ok (%.2f s)" % (path, d)


# ---------- pickle, text, python ----------

def check_pickle(c, answer, messages):
    path = c["path"]
    miss = _missing(path)
    if miss:
        return False, miss
    try:
        obj = load_pickle(path)
    except Exception as e:
        return False, "%s cannot be unpickled: %s" % (path, _short(e, 120))
    m = c.get("has_method")
    if m and not remote_callable(obj, m):
        return False, "%s holds a %s, which has no %s method" % (path, remote_type(obj), m)
    return True, "%s ok (%s)" % (path, remote_type(obj))


def read_text(path):
    """A text file's content; PDF, DOCX and HTML are reduced to their text
    where the libraries for it are installed."""
    kind = sniff_type(path)
    if kind == "pdf":
        from pypdf import PdfReader
        return "\n".join(p.extract_text() or "" for p in PdfReader(path).pages)
    if kind == "docx":
        import zipfile
        xml = zipfile.ZipFile(path).read("word/document.xml").decode("utf-8", "replace")
        xml = re.sub(r"</w:p>", "\n", xml)
        return re.sub(r"<[^>]+>", "", xml)
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def _trigrams(text):
    """The multiset of letter and digit trigrams of text, spaces, line
    breaks and punctuation left out, ligatures (ﬁ) spelled out, any case:
    PDF readers differ on where spaces go, not on the letters."""
    import unicodedata
    from collections import Counter
    t = "".join(ch for ch in unicodedata.normalize("NFKC", text or "").lower() if ch.isalnum())
    return Counter(t[i:i + 3] for i in range(len(t) - 2))


def pdf_texts(path):
    """The text of the PDF at path as each standard reader the sandbox has
    gives it: pypdf's (the reference's) and PyMuPDF's, by name."""
    import warnings
    out = {}
    from pypdf import PdfReader
    out["pypdf"] = "\n".join(p.extract_text() or "" for p in PdfReader(path).pages)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                import pymupdf
            except ImportError:
                import fitz as pymupdf
        with pymupdf.open(path) as doc:
            out["PyMuPDF"] = "\n".join(p.get_text() for p in doc)
    except ImportError:
        pass
    return out


def covers_text(got, wants, min_recall=0.85, min_precision=0.6):
    """Whether text got holds one of the texts wants (a dict of reader name
    to text), as (ok, message): its letter trigrams (_trigrams) cover at
    least min_recall of that text's and at least min_precision of got's
    are that text's. Half the text, another page, or the text buried in
    other text fails; another reader's spacing, line order within a page,
    or a few glyphs read otherwise (pdfplumber's text covers 0.92 to 1.0
    of pypdf's and PyMuPDF's) pass."""
    g = _trigrams(got)
    n = sum(g.values())
    best = None
    for name, text in wants.items():
        w = _trigrams(text)
        m = sum(w.values())
        if not m:
            continue
        both = sum((g & w).values())
        recall, precision = both / m, both / max(n, 1)
        if recall >= min_recall and precision >= min_precision:
            return True, "covers %.0f%% of %s's text" % (100 * recall, name)
        if best is None or recall > best[1]:
            best = (name, recall, precision)
    if best is None:
        return False, "no reader finds text to compare with"
    return False, "holds %.0f%% of the text %s reads (at least %.0f%% needed), and %.0f%% of it is that text (at least %.0f%%)" % (
        100 * best[1], best[0], 100 * min_recall, 100 * best[2], 100 * min_precision)


def check_text(c, answer, messages):
    path = c["path"]
    miss = _missing(path)
    if miss:
        return False, miss
    try:
        text = read_text(path)
    except Exception as e:
        return False, "%s cannot be read as text: %s" % (path, _short(e, 120))
    if c.get("min_bytes") and os.path.getsize(path) < c["min_bytes"]:
        return False, "%s is %d bytes, expected at least %d" % (path, os.path.getsize(path), c["min_bytes"])
    errs = _text_checks(text, c, path)
    return (not errs), "; ".join(errs) or "%s ok" % path


def check_python(c, answer, messages):
    env = dict(_HELPERS)
    env.update(answer=final_answer_of(answer), messages=messages or [], __builtins__=_check_builtins())
    try:
        exec(compile(c["code"], "<check>", "exec"), env)
    except AssertionError as e:
        msg = str(e)
        if not msg:
            import traceback
            lines = c["code"].splitlines()
            frames = [f for f in traceback.extract_tb(e.__traceback__) if f.filename == "<check>"]
            n = frames[-1].lineno if frames else 0
            msg = "assertion failed: " + (lines[n - 1].strip() if 0 < n <= len(lines) else "")
        return False, msg
    except Exception as e:
        return False, "check raised %s: %s" % (type(e).__name__, _short(e, 200))
    return True, "python check ok"


def html_elements(path):
    """Every element of an HTML file as a dict: tag, attrs, and text (all
    the text inside it)."""
    from html.parser import HTMLParser
    out, stack = [], []

    class P(HTMLParser):
        def handle_starttag(self, tag, attrs):
            el = {"tag": tag, "attrs": dict(attrs), "text": ""}
            out.append(el)
            if tag not in ("br", "img", "input", "meta", "link", "hr", "source"):
                stack.append(el)

        def handle_endtag(self, tag):
            for i in range(len(stack) - 1, -1, -1):
                if stack[i]["tag"] == tag:
                    del stack[i:]
                    break

        def handle_data(self, data):
            for el in stack:
                el["text"] += data

    P().feed(read_text(path))
    for el in out:
        el["text"] = " ".join(el["text"].split())
    return out


# ---------- rollout code, out of process ----------
#
# A produced module or pickle is rollout code: it never runs in the process
# that computes verdicts. load_module and load_pickle start a disposable
# child interpreter (python -I, a clean environment, stdout and stderr to
# /dev/null) that loads it and answers requests over a pipe. Every answer is
# JSON, parsed here: plain values (None, bool, int, float, str, and lists
# and dicts of them) come back as such, anything else as a RemoteObject
# handle whose attributes, calls and operators are requests again. A
# RemoteObject equals only itself, so no produced __eq__ can make an assert
# pass; an exception in the child is raised here as the builtin exception of
# that name (RemoteError when it is not a builtin).

_CHILD_SRC = r'''
import sys, os, json, builtins
proto_in = os.fdopen(os.dup(0), "rb", buffering=0)
proto_out = os.fdopen(os.dup(1), "wb", buffering=0)
null = os.open(os.devnull, os.O_RDWR)
for fd in (0, 1, 2):
    os.dup2(null, fd)
_loads, _dumps = json.loads, json.dumps
_objs = {}
_PRIM = (type(None), bool, int, float, str)

def plain(x, depth=0):
    t = type(x)
    if t in _PRIM:
        if t is float and x != x:
            return None
        return x
    if depth > 8:
        raise TypeError
    if t in (list, tuple):
        return [plain(v, depth + 1) for v in x]
    if t is dict and all(type(k) is str for k in x):
        return {k: plain(v, depth + 1) for k, v in x.items()}
    mod = t.__module__ or ""
    if mod.startswith("numpy") and hasattr(x, "tolist"):
        return plain(x.tolist(), depth + 1)
    if mod.startswith("pandas") and t.__name__ in ("Series", "Index"):
        return plain(x.tolist(), depth + 1)
    raise TypeError

def encode(x):
    try:
        return {"t": "v", "v": plain(x)}
    except (TypeError, ValueError, RecursionError):
        h = len(_objs) + 1
        _objs[h] = x
        return {"t": "h", "h": h, "type": type(x).__name__[:60]}

def decode(a):
    if type(a) is dict:
        if "__h__" in a:
            return _objs[a["__h__"]]
        if "__df__" in a:
            import pandas, io
            return pandas.read_json(io.StringIO(a["__df__"]), orient="split")
        if "__dict__" in a:
            return {decode(k): decode(v) for k, v in a["__dict__"]}
        if "__tuple__" in a:
            return tuple(decode(v) for v in a["__tuple__"])
    if type(a) is list:
        return [decode(v) for v in a]
    return a

def handle(r):
    op = r["op"]
    if op == "load_module":
        import importlib.util
        spec = importlib.util.spec_from_file_location("solution", r["path"])
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        return m
    if op == "load_pickle":
        import pickle
        with open(r["path"], "rb") as f:
            return pickle.load(f)
    obj = _objs[r["h"]]
    if op == "getattr":
        return getattr(obj, r["name"])
    if op == "callable":
        return callable(getattr(obj, r["name"], None))
    if op == "call":
        return obj(*decode(r["args"]), **decode(r["kwargs"]))
    if op == "special":
        return getattr(type(obj), r["name"])(obj, *decode(r["args"]))
    if op == "str":
        return str(str(obj))[:10000]
    if op == "list":
        return list(obj)[:100000]
    raise ValueError("unknown request")

while True:
    line = proto_in.readline()
    if not line:
        break
    try:
        out = encode(handle(_loads(line)))
    except BaseException as e:
        out = {"t": "e", "exc": type(e).__name__[:60], "msg": str(e)[:300]}
    proto_out.write((_dumps(out) + "\n").encode())
'''

_REMOTE_TIMEOUT = 60.0  # seconds a produced module or pickle may take, all requests together
_REMOTE_MAX = 1 << 20   # bytes of one answer


class RemoteError(Exception):
    """The produced code raised an exception that is not a builtin one, or
    its child broke the protocol."""


class _Child:
    """One disposable interpreter holding one produced module or pickle."""

    def __init__(self):
        import subprocess, sys, time
        env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "MPLBACKEND": "Agg",
               "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
        self.p = subprocess.Popen([sys.executable, "-I", "-B", "-c", _CHILD_SRC], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, close_fds=True,
                                  env=env, start_new_session=True)
        self.deadline = time.monotonic() + _REMOTE_TIMEOUT
        self.buf = b""
        _CHILDREN.append(self)

    def request(self, **r):
        import select, time
        if self.p is None:
            raise RemoteError("the produced code's process has ended")
        try:
            self.p.stdin.write((json.dumps(r, allow_nan=False) + "\n").encode())
            self.p.stdin.flush()
        except (BrokenPipeError, OSError):
            self.close()
            raise RemoteError("the produced code's process has died")
        fd = self.p.stdout.fileno()
        while b"\n" not in self.buf:
            left = self.deadline - time.monotonic()
            if left <= 0:
                self.close()
                raise TimeoutError("the produced code took more than %gs" % _REMOTE_TIMEOUT)
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                self.close()
                raise RemoteError("the produced code's process has died")
            self.buf += chunk
            if len(self.buf) > _REMOTE_MAX:
                self.close()
                raise RemoteError("the produced code answered more than %d bytes" % _REMOTE_MAX)
        line, _, self.buf = self.buf.partition(b"\n")
        try:
            a = json.loads(line.decode("utf-8"))
        except ValueError:
            self.close()
            raise RemoteError("the produced code's process broke the protocol")
        return self._value(a)

    def _value(self, a):
        if not isinstance(a, dict):
            raise RemoteError("the produced code's process broke the protocol")
        t = a.get("t")
        if t == "v":
            return _checked_plain(a.get("v"))
        if t == "h" and type(a.get("h")) is int:
            return RemoteObject(self, a["h"], str(a.get("type", "object"))[:60])
        if t == "e":
            name, msg = str(a.get("exc", "")), str(a.get("msg", ""))[:300]
            import builtins
            cls = getattr(builtins, name, None)
            if isinstance(cls, type) and issubclass(cls, Exception):
                raise cls(msg)
            raise RemoteError("%s: %s" % (name, msg))
        raise RemoteError("the produced code's process broke the protocol")

    def close(self):
        p, self.p = self.p, None
        if p is None:
            return
        import signal
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            pass
        try:
            p.kill()
        except OSError:
            pass
        p.wait()
        for f in (p.stdin, p.stdout):
            try:
                f.close()
            except OSError:
                pass


_CHILDREN = []


def close_children():
    """Kills every child load_module and load_pickle started."""
    while _CHILDREN:
        _CHILDREN.pop().close()


def _checked_plain(v, depth=0):
    """v when it holds only plain JSON values (what json.loads makes)."""
    t = type(v)
    if t in (type(None), bool, int, float, str):
        return v
    if depth < 10 and t is list:
        return [_checked_plain(x, depth + 1) for x in v]
    if depth < 10 and t is dict:
        return {str(k): _checked_plain(x, depth + 1) for k, x in v.items()}
    raise RemoteError("the produced code answered a %s" % t.__name__)


def _to_wire(x, child, depth=0):
    """A value of the checks as JSON for the child."""
    if depth > 10:
        raise TypeError("argument nested too deep")
    if isinstance(x, RemoteObject):
        if x._child is not child:
            raise TypeError("an object of another produced file")
        return {"__h__": x._h}
    if x is None or type(x) in (bool, int, float, str):
        return x
    if isinstance(x, list):
        return [_to_wire(v, child, depth + 1) for v in x]
    if isinstance(x, tuple):
        return {"__tuple__": [_to_wire(v, child, depth + 1) for v in x]}
    if isinstance(x, dict):
        return {"__dict__": [[_to_wire(k, child, depth + 1), _to_wire(v, child, depth + 1)] for k, v in x.items()]}
    mod = type(x).__module__ or ""
    if mod.startswith("pandas") and type(x).__name__ == "DataFrame":
        return {"__df__": x.to_json(orient="split")}
    if hasattr(x, "tolist") and (mod.startswith("numpy") or mod.startswith("pandas")):
        return _to_wire(x.tolist(), child, depth + 1)
    for t in (bool, int, float, str):
        if isinstance(x, t):
            return t(x)
    raise TypeError("cannot pass a %s to produced code" % type(x).__name__)


class RemoteObject:
    """A value that lives in a produced file's child process."""

    __slots__ = ("_child", "_h", "_type")

    def __init__(self, child, h, typ):
        object.__setattr__(self, "_child", child)
        object.__setattr__(self, "_h", h)
        object.__setattr__(self, "_type", typ)

    def _special(self, name, *args):
        c = self._child
        return c.request(op="special", h=self._h, name=name, args=[_to_wire(a, c) for a in args])

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return self._child.request(op="getattr", h=self._h, name=name)

    def __setattr__(self, name, value):
        self._special("__setattr__", name, value)

    def __call__(self, *args, **kwargs):
        c = self._child
        return c.request(op="call", h=self._h, args=[_to_wire(a, c) for a in args],
                         kwargs={"__dict__": [[k, _to_wire(v, c)] for k, v in kwargs.items()]})

    def __repr__(self):
        return "<produced %s>" % self._type

    def __str__(self):
        return self._child.request(op="str", h=self._h)

    def __eq__(self, other):
        return self is other

    def __ne__(self, other):
        return self is not other

    __hash__ = object.__hash__

    def __bool__(self):
        v = self._special("__bool__")
        if type(v) is not bool:
            raise TypeError("__bool__ returned a non-bool")
        return v

    def __len__(self):
        v = self._special("__len__")
        if type(v) is not int or v < 0:
            raise TypeError("__len__ returned %r" % (v,))
        return v

    def __iter__(self):
        v = self._child.request(op="list", h=self._h)
        if not isinstance(v, list):
            raise TypeError("a produced %s cannot be iterated here" % self._type)
        return iter(v)

    def __getitem__(self, k):
        return self._special("__getitem__", k)

    def __contains__(self, k):
        return bool(self._special("__contains__", k) is True)


def _binop(name):
    def op(self, other):
        return self._special(name, other)
    op.__name__ = name
    return op


for _n in ("add", "sub", "mul", "matmul", "truediv", "floordiv", "mod", "pow"):
    setattr(RemoteObject, "__%s__" % _n, _binop("__%s__" % _n))
    setattr(RemoteObject, "__r%s__" % _n, _binop("__r%s__" % _n))
for _n in ("lt", "le", "gt", "ge"):
    setattr(RemoteObject, "__%s__" % _n, _binop("__%s__" % _n))


def load_module(path, name="solution"):
    """A produced Python file, imported in a disposable child process: a
    RemoteObject whose functions and classes are called over a pipe and
    return plain values or further RemoteObjects."""
    c = _Child()
    return c.request(op="load_module", path=os.path.abspath(path))


def load_pickle(path):
    """A produced pickle, loaded in a disposable child process (see
    load_module)."""
    c = _Child()
    return c.request(op="load_pickle", path=os.path.abspath(path))


def remote_callable(obj, name):
    """Whether a produced object has a callable attribute name."""
    if isinstance(obj, RemoteObject):
        return obj._child.request(op="callable", h=obj._h, name=name) is True
    return callable(getattr(obj, name, None))


def remote_type(obj):
    return obj._type if isinstance(obj, RemoteObject) else type(obj).__name__


class _SafePickle:
    """What `import pickle` gives a python check: loading runs in a child."""

    class UnpicklingError(Exception):
        pass

    @staticmethod
    def load(f, **kw):
        name = getattr(f, "name", None)
        if not isinstance(name, str):
            raise TypeError("checks unpickle files by path: use load_pickle(path)")
        return load_pickle(name)

    @staticmethod
    def loads(data, **kw):
        raise TypeError("checks unpickle files by path: use load_pickle(path)")


_UNSAFE_IMPORTS = {"importlib", "runpy", "ctypes", "marshal", "imp", "zipimport", "code", "codeop"}
_PICKLERS = {"pickle", "_pickle", "joblib", "dill", "cloudpickle"}


def _check_import(name, globals=None, locals=None, fromlist=(), level=0):
    """__import__ for python checks: pickle loads in a child; modules that
    import or run files are refused (use load_module)."""
    import builtins
    top = name.split(".")[0]
    if level == 0 and top in _PICKLERS:
        return _SafePickle
    if level == 0 and top in _UNSAFE_IMPORTS:
        raise ImportError("checks may not import %s: use load_module(path) or load_pickle(path)" % name)
    return builtins.__import__(name, globals, locals, fromlist, level)


def _check_builtins():
    import builtins
    b = dict(vars(builtins))
    b["__import__"] = _check_import
    return b


# ---------- the verifier's own process ----------

_PRELOAD = ("wave", "zipfile", "pickle", "html.parser", "importlib.util", "subprocess", "select", "signal",
            "struct", "io", "csv", "traceback", "tempfile", "encodings.utf_8", "encodings.utf_16",
            "encodings.latin_1", "encodings.cp1252", "encodings.ascii", "numpy", "pandas", "PIL.Image",
            "PIL.ImageOps")

# Modules only files of these extensions need: imported when a case has one.
_PRELOAD_BY_EXT = {
    ".xlsx": ("openpyxl", "pandas.io.excel._openpyxl"), ".xls": ("openpyxl", "pandas.io.excel._openpyxl"),
    ".pdf": ("pypdf",), ".parquet": ("pyarrow", "pyarrow.parquet", "pandas.io.parquet"),
    ".mp3": ("pydub",), ".flac": ("pydub",), ".ogg": ("pydub",), ".m4a": ("pydub",),
}


def _import_modules(exts):
    """Imports the common modules a check may need and those of files with
    the extensions in exts (all of them for exts None), skipping any that
    are missing, and loads PIL's common format plugins."""
    import importlib
    import sys
    mods = list(_PRELOAD)
    for e, more in _PRELOAD_BY_EXT.items():
        if exts is None or e in exts:
            mods += more
    for m in mods:
        if m in sys.modules:
            continue
        try:
            importlib.import_module(m)
        except Exception:
            pass
    try:
        from PIL import Image
        Image.preinit()  # the common formats' plugins; the rest load from PIL's own folder
    except Exception:
        pass


def zygote_init():
    """Run once by the sandbox's zygote, which holds this library resident
    (sandbox.Resident): every module any check may need is imported there,
    so a verification sandbox forked from it imports nothing."""
    _import_modules(None)


def isolate(root, exts=()):
    """Makes this interpreter safe to read a rollout's files from: neither
    root (the workspace) nor the working directory on sys.path, no PYTHON*
    variables, and every module a check may need imported now, before any
    rollout content is read: the common ones always, openpyxl, pypdf,
    pyarrow and pydub when a file of the extensions in exts needs them.
    Optional modules that are not installed are skipped; with the workspace
    off sys.path they cannot be imported from it either."""
    import sys
    root = os.path.realpath(root)

    def unsafe(p):
        if p in ("", "."):
            return True
        r = os.path.realpath(p)
        return r == root or r.startswith(root + os.sep) or r == os.path.realpath(os.getcwd())

    sys.path[:] = [p for p in sys.path if not unsafe(p)]
    sys.path_importer_cache.clear()
    for k in [k for k in os.environ if k.startswith("PYTHON")]:
        del os.environ[k]
    _import_modules(exts)
    try:
        import ctypes
        ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0: children cannot read our memory
    except Exception:
        pass


_CHECKS = {
    "answer": check_answer, "file": check_file, "table": check_table, "image": check_image,
    "audio": check_audio, "pickle": check_pickle, "text": check_text, "python": check_python,
}

_HELPERS = {
    "os": os, "re": re, "json": json, "math": math,
    "read_table": read_table, "find_column": find_column, "iqr_bounds": iqr_bounds, "same_table": same_table,
    "numbers_in": numbers_in, "number_close": number_close, "close_as_written": close_as_written,
    "written_cell": written_cell, "pandas_names": pandas_names, "candidates": candidates, "in_order": in_order, "read_text": read_text,
    "answer_states": answer_states,
    "brightness": brightness, "contrast": contrast, "sharpness": sharpness, "similarity": similarity,
    "open_image": _open_image, "apply_transform": apply_transform, "is_gray": is_gray,
    "flatten": flatten, "has_alpha": has_alpha,
    "html_elements": html_elements, "load_module": load_module, "load_pickle": load_pickle,
    "read_audio": read_audio, "duration": duration, "loudness_db": loudness_db, "same_sound": same_sound,
    "audio_match": audio_match, "level_db": level_db, "sniff_type": sniff_type,
}
# The helpers of stated answers and extracted text (docs/CHECKS.md).
_HELPERS.update(stated_to_its_digits=stated_to_its_digits, enhanced_as_asked=enhanced_as_asked,
                pdf_texts=pdf_texts, covers_text=covers_text)


def run_check(c, answer, messages):
    fn = _CHECKS.get(c.get("kind"))
    if fn is None:
        return False, "unknown check kind %r" % c.get("kind")
    try:
        ok, msg = fn(c, answer, messages)
    except Exception as e:
        ok, msg = False, "%s check raised %s: %s" % (c.get("kind"), type(e).__name__, _short(e, 200))
    finally:
        close_children()
    msg = str(msg)
    if len(msg) > _MSG_MAX:
        msg = msg[: _MSG_MAX - 1] + "…"
    return bool(ok), msg


def run_checks(checks, answer, messages, transcript=False, observations=None):
    """One {kind, ok, message} per check, in order. With transcript, answer
    is everything a solution printed rather than its final answer, and may
    state any number of numbers. observations, when not None, is what the
    rollout's code printed, cell by cell: a number the answer states must
    be among them (_unsupported)."""
    out = []
    _asked[0], _transcript[0] = numbers_asked(checks), bool(transcript)
    _printed[0] = None if observations is None else printed_numbers(observations)
    for c in checks:
        ok, msg = run_check(c, answer, messages)
        out.append({"kind": c.get("kind", ""), "ok": ok, "message": msg})
    return out


def trajectory_answer(trajectory):
    """A PyBench trajectory's final answer: the last message's content."""
    if not trajectory:
        return ""
    last = trajectory[-1]
    content = last.get("content", "") if isinstance(last, dict) else str(last)
    return final_answer_of(content or "")


def verify_cases(base, cases):
    """run_checks for each case, in the directory base/<case root>, which
    holds that rollout's data/ and output/. One list of results per case."""
    import tempfile
    out = []
    here = os.getcwd()
    empty = None
    try:
        for case in cases:
            d = os.path.join(base, case["root"])
            if not os.path.isdir(d):  # a case without files
                empty = empty or tempfile.mkdtemp(prefix="synth-empty-")
                d = empty
            os.chdir(d)
            obs = (case.get("observations") or []) if case.get("observed") else None
            out.append(run_checks(case["checks"], case["answer"], case["messages"], case.get("transcript", False), obs))
    finally:
        os.chdir(here)
    return out
