// synth view: a trajectory page. The page number is the address's hash
// (trajectory.html#12); its data is data/t/<n/1000>/<n>.js.
"use strict";
(function () {
  var OBS = "[INFO]This is a Code Interpreter Message:";

  function current() {
    var n = parseInt(location.hash.replace(/^#/, ""), 10);
    return isNaN(n) || n < 0 ? 0 : n;
  }

  function load() {
    var n = current();
    var main = document.getElementById("main");
    main.textContent = "";
    main.appendChild(el("p", null, "Loading trajectory " + (n + 1) + "…"));
    nav(n);
    if (SV.meta && n >= SV.meta.pages) { status("There is no trajectory " + (n + 1) + ": the run has " + SV.meta.pages + "."); return; }
    loadScript("data/t/" + pad(Math.floor(n / 1000), 3) + "/" + n + ".js", function () {
      status("Could not load the data of trajectory " + (n + 1) + ": is the site complete?");
    });
  }

  function status(s) {
    var main = document.getElementById("main");
    main.textContent = "";
    main.appendChild(el("p", "error", s));
  }

  function nav(n) {
    var box = document.getElementById("nav");
    box.textContent = "";
    var total = SV.meta ? SV.meta.pages : 0;
    add(box, [link("index.html", "index"), " · ",
      n > 0 ? link("trajectory.html#" + (n - 1), "‹ previous") : el("span", "dim", "‹ previous"), " · ",
      el("span", null, (n + 1) + " of " + total), " · ",
      n + 1 < total ? link("trajectory.html#" + (n + 1), "next ›") : el("span", "dim", "next ›")]);
  }

  SV.onPage = function (p) {
    if (p.n !== current()) return;
    var main = document.getElementById("main");
    main.textContent = "";
    var t = p.task;
    document.title = "synth view: " + (t.index ? "task " + t.index : "trajectory " + (p.n + 1));
    main.appendChild(el("h1", null, [t.index ? "Task " + t.index : "Trajectory " + (p.n + 1), " ",
      t.category ? el("span", "badge", t.category) : null, " ", t.subcategory ? el("span", "badge light", t.subcategory) : null]));
    var facts = el("dl", "facts");
    fact(facts, "task", t.id);
    fact(facts, "generator", t.generator);
    fact(facts, "language", t.lang);
    fact(facts, "checks", (t.checks || []).join(", "));
    fact(facts, "file types", (t.file_types || []).join(", "));
    main.appendChild(facts);
    main.appendChild(el("h2", null, "Query"));
    main.appendChild(el("pre", "query", t.query || "(none)"));
    if (t.files && t.files.length) {
      main.appendChild(el("h2", null, "Input files"));
      var files = el("div", "media-list");
      t.files.forEach(function (m) { files.appendChild(media(m)); });
      main.appendChild(files);
    }
    var sides = el("div", p.sides.length > 1 ? "sides two" : "sides");
    p.sides.forEach(function (s) { sides.appendChild(side(s, p.sides.length > 1)); });
    main.appendChild(sides);
  };

  function fact(dl, k, v) {
    if (v === undefined || v === null || v === "") return;
    add(dl, el("div", null, [el("dt", null, k), el("dd", null, String(v))]));
  }

  function verdictWord(s) {
    if (s.missing) return "missing";
    if (s.infra) return "infra";
    if (s.verdict) return s.verdict.passed ? "passed" : "failed";
    if (s.passed !== undefined && s.passed !== null) return s.passed ? "passed" : "failed";
    return "unverified";
  }

  function side(s, titled) {
    var box = el("section", "side");
    box.appendChild(el("h2", null, [titled ? s.label + ": " : "Trajectory ", badge(verdictWord(s)),
      s.verdict && s.verdict.failure ? el("span", "dim", " " + s.verdict.failure) : null]));
    if (s.missing) { box.appendChild(el("p", "dim", s.missing)); return box; }
    var facts = el("dl", "facts");
    fact(facts, "trajectory", s.id);
    fact(facts, "teacher", s.teacher);
    fact(facts, "format", s.format);
    fact(facts, "sample", s.sample);
    fact(facts, "turns", s.turns);
    fact(facts, "stop reason", s.stop_reason);
    if (s.attempts > 1) fact(facts, "attempts", s.attempts);
    if (s.usage) {
      fact(facts, "tokens", s.usage.prompt_tokens + " prompt, " + s.usage.completion_tokens + " completion");
      if (s.usage.cost_usd) fact(facts, "cost", "$" + s.usage.cost_usd.toFixed(4));
      if (s.usage.sandbox_cpu_ms) fact(facts, "sandbox CPU", s.usage.sandbox_cpu_ms + " ms");
    }
    box.appendChild(facts);
    if (s.dropped) box.appendChild(el("p", "note", "Left out of the dataset by the filter " + s.dropped));
    if (s.error) box.appendChild(el("pre", "error", s.error));
    if (s.verdict) box.appendChild(verdict(s.verdict));
    if (s.judge) box.appendChild(el("p", "note", "Judge " + (s.judge.model || "") + ": " + JSON.stringify(s.judge)));
    box.appendChild(el("h3", null, "Messages"));
    box.appendChild(messages(s));
    if (s.final_answer) {
      box.appendChild(el("h3", null, "Final answer"));
      box.appendChild(el("pre", "answer", s.final_answer));
    }
    if (s.artifacts && s.artifacts.length) {
      box.appendChild(el("h3", null, "Artifacts (" + s.artifacts.length + ")"));
      var list = el("div", "media-list");
      s.artifacts.forEach(function (m) { list.appendChild(media(m)); });
      box.appendChild(list);
    }
    return box;
  }

  function verdict(v) {
    var t = el("table", "checks", el("thead", null, el("tr", null, [el("th", null, "check"), el("th", null, ""), el("th", null, "message")])));
    var tb = el("tbody");
    (v.checks || []).forEach(function (c) {
      tb.appendChild(el("tr", null, [el("td", null, c.kind), el("td", null, badge(c.ok ? "passed" : "failed")), el("td", "msg", c.message || "")]));
    });
    t.appendChild(tb);
    return el("div", "verdict", [el("h3", null, "Verdict"), t]);
  }

  function messages(s) {
    var list = el("div", "messages");
    var step = 0;
    (s.messages || []).forEach(function (m, i) {
      var role = m.role || "?";
      var box = el("div", "msg " + role.replace(/[^a-z]/g, ""));
      var head = el("div", "role", role);
      var content = m.content || "";
      var isObs = role === "tool" || (role === "user" && content.indexOf(OBS) === 0);
      if (isObs) {
        var st = s.steps && s.steps[step];
        step++;
        head.textContent = "observation";
        if (st) add(head, [" ", el("span", st.status === "ok" ? "badge ok" : "badge bad", st.status), el("span", "dim", " " + st.elapsed_ms + " ms")]);
        box.className += " obs";
        add(box, [head, el("pre", "observation", content)]);
      } else if (role === "system") {
        add(box, [el("details", null, [el("summary", "role", "system prompt"), el("pre", "text", content)])]);
      } else {
        add(box, [head, rich(content)]);
      }
      (m.tool_calls || []).forEach(function (c) { box.appendChild(toolCall(c)); });
      list.appendChild(box);
    });
    return list;
  }

  // rich shows a message's text with its ``` fenced code highlighted.
  function rich(text) {
    var out = el("div", "rich");
    var re = /```([\w+-]*)[^\n]*\n([\s\S]*?)(?:```|$)/g, last = 0, m;
    while ((m = re.exec(text)) !== null) {
      if (m.index > last) out.appendChild(el("div", "text", text.slice(last, m.index)));
      out.appendChild(code(m[2], m[1]));
      last = re.lastIndex;
      if (m[0] === "") re.lastIndex++;
    }
    if (last < text.length) out.appendChild(el("div", "text", text.slice(last)));
    return out;
  }

  function code(src, lang) {
    var pre = el("pre", "code"), c = el("code");
    if (!lang || /^(python|py|python3)$/i.test(lang)) c.appendChild(highlight(src));
    else c.textContent = src;
    pre.appendChild(c);
    return pre;
  }

  function toolCall(c) {
    var box = el("div", "toolcall", el("div", "role", "tool call: " + (c.name || "")));
    var args = c.arguments || "";
    try {
      var parsed = JSON.parse(args);
      if (parsed && typeof parsed.code === "string") { box.appendChild(code(parsed.code, "python")); return box; }
    } catch (e) { /* not JSON: shown as it is */ }
    box.appendChild(el("pre", "text", args));
    return box;
  }

  // media shows a file: inline as an image, a player, a table, a sandboxed
  // frame or text, as its kind allows.
  function media(m) {
    var fig = el("figure", "media");
    var url = mediaURL(m.src);
    var cap = el("figcaption", null, [el("span", "name", m.name), " ",
      el("span", "dim", [m.kind || "", m.size ? " · " + sizeText(m.size) : ""].join(""))]);
    var linkable = url && m.show !== "html" && m.kind !== "svg" && m.kind !== "html" && m.kind !== "binary";
    if (linkable) add(cap, [" ", link(url, "open")]);
    fig.appendChild(cap);
    switch (m.show) {
      case "image":
        var src = m.data || url;
        if (src) {
          var img = el("img");
          img.alt = m.name;
          img.loading = "lazy";
          img.src = src;
          fig.appendChild(img);
        }
        break;
      case "audio":
      case "video":
        if (url) {
          var player = el(m.show);
          player.controls = true;
          player.preload = "metadata";
          player.src = url;
          fig.appendChild(player);
        }
        break;
      case "table":
        if (m.table) m.table.sheets.forEach(function (sh) { fig.appendChild(sheet(sh, m.table.sheets.length > 1)); });
        break;
      case "html":
        var frame = document.createElement("iframe");
        // sandbox first, with nothing allowed: no scripts, no same origin.
        frame.setAttribute("sandbox", "");
        frame.setAttribute("referrerpolicy", "no-referrer");
        frame.className = "html";
        frame.srcdoc = m.html || "";
        fig.appendChild(frame);
        break;
      case "text":
        fig.appendChild(el("pre", "text", m.text || ""));
        break;
    }
    if (m.preview) fig.appendChild(preview(m.preview));
    if (m.note) fig.appendChild(el("p", "dim", m.note));
    return fig;
  }

  function sheet(sh, named) {
    var box = el("div", "sheet");
    if (named) box.appendChild(el("div", "dim", "sheet " + sh.name));
    var t = el("table", "data");
    (sh.rows || []).forEach(function (r, i) {
      var tr = el("tr");
      r.forEach(function (c) { tr.appendChild(el(i === 0 ? "th" : "td", null, c)); });
      t.appendChild(tr);
    });
    box.appendChild(el("div", "scroll", t));
    if (sh.more) box.appendChild(el("p", "dim", "the first rows and columns"));
    return box;
  }

  function preview(p) {
    var bits = [];
    if (p.rows) bits.push(p.rows + " rows");
    if (p.columns) bits.push(p.columns.length + " columns: " + p.columns.map(function (c) { return c.name + " (" + c.dtype + ")"; }).join(", "));
    if (p.sheets) bits.push("sheets: " + p.sheets.join(", "));
    if (p.width) bits.push(p.width + "×" + p.height + (p.mode ? " " + p.mode : ""));
    if (p.duration_s) bits.push(p.duration_s.toFixed(2) + " s" + (p.sample_rate ? ", " + p.sample_rate + " Hz" : ""));
    if (p.pages) bits.push(p.pages + " pages");
    var box = el("div", "preview", el("div", "dim", bits.join(" · ")));
    if (p.text && !p.columns) box.appendChild(el("pre", "text", p.text));
    return box;
  }

  window.addEventListener("hashchange", load);
  document.addEventListener("DOMContentLoaded", load);
})();
