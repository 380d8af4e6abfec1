/* Search for the digest: a web worker that answers the digest's own search box
 * (docs/assets/search.js) over messages of its own (see "messages" at the end).
 *
 * The papers are indexed at generation time (generator/pages/search_index.py) and the
 * index is split into small files under search/ that this worker fetches as a query
 * needs them:
 *   meta.json      the shard keys, the number of papers and of paper numbers, loaded once;
 *   t/<hex>.bin    the terms that start with a shard key (named by its UTF-8 bytes in hex),
 *                  with their papers and scores;
 *   p/<n>.bin      pairs of adjacent words by hash, for "phrases";
 *   d/<n>.json     one paper's title, url, venue, topics and text, for the results shown;
 *   facets.json    the papers of each topic, venue, year and "has code", for filters;
 *   order.bin      the paper numbers in title order, for a query of filters alone.
 *
 * A paper's number is its slot in a hash table of its id (meta.slots of them, meta.docs
 * used), so that a new paper renumbers no other but a neighbour or two: arrays indexed by
 * paper number have meta.slots places, and numbers do not follow titles.
 *
 * Ranking: documents that contain every query word come first; among those, a
 * BM25-style score where a word in the title or a topic counts far more than one
 * in the abstract, and rare words count more than common ones. Words match as
 * prefixes, so results appear while typing. Words in "quotes" must appear together
 * as a phrase; a word with a leading "-" excludes documents; topic:<slug>,
 * venue:<slug>, year:<year> and has:code keep only papers with that value (values of
 * one kind are alternatives, kinds combine).
 *
 * Results are plain data: a title and a snippet are lists of [text, marked] runs, which
 * search.js turns into text nodes and <mark> elements (seed text never becomes HTML).
 */
"use strict"

/* The messages (docs/assets/search.js sends QUERY and SHOWN, and reads RESULTS and SUMMARY). */
const QUERY = "digest:query", SHOWN_ON_PAGE = "digest:shown"
const RESULTS = "digest:results", SUMMARY = "digest:summary"

/* Words too common to say anything about a paper; generator/search.py has the same list. */
const STOP = new Set((
  "a an and are as at be been but by can could did do does for from had has have " +
  "he her his how i if in into is it its me my no nor not of on or our she so " +
  "than that the their them then there these they this those to too us was we " +
  "were what when where which while who whom why will with would you your"
).split(" "))

const WORD = /[\p{L}\p{N}]+/gu
const TEXT_K1 = 1.2, TEXT_B = 0.75
const FIELD_WEIGHT = { title: 8, tags: 4 }  /* a title or topic hit, vs. one text hit at full strength */
const SCORE_MAX = 2.2                       /* generator/search.py: a text part of 63 is this */
const SNIPPET_CHARS = 320
const SHOWN = 20                            /* results whose data is fetched and shown */
const FIRST = 10                            /* the results posted before the rest */
/* Words of a query that count, of each kind (as a web search engine caps them): each word
 * holds a score for every paper, so a crafted link's ?q= of 1,500 words cost the reader's
 * tab hundreds of MB and seconds. */
const MAX_QUERY_WORDS = 32
const FILTER = /(?:^|\s)(topic|venue|year|has):(\S*)/g
const BASE = new URL("../search/", self.location)

/* -- text ------------------------------------------------------------------- */

function words(text) {
  return text.toLowerCase().match(WORD) ?? []
}

/* -- query ------------------------------------------------------------------ */

/* The reader's query: words to match, "phrases" (word lists; `closed` when the closing
 * quote is typed), -excluded words and filters (kind -> values). */
function parse(query) {
  const filters = new Map()
  query = query.replace(FILTER, (_, kind, value) => {
    value = value.toLowerCase()
    if (value) {
      if (!filters.has(kind)) filters.set(kind, new Set())
      filters.get(kind).add(value)
    }
    return " "
  })
  const phrases = []
  let phraseWords = 0
  const rest = query.replace(/"([^"]*)("?)/g, (_, inner, closed) => {
    const w = words(inner)
    /* the words of all phrases together, MAX_QUERY_WORDS at most: each adjacent pair
     * is looked up in a pair file (five quoted abstracts fetched 450 of 588 of them) */
    const kept = w.slice(0, MAX_QUERY_WORDS - phraseWords)
    phraseWords += kept.length
    if (kept.length)
      phrases.push({ words: kept, closed: Boolean(closed) || kept.length < w.length })
    return ` ${w.join(" ")} `
  })
  const include = [], exclude = []
  for (const part of rest.split(/\s+/)) {
    const negative = part.startsWith("-") && part.length > 1
    for (const w of words(negative ? part.slice(1) : part))
      (negative ? exclude : include).push(w)
  }
  const unique = [...new Set(include)]
  return {
    terms: unique.filter(w => !STOP.has(w)).slice(0, MAX_QUERY_WORDS),
    exclude: [...new Set(exclude)].slice(0, MAX_QUERY_WORDS),
    phrases,
    filters
  }
}

