"""Pagefind's side of the search comparison (issue 12, item 1: Pagefind or an index of our own).

Indexes a digest's papers.json with Pagefind (through the binary's ``--service``
mode, one record per paper: no HTML is parsed), serves the bundle on 127.0.0.1
with a bare harness page of its own (benchmarks/pagefind_harness.html) and
measures in Chromium, with the browser's clock (performance.now(), zero at
navigation start):

- indexing: seconds to add the records and to write the bundle; its bytes on
  disk and file count.
- first answer: a cold load (new browser context, empty cache) of the harness,
  which imports /pagefind/pagefind.js, runs ``pagefind.search(q)``, loads
  ``.data()`` of the first 10 results and puts them on the page; the time from
  navigation start until the frame after that (median of --runs loads).
- bytes transferred for that first query: the response bodies, counted by the
  server (Pagefind 1.5 fetches from a Web Worker, which the page's Resource
  Timing does not see) and by the browser (Playwright), with what gzip would make
  of the files that Pagefind does not already compress; and when the index
  chunks and the results' data arrived.
- later queries: benchmarks/search.py's query list on the same page, each from
  the call to the frame after its 10 results are shown.
- result quality: each mission paper (a paper whose abstract comes from a file
  in the repository's seeds/) searched for the rarest 4-word phrase of its
  abstract, typed without quotes; how many come first, and the median rank.
- query features: whether "phrase" search, -word exclusion and
  prefix-while-typing work, each checked by queries against the corpus's own
  counts.

Prints a table; asserts nothing. Timings depend on the machine's load: the
load average is printed with them.

    pip install -r benchmarks/requirements.txt   # Pagefind, for this benchmark only
    .venv/bin/python -m benchmarks.pagefind_side --site DIR   # DIR from benchmarks/site.py --keep DIR
    .venv/bin/python -m benchmarks.pagefind_side --papers 3300 [--runs 5] [--keep OUT] [--no-worker]

The binary is found as Pagefind's own wrapper finds it: $PAGEFIND_BINARY_PATH,
else the ``pagefind_bin`` package.
"""
from __future__ import annotations

import argparse
import base64
import functools
import gzip
import http.server
import json
import logging
import os
import queue
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from urllib.parse import quote

from benchmarks.corpus import read_abstracts, write_seeds
from benchmarks.search import FIRST_QUERY, QUERIES  # the same queries as our own index's benchmark
from benchmarks.site import prepare
from tests.support import CHROMIUM, CHROMIUM_ARGS  # the browser tests' Chromium and flags

REPO = Path(__file__).resolve().parents[1]

HARNESS = Path(__file__).with_name("pagefind_harness.html")
SHOWN = 10  # results whose data a reader's first screen needs
RANK_LIMIT = 200  # ranks past this are reported as "> RANK_LIMIT"
log = logging.getLogger("bench.pagefind")


# --------------------------------------------------------------------------- indexing

def pagefind_binary() -> Path:
    explicit = os.environ.get("PAGEFIND_BINARY_PATH")
    if explicit:
        return Path(explicit)
    try:
        from pagefind_bin import get_executable
    except ImportError:
        raise SystemExit("Pagefind is not installed: pip install -r benchmarks/requirements.txt "
                         "(or set PAGEFIND_BINARY_PATH to the binary)") from None
    return Path(get_executable())


