// synth view: the index. It loads the index chunks one after another,
// draws the first page as soon as the first chunk is in, and filters and
// searches over what has loaded.
"use strict";
(function () {
  var PAGE = 100;
  // Row columns, as view.site.addRow writes them.
  var N = 0, ID = 1, CAT = 2, SUB = 3, GEN = 4, TEACHER = 5, VERDICT = 6, FAIL = 7, TURNS = 8, FT = 9, QUERY = 10, STOP = 11, FILTERED = 12;
  var FILTERS = [
    ["category", CAT], ["generator", GEN], ["teacher", TEACHER], ["verdict", VERDICT],
    ["failure", FAIL], ["turns", TURNS], ["file_type", FT], ["stop_reason", STOP], ["filtered", FILTERED]
  ];
  var BUCKETS = ["<=3", "4-6", "7-9", ">=10"];
  var rows = [], chunks = [], loaded = 0, lower = null;
  var state = {q: "", page: 0};
  var drawPending = false;

  function bucket(t) { return t < 0 ? "" : t <= 3 ? "<=3" : t <= 6 ? "4-6" : t <= 9 ? "7-9" : ">=10"; }
  function facet(name) { return (SV.meta.facets[name] || []); }
  function word(name, i) { var f = facet(name)[i]; return f ? f.v : ""; }

  SV.onIndex = function (i, chunk) {
    chunks[i] = chunk;
    // Rows stay in page order: append the chunks that are complete in turn.
    while (chunks[loaded]) {
      Array.prototype.push.apply(rows, chunks[loaded]);
      chunks[loaded] = true;
      loaded++;
      lower = null;
    }
    if (i === 0) {
      // The first rows are drawn at once (scripts/bench-view.sh reads
      // when); the other chunks are asked for together and come in any order.
      for (var c = 1; c < SV.meta.chunks; c++) loadScript("data/i/" + pad(c, 5) + ".js", chunkFailed);
      draw();
      document.documentElement.setAttribute("data-first-rows-ms", String(Math.round(performance.now())));
    } else {
      schedule();
    }
    if (loaded === SV.meta.chunks) document.documentElement.setAttribute("data-all-rows-ms", String(Math.round(performance.now())));
  };

  function chunkFailed(ev) {
    text("status", "Could not load " + (ev && ev.target ? ev.target.getAttribute("src") : "the index") + ": is the site complete?");
  }

  function schedule() {
    if (drawPending) return;
    drawPending = true;
    setTimeout(function () { drawPending = false; draw(); }, 0);
  }

  function text(id, s) { document.getElementById(id).textContent = s; }

  function matches() {
    var terms = state.q.toLowerCase().split(/\s+/).filter(Boolean);
    if (terms.length && !lower) lower = rows.map(function (r) { return (r[QUERY] + " " + r[ID]).toLowerCase(); });
    var out = [];
    for (var i = 0; i < rows.length; i++) {
      var r = rows[i], ok = true;
      for (var f = 0; f < FILTERS.length && ok; f++) {
        var want = state[FILTERS[f][0]];
        if (want === undefined || want === "") continue;
        var col = FILTERS[f][1];
        if (col === TURNS) ok = bucket(r[TURNS]) === want;
        else if (col === FT) ok = r[FT].indexOf(+want) >= 0;
        else ok = r[col] === +want;
      }
      for (var t = 0; t < terms.length && ok; t++) ok = lower[i].indexOf(terms[t]) >= 0;
      if (ok) out.push(r);
    }
    return out;
  }

  function draw() {
    var m = matches();
    var pages = Math.max(1, Math.ceil(m.length / PAGE));
    // The page asked for may not have loaded yet: show the last one there
    // is, and keep what was asked for.
    var shown = Math.min(state.page, pages - 1);
    var tbody = document.getElementById("rows");
    tbody.textContent = "";
    m.slice(shown * PAGE, shown * PAGE + PAGE).forEach(function (r) {
      var href = "trajectory.html#" + r[N];
      var q = r[QUERY].length > 220 ? r[QUERY].slice(0, 220) + "…" : r[QUERY];
      var fts = r[FT].map(function (i) { return word("file_type", i); }).filter(Boolean).join(", ");
      var verdict = el("td", null, badge(word("verdict", r[VERDICT])));
      var fail = word("failure", r[FAIL]);
      if (fail) add(verdict, [" ", el("span", "dim", fail)]);
      var drop = word("filtered", r[FILTERED]);
      if (drop) add(verdict, [" ", el("span", "badge warn", "dropped")]);
      var cat = word("category", r[CAT]), sub = word("subcategory", r[SUB]);
      tbody.appendChild(el("tr", null, [
        el("td", "num", link(href, String(r[N] + 1))),
        el("td", "query", link(href, q || "(no query)")),
        el("td", null, [cat, sub ? el("div", "dim", sub) : null]),
        el("td", "dim", word("generator", r[GEN])),
        el("td", null, word("teacher", r[TEACHER])),
        verdict,
        el("td", "num", r[TURNS] < 0 ? "–" : String(r[TURNS])),
        el("td", null, fts)
      ]));
    });
    var total = SV.meta.pages;
    var status = m.length + " of " + rows.length + " trajectories";
    if (rows.length < total) status += " (loading the index: " + rows.length + " of " + total + ")";
    text("status", status);
    pager(pages, shown);
  }

  function pager(pages, shown) {
    var nav = document.getElementById("pager");
    nav.textContent = "";
    if (pages <= 1) return;
    function go(p, label) {
      var b = el("button", p === shown ? "current" : null, label);
      b.type = "button";
      b.disabled = p < 0 || p >= pages || p === shown;
      b.addEventListener("click", function () { state.page = p; save(); draw(); window.scrollTo(0, 0); });
      nav.appendChild(b);
    }
    go(shown - 1, "‹ previous");
    var from = Math.max(0, shown - 4), to = Math.min(pages, from + 9);
    if (from > 0) go(0, "1");
    for (var p = from; p < to; p++) go(p, String(p + 1));
    if (to < pages) go(pages - 1, String(pages));
    go(shown + 1, "next ›");
  }

  // save keeps the filters in the address, so back from a page returns to them.
  function save() {
    var parts = [];
    Object.keys(state).forEach(function (k) {
      if (state[k] !== "" && state[k] !== undefined && !(k === "page" && state[k] === 0)) {
        parts.push(encodeURIComponent(k) + "=" + encodeURIComponent(k === "page" ? state[k] + 1 : state[k]));
      }
    });
    history.replaceState(null, "", parts.length ? "#" + parts.join("&") : location.pathname);
  }

  function restore() {
    var h = hashParams();
    state.q = h.q || "";
    state.page = Math.max(0, (parseInt(h.page, 10) || 1) - 1);
    FILTERS.forEach(function (f) { state[f[0]] = h[f[0]] || ""; });
  }

  function controls() {
    var box = document.getElementById("filters");
    FILTERS.forEach(function (f) {
      var name = f[0], sel = el("select");
      sel.setAttribute("aria-label", name);
      sel.appendChild(option("", name.replace("_", " ") + ": any"));
      if (name === "turns") {
        BUCKETS.forEach(function (b) { sel.appendChild(option(b, "turns " + b)); });
      } else {
        var vals = facet(name).map(function (v, i) { return [v, i]; });
        if (vals.length <= 1 && !(vals.length === 1 && vals[0][0].v)) return;
        vals.sort(function (a, b) { return b[0].n - a[0].n; });
        vals.forEach(function (vi) {
          sel.appendChild(option(String(vi[1]), (vi[0].v || "(none)") + " (" + vi[0].n + ")"));
        });
      }
      sel.value = state[name];
      sel.addEventListener("change", function () { state[name] = sel.value; state.page = 0; save(); draw(); });
      box.appendChild(sel);
    });
    var q = document.getElementById("q");
    q.value = state.q;
    var timer = null;
    q.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () { state.q = q.value; state.page = 0; save(); draw(); }, 120);
    });
    document.getElementById("reset").addEventListener("click", function () {
      location.hash = ""; restore(); q.value = "";
      Array.prototype.forEach.call(box.querySelectorAll("select"), function (s) { s.value = ""; });
      save(); draw();
    });
  }

  function option(value, label) {
    var o = el("option", null, label);
    o.value = value;
    return o;
  }

  function overview() {
    var box = document.getElementById("overview");
    SV.meta.overviews.forEach(function (ov) {
      var sec = el("div", "ov", el("h2", null, ov.label + " (" + ov.kind + ")"));
      var figs = el("dl", "figures");
      ov.figures.forEach(function (f) { add(figs, [el("div", null, [el("dt", null, f.label), el("dd", null, f.value)])]); });
      sec.appendChild(figs);
      if (ov.stages && ov.stages.length) sec.appendChild(funnel(ov));
      box.appendChild(sec);
    });
  }

  // funnel draws each stage as a bar: what went in, what came out.
  function funnel(ov) {
    var eval_ = ov.kind === "eval";
    var max = 1;
    ov.stages.forEach(function (s) { max = Math.max(max, s.in); });
    var t = el("table", "funnel", el("thead", null, el("tr", null, [
      el("th", null, eval_ ? "category" : "stage"), el("th", "num", eval_ ? "rollouts" : "in"),
      el("th", "num", eval_ ? "passed" : "out"), el("th", null, ""), el("th", null, eval_ ? "" : "dropped, time")])));
    var tb = el("tbody");
    ov.stages.forEach(function (s) {
      var bar = el("div", "bar"), fill = el("div", "fill");
      bar.style.width = (100 * s.in / max) + "%";
      fill.style.width = s.in ? (100 * s.out / s.in) + "%" : "0";
      bar.appendChild(fill);
      var reasons = (s.reasons || []).map(function (r) { return r.reason + " " + r.count; });
      if (s.note) reasons.push(s.note);
      reasons = reasons.join(", ");
      tb.appendChild(el("tr", null, [el("td", null, s.name), el("td", "num", String(s.in)), el("td", "num", String(s.out)),
        el("td", "barcell", bar), el("td", "dim", reasons)]));
    });
    t.appendChild(tb);
    return t;
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (!SV.meta) { text("status", "data/meta.js is missing: run synth view again."); return; }
    document.title = "synth view: " + SV.meta.title;
    text("title", SV.meta.title);
    text("written", "written " + SV.meta.written);
    restore();
    overview();
    controls();
    if (SV.meta.chunks === 0) { draw(); return; }
    loadScript("data/i/00000.js", chunkFailed);
  });
})();
