// The trends page (/trends/): its charts are SVG drawn at build time (generator/pages/trends.py)
// and hidden from assistive technology; the table beside each chart holds the same numbers,
// each linked to the papers behind it. This makes the bars as good as those links for a
// pointer: the nth bar of a chart is the nth linked number of its table (both in venue-year
// order; a venue-year with no papers has neither), so a click on a bar opens that link and
// pointing at it marks the number. Nothing here builds HTML.
(function () {
  "use strict";

  function bind(box) {
    var svg = box.querySelector("svg.digest-bars");
    if (!svg) return;
    var bars = Array.prototype.slice.call(svg.querySelectorAll("path:not(.b)"));
    var links = box.querySelectorAll(".digest-table-scroll td a");
    if (bars.length !== links.length) return;  // not the page this script was written for: leave it
    var marked = null;
    function mark(i) {
      if (marked) marked.classList.remove("digest-marked");
      marked = i >= 0 ? links[i].parentNode : null;
      if (marked) marked.classList.add("digest-marked");
    }
    svg.classList.add("digest-bars--linked");
    svg.addEventListener("click", function (e) {
      var i = bars.indexOf(e.target);
      if (i >= 0) location.href = links[i].href;
    });
    svg.addEventListener("pointerover", function (e) { mark(bars.indexOf(e.target)); });
    svg.addEventListener("pointerleave", function () { mark(-1); });
  }

  function start() {
    var boxes = document.querySelectorAll(".digest-trend");
    for (var i = 0; i < boxes.length; i++) bind(boxes[i]);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
