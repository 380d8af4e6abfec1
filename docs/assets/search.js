/* The digest's search: the box in the header (overrides/partials/search-box.html), its
 * results and filters, and the query words highlighted on the page a result opens.
 *
 * It talks to the digest's search worker (assets/search-worker.js) over the worker's own
 * messages, and to nothing of the theme's: MkDocs + Material and Zensical render the same
 * box from the same partial. The box is a dialog holding a combobox (the query) that owns
 * a listbox (the results): arrows choose a result (aria-activedescendant), Enter opens
 * it, Escape closes; `/` or Ctrl+K opens the box from anywhere on the page.
 *
 * The query language is the worker's: words (prefixes while typing), "phrases", -word,
 * and topic:<slug>, venue:<slug>, year:<year>, has:code. The filter buttons add or remove
 * such a token in the box, so a filtered search is an ordinary query that can be read,
 * edited and shared: /?q=<query> opens any page with that search. A result's link carries
 * the query words it holds (?h=), which are then marked on the page it opens.
 *
 * Every string from the index (titles and snippets are seed text) is set as textContent
 * of elements made with createElement: no HTML is ever built from data.
 */
(function () {
  "use strict"
  const here = document.currentScript && document.currentScript.src
  if (!here || !window.Worker)
    return
  const ROOT = new URL("../", here)  /* this script is assets/search.js */
  const WORKER = new URL("search-worker.js", here)
  const QUERY = "digest:query", SHOWN = "digest:shown", RESULTS = "digest:results", SUMMARY = "digest:summary"
  const KINDS = [["topic", "Topic"], ["venue", "Venue"], ["year", "Year"], ["code", "Code"]]
  const SHOWN_PER_KIND = 8
  const PAPER = /^papers\/([0-9a-f]{12})\/$/
  const HIGHLIGHT_WORDS = 32, HIGHLIGHT_CHARS = 64  /* ?h= comes from links anyone can write */

  function el(tag, className, text) {
    const node = document.createElement(tag)
    if (className) node.className = className
    if (text !== undefined) node.textContent = text
    return node
  }

  /* [text, marked] runs (from the worker) into `parent`, marked runs as <mark>. */
  function runs(parent, parts) {
    for (const [text, marked] of parts || [])
      parent.append(marked ? el("mark", "", text) : document.createTextNode(text))
    return parent
  }

  /* -- the query words, marked on the page a result opened --------------------------- */

  function highlight() {
    const wanted = new URLSearchParams(location.search).get("h")
    const article = document.querySelector("main article") || document.querySelector("article")
    if (!wanted || !article)
      return
    const terms = [...new Set(wanted.toLowerCase().match(/[\p{L}\p{N}]+/gu) || [])]
      .filter(t => t.length <= HIGHLIGHT_CHARS).slice(0, HIGHLIGHT_WORDS)
      .sort((a, b) => b.length - a.length)
    if (!terms.length)
      return
    /* As the worker marks: a word that starts with a query word (the query words are
     * letters and digits only, so they need no escaping in the pattern). */
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${terms.join("|")})[\\p{L}\\p{N}]*`, "giu")
    const skip = "script, style, mark, button, svg, .arithmatex, .katex, .headerlink"
    const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT, {
      acceptNode: node => node.parentElement.closest(skip) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT
    })
    const found = []
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      pattern.lastIndex = 0
      if (pattern.test(node.data))
        found.push(node)
    }
    for (const node of found) {
      const text = node.data, out = document.createDocumentFragment()
      let last = 0
      pattern.lastIndex = 0
      for (const m of text.matchAll(pattern)) {
        if (m.index > last) out.append(text.slice(last, m.index))
        out.append(el("mark", "digest-highlight", m[0]))
        last = m.index + m[0].length
      }
      if (last < text.length) out.append(text.slice(last))
      node.replaceWith(out)
    }
  }

  /* -- the box ------------------------------------------------------------------------ */

  function token(kind, slug) {
    return kind === "code" ? "has:code" : `${kind}:${slug}`
  }

  function tokens(query) {
    return new Set((query.match(/(?:^|\s)(?:topic|venue|year|has):\S+/g) || []).map(t => t.trim().toLowerCase()))
  }

  function typing(target) {
    return target instanceof Element && (target.closest("input, textarea, select, [contenteditable]:not([contenteditable=false])") !== null)
  }

  /* The dialog the button opens: the query (a combobox that owns the listbox of results),
   * what it found, the filters and a line of help. */
  function dialog() {
    const d = el("dialog", "digest-search__dialog")
    d.setAttribute("aria-label", "Search the digest")
    const bar = el("div", "digest-search__bar")
    const icon = document.createElementNS("http://www.w3.org/2000/svg", "svg")
    icon.setAttribute("class", "digest-icon-magnify")
    icon.setAttribute("aria-hidden", "true")
    const input = el("input", "digest-search__input")
    for (const [k, v] of Object.entries({
      type: "text", role: "combobox", "aria-autocomplete": "list", "aria-expanded": "false",
      "aria-controls": "digest-search-results", "aria-label": "Search papers", "aria-describedby": "digest-search-help",
      placeholder: "Search papers", autocomplete: "off", autocapitalize: "off", spellcheck: "false", enterkeyhint: "go"
    })) input.setAttribute(k, v)
    const close = el("button", "digest-search__close")
    close.type = "button"
    close.setAttribute("aria-label", "Close search")
    close.title = "Close (Esc)"
    const cross = document.createElementNS("http://www.w3.org/2000/svg", "svg")
    cross.setAttribute("class", "digest-icon-close")
    close.append(cross)
    bar.append(icon, input, close)
    const status = el("p", "digest-search__status")
    status.setAttribute("role", "status")
    const filters = el("div", "digest-filters")
    filters.setAttribute("role", "group")
    filters.setAttribute("aria-label", "Filter the results")
    filters.hidden = true
    const list = el("ul", "digest-search__results")
    list.id = "digest-search-results"
    list.setAttribute("role", "listbox")
    list.setAttribute("aria-label", "Papers")
    const help = el("p", "digest-search__help",
      "\u2191 \u2193 choose, Enter opens, Esc closes. Words match as you type; \"a phrase\" in quotes; -word leaves out.")
    help.id = "digest-search-help"
    d.append(bar, status, filters, list, help)
    return d
  }

  function Search(box) {
    this.opener = box.querySelector(".digest-search__open")
    this.dialog = dialog()
    box.append(this.dialog)
    this.input = this.dialog.querySelector(".digest-search__input")
    this.status = this.dialog.querySelector(".digest-search__status")
    this.filters = this.dialog.querySelector(".digest-filters")
    this.list = this.dialog.querySelector(".digest-search__results")
    this.items = []
    this.active = -1
    this.answers = 0
    this.worker = null
    this.painted = false
    this.sent = null

    this.opener.hidden = false
    this.opener.addEventListener("click", () => this.open())
    this.opener.addEventListener("pointerenter", () => this.start(), { once: true })
    this.opener.addEventListener("focus", () => this.start(), { once: true })
    this.dialog.querySelector(".digest-search__close").addEventListener("click", () => this.dialog.close())
    /* A click on the backdrop (the dialog itself, outside its content) closes it. */
    this.dialog.addEventListener("click", ev => { if (ev.target === this.dialog) this.dialog.close() })
    this.dialog.addEventListener("close", () => this.choose(-1))
    this.input.addEventListener("input", () => this.query())
    this.input.addEventListener("keydown", ev => this.key(ev))
    this.list.addEventListener("click", ev => {
      const option = ev.target.closest("[role=option]")
      if (option) this.go(this.items.indexOf(option), ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button === 1)
    })
    document.addEventListener("keydown", ev => {
      if (this.dialog.open || ev.defaultPrevented || ev.altKey)
        return
      const slash = ev.key === "/" && !ev.ctrlKey && !ev.metaKey && !typing(ev.target)
      const k = (ev.ctrlKey || ev.metaKey) && (ev.key === "k" || ev.key === "K")
      if (slash || k) {
        ev.preventDefault()
        this.open()
      }
    })
    const q = new URLSearchParams(location.search).get("q")
    if (q !== null) {
      this.input.value = q
      this.open()
    }
  }

  /* The worker, started when the box is about to be used (it fetches the index's keys). */
  Search.prototype.start = function () {
    if (this.worker)
      return this.worker
    this.worker = new Worker(WORKER)
    this.worker.addEventListener("message", ev => this.answer(ev.data))
    this.worker.addEventListener("error", () => { this.status.textContent = "Search is unavailable on this page." })
    return this.worker
  }

  Search.prototype.open = function () {
    this.start()
    if (!this.dialog.open)
      this.dialog.showModal()
    this.input.focus()
    this.input.select()
    if (this.input.value.trim() && this.sent !== this.input.value)
      this.query()
  }

  Search.prototype.query = function () {
    this.sent = this.input.value
    if (!this.input.value.trim()) {
      this.show([])
      this.filters.replaceChildren()
      this.filters.hidden = true
      this.status.textContent = ""
      return
    }
    this.start().postMessage({ type: QUERY, query: this.input.value })
  }

  Search.prototype.answer = function (message) {
    if (!message || message.query !== this.sent)
      return  /* an answer to a query the reader has since changed */
    if (message.type === RESULTS) {
      this.show(message.items)
      if (!this.painted) {
        /* Once an answer is on screen, the worker may fetch what only the filters need. */
        this.painted = true
        requestAnimationFrame(() => setTimeout(() => this.worker.postMessage({ type: SHOWN })))
      }
    } else if (message.type === SUMMARY) {
      this.summary(message)
      this.answers++
      this.dialog.dataset.digestAnswers = String(this.answers)
    }
  }

  /* The results as options of the listbox; the chosen one stays chosen if still there. */
  Search.prototype.show = function (items) {
    const before = this.active >= 0 ? this.items[this.active].dataset.href : null
    this.items = items.map((item, i) => this.option(item, i))
    this.list.replaceChildren(...this.items)
    this.input.setAttribute("aria-expanded", String(this.items.length > 0))
    this.choose(this.items.findIndex(o => o.dataset.href === before))
  }

  Search.prototype.option = function (item, i) {
    const option = el("li", "digest-search__item")
    option.id = `digest-search-result-${i}`
    option.setAttribute("role", "option")
    option.setAttribute("aria-selected", "false")
    const url = new URL(item.url, ROOT)
    if (item.terms && item.terms.length)
      url.searchParams.set("h", item.terms.join(" "))
    option.dataset.href = url.href
    const title = runs(el("span", "digest-search__title"), item.title)
    const about = el("span", "digest-search__about", [item.venue, ...(item.tags || [])].filter(Boolean).join(" · "))
    const text = runs(el("span", "digest-search__text"), item.text)
    option.append(title, about, text)
    const paper = PAPER.exec(item.url)
    const list = window.digestReadingList
    if (paper && list && list.has) {
      /* Not a button: an option holds no control of its own (axe: nested-interactive).
       * A pointer toggles it here; the paper's page has the star as a button. */
      const star = el("span", "digest-search__star")
      star.dataset.paper = paper[1]
      const paint = () => {
        const on = list.has(paper[1])
        star.dataset.starred = String(on)
        star.textContent = on ? "\u2605" : "\u2606"
        star.title = on ? "Remove from the reading list" : "Add to the reading list"
      }
      star.setAttribute("aria-hidden", "true")
      star.addEventListener("click", ev => {
        ev.stopPropagation()
        list.toggle(paper[1], { title: title.textContent, venue: item.venue })
        paint()
      })
      paint()
      option.append(star)
    }
    return option
  }

  Search.prototype.choose = function (i) {
    if (this.active >= 0 && this.items[this.active])
      this.items[this.active].setAttribute("aria-selected", "false")
    this.active = i >= 0 && i < this.items.length ? i : -1
    if (this.active < 0) {
      this.input.removeAttribute("aria-activedescendant")
      return
    }
    const option = this.items[this.active]
    option.setAttribute("aria-selected", "true")
    this.input.setAttribute("aria-activedescendant", option.id)
    option.scrollIntoView({ block: "nearest" })
  }

  Search.prototype.key = function (ev) {
    const n = this.items.length
    if (ev.key === "ArrowDown" && n) {
      ev.preventDefault()
      this.choose((this.active + 1) % n)
    } else if (ev.key === "ArrowUp" && n) {
      ev.preventDefault()
      this.choose(this.active <= 0 ? n - 1 : this.active - 1)
    } else if (ev.key === "Enter" && n && !ev.isComposing) {
      ev.preventDefault()
      this.go(this.active >= 0 ? this.active : 0, ev.ctrlKey || ev.metaKey || ev.shiftKey)
    }
  }

  Search.prototype.go = function (i, elsewhere) {
    const option = this.items[i]
    if (!option)
      return
    if (elsewhere) {
      window.open(option.dataset.href, "_blank", "noopener")
    } else {
      this.dialog.close()
      location.assign(option.dataset.href)
    }
  }

  /* The number of matches, and per filter kind a toggle button for each value, with the
   * number of matches that have it. */
  Search.prototype.summary = function (summary) {
    this.status.textContent = summary.total === 0 ? "No matching papers"
      : summary.total > summary.shown
        ? `${summary.total.toLocaleString("en")} matching papers; the best ${summary.shown} are listed. Add words or filters to narrow them.`
        : `${summary.total} matching ${summary.total === 1 ? "paper" : "papers"}`
    this.filters.replaceChildren()
    const chosen = tokens(this.input.value)
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
        button.addEventListener("click", () => this.toggle(tok))
        row.append(button)
      }
      this.filters.append(row)
    }
    this.filters.hidden = !this.filters.childElementCount
  }

  Search.prototype.toggle = function (tok) {
    const present = tokens(this.input.value).has(tok)
    const rest = this.input.value.split(/\s+/).filter(part => part && part.toLowerCase() !== tok)
    this.input.value = (present ? rest : [...rest, tok]).join(" ") + " "
    this.input.focus()
    this.query()
  }

  function start() {
    highlight()
    const box = document.querySelector(".digest-search")
    if (box)
      new Search(box)
  }

  if (document.readyState === "loading")
    document.addEventListener("DOMContentLoaded", start)
  else
    start()
})()
