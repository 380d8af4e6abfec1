/* The light and dark schemes: the header's switch (overrides/partials/palette.html, a
 * button to each scheme) in place of Material's palette form, which was 1.6 KB of every page.
 *
 * Loaded in the page head; the header calls digestPalette() right after the switch, so
 * the reader's scheme is on the body before anything is painted. The scheme in force is
 * the one the reader last chose, kept where Material keeps it (__md_get("__palette"),
 * scoped to the site), else the system's (prefers-color-scheme), which is then followed
 * when it changes. The schemes are mkdocs.yml's palette: "default" and "slate".
 */
(function () {
  "use strict"
  const LIGHT = "default", DARK = "slate"
  const system = matchMedia("(prefers-color-scheme: dark)")

  function chosen() {
    try {
      const palette = __md_get("__palette")
      const scheme = palette && palette.color && palette.color.scheme
      return scheme === LIGHT || scheme === DARK ? scheme : null
    } catch (e) {  /* no storage, or not JSON */
      return null
    }
  }

  /* The scheme on the body, and the button to the other one shown. */
  function apply(scheme) {
    document.body.setAttribute("data-md-color-scheme", scheme)
    for (const button of document.querySelectorAll(".digest-palette"))
      button.hidden = button.dataset.digestScheme === scheme
  }

  window.digestPalette = function () {
    apply(chosen() || (system.matches ? DARK : LIGHT))
    system.addEventListener("change", () => chosen() || apply(system.matches ? DARK : LIGHT))
    for (const button of document.querySelectorAll(".digest-palette"))
      button.addEventListener("click", () => {
        const scheme = button.dataset.digestScheme
        __md_set("__palette", { color: { scheme } })
        apply(scheme)
      })
  }
})()
