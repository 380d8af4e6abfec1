"""How derived titles and topics compare with the real ones on 5,180 real abstracts.

Reads ``../shared/titled`` in place (skips with a message when it is absent), titles
every abstract with :func:`generator.derive.title.first_titles` (the title each abstract would
get before clashes are resolved) and tags it with :func:`generator.derive.tag.tag_texts`,
then prints, per venue and overall, with the abstract's first 12 words as a baseline:

- R1: ROUGE-1 F on content words (lower-cased runs of [a-z0-9] minus STOP);
- none: share of titles sharing no content word with the real title;
- names: among real titles ``Name: ...`` (one word) whose Name is a word of the abstract,
  the share whose derived title holds Name;
- frag: titles ending in a word that cannot end a title (``title_checks.yml``) or
  holding fewer than two content words;
- generic: titles every content word of which is in more than 5% of the abstracts;
- the editor's grades (``data/title_grades.jsonl``, ``shared/title_rubric.md``): good,
  acceptable and bad with their failure classes per split, counting only titles still the
  ones graded; the others changed since and need grading again (``--regrade FILE`` writes
  them, with their abstracts, for a grader that never sees the real titles);
- the mechanical checks of :mod:`benchmarks.title_checks` (a title that cannot end where it
  ends, broken tokens, a known method as the name, phrases of different sentences joined)
  on the fitted and reported-on venues and on all abstracts;
- topic agreement for ICLR and VIS author keywords that name a field: the best F1 of
  any one topic against the papers with that keyword, and their mean; and the share
  of papers given the catch-all topic.

It asserts nothing. ``--show N`` prints N seeded random papers with both titles.

    .venv/bin/python -m benchmarks.titles [--show 30] [--seed 11] [--runs 3] [--regrade FILE]
"""
from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from benchmarks.title_checks import CANNOT_END, CHECKS, check
from benchmarks.titled import available, load_titled, skip_message

STOP = frozenset(
    "a an the of for and in on with to via from by is are we our this that at as into using "
    "under towards toward its their be can".split()
)
_WORD = re.compile(r"[a-z0-9]+")
FIELDS = (
    "reinforcement learning", "generative adversarial networks", "adversarial examples",
    "natural language processing", "meta-learning", "interpretability", "variational inference",
    "domain adaptation", "semi-supervised learning", "machine translation", "imitation learning",
    "question answering", "model compression", "visualization",
)
GENERIC_SHARE = 0.05
GRADES = Path(__file__).with_name("data") / "title_grades.jsonl"
GRADE_NAMES = ("good", "acceptable", "bad")


def content(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in STOP]


def rouge1(derived: str, real: str) -> float:
    d, r = Counter(content(derived)), Counter(content(real))
    overlap = sum((d & r).values())
    if not overlap:
        return 0.0
    p, q = overlap / sum(d.values()), overlap / sum(r.values())
    return 2 * p * q / (p + q)


def is_fragment(title: str) -> bool:
    words = re.findall(r"[\w'’-]+", title.lower())
    return not words or words[-1] in CANNOT_END or len(content(title)) < 2


def method_name(real: str, text: str) -> str:
    """The Name of a real title ``Name: ...`` when it is one word the abstract uses, else ''."""
    name, colon, _ = real.partition(":")
    name = name.strip()
    if not colon or not name or " " in name or not _holds(text, name):
        return ""
    return name


def _holds(text: str, word: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(word)}(?![A-Za-z0-9])", text) is not None


def first_words(text: str, n: int = 12) -> str:
    return " ".join(text.split()[:n])


