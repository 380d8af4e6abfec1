// Draw the math the generator marked (<span class="arithmatex">\(...\)</span>, or \[...\]
// for display math) with KaTeX. The generator already refused formulas that are too
// long, too deeply nested or that move things far (they are shown as TeX source);
// these options are the second line: trust is off, so \href, \url, \includegraphics
// and \html* are refused, macro expansion and user sizes are capped, and an error
// leaves the TeX visible as text.
(function () {
  "use strict";
  var MAX_CHARS = 600;
  var options = { throwOnError: false, trust: false, strict: "ignore", maxExpand: 200, maxSize: 10, output: "htmlAndMathml" };

  function render(root) {
    if (typeof katex === "undefined") return;
    var nodes = root.querySelectorAll(".arithmatex:not([data-rendered])");
    for (var i = 0; i < nodes.length; i++) {
      var el = nodes[i];
      var tex = el.textContent.trim();
      el.setAttribute("data-rendered", "");
      var display = tex.startsWith("\\[") && tex.endsWith("\\]");
      if (!display && !(tex.startsWith("\\(") && tex.endsWith("\\)"))) continue;
      tex = tex.slice(2, -2);
      if (tex.length > MAX_CHARS) continue;
      try {
        katex.render(tex, el, Object.assign({ displayMode: display }, options));
      } catch (e) {
        // Leave the TeX source visible as text.
      }
    }
  }

  if (typeof document$ !== "undefined" && document$.subscribe) {
    document$.subscribe(function () { render(document); });
  } else {
    document.addEventListener("DOMContentLoaded", function () { render(document); });
  }
})();
