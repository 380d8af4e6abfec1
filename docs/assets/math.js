// Draw the math the generator marked (<span class="arithmatex">\(...\)</span>, or \[...\]
// for display math) with KaTeX, loaded from assets/katex/ when a page has any. The generator already refused formulas that are too
// long, too deeply nested or that move things far (they are shown as TeX source);
// these options are the second line: trust is off, so \href, \url, \includegraphics
// and \html* are refused, macro expansion and user sizes are capped, and a formula KaTeX
// cannot read is shown as its TeX source, as text. Not as KaTeX's error rendering: its
// title attribute quotes the formula, and a theme feature that shows titles as markup
// (Material's content.tooltips did, and it is off) would run a seed's "$x^{<img src=x onerror=...>$".
(function () {
  "use strict";
  var MAX_CHARS = 600;
  var options = { throwOnError: true, trust: false, strict: "ignore", maxExpand: 200, maxSize: 10, output: "htmlAndMathml" };

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
        // KaTeX emptied the element first: the source goes back, as the generator shows a
        // formula it does not draw
        var delim = display ? "$$" : "$";
        el.textContent = delim + tex + delim;
      }
    }
  }

  // KaTeX (270 KB) is fetched only by pages that hold math, once.
  var here = document.currentScript && document.currentScript.src;
  var loading = null;
  function load() {
    if (typeof katex !== "undefined") return Promise.resolve();
    if (!loading) {
      loading = new Promise(function (resolve, reject) {
        var css = document.createElement("link");
        css.rel = "stylesheet";
        css.href = new URL("katex/katex.min.css", here).href;
        document.head.appendChild(css);
        var js = document.createElement("script");
        js.src = new URL("katex/katex.min.js", here).href;
        js.onload = resolve;
        js.onerror = function () { loading = null; reject(new Error("KaTeX did not load")); };
        document.head.appendChild(js);
      });
    }
    return loading;
  }

  function maybeRender() {
    if (!document.querySelector(".arithmatex:not([data-rendered])")) return;
    load().then(function () { render(document); }, function (e) { console.warn(e.message); });
  }

  if (typeof document$ !== "undefined" && document$.subscribe) {
    document$.subscribe(maybeRender);
  } else {
    document.addEventListener("DOMContentLoaded", maybeRender);
  }
})();