/* Indexes of the sorted `terms` that start with `prefix`, found by binary search. */
function expandIn(terms, prefix) {
  let lo = 0, hi = terms.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (terms[mid] < prefix) lo = mid + 1
    else hi = mid
  }
  const out = []
  for (let i = lo; i < terms.length && terms[i].startsWith(prefix); i++)
    out.push(i)
  return out
}

function idf(n, df) {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5))
}

/* -- the papers (split index, fetched) ---------------------------------------- */

const cache = new Map()

function fetched(path, as) {
  let promise = cache.get(path)
  if (promise === undefined) {
    promise = fetch(new URL(path, BASE)).then(r => {
      if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`)
      return as === "json" ? r.json() : r.arrayBuffer()
    })
    promise.catch(() => cache.delete(path))  /* a failed fetch may be tried again */
    cache.set(path, promise)
  }
  return promise
}

let meta = null
function loadMeta() {
  if (meta === null) {
    meta = fetched("meta.json", "json").then(m => ({ ...m, keyIndex: new Map(m.keys.map((k, i) => [k, i])) }))
    meta.catch(() => { meta = null })
  }
  return meta
}

function ids(m, buffer, offset, count) {
  return m.width === 2 ? new Uint16Array(buffer, offset, count) : new Uint32Array(buffer, offset, count)
}

/* generator/pages/search_index.py shard_name: a shard key's UTF-8 bytes in hex. */
function shardPath(key) {
  return `t/${Array.from(new TextEncoder().encode(key), b => b.toString(16).padStart(2, "0")).join("")}.bin`
}

/* A term shard: its sorted terms, and per term where its papers and scores are. */
const shards = new Map()
function shard(m, i) {
  let s = shards.get(i)
  if (s === undefined) {
    s = fetched(shardPath(m.keys[i])).then(buffer => {
      const view = new DataView(buffer)
      const length = view.getUint32(0, true)
      const header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 4, length)))
      let at = 4 + length + (-(4 + length) & 3)
      const total = header.reduce((sum, [, df]) => sum + df, 0)
      const docs = ids(m, buffer, at, total)
      const scores = new Uint8Array(buffer, at + total * m.width, total)
      const terms = [], starts = [], dfs = []
      let start = 0
      for (const [term, df] of header) {
        terms.push(term); starts.push(start); dfs.push(df)
        start += df
      }
      return { terms, starts, dfs, docs, scores }
    })
    s.catch(() => shards.delete(i))
    shards.set(i, s)
  }
  return s
}

/* The shard that holds every term starting with `word`: the longest key it starts with. */
function shardOf(m, word) {
  const chars = Array.from(word)
  for (let n = Math.min(m.maxKey, chars.length); n > 0; n--) {
    const i = m.keyIndex.get(chars.slice(0, n).join(""))
    if (i !== undefined)
      return i
  }
  return -1
}

/* Per paper (by number), the best score of any term the word is a prefix of (or of the
 * word itself only), 0 where none occurs: typed arrays, not maps, so that a common word's
 * tens of thousands of papers cost a few milliseconds. */
async function scorePapers(m, word, exactOnly = false) {
  const scores = new Float32Array(m.slots)
  const i = shardOf(m, word)
  if (i < 0)
    return scores
  const s = await shard(m, i)
  for (const t of expandIn(s.terms, word)) {
    const exact = s.terms[t] === word
    if (exactOnly && !exact)
      continue
    const weight = idf(m.docs, s.dfs[t]) * (exact ? 1 : 0.6)
    for (let j = s.starts[t], end = j + s.dfs[t]; j < end; j++) {
      const q = s.scores[j]
      /* + a little: a paper that holds the word never scores 0 */
      const v = ((q & 63) / 63 * SCORE_MAX + (q & 64 ? FIELD_WEIGHT.title : 0) + (q & 128 ? FIELD_WEIGHT.tags : 0) + 1e-3) * weight
      const d = s.docs[j]
      if (v > scores[d])
        scores[d] = v
    }
  }
  return scores
}

function nonzero(scores) {
  const out = new Set()
  for (let d = 0; d < scores.length; d++)
    if (scores[d] > 0) out.add(d)
  return out
}

function fnv1a(text) {
  let h = 0x811c9dc5
  for (const byte of new TextEncoder().encode(text))
    h = Math.imul(h ^ byte, 0x01000193) >>> 0
  return h
}

function fmix32(h) {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

/* generator/search.py pair_hash: where the papers holding "first second" are filed. */
function pairHash(first, second) {
  return fmix32(Math.imul(fnv1a(first), 0x01000193) ^ fnv1a(second))
}

/* A bucket of pairs (generator/search.py): its sorted hashes, where each hash's papers
 * start (from the counts, LEB128), and the papers. */
const pairBuckets = new Map()
function pairBucket(m, b) {
  let p = pairBuckets.get(b)
  if (p === undefined) {
    p = fetched(`p/${b}.bin`).then(buffer => {
      const count = new DataView(buffer).getUint32(0, true)
      const hashes = new Uint32Array(buffer, 4, count)
      const bytes = new Uint8Array(buffer)
      const starts = new Uint32Array(count + 1)
      let at = 4 + 4 * count
      for (let k = 0; k < count; k++) {
        let n = 0, scale = 1, byte
        do {
          byte = bytes[at++]
          n += (byte & 127) * scale
          scale *= 128
        } while (byte & 128)
        starts[k + 1] = starts[k] + n
      }
      at += -at & (m.width - 1)  /* the papers start at a multiple of their width */
      return { hashes, starts, docs: ids(m, buffer, at, starts[count]) }
    })
    p.catch(() => pairBuckets.delete(b))
    pairBuckets.set(b, p)
  }
  return p
}

async function papersWithPair(m, first, second) {
  const h = pairHash(first, second)
  const { hashes, starts, docs } = await pairBucket(m, h % m.pairs)
  let lo = 0, hi = hashes.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (hashes[mid] < h) lo = mid + 1
    else hi = mid
  }
  if (lo === hashes.length || hashes[lo] !== h)
    return new Set()
  return new Set(docs.subarray(starts[lo], starts[lo + 1]))
}

/* Papers that may hold the phrase: all of its adjacent pairs (the last word of a phrase
 * still being typed is a prefix, and matched as a word); checked exactly on the text
 * of the results shown. null: no constraint. */
async function phraseCandidates(m, phrase) {
  const w = phrase.closed ? phrase.words : phrase.words.slice(0, -1)
  if (w.length === 1 && phrase.closed && !STOP.has(w[0]))
    return nonzero(await scorePapers(m, w[0], true))
  /* every pair at once: the pair files are fetched together, each once (pairBucket) */
  const pairs = []
  for (let i = 0; i + 1 < w.length; i++)
    pairs.push(papersWithPair(m, w[i], w[i + 1]))
  let out = null
  for (const docs of await Promise.all(pairs))
    out = out === null ? docs : new Set([...out].filter(d => docs.has(d)))
  return out
}

/* Per paper number, its place in title order (order.bin). */
let titleRank = null
function loadOrder(m) {
  if (titleRank === null) {
    titleRank = fetched("order.bin").then(buffer => {
      const rank = new Uint32Array(m.slots)
      ids(m, buffer, 0, m.docs).forEach((d, k) => { rank[d] = k })
      return rank
    })
    titleRank.catch(() => { titleRank = null })
  }
  return titleRank
}

let facets = null
function loadFacets(m) {
  if (facets === null) {
    facets = fetched("facets.json", "json").then(raw => {
      const out = new Map()
      for (const [kind, values] of Object.entries(raw)) {
        out.set(kind, values.map(([slug, name, deltas]) => {
          const docs = new Uint32Array(deltas.length)
          let d = 0
          deltas.forEach((delta, i) => { d += delta; docs[i] = d })
          return { slug, name, docs }
        }))
      }
      const year = new Int32Array(m.slots), all = []
      for (const v of out.get("year") ?? [])
        for (const d of v.docs) { year[d] = Number(v.slug); all.push(d) }
      out.year = year
      out.all = all  /* every paper has a year: every paper's number */
      return out
    })
    facets.catch(() => { facets = null })
  }
  return facets
}

/* The papers each filter kind allows (a Set), or null for no filter of that kind. */
function allowedBy(f, filters) {
  const out = new Map()
  for (const [kind, values] of filters) {
    const key = kind === "has" ? "code" : kind
    const allowed = new Set()
    for (const v of f.get(key) ?? [])
      if (values.has(v.slug.toLowerCase()))
        for (const d of v.docs) allowed.add(d)
    out.set(kind, allowed)
  }
  return out
}

/* Per filter kind, how many of the matches each value has, counting matches that pass
 * the other kinds' filters (so choosing a second venue shows what it would add). */
function counts(f, matches, allowed) {
  const out = {}
  for (const kind of ["topic", "venue", "year", "code"]) {
    const own = kind === "code" ? "has" : kind
    const pass = d => [...allowed].every(([k, set]) => k === own || set.has(d))
    const pool = new Set()
    for (const d of matches) if (pass(d)) pool.add(d)
    out[kind] = (f.get(kind) ?? []).map(v => {
      let c = 0
      for (const d of v.docs) if (pool.has(d)) c++
      return [v.slug, v.name, c]
    }).filter(([, , c]) => c > 0)
  }
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

/* `text` as [text, marked] runs: the query words it holds are marked. */
function mark(text, pattern) {
  if (!pattern)
    return [[text, false]]
  const out = []
  let last = 0
  pattern.lastIndex = 0
  for (const m of text.matchAll(pattern)) {
    if (m.index > last) out.push([text.slice(last, m.index), false])
    out.push([m[0], true])
    last = m.index + m[0].length
  }
  if (last < text.length) out.push([text.slice(last), false])
  return out
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
      return shown.flatMap((s, i) => i ? [[" … ", false], ...mark(s, pattern)] : mark(s, pattern))
    }
  }
  return mark(clip(text, SNIPPET_CHARS), pattern)
}

/* A result as search.js shows it: url (under the site's root), title and snippet runs,
 * venue, year and topics as text, and the query words it holds (for ?h= on its link). */
function item(data, termsFound, pattern) {
  return {
    url: data.url,
    title: mark(data.title, pattern),
    text: snippet(data.text, pattern),
    venue: data.venue ?? "",
    year: data.year ?? "",
    tags: data.tags ?? [],
    terms: Object.keys(termsFound).filter(t => termsFound[t])
  }
}

function hasPhrase(haystack, phrase) {
  return haystack.includes(` ${phrase.words.join(" ")}${phrase.closed ? " " : ""}`)
}

/* Which papers match and in what order: everything but their data (fetched by present). */
async function rank(query) {
  const { terms, exclude, phrases, filters } = parse(query)
  if (!terms.length && !filters.size)
    return null
  const m = await loadMeta()
  const [f, byTitle] = await Promise.all([filters.size ? loadFacets(m) : null, terms.length ? null : loadOrder(m)])

  /* Papers */
  const perTerm = await Promise.all(terms.map(w => scorePapers(m, w)))
  const excluded = await Promise.all(exclude.map(w => scorePapers(m, w)))
  const phraseSets = (await Promise.all(phrases.map(p => phraseCandidates(m, p)))).filter(Boolean)
  const n = m.slots
  const total = new Float64Array(n), matched = new Uint8Array(n)
  let matches = []
  if (terms.length) {
    for (const scores of perTerm)
      for (let d = 0; d < n; d++)
        if (scores[d] > 0) { total[d] += scores[d]; matched[d]++ }
    for (let d = 0; d < n; d++)
      if (matched[d]) matches.push(d)
  } else {
    matches = f.all.slice()
  }
  matches = matches.filter(d => !excluded.some(e => e[d] > 0) && phraseSets.every(p => p.has(d)))
  const allowed = f ? allowedBy(f, filters) : new Map()
  const kept = allowed.size ? matches.filter(d => [...allowed.values()].every(set => set.has(d))) : matches.slice()
  if (terms.length)
    /* ties by paper number: stable from build to build, though not by title (order.bin is
     * not fetched before a first answer: 100 KB at 50,000 papers) */
    kept.sort((a, b) => matched[b] - matched[a] || total[b] - total[a] || a - b)
  else  /* filters only: newest first, then by title */
    kept.sort((a, b) => f.year[b] - f.year[a] || byTitle[a] - byTitle[b])
  return { terms, exclude, phrases, filters, f, perTerm, total, matched, matches, allowed, kept, ranked: [], at: 0 }
}

/* The answer with up to `limit` papers: their data is fetched for the papers shown, in
 * batches, since a "phrase" is checked on the text (papers that fail it are skipped).
 * Called again with a larger limit, it goes on where it stopped. */
async function present(r, limit) {
  const { terms, phrases, f, perTerm, total, matched, matches, allowed, kept, ranked } = r
  while (r.at < kept.length && ranked.length < limit) {
    const batch = kept.slice(r.at, r.at + Math.max(limit - ranked.length, FIRST))
    const data = await Promise.all(batch.map(d => fetched(`d/${d}.json`, "json")))
    let used = 0  /* papers fetched but not reached stay for the next call (fetched keeps them) */
    for (; used < batch.length && ranked.length < limit; used++) {
      const d = batch[used], doc = data[used]
      const haystack = ` ${words(doc.title).join(" ")} ${words(doc.text).join(" ")} `
      if (phrases.every(p => hasPhrase(haystack, p)))
        ranked.push({ d, data: doc, matched: matched[d], score: total[d] })
    }
    r.at += used
  }

  const items = ranked.map(x => {
    const found = Object.fromEntries(terms.map((w, i) => [w, perTerm[i][x.d] > 0]))
    return item(x.data, found, marker(terms.filter(t => found[t])))
  })
  return { items, total: kept.length, matches, facets: f ? counts(f, matches, allowed) : null }
}

/* -- messages --------------------------------------------------------------- */

let latest = 0

/* The facets (half a megabyte at 50,000 papers) are fetched once the page has painted an
 * answer (search.js says so), or a second after one was posted: fetched as soon as
 * it was posted, they raced the first results to the screen and sometimes won. */
let painted = null
const paintedOnce = new Promise(resolve => { painted = resolve })
function afterPaint() {
  return Promise.race([paintedOnce, new Promise(resolve => setTimeout(resolve, 1000))])
}

/* The first ten results are posted once their data is in, and the answer again with all
 * SHOWN (each result's data is a request of its own, most of a later query's time). */
async function answer(query, seq) {
  let out
  try {
    const r = await rank(query)
    if (r === null) {
      out = { items: [], total: 0, matches: [], facets: null }
    } else {
      out = await present(r, FIRST)
      if (r.at < r.kept.length && out.items.length >= FIRST) {
        if (seq !== latest)
          return
        postMessage({ type: RESULTS, query, items: out.items, total: out.total })
        out = await present(r, SHOWN)
      }
    }
  } catch (err) {
    console.warn(`search failed for ${JSON.stringify(query)}:`, err)
    out = { items: [], total: 0, matches: [], facets: null }
  }
  if (seq !== latest)
    return  /* a newer query was typed meanwhile: only its answer is shown */
  postMessage({ type: RESULTS, query, items: out.items, total: out.total })
  let counted = out.facets
  if (counted === null && out.total) {
    /* Counts for the filters: the facets arrive after the first answer. */
    try {
      await afterPaint()
      if (seq !== latest) return
      const f = await loadFacets(await loadMeta())
      if (seq !== latest) return
      counted = counts(f, out.matches, new Map())
    } catch (err) {
      console.warn("search filters unavailable:", err)
    }
  }
  postMessage({ type: SUMMARY, query, total: out.total, shown: out.items.length, facets: counted })
}

/* In: {type: QUERY, query} for each query typed; {type: SHOWN_ON_PAGE} once the page has
 * painted an answer. Out, per query (only the latest query's): {type: RESULTS, query,
 * items, total}, the first ten and then all, and {type: SUMMARY, query, total, shown,
 * facets}, which closes the answer. */
addEventListener("message", ev => {
  const message = ev.data
  switch (message && message.type) {
    case QUERY:
      answer(String(message.query), ++latest)
      break
    case SHOWN_ON_PAGE:
      painted()
      break
    default:
      console.warn("search worker: unknown message", message && message.type)
  }
})

/* The shard keys, before the first query needs them: the worker starts when the search
 * box is about to be used. */
loadMeta().catch(err => console.warn("search index unavailable:", err))
