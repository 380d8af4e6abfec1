/* Search for the digest: a web worker that answers Material for MkDocs' search
 * messages (setup, ready, query, result) in place of Material's own worker.
 *
 * Why: Material's worker builds a lunr.js index, with a position table for every
 * word, inside the reader's browser each time a page loads. For a conference of
 * 3,300 abstracts that takes about 1.5 s before the first answer. This worker
 * builds a plain inverted index from the same search_index.json (terms -> the
 * documents and fields they occur in) in a few tens of milliseconds, and answers a
 * query by looking its words up, each as a prefix, so results appear while typing.
 *
 * Ranking: documents that contain every query word come first; among those, a
 * BM25-style score where a word in the title or a topic counts far more than one
 * in the abstract, and rare words count more than common ones. Words in "quotes"
 * must appear together as a phrase; a word with a leading "-" excludes documents.
 * Material's page then shows the results, highlights the matched words and, with
 * the search.highlight feature, carries them to the page that is opened.
 *
 * Loaded by overrides/main.html, which points Material's configuration here.
 */
"use strict"

const SETUP = 0, READY = 1, QUERY = 2, RESULT = 3

/* Words too common to say anything about a paper (lunr's English list, shortened). */
const STOP = new Set((
  "a an and are as at be been but by can could did do does for from had has have " +
  "he her his how i if in into is it its me my no nor not of on or our she so " +
  "than that the their them then there these they this those to too us was we " +
  "were what when where which while who whom why will with would you your"
).split(" "))

const WORD = /[\p{L}\p{N}]+/gu
const TEXT_K1 = 1.2, TEXT_B = 0.75
const FIELD_WEIGHT = { title: 8, tags: 4 }  /* a title or topic hit, vs. one text hit at full strength */
const SNIPPET_CHARS = 320
const HIGHLIGHTED_RESULTS = 200            /* results past this get a plain teaser */

let index = null

/* -- text ------------------------------------------------------------------- */

const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'", nbsp: "\u00a0" }

/* The search plugin stores HTML; the index and the snippets work on its text. */
function plain(html) {
  return html
    .replace(/<[^>]*>/g, " ")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref) => {
      if (ref[0] !== "#")
        return ENTITIES[ref.toLowerCase()] ?? whole
      const code = ref[1] === "x" || ref[1] === "X"
        ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10)
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
    })
    .replace(/\s+/g, " ")
    .trim()
}

function escapeHTML(text) {
  return text.replace(/[&<>"']/g, c => `&#${c.charCodeAt(0)};`)
}

function words(text) {
  return text.toLowerCase().match(WORD) ?? []
}

/* -- index ------------------------------------------------------------------ */

/* Terms -> postings. A posting is (document, text frequency, title hit, tag hit),
 * kept in flat arrays per term so that 3,300 abstracts make no per-word objects. */
function build(docs) {
  const postings = new Map()
  const entries = []
  let totalLength = 0
  docs.forEach((doc, d) => {
    const title = plain(doc.title ?? "")
    const text = plain(doc.text ?? "")
    const tags = (doc.tags ?? []).map(plain)
    const [path] = doc.location.split("#")
    const counts = new Map()
    const count = (word, slot) => {
      if (STOP.has(word))
        return
      let c = counts.get(word)
      if (c === undefined)
        counts.set(word, c = [0, 0, 0])
      c[slot]++
    }
    const textWords = words(text)
    const titleWords = words(title)
    for (const w of textWords) count(w, 0)
    for (const w of titleWords) count(w, 1)
    for (const w of words(tags.join(" "))) count(w, 2)
    for (const [word, c] of counts) {
      let p = postings.get(word)
      if (p === undefined)
        postings.set(word, p = { docs: [], tf: [], fields: [] })
      p.docs.push(d)
      p.tf.push(c[0])
      p.fields.push((c[1] ? 1 : 0) | (c[2] ? 2 : 0))
    }
    totalLength += textWords.length
    entries.push({
      doc, path, title, text, tags,
      length: textWords.length,
      haystack: ` ${titleWords.join(" ")} ${textWords.join(" ")} `,  /* for "phrases" */
      boost: doc.boost ?? 1
    })
  })
  const articles = new Map()
  for (const entry of entries)
    if (!entry.doc.location.includes("#") && !articles.has(entry.path))
      articles.set(entry.path, entry)
  return {
    entries, postings, articles,
    terms: [...postings.keys()].sort(),
    averageLength: entries.length ? totalLength / entries.length || 1 : 1
  }
}

/* -- query ------------------------------------------------------------------ */

/* The reader's query as words to match, "phrases" and -excluded words. */
function parse(query) {
  const phrases = []
  const rest = query.replace(/"([^"]*)("?)/g, (_, inner, closed) => {
    const w = words(inner)
    if (w.length)  /* a phrase still being typed ends in a prefix */
      phrases.push(` ${w.join(" ")}${closed ? " " : ""}`)
    return ` ${w.join(" ")} `
  })
  const include = [], exclude = []
  for (const part of rest.split(/\s+/)) {
    const negative = part.startsWith("-") && part.length > 1
    for (const w of words(negative ? part.slice(1) : part))
      (negative ? exclude : include).push(w)
  }
  const unique = [...new Set(include)]
  return { terms: unique.filter(w => !STOP.has(w)), exclude: new Set(exclude), phrases }
}

/* The index terms that start with `prefix`, found by binary search. */
function expand(prefix) {
  const terms = index.terms
  let lo = 0, hi = terms.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (terms[mid] < prefix) lo = mid + 1
    else hi = mid
  }
  const out = []
  for (let i = lo; i < terms.length && terms[i].startsWith(prefix); i++)
    out.push(terms[i])
  return out
}