class PagefindService:
    """The Pagefind binary in ``--service`` mode.

    Each message, both ways, is base64 of a JSON object {"message_id", "payload"}
    followed by a comma. Responses are read by a thread of their own, so a long
    stream of requests never blocks on a full stdout pipe.
    """

    def __init__(self, binary: Path) -> None:
        self.proc = subprocess.Popen([str(binary), "--service"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.responses: queue.Queue = queue.Queue()
        self.next_id = 0
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        pending = b""
        while chunk := self.proc.stdout.read1(1 << 16):
            pending += chunk
            *messages, pending = pending.split(b",")
            for m in messages:
                if m.strip():
                    self.responses.put(json.loads(base64.b64decode(m)))
        self.responses.put(None)  # the binary exited

    def _send(self, payload: dict) -> int:
        self.next_id += 1
        self.proc.stdin.write(base64.b64encode(json.dumps({"message_id": self.next_id, "payload": payload}).encode()) + b",")
        return self.next_id

    def _receive(self, timeout: float = 600) -> dict:
        msg = self.responses.get(timeout=timeout)
        if msg is None:
            raise RuntimeError(f"pagefind --service exited with {self.proc.wait()}")
        payload = msg["payload"]
        if payload.get("type") == "Error":
            raise RuntimeError(f"pagefind: {payload.get('message')} (request {payload.get('original_message')})")
        return payload

    def request(self, payload: dict) -> dict:
        self._send(payload)
        self.proc.stdin.flush()
        return self._receive()

    def stream(self, payloads: list[dict]) -> list[dict]:
        """Send all of ``payloads`` from a thread while collecting as many responses."""
        failure: list[BaseException] = []

        def write() -> None:
            try:
                for p in payloads:
                    self._send(p)
                self.proc.stdin.flush()
            except BaseException as e:  # noqa: BLE001 - reported by the caller
                failure.append(e)

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        out = [self._receive() for _ in payloads]
        writer.join()
        if failure:
            raise failure[0]
        return out

    def close(self) -> None:
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def has_code(paper: dict) -> bool:
    return any(link.get("kind") == "code" for link in paper.get("links", []))


def record(paper: dict, index_id: int) -> dict:
    url = "/" + paper["url"].lstrip("/")
    filters = {"venue": [paper["venue"]], "year": [str(paper["year"])], "code": ["yes" if has_code(paper) else "no"]}
    if paper.get("tags"):
        filters["topic"] = list(paper["tags"])
    return {
        "type": "AddRecord", "index_id": index_id, "url": url, "language": "en",
        "content": f"{paper['title']}. {paper['abstract']}",
        "meta": {"title": paper["title"], "venue": f"{paper['venue']} {paper['year']}", "url": url},
        "filters": filters,
        "sort": {"title": paper["title"].casefold(), "year": str(paper["year"])},
    }


def build_index(papers: list[dict], out: Path) -> dict:
    """Write the Pagefind bundle of ``papers`` into ``out``; seconds for each step."""
    binary = pagefind_binary()
    version = subprocess.run([str(binary), "--version"], capture_output=True, text=True).stdout.strip()
    t0 = time.perf_counter()
    service = PagefindService(binary)
    try:
        index_id = service.request({"type": "NewIndex", "config": {"force_language": "en"}})["index_id"]
        t1 = time.perf_counter()
        added = service.stream([record(p, index_id) for p in papers])
        bad = [a for a in added if a.get("type") != "IndexedFile"]
        if bad:
            raise RuntimeError(f"pagefind answered {bad[0]} to a record")
        t2 = time.perf_counter()
        service.request({"type": "WriteFiles", "index_id": index_id, "output_path": str(out)})
        t3 = time.perf_counter()
    finally:
        service.close()
    return {"version": version, "start": t1 - t0, "add": t2 - t1, "write": t3 - t2,
            "words": sum(a.get("page_word_count", 0) for a in added)}


def bundle_sizes(out: Path) -> dict[str, tuple[int, int]]:
    """(files, bytes) of the bundle by kind of file, and in all."""
    kinds: dict[str, list[int]] = {}
    for f in out.rglob("*"):
        if f.is_file():
            rel = f.relative_to(out).as_posix()
            kind = rel.split("/")[0] if "/" in rel else ("wasm" if "wasm" in rel else "js, css, entry")
            kinds.setdefault(kind, []).append(f.stat().st_size)
    sizes = {k: (len(v), sum(v)) for k, v in sorted(kinds.items())}
    sizes["all"] = (sum(n for n, _ in sizes.values()), sum(b for _, b in sizes.values()))
    return sizes


# --------------------------------------------------------------------------- phrases and mission papers

_URL = re.compile(r"\S+://\S+")
_LATEX = re.compile(r"\\[A-Za-z]+")
_LETTERS = re.compile(r"[^\W\d_]+")


def words(text: str) -> list[str]:
    """The words a reader would type from an abstract: letters only, lower case, without URLs or LaTeX commands."""
    return [w.casefold() for w in _LETTERS.findall(_LATEX.sub(" ", _URL.sub(" ", text)))]


def grams(ws: list[str], n: int = 4) -> list[str]:
    return [" ".join(ws[i:i + n]) for i in range(len(ws) - n + 1)]


_WORDLIKE = re.compile(r"[^\W_]+")
_BREAK = re.compile(r"\S+://\S+|\\[A-Za-z]+")


def phrases(text: str) -> list[str]:
    """The word 4-grams a reader could type from ``text``: words that stand next to each other
    in it (a URL, LaTeX command or number between two words breaks the run), lower case."""
    out = []
    for part in _BREAK.split(text):
        run: list[str] = []
        for token in _WORDLIKE.findall(part) + ["0"]:
            if any(c.isdigit() for c in token):
                out += grams(run)
                run = []
            else:
                run.append(token.casefold())
    return out


def rarest_phrases(targets: list[dict], papers: list[dict]) -> dict[str, tuple[str, int]]:
    """For each target paper: its word 4-gram found in the fewest papers, and that count.

    Ties (most 4-grams are in one paper only) go to the 4-gram of the rarest words
    (the smallest sum of its words' paper counts), then to the earliest.
    """
    wanted = {p["id"]: phrases(p["abstract"]) for p in targets}
    pool = {g for gs in wanted.values() for g in gs}
    vocabulary = {w for g in pool for w in g.split()}
    counts: Counter = Counter()
    word_counts: Counter = Counter()
    for p in papers:
        ws = words(p["abstract"])
        counts.update(pool.intersection(phrases(p["abstract"])))
        word_counts.update(vocabulary.intersection(ws))
    out = {}
    for pid, gs in wanted.items():
        if gs:
            best = min(range(len(gs)), key=lambda i: (counts[gs[i]], sum(word_counts[w] for w in gs[i].split()), i))
            out[pid] = (gs[best], counts[gs[best]])
    return out


def mission_papers(papers: list[dict]) -> list[dict]:
    """Papers from the repository's seeds/: by source file (a build of the real seeds) or,
    in a synthetic digest (benchmarks/corpus.py copies the originals into files of its
    own), by an abstract identical to one of them."""
    seeds = REPO / "seeds"
    originals = {" ".join(a.text.split()) for a in read_abstracts((seeds,))}
    names = {p.name for p in seeds.glob("*.txt")}
    return [p for p in papers
            if any(Path(s["file"]).name in names and not Path(s["file"]).name.startswith("bench-") for s in p.get("sources", []))
            or " ".join(p["abstract"].split()) in originals]


# --------------------------------------------------------------------------- serving and measuring

class CountingHandler(http.server.SimpleHTTPRequestHandler):
    """Serves a folder and records (path, body bytes) of every response."""
    # Persistent connections, as a real host keeps them (HTTP/1.0, the default, opens one per file).
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # or each small response waits out a delayed ACK

    sent: list[tuple[str, int]]

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass

    def copyfile(self, source, outputfile) -> None:  # noqa: ANN001
        n = 0
        while chunk := source.read(1 << 16):
            outputfile.write(chunk)
            n += len(chunk)
        self.sent.append((self.path.split("?")[0], n))


def serve(directory: Path) -> tuple[http.server.ThreadingHTTPServer, str, list]:
    sent: list[tuple[str, int]] = []
    handler = type("Handler", (CountingHandler,), {"sent": sent})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/", sent


def gzipped_size(root: Path, path: str) -> int:
    """What the file would cost over gzip (as GitHub Pages serves text); Pagefind's gzipped chunks as they are."""
    data = (root / path.lstrip("/")).read_bytes() if path != "/" else (root / "index.html").read_bytes()
    return len(data) if data[:2] == b"\x1f\x8b" else len(gzip.compress(data, 6))


def cold_load(browser, url: str, sent: list, root: Path) -> dict:
    """One reader: new context, open the harness, first answer, then the later queries.

    Bytes are counted by the server: Pagefind 1.5 fetches from a Web Worker, whose
    requests the page's own Resource Timing does not list. Playwright sees them and
    gives the browser's side of the count and the timeline.
    """
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    seen: list = []
    context.on("requestfinished", lambda request: seen.append(request))
    try:
        page = context.new_page()
        sent.clear()
        page.goto(url + "&q=" + quote(FIRST_QUERY), wait_until="commit")
        page.wait_for_function("() => window.bench && window.bench.first", timeout=60_000, polling=50)
        first = page.evaluate("() => window.bench.first")
        server_first = list(sent)
        browser_first = list(seen)
        later = []
        for q in QUERIES:
            sent.clear()
            r = page.evaluate("q => window.bench.run(q)", q)
            later.append({"q": q, "s": r["ms"] / 1000, "total": r["total"], "bytes": sum(n for _, n in sent)})
        nav = next((r for r in browser_first if r.resource_type == "document"), None)
        t0 = nav.timing["startTime"] if nav else 0.0
        ends: dict[str, list[float]] = {}
        starts: dict[str, list[float]] = {}
        body = 0
        for r in browser_first:
            if "/pagefind/" not in r.url:
                continue
            kind = r.url.split("?")[0].rsplit(".", 1)[-1]
            starts.setdefault(kind, []).append((r.timing["startTime"] - t0) / 1000)
            ends.setdefault(kind, []).append((r.timing["startTime"] + r.timing["responseEnd"] - t0) / 1000)
            body += r.sizes()["responseBodySize"]
        pagefind_srv = [(p, n) for p, n in server_first if p.startswith("/pagefind/")]
        return {
            "first": first["at"] / 1000, "ready": first["ready"] / 1000, "total": first["total"],
            "requests": len(pagefind_srv), "server_bytes": sum(n for _, n in pagefind_srv), "browser_bytes": body,
            "gzip_bytes": sum(gzipped_size(root, p) for p, _ in pagefind_srv),
            "page_bytes": sum(n for p, n in server_first if not p.startswith("/pagefind/")),
            "files": sorted(pagefind_srv, key=lambda x: -x[1]),
            "meta_in": max(ends.get("pf_meta", []) + ends.get("pagefind", []), default=float("nan")),
            "index_in": max(ends.get("pf_index", []), default=float("nan")),
            "fragments_asked": min(starts.get("pf_fragment", []), default=float("nan")),
            "later": later,
        }
    finally:
        context.close()


def probe(page, papers: list[dict], missions: list[dict], sent: list) -> dict:
    """Result quality and query features, by queries on one loaded harness page."""
    phrases = rarest_phrases(missions, papers)
    ranks = []
    for p in missions:
        if p["id"] not in phrases:
            continue
        phrase, df = phrases[p["id"]]
        url = "/" + p["url"].lstrip("/")
        r = page.evaluate("([q, url, limit]) => window.bench.rank(q, url, limit)", [phrase, url, RANK_LIMIT])
        quoted = page.evaluate("([q, url, limit]) => window.bench.rank(q, url, limit)", [f'"{phrase}"', url, RANK_LIMIT])
        ranks.append({"id": p["id"], "phrase": phrase, "df": df, "rank": r["rank"], "total": r["total"],
                      "quoted": quoted["rank"], "quoted_total": quoted["total"]})

    docs = [set(words(f"{p['title']}. {p['abstract']}")) for p in papers]
    texts = [" ".join(words(f"{p['title']}. {p['abstract']}")) for p in papers]
    df = Counter(w for d in docs for w in d)
    features = {}

    def has(ws, term: str) -> bool:
        """A word starting with ``term`` (Pagefind stems words and matches the last one as a prefix)."""
        return any(w.startswith(term) for w in ws)

    def having(*terms: str, without: str | None = None) -> int:
        return sum(1 for d in docs if all(has(d, t) for t in terms) and not (without and has(d, without)))

    def adjacent(ws: list[str], phrase: str) -> bool:
        """The phrase's words next to each other, each with any ending (Pagefind matches stems)."""
        a, b = (w[:max(3, len(w) - 3)] for w in phrase.split())
        return any(x.startswith(a) and y.startswith(b) for x, y in zip(ws, ws[1:]))

    def run(q: str, n: int = 20) -> dict:
        r = page.evaluate("([q, n]) => window.bench.run(q, n)", [q, n])
        r["words"] = [words(c) for c in r.pop("contents")]
        return r

    # "phrase": two common words that stand together in only some of the papers that have both.
    bigrams = Counter(g for t in texts for g in set(grams(t.split(), 2)))
    common = len(papers) // 5
    candidates = []
    for g, n in sorted(bigrams.items()):  # sorted: the same pick on every run
        a, b = g.split()
        if a == b or len(a) < 5 or len(b) < 5 or not 20 <= n <= 300 or max(df[a], df[b]) > len(papers) // 2:
            continue
        both = sum(1 for d in docs if a in d and b in d)
        if both >= 3 * n:
            candidates.append((n, both, g))
            if len(candidates) >= 5:
                break
    n_phrase, n_both, phrase = sorted(candidates)[0]
    plain, quoted = run(phrase), run(f'"{phrase}"')
    together = sum(1 for ws in quoted["words"] if adjacent(ws, phrase))
    n_adjacent = sum(1 for t in texts if adjacent(t.split(), phrase))
    features["phrase"] = {
        "yes": 0 < quoted["total"] < plain["total"] and together == len(quoted["words"]),
        "evidence": (f'{phrase} -> {plain["total"]} results, "{phrase}" -> {quoted["total"]} '
                     f"({together} of its first {len(quoted['words'])} have the words together, any ending); corpus: "
                     f"{n_both} papers with both words, {n_phrase} with exactly {phrase!r}, {n_adjacent} with any ending"),
    }

    # -word: a common word, minus a word that often comes with it.
    a = "diffusion"
    b = max(sorted(w for w in df if len(w) >= 5 and w != a and len(papers) // 50 <= df[w] <= common),
            key=lambda w: sum(1 for d in docs if a in d and w in d))
    only, minus = run(a), run(f"{a} -{b}")
    with_b = sum(1 for ws in minus["words"] if has(ws, b))
    features["exclude"] = {
        "yes": 0 < minus["total"] < only["total"] and with_b == 0,
        "evidence": (f"{a} -> {only['total']} results, {a} -{b} -> {minus['total']} "
                     f"({with_b} of its first {len(minus['words'])} contain {b}*); corpus: "
                     f"{having(a, b)} papers with both, {having(a, without=b)} with {a} and not {b}*"),
    }

    # prefix while typing: the first query, one letter at a time from the last word's third letter.
    head, last = FIRST_QUERY.rsplit(" ", 1)
    steps = []
    for k in range(3, len(last) + 1):
        q = f"{head} {last[:k]}"
        r = run(q, 10)
        steps.append((q, r["total"], sum(1 for ws in r["words"] if has(ws, last[:k])), len(r["words"])))
    word = "reconstruction"
    bare = run(word[:6], 10)
    features["prefix"] = {
        "yes": all(t > 0 and ok == n for _, t, ok, n in steps) and bare["total"] >= df[word],
        "evidence": "; ".join(f"{q!r} {t}" for q, t, _, _ in steps)
                    + f"; {word[:6]!r} {bare['total']} (papers with the word {word!r}: {df[word]})",
    }

    # all words: two words, each alone in many papers; does every result have both?
    a, b = "music", "graph"
    pair = run(f"{a} {b}", 50)
    both = sum(1 for ws in pair["words"] if has(ws, a) and has(ws, b))
    features["all words"] = {
        "yes": both == len(pair["words"]) > 0,
        "evidence": (f"{a} {b} -> {pair['total']} results ({both} of its first {len(pair['words'])} have both); "
                     f"corpus: {having(a, b)} papers with both, {having(a)} with {a}*, {having(b)} with {b}*"),
    }

    # filters: topic, venue, year and code with the words, and counts for each value.
    a = "diffusion"
    with_code = [p for p, d in zip(papers, docs) if a in d and has_code(p)]
    code = "yes" if with_code else "no"
    with_code = with_code or [p for p, d in zip(papers, docs) if a in d]
    year = str(Counter(p["year"] for p in with_code).most_common(1)[0][0])
    topic = Counter(t for p in with_code if str(p["year"]) == year for t in p.get("tags", [])).most_common(1)[0][0]
    chosen = {"year": year, "code": code, "topic": topic}
    flt = page.evaluate("""async ([q, filters]) => {
        const all = await pagefind.filters();
        const s = await pagefind.search(q, {filters});
        const data = await Promise.all(s.results.slice(0, 20).map(r => r.data()));
        return {total: s.results.length, unfiltered: s.unfilteredResultCount, kinds: Object.keys(s.filters || {}),
                all: Object.keys(all), code: (s.filters || {}).code || null,
                matching: data.filter(d => Object.entries(filters).every(([k, v]) => (d.filters[k] || []).includes(v))).length,
                shown: data.length};
    }""", [a, chosen])
    filter_files = [(p, n) for p, n in sent if "/filter/" in p]  # since the page opened
    flt["files"], flt["bytes"] = len(filter_files), sum(n for _, n in filter_files)
    features["filters"] = {
        "yes": flt["matching"] == flt["shown"] and {"topic", "venue", "year", "code"} <= set(flt["kinds"])
               and flt["total"] <= flt["unfiltered"],
        "evidence": (f"{a} with year {year}, code {code}, topic {topic!r} -> {flt['total']} of {flt['unfiltered']} "
                     f"({flt['matching']} of the first {flt['shown']} carry all three; corpus: "
                     f"{sum(1 for p, d in zip(papers, docs) if has(d, 'diffus') and str(p['year']) == year and has_code(p) == (code == 'yes') and topic in p.get('tags', []))}"
                     f" with diffus*); counts for {', '.join(flt['kinds'])}; filter files fetched "
                     f"by then: {flt['files']}, {kb(flt['bytes'])}"),
    }
    return {"ranks": ranks, "features": features}


# --------------------------------------------------------------------------- the digest

def papers_json(site: Path) -> Path:
    for candidate in (site / "site" / "papers.json", site / "docs" / "papers.json", site / "papers.json"):
        if candidate.is_file():
            return candidate
    raise SystemExit(f"no papers.json in {site}, {site}/site or {site}/docs")


def generate(dest: Path, papers: int) -> Path:
    """A synthetic digest of ``papers`` papers (seeds and generated docs; no mkdocs build, the harness is its own page)."""
    dest.mkdir(parents=True)
    prepare(dest)
    write_seeds(dest / "seeds", papers)
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run([sys.executable, "-m", "generator", "build"], cwd=dest, env=env, check=True,
                   capture_output=True)
    return dest


# --------------------------------------------------------------------------- report

def kb(n: float) -> str:
    return f"{n / 1000:,.1f} KB"


def report(args, count: int, source: Path, built: dict, sizes: dict, runs: list[dict], quality: dict, load: tuple) -> None:
    mode = "search on the page's thread (noWorker)" if args.no_worker else "Pagefind's default search thread"
    print(f"\nPagefind side, {built['version']}, {mode}, {count:,} papers ({source}); {args.runs} cold loads in Chromium on "
          f"127.0.0.1; load average {load[0]:.1f} before, {os.getloadavg()[0]:.1f} after (2 shared cores: "
          f"timings under load)\n")
    rows: list[tuple[str, str, str]] = []

    def row(name: str, value: str, note: str = "") -> None:
        rows.append((name, value, note))

    def runs_of(key: str, fmt=lambda v: f"{v:.3f}") -> str:
        return ", ".join(fmt(r[key]) for r in runs)

    row("index: add records", f"{built['add']:.2f} s", f"binary start {built['start']:.2f} s; {built['words']:,} words")
    row("index: write bundle", f"{built['write']:.2f} s")
    n, b = sizes["all"]
    row("index: on disk", f"{b / 1e6:.1f} MB", f"{n:,} files")
    for kind, (kn, kbytes) in sizes.items():
        if kind != "all":
            row(f"  {kind}", f"{kbytes / 1e6:.2f} MB", f"{kn:,} files")
    r0 = runs[0]
    med = lambda key: statistics.median(r[key] for r in runs)  # noqa: E731
    row(f"first answer {FIRST_QUERY!r} (median)", f"{med('first'):.3f} s",
        "runs " + runs_of("first") + "; target <= 1.0 s at 20,000")
    row("  pagefind.js imported", f"{med('ready'):.3f} s", "runs " + runs_of("ready"))
    row("  meta and wasm received", f"{med('meta_in'):.3f} s")
    row("  index chunks for the words received", f"{med('index_in'):.3f} s")
    row("  results ranked, their data asked for", f"{med('fragments_asked'):.3f} s",
        f"{r0['total']:,} results; data of the first {SHOWN} loaded" if r0["total"]
        else "NO RESULTS: the first answer is empty")
    row("first query: bytes transferred", kb(med("server_bytes")),
        f"{r0['requests']} requests, response bodies counted by the server, no HTTP compression; target <= 600 KB")
    row("  as the browser saw them", kb(med("browser_bytes")), "Playwright's body sizes (it gives 0 for the worker script)")
    row("  if the host gzips js/json", kb(med("gzip_bytes")), "Pagefind's index files are gzip already")
    row("  harness page itself (not counted)", kb(r0["page_bytes"]))
    per_run = [statistics.median(q["s"] for q in r["later"]) for r in runs]
    all_later = [q["s"] for r in runs for q in r["later"]]
    row(f"later query (median of {len(QUERIES)} per load)", f"{statistics.median(per_run):.3f} s",
        "runs " + ", ".join(f"{v:.3f}" for v in per_run) + "; target <= 0.1 s")
    row("  all loads: median / slowest", f"{statistics.median(all_later):.3f} s", f"slowest {max(all_later):.3f} s")
    row("  bytes per later query (median)", kb(statistics.median(q["bytes"] for r in runs for q in r["later"])))
    ranks = quality["ranks"]
    known = [r["rank"] if r["rank"] is not None else RANK_LIMIT + 1 for r in ranks]
    firsts = sum(1 for r in ranks if r["rank"] == 1)
    row("mission papers first for rarest phrase", f"{firsts} of {len(ranks)}",
        "4-word phrase typed without quotes; target: each first")
    if known:
        row("  median rank", f"{statistics.median(known):g}", f"worst {max(known) if max(known) <= RANK_LIMIT else f'> {RANK_LIMIT}'}")
    quoted_first = sum(1 for r in ranks if r["quoted"] == 1)
    row("  the same phrase in quotes", f"{quoted_first} of {len(ranks)}",
        f"first; median rank {statistics.median(r['quoted'] or RANK_LIMIT + 1 for r in ranks):g}" if ranks else "")
    for name, f in quality["features"].items():
        row(f"feature: {name}", "yes" if f["yes"] else "no", f["evidence"])

    width = max(len(r[0]) for r in rows)
    vwidth = max(len(r[1]) for r in rows)
    print(f"{'measure':<{width}}  {'value':>{vwidth}}  note")
    print("-" * (width + vwidth + 8))
    for name, value, note in rows:
        print(f"{name:<{width}}  {value:>{vwidth}}  {note}")

    print(f"\nfirst query's files (load 1): " + ", ".join(f"{p.rsplit('/', 1)[-1]} {kb(n)}" for p, n in r0["files"]))
    print("later queries (load 1): " + "  ".join(f"{q['q']!r} {q['s'] * 1000:.0f}ms/{q['total']}" for q in r0["later"]))
    misses = [r for r in ranks if r["rank"] != 1 or r["quoted"] != 1]
    if misses:
        print("mission papers not first (plain or quoted): " + "; ".join(
            f"{r['id']} {r['phrase']!r} (in {r['df']} papers) rank {r['rank'] or f'> {RANK_LIMIT}'} of {r['total']}"
            f" (quoted: {r['quoted'] or f'> {RANK_LIMIT}'} of {r['quoted_total']})"
            for r in misses))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--site", type=Path, help="a digest folder (from benchmarks/site.py --keep DIR) or a built site folder")
    where.add_argument("--papers", type=int, default=3300, help="generate a synthetic digest of this many papers (default 3300)")
    ap.add_argument("--runs", type=int, default=5, help="cold page loads to measure (default 5)")
    ap.add_argument("--no-worker", action="store_true",
                    help="search on the page's thread (Pagefind 1.5's noWorker option) instead of its Web Worker")
    ap.add_argument("--keep", type=Path, help="write the served folder (harness and pagefind/) here and keep it")
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    if CHROMIUM is None:
        raise SystemExit("no Chromium found (/usr/bin/chromium, `chromium` or `google-chrome` on PATH)")

    load = os.getloadavg()
    tmp = Path(tempfile.mkdtemp(prefix="bench-pagefind-"))
    try:
        if args.site:
            source = papers_json(args.site)
        else:
            log.info("generating a digest of %d papers", args.papers)
            source = papers_json(generate(tmp / "digest", args.papers))
        papers = json.loads(source.read_text(encoding="utf-8"))["papers"]
        root = args.keep or tmp / "serve"
        shutil.rmtree(root / "pagefind", ignore_errors=True)
        root.mkdir(parents=True, exist_ok=True)
        shutil.copy(HARNESS, root / "index.html")
        log.info("indexing %d papers with Pagefind", len(papers))
        built = build_index(papers, root / "pagefind")
        sizes = bundle_sizes(root / "pagefind")
        missions = mission_papers(papers)
        log.info("indexed in %.1f s + %.1f s; %d mission papers", built["add"], built["write"], len(missions))

        server, url, sent = serve(root)
        url += f"?worker={0 if args.no_worker else 1}"
        from playwright.sync_api import sync_playwright

        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                runs = []
                for i in range(args.runs):
                    runs.append(cold_load(browser, url, sent, root))
                    log.info("load %d: first answer %.3f s", i + 1, runs[-1]["first"])
                context = browser.new_context(service_workers="block")
                page = context.new_page()
                sent.clear()
                page.goto(url, wait_until="load")
                page.wait_for_function("() => window.bench && window.bench.ready", timeout=60_000)
                quality = probe(page, papers, missions, sent)
                context.close()
                browser.close()
        finally:
            server.shutdown()
        report(args, len(papers), source, built, sizes, runs, quality, load)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        if args.keep:
            log.info("kept %s", args.keep)
    return 0


if __name__ == "__main__":
    sys.exit(main())
