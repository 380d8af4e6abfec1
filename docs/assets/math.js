// Render the math that pymdownx.arithmatex marked (<span class="arithmatex">\(...\)</span>).
// KaTeX builds the DOM itself from the TeX source; trust is off, so \href, \url,
// \includegraphics and \html* commands are refused, and errors show as text.
(function () {
  "use strict";
  var options = { throwOnError: false, trust: false, strict: "ignore", maxExpand: 200, maxSize: 20 };

  function strip(tex) {
    tex = tex.trim();
    if ((tex.startsWith("\\(") && tex.endsWith("\\)")) || (tex.startsWith("\\[") && tex.endsWith("\\]"))) {
      return tex.slice(2, -2);
    }
    return tex;
  }

  function render(root) {
    if (typeof katex === "undefined") return;
    var nodes = root.querySelectorAll(".arithmatex:not([data-rendered])");
    for (var i = 0; i < nodes.length; i++) {
      var el = nodes[i];
      var display = el.tagName === "DIV";
      try {
        katex.render(strip(el.textContent), el, Object.assign({ displayMode: display }, options));
      } catch (e) {
        // Leave the TeX source visible as text.
      }
      el.setAttribute("data-rendered", "");
    }
  }

  if (typeof document$ !== "undefined" && document$.subscribe) {
    document$.subscribe(function () { render(document); });
  } else {
    document.addEventListener("DOMContentLoaded", function () { render(document); });
  }
})();