/* Per document, the best score of any index term the query word is a prefix of. */
function scoreTerm(word) {
  const scores = new Map()
  const n = index.entries.length
  for (const term of expand(word)) {
    const p = index.postings.get(term)
    const idf = Math.log(1 + (n - p.docs.length + 0.5) / (p.docs.length + 0.5))
    const exact = term === word ? 1 : 0.6
    for (let i = 0; i < p.docs.length; i++) {
      const entry = index.entries[p.docs[i]]
      const tf = p.tf[i]
      const norm = TEXT_K1 * (1 - TEXT_B + TEXT_B * entry.length / index.averageLength)
      let s = tf ? tf * (TEXT_K1 + 1) / (tf + norm) : 0
      if (p.fields[i] & 1) s += FIELD_WEIGHT.title
      if (p.fields[i] & 2) s += FIELD_WEIGHT.tags
      s *= idf * exact
      const d = p.docs[i]
      if (s > (scores.get(d) ?? 0))
        scores.set(d, s)
    }
  }
  return scores
}

function documentsWith(word) {
  const out = new Set()
  for (const term of expand(word))
    for (const d of index.postings.get(term).docs)
      out.add(d)
  return out
}

/* -- results ---------------------------------------------------------------- */

function marker(terms) {
  if (!terms.length)
    return null
  const alternatives = [...terms]
    .sort((a, b) => b.length - a.length)
    .map(t => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join("|")})[\\p{L}\\p{N}]*`, "giu")
}

function mark(text, pattern) {
  if (!pattern)
    return escapeHTML(text)
  let out = "", last = 0
  pattern.lastIndex = 0
  for (const m of text.matchAll(pattern)) {
    out += escapeHTML(text.slice(last, m.index)) + "<mark>" + escapeHTML(m[0]) + "</mark>"
    last = m.index + m[0].length
  }
  return out + escapeHTML(text.slice(last))
}

function clip(text, limit) {
  if (text.length <= limit)
    return text
  const cut = text.lastIndexOf(" ", limit)
  return `${text.slice(0, cut > limit / 2 ? cut : limit)} …`
}

/* Up to two sentences of the text that hold matches, else its opening. */
function snippet(text, pattern) {
  if (pattern) {
    const sentences = text.split(/(?<=[.!?])\s+/)
    const hits = sentences.filter(s => { pattern.lastIndex = 0; return pattern.test(s) })
    if (hits.length) {
      const shown = hits.slice(0, 2).map(s => clip(s, SNIPPET_CHARS / 2 + 40))
      return `<p>${shown.map(s => mark(s, pattern)).join(" … ")}</p>`
    }
  }
  return `<p>${mark(clip(text, SNIPPET_CHARS), pattern)}</p>`
}

function item(entry, score, termsFound, pattern) {
  const item = {
    location: entry.doc.location,
    title: pattern ? mark(entry.title, pattern) : escapeHTML(entry.title),
    text: pattern ? snippet(entry.text, pattern) : `<p>${escapeHTML(clip(entry.text, SNIPPET_CHARS))}</p>`,
    score,
    terms: termsFound
  }
  if (entry.doc.tags)
    item.tags = entry.doc.tags
  return item
}

function search(query) {
  const { terms, exclude, phrases } = parse(query)
  if (!terms.length)
    return { items: [] }

  const perTerm = terms.map(scoreTerm)
  const totals = new Map()
  perTerm.forEach(scores => {
    for (const [d, s] of scores) {
      const t = totals.get(d)
      if (t === undefined) totals.set(d, { score: s, matched: 1 })
      else { t.score += s; t.matched++ }
    }
  })

  const excluded = new Set()
  for (const w of exclude)
    for (const d of documentsWith(w))
      excluded.add(d)

  const ranked = []
  for (const [d, t] of totals) {
    const entry = index.entries[d]
    if (excluded.has(d))
      continue
    if (phrases.length && !phrases.every(p => entry.haystack.includes(p)))
      continue
    ranked.push({ d, matched: t.matched, score: t.score * entry.boost })
  }
  ranked.sort((a, b) => b.matched - a.matched || b.score - a.score || a.d - b.d)

  /* Group sections under their page, as Material's result list expects. */
  const groups = new Map()
  ranked.forEach((r, rank) => {
    const entry = index.entries[r.d]
    const found = {}
    perTerm.forEach((scores, i) => { found[terms[i]] = scores.has(r.d) })
    const pattern = rank < HIGHLIGHTED_RESULTS
      ? marker(terms.filter(t => found[t]))
      : null
    let group = groups.get(entry.path)
    if (group === undefined)
      groups.set(entry.path, group = [])
    group.push(item(entry, r.score, found, pattern))
  })
  for (const [path, group] of groups) {
    const article = index.articles.get(path)
    if (article && !group.some(i => i.location === article.doc.location))
      group.push(item(article, 0, {}, null))
  }
  return { items: [...groups.values()] }
}

/* -- messages --------------------------------------------------------------- */

addEventListener("message", ev => {
  const message = ev.data
  switch (message.type) {
    case SETUP:
      index = build(message.data.docs ?? [])
      postMessage({ type: READY })
      break
    case QUERY:
      try {
        postMessage({ type: RESULT, data: index ? search(String(message.data)) : { items: [] } })
      } catch (err) {
        console.warn(`search failed for ${JSON.stringify(message.data)}:`, err)
        postMessage({ type: RESULT, data: { items: [] } })
      }
      break
    default:
      console.warn("search worker: unknown message", message.type)
  }
})
