// synth view: a small Python highlighter. It splits code into tokens and
// returns them as spans of text: the code is never parsed as markup.
"use strict";
var highlight = (function () {
  var KEYWORDS = ("False None True and as assert async await break class continue def del elif else except " +
    "finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case").split(" ");
  var BUILTINS = ("print len range open int float str list dict set tuple sum min max abs round sorted enumerate zip " +
    "map filter isinstance type any all super object Exception ValueError KeyError TypeError self").split(" ");
  var kw = {}, bi = {};
  KEYWORDS.forEach(function (k) { kw[k] = true; });
  BUILTINS.forEach(function (k) { bi[k] = true; });
  // One alternative per token kind, in order: comment, string (triple
  // quoted, then single line, with prefixes), number, decorator, name.
  var TOKEN = /(#[^\n]*)|((?:[rRbBuUfF]{1,2})?(?:"""[\s\S]*?(?:"""|$)|'''[\s\S]*?(?:'''|$)|"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?))|(\b(?:0[xXoObB][\da-fA-F_]+|\d[\d_]*\.?[\d_]*(?:[eE][+-]?\d+)?j?)\b)|(@[A-Za-z_][\w.]*)|([A-Za-z_]\w*)/g;

  return function (code) {
    var frag = document.createDocumentFragment();
    var last = 0, m, prevDef = false;
    TOKEN.lastIndex = 0;
    while ((m = TOKEN.exec(code)) !== null) {
      if (m[0] === "") { TOKEN.lastIndex++; continue; }
      if (m.index > last) frag.appendChild(document.createTextNode(code.slice(last, m.index)));
      var cls = null;
      if (m[1]) cls = "c";
      else if (m[2]) cls = "s";
      else if (m[3]) cls = "n";
      else if (m[4]) cls = "d";
      else if (m[5]) {
        if (prevDef) cls = "f";
        else if (kw[m[5]]) cls = "k";
        else if (bi[m[5]]) cls = "b";
      }
      prevDef = !!m[5] && (m[5] === "def" || m[5] === "class");
      if (cls) {
        var span = document.createElement("span");
        span.className = "hl-" + cls;
        span.textContent = m[0];
        frag.appendChild(span);
      } else {
        frag.appendChild(document.createTextNode(m[0]));
      }
      last = TOKEN.lastIndex;
    }
    if (last < code.length) frag.appendChild(document.createTextNode(code.slice(last)));
    return frag;
  };
})();
