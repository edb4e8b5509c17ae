// synth view: what every page shares. Data arrives as calls to synthMeta,
// synthIndex and synthPage from the site's data files; it is put into the
// page only as text (el(), textContent), never parsed as markup.
"use strict";
var SV = {meta: null, onIndex: null, onPage: null};

function synthMeta(m) { SV.meta = m; }
function synthIndex(i, rows) { if (SV.onIndex) SV.onIndex(i, rows); }
function synthPage(p) { if (SV.onPage) SV.onPage(p); }

// el makes an element with a class and children: strings become text nodes.
function el(tag, cls, children) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (children !== undefined) add(e, children);
  return e;
}

function add(e, children) {
  if (!Array.isArray(children)) children = [children];
  children.forEach(function (c) {
    if (c === null || c === undefined || c === false) return;
    e.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  });
  return e;
}

function link(href, text, cls) {
  var a = el("a", cls, text);
  a.setAttribute("href", href);
  return a;
}

// loadScript adds a script of the site (a data file) to the page.
function loadScript(src, onerror) {
  var s = document.createElement("script");
  s.src = src;
  s.onerror = onerror || null;
  document.head.appendChild(s);
}

function pad(n, width) {
  var s = String(n);
  while (s.length < width) s = "0" + s;
  return s;
}

// encodePath escapes each segment of a slash path for a URL.
function encodePath(p) {
  return p.split("/").map(encodeURIComponent).join("/");
}

// mediaURL is where a page finds a file: in the site (a copy), or in the
// input it came from: by relative path from disk, under _in/ from synth
// view --serve.
function mediaURL(src) {
  if (!src) return null;
  if (src.r < 0) return encodePath(src.p);
  var root = SV.meta && SV.meta.roots[src.r];
  if (!root) return null;
  if (location.protocol === "file:") return root.rel + "/" + encodePath(src.p);
  return "_in/" + src.r + "/" + encodePath(src.p);
}

function sizeText(n) {
  if (n >= 1048576) return (n / 1048576).toFixed(1) + " MiB";
  if (n >= 1024) return (n / 1024).toFixed(1) + " KiB";
  return n + " B";
}

function badge(word) {
  var cls = "badge";
  if (word === "passed") cls += " ok";
  else if (word === "failed" || word === "missing") cls += " bad";
  else if (word === "infra") cls += " warn";
  return el("span", cls, word || "–");
}

// hashParams reads "#a=1&b=2".
function hashParams() {
  var out = {};
  location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
    if (!kv) return;
    var i = kv.indexOf("=");
    var k = i < 0 ? kv : kv.slice(0, i), v = i < 0 ? "" : kv.slice(i + 1);
    try { out[decodeURIComponent(k)] = decodeURIComponent(v); } catch (e) { /* a bad escape: ignored */ }
  });
  return out;
}
