/* Filters for the search box: topic, venue, year and "has code", with counts.
 *
 * The search worker (search-worker.js) reads filters from the query itself:
 * topic:<slug>, venue:<slug>, year:<year>, has:code. After each answer it posts a
 * "digest:summary" message with the number of matches and, per filter, how many of them
 * have each value. This script shows those as toggle buttons above the results; a
 * button adds or removes its token in the search box, so a filtered search is an
 * ordinary query that can be read, edited, typed by hand and shared.
 *
 * It must run before Material's bundle creates the worker, so overrides/main.html loads
 * it in the page head: it wraps window.Worker, to start the digest's worker where
 * Material would start its own (which builds a lunr index of every page in the
 * reader's browser), and to be told what it answers. All text
 * is set with textContent (venue names come from seed files).
 */
(function () {
  "use strict"
  const NativeWorker = window.Worker
  if (!NativeWorker)
    return
  const KINDS = [["topic", "Topic"], ["venue", "Venue"], ["year", "Year"], ["code", "Code"]]
  const SHOWN_PER_KIND = 8
  const RESULT = 3  /* Material's search protocol: the worker's answer */

  // The digest's own worker, beside this script; Material asks for its lunr worker.
  const OWN = new URL("search-worker.js", document.currentScript.src).href

  window.Worker = class extends NativeWorker {
    constructor(url, options) {
      if (/\/workers\/search\.[0-9a-f]+\.min\.js$/.test(String(url)))
        url = OWN
      super(url, options)
      if (String(url) === OWN) {
        let painted = false
        this.addEventListener("message", ev => {
          if (ev.data && ev.data.type === "digest:summary") {
            show(ev.data.data)
            answered()
          } else if (ev.data && ev.data.type === RESULT && !painted) {
            /* Once an answer is on screen (the frame after Material renders it), the worker
             * may fetch what only the filters need. */
            painted = true
            requestAnimationFrame(() => setTimeout(() => this.postMessage({ type: "digest:shown" })))
          }
        })
      }
    }
  }

  /* The result list counts the complete answers it has shown (data-digest-answers): the
   * worker posts the first ten results early, then all of them, then the summary. */
  function answered() {
    const result = document.querySelector(".md-search-result")
    if (result)
      result.dataset.digestAnswers = String(Number(result.dataset.digestAnswers || 0) + 1)
  }

  function token(kind, slug) {
    return kind === "code" ? "has:code" : `${kind}:${slug}`
  }

  function tokens(query) {
    return new Set((query.match(/(?:^|\s)(?:topic|venue|year|has):\S+/g) || []).map(t => t.trim().toLowerCase()))
  }

  function toggle(input, tok) {
    const present = tokens(input.value).has(tok)
    const rest = input.value.split(/\s+/).filter(part => part && part.toLowerCase() !== tok)
    input.value = (present ? rest : [...rest, tok]).join(" ") + " "
    input.focus()
    input.dispatchEvent(new Event("input", { bubbles: true }))
    input.dispatchEvent(new KeyboardEvent("keyup", { key: " ", bubbles: true }))
  }

  function el(tag, className, text) {
    const node = document.createElement(tag)
    if (className) node.className = className
    if (text !== undefined) node.textContent = text
    return node
  }

  function show(summary) {
    const input = document.querySelector(".md-search__input")
    const result = document.querySelector(".md-search-result")
    const meta = result && result.querySelector(".md-search-result__meta")
    if (!input || !meta)
      return
    let bar = result.querySelector(".digest-filters")
    if (!bar) {
      bar = el("div", "digest-filters")
      bar.setAttribute("role", "group")
      bar.setAttribute("aria-label", "Filter the results")
      meta.after(bar)
    }
    bar.replaceChildren()
    if (summary.total > summary.shown)
      bar.append(el("p", "digest-filters__more", `${summary.total.toLocaleString("en")} matches; the best ${summary.shown} are listed. Add words or filters to narrow them.`))
    const chosen = tokens(input.value)
    for (const [kind, label] of KINDS) {
      const values = (summary.facets && summary.facets[kind]) || []
      const picked = values.filter(([slug]) => chosen.has(token(kind, slug)))
      const others = values.filter(([slug]) => !chosen.has(token(kind, slug)))
        .sort((a, b) => b[2] - a[2]).slice(0, SHOWN_PER_KIND)
      if (!picked.length && !others.length)
        continue
      const row = el("div", "digest-filters__row")
      row.append(el("span", "digest-filters__kind", label))
      for (const [slug, name, count] of [...picked, ...others]) {
        const tok = token(kind, slug)
        const button = el("button", "digest-filter")
        button.type = "button"
        button.dataset.token = tok
        button.setAttribute("aria-pressed", String(chosen.has(tok)))
        button.append(el("span", "", name), el("span", "digest-filter__count", String(count)))
        button.addEventListener("click", () => toggle(input, tok))
        row.append(button)
      }
      bar.append(row)
    }
  }
})()
