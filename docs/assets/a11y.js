// Material's search overlay has role="dialog" but no accessible name (axe:
// aria-dialog-name); name it after its own search field's label.
(function () {
  "use strict";
  function name() {
    var dialog = document.querySelector(".md-search[role=dialog]");
    if (!dialog || dialog.hasAttribute("aria-label")) return;
    var input = dialog.querySelector("input[aria-label]");
    dialog.setAttribute("aria-label", input ? input.getAttribute("aria-label") : "Search");
  }
  if (typeof document$ !== "undefined" && document$.subscribe) {
    document$.subscribe(name);
  } else {
    document.addEventListener("DOMContentLoaded", name);
  }
})();