def measure(rows, titles, df, n_docs) -> dict[str, float]:
    """The figures of one group of papers (rows with their derived titles)."""
    n = len(rows)
    r1 = [rouge1(t, r.title) for r, t in zip(rows, titles)]
    base = [rouge1(first_words(r.text), r.title) for r in rows]
    named = [(r, t, m) for r, t in zip(rows, titles) if (m := method_name(r.title, r.text))]
    generic = [t for t in titles if (c := set(content(t))) and all(df[w] > GENERIC_SHARE * n_docs for w in c)]
    return {
        "n": n,
        "R1": statistics.fmean(r1),
        "R1 first12": statistics.fmean(base),
        "none": sum(x == 0 for x in r1) / n,
        "none first12": sum(x == 0 for x in base) / n,
        "names": f"{sum(_holds(t, m) for _, t, m in named)}/{len(named)}",
        "names share": sum(_holds(t, m) for _, t, m in named) / len(named) if named else float("nan"),
        "frag": sum(map(is_fragment, titles)) / n,
        "generic": len(generic) / n,
    }


COLUMNS = ("n", "R1", "R1 first12", "none", "none first12", "names", "names share", "frag", "generic")


def table(groups: dict[str, dict]) -> str:
    head = f"{'venue':<16}" + "".join(f"{c:>13}" for c in COLUMNS)
    lines = [head, "-" * len(head)]
    for name, m in groups.items():
        cells = []
        for c in COLUMNS:
            v = m[c]
            cells.append(f"{v:>13}" if isinstance(v, (int, str)) else f"{v:>13.3f}")
        lines.append(f"{name:<16}" + "".join(cells))
    return "\n".join(lines)


def _folded(phrase: str) -> str:
    """Lower case, hyphens as spaces, no plural s: "Meta-Learning" = "meta learning"."""
    return " ".join(w[:-1] if w.endswith("s") and len(w) > 3 else w for w in re.findall(r"[a-z0-9]+", phrase.lower()))


def names_field(keyword: str, field: str, exact: bool) -> bool:
    """Does an author keyword name the field? Exactly, or (not ``exact``) as its whole words:
    "neural machine translation" and "multi-modal imitation learning" name their fields."""
    k, f = _folded(keyword), _folded(field)
    return k == f if exact else f" {f} " in f" {k} "


def topic_agreement(rows, tags, catch_all: str, exact: bool = False) -> tuple[list[tuple[str, int, str, float]], float, float]:
    """Per field: (field, papers with the keyword, best topic, its F1); the mean F1; catch-all share."""
    keyed = [(r, set(t)) for r, t in zip(rows, tags) if r.venue.startswith(("iclr", "vis"))]
    out = []
    topics = sorted({t for _, ts in keyed for t in ts})
    for field in FIELDS:
        holders = {i for i, (r, _) in enumerate(keyed) if any(names_field(k, field, exact) for k in r.keywords)}
        best = ("", 0.0)
        for topic in topics:
            tagged = {i for i, (_, ts) in enumerate(keyed) if topic in ts}
            hit = len(tagged & holders)
            f1 = 2 * hit / (len(tagged) + len(holders)) if hit else 0.0
            if f1 > best[1]:
                best = (topic, f1)
        out.append((field, len(holders), *best))
    share = sum(catch_all in t for t in tags) / len(tags)
    return out, statistics.fmean(f for *_, f in out), share


def load_grades(path: Path = GRADES) -> list[dict]:
    """The editor's grades: one per line, keyed by ``file`` (relative to ``shared/``) and ``line``."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def graded_key(row) -> str:
    """The key of a titled abstract in the grades file: ``titled/<file>:<line>``."""
    return f"titled/{row.where}"


def editor(grades: list[dict], current: dict[str, str]) -> dict[str, dict]:
    """Per split: grade and class counts of the titles still as graded, and how many changed."""
    out: dict[str, dict] = {}
    for g in grades:
        split = out.setdefault(g["split"], {"n": 0, "changed": 0, "grades": Counter(), "classes": Counter()})
        split["n"] += 1
        now = current.get(f"{g['file']}:{g['line']}")
        if now != g["title"]:
            split["changed"] += 1
            continue
        split["grades"][g["grade"]] += 1
        if g["grade"] != "good":
            split["classes"][g["class"] or "other"] += 1
    return out


def editor_table(figures: dict[str, dict]) -> str:
    lines = []
    for split in sorted(figures, key=lambda s: (s != "fit", s)):
        f = figures[split]
        kept = f["n"] - f["changed"]
        grades = "  ".join(f"{g} {f['grades'][g]}" for g in GRADE_NAMES)
        lines.append(f"{split:<8} {kept}/{f['n']} titles as graded: {grades};  {f['changed']} changed, to grade again")
        if f["classes"]:
            lines.append(f"{'':<8} not good, by class: " + ", ".join(f"{c} {n}" for c, n in f["classes"].most_common()))
    return "\n".join(lines)


def check_table(groups: dict[str, list[tuple[str, str]]]) -> str:
    """Per group of (title, abstract): how many titles fail each check, and any."""
    head = f"{'':<16}{'n':>7}" + "".join(f"{c:>12}" for c in CHECKS) + f"{'any':>8}"
    lines = [head, "-" * len(head)]
    for name, pairs in groups.items():
        results = [check(t, a) for t, a in pairs]
        counts = [sum(r[c] for r in results) for c in CHECKS]
        anyone = sum(any(r.values()) for r in results)
        n = len(pairs)
        lines.append(f"{name:<16}{n:>7}" + "".join(f"{k:>6} {k / n:>5.1%}" for k in counts) + f"{anyone:>8}")
    return "\n".join(lines)


def write_regrade(path: Path, grades: list[dict], rows, titles: list[str], split: str = "report") -> int:
    """The changed titles of one split's graded abstracts, with their abstracts (never the real
    titles), one JSON object a line, for grading again; how many were written."""
    by_key = {graded_key(r): (r, t) for r, t in zip(rows, titles)}
    out = []
    for g in grades:
        r, t = by_key[f"{g['file']}:{g['line']}"]
        if g["split"] == split and t != g["title"]:
            out.append(json.dumps({"file": g["file"], "line": g["line"], "abstract": r.text, "title": t}, ensure_ascii=False))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{line}\n" for line in out), encoding="utf-8")
    return len(out)


def mission() -> int:
    """The derived titles of the repository's own seeds (no truth: they are read by eye)."""
    from generator.derive.title import title_papers
    from generator.seeds.parse import parse_all
    from generator.seeds.read import read_seeds, seed_paths

    repo = Path(__file__).resolve().parents[1]
    papers = parse_all(read_seeds(seed_paths([repo / "seeds"])))
    for p in sorted(title_papers(papers), key=lambda p: p.source):
        print(f"{p.source}  {p.title}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--show", type=int, default=0, help="print this many seeded random papers")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--mission", action="store_true", help="print the titles of the repository's seeds/ only")
    ap.add_argument("--runs", type=int, default=3, help="time the titling this many times")
    ap.add_argument("--regrade", type=Path, help="write the changed titles of the report split's graded abstracts here")
    args = ap.parse_args()
    if args.mission:
        return mission()
    if not available():
        print(skip_message())
        return 0
    from generator.derive.tag import load_taxonomy, tag_texts
    from generator.derive.title import first_titles

    rows = load_titled()
    texts = [r.text for r in rows]
    times = []
    for _ in range(max(1, args.runs)):
        start = time.perf_counter()
        titles = first_titles(texts)
        times.append(time.perf_counter() - start)
    topics = load_taxonomy()
    tags = [t for t, _ in tag_texts(texts, topics)]
    df = Counter(w for t in texts for w in set(content(t)))
    groups: dict[str, list[int]] = {}
    for i, r in enumerate(rows):
        groups.setdefault(r.venue, []).append(i)

    def of(idx: list[int]) -> dict:
        return measure([rows[i] for i in idx], [titles[i] for i in idx], df, len(rows))

    per_venue = {v: of(idx) for v, idx in groups.items()}
    per_venue["overall"] = of(list(range(len(rows))))
    print(f"Titles of {len(rows)} abstracts: {len(rows) / statistics.median(times):,.0f} titles/s "
          f"(median of {len(times)} runs, {statistics.median(times):.2f} s)\n")
    print(table(per_venue))
    print("\nFitted on (NeurIPS 2013-2018) vs reported on (ICLR, VIS, SIGDIAL, EEML):\n")
    print(table({"fitted on": of([i for i, r in enumerate(rows) if r.fitted]),
                 "reported on": of([i for i, r in enumerate(rows) if not r.fitted])}))
    grades = load_grades()
    current = {graded_key(r): t for r, t in zip(rows, titles)}
    print("\nThe editor's grades (data/title_grades.jsonl), of the titles still as graded:\n")
    print(editor_table(editor(grades, current)))
    print("\nMechanical checks (benchmarks/title_checks.py): titles that fail each, of n\n")
    pairs = [(t, r.text) for r, t in zip(rows, titles)]
    print(check_table({"fitted on": [p for p, r in zip(pairs, rows) if r.fitted],
                       "reported on": [p for p, r in zip(pairs, rows) if not r.fitted],
                       "all": pairs}))
    if args.regrade:
        print(f"\n{write_regrade(args.regrade, grades, rows, titles)} changed titles of the report split written to {args.regrade}")
    catch_all = next(t.name for t in topics if t.catch_all)
    fields, mean, share = topic_agreement(rows, tags, catch_all)
    exact, exact_mean, _ = topic_agreement(rows, tags, catch_all, exact=True)
    print("\nTopic agreement with ICLR and VIS author keywords (best F1 of one topic); a keyword names")
    print("a field when it holds the field's words (\"neural machine translation\"), or is exactly it:\n")
    print(f"{'keyword':<34}{'papers':>7}  {'best topic':<44}{'F1':>6}{'exact':>7}{'F1':>7}")
    for (field, n, topic, f1), (_, n2, _, f2) in zip(fields, exact):
        print(f"{field:<34}{n:>7}  {topic:<44}{f1:>6.3f}{n2:>7}{f2:>7.3f}")
    print(f"{'mean':<85}{mean:>6.3f}{'':>7}{exact_mean:>7.3f}")
    print(f"\nCatch-all topic ({catch_all}) on {share:.1%} of papers")
    from generator.derive.title.faithful import CONFIDENT
    from generator.derive.title.review import UNCERTAIN
    from generator.derive.title.choose import first_derived

    confs = [c for _, c in first_derived(texts)]
    print("\nConfidence of the derived titles (generator/derive/title/faithful.py), share per band:")
    for name, idx in (("fitted on", [i for i, r in enumerate(rows) if r.fitted]), ("reported on", [i for i, r in enumerate(rows) if not r.fitted])):
        cs = [confs[i] for i in idx]
        bands = [sum(lo <= c < hi for c in cs) / len(cs) for lo, hi in ((0, 0.5), (0.5, UNCERTAIN), (UNCERTAIN, CONFIDENT), (CONFIDENT, 1.01))]
        print(f"  {name:<12} <0.5 {bands[0]:.1%}  <{UNCERTAIN} (asked for) {bands[1]:.1%}  <{CONFIDENT} {bands[2]:.1%}  confident {bands[3]:.1%}")
    if args.show:
        # fitted venues only: the reported-on venues' real titles are for blind grading, not for reading
        rng = random.Random(args.seed)
        print(f"\n{args.show} random papers of the fitted venues (seed {args.seed}):")
        for i in sorted(rng.sample([i for i, r in enumerate(rows) if r.fitted], args.show)):
            print(f"\n[{rows[i].venue} {rows[i].where}]\n  real:    {rows[i].title}\n  derived: {titles[i]}  ({confs[i]:.2f})"
                  f"\n  tags:    {', '.join(tags[i])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
