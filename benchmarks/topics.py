"""How the derived topic tags compare with an expert's, on the labelled dev set.

Reads ``benchmarks/data/topic_labels.jsonl`` (5,690 abstracts of ``../shared/titled`` and
``../shared/corpora``, labelled as ``../shared/topic_labelling.md`` says: a ``primary`` topic
and up to three ``also``), tags each abstract with :func:`generator.derive.tag.tag_texts` as the
build does, and prints, on the ``report`` split (nothing is tuned on it) and on the ``fit``
split, per paper micro-averaged over tags:

- P, R, F1: precision of the tags given, recall of the expert's topics, their harmonic mean;
- prim∈: the expert's primary topic is among the tags;
- 1st=prim: the first tag is the primary topic;
- none: no tag is one of the expert's topics;
- catch: the catch-all topic is given;
- tags: mean number of tags.

Where topics nest (``parent:`` in ``generator/derive/taxonomy.yml``), a paper on a child topic is
on its parent's page too, so a tag implies its ancestors for *recall* (and for ``prim∈``,
``1st=prim`` and ``none``) of an expert's parent topic. The converse does not hold: a parent
tag is not a correct child, and a child tag is a correct tag only if the expert gave the child
(precision counts tags as shown, each against the expert's own topics).

It asserts nothing. ``--show N`` prints N seeded random report papers with their labels and
tags; ``--time`` tags 3,300 abstracts of the benchmark corpus in one process and prints the time.

    .venv/bin/python benchmarks/topics.py [--show 20] [--seed 26] [--time]
"""
from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from generator.derive.tag import load_taxonomy, tag_texts  # noqa: E402
from generator.seeds.parse import parse_seed  # noqa: E402

SHARED = REPO.parent / "shared"
LABELS = REPO / "benchmarks" / "data" / "topic_labels.jsonl"
# Control characters copied from PDFs: the generator rightly refuses a seed holding them; a
# benchmark reads the text around them (they never change a line number: newlines are kept).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


@dataclass(frozen=True)
class Labelled:
    """One labelled abstract: where it is, its text, and the expert's topics (slugs)."""

    file: str  # relative to ../shared
    line: int
    text: str
    primary: str
    also: tuple[str, ...]
    split: str  # "fit" or "report"
    batch: int = 0  # the labelling round; the report split's batches 7 to 9 came after the last fit

    @property
    def venue(self) -> str:
        return self.file.split("/")[1]

    @property
    def topics(self) -> frozenset[str]:
        return frozenset((self.primary, *self.also))


FRESH_BATCH = 7  # the first labelling round after the tagger's weights were last fitted


def available() -> bool:
    return (SHARED / "titled").is_dir() and (SHARED / "corpora").is_dir()


def read_abstracts(rel: str) -> dict[int, str]:
    """Line -> abstract text of one seed file under ``../shared``, as the build parses it."""
    data = (SHARED / rel).read_bytes()
    try:
        papers = parse_seed(data, rel)
    except Exception:  # a seed the generator refuses (control characters): read it without them
        papers = parse_seed(_CONTROL.sub("", data.decode("utf-8", "replace")).encode("utf-8"), rel)
    return {p.source.line: p.text for p in papers}


def load_labels(path: Path = LABELS) -> list[Labelled]:
    """Every labelled abstract, in the file's order."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    texts = {rel: read_abstracts(rel) for rel in sorted({r["file"] for r in rows})}
    return [Labelled(r["file"], r["line"], texts[r["file"]][r["line"]], r["primary"], tuple(r["also"]), r["split"],
                     r.get("batch", 0)) for r in rows]


def ancestors(slug: str, parents: Mapping[str, str]) -> list[str]:
    out = []
    while slug in parents and parents[slug] not in out:
        slug = parents[slug]
        out.append(slug)
    return out


# what :func:`tally` counts of a paper, in this order
COUNTS = ("given", "right", "wanted", "found", "prim_in", "prim_first", "none", "catch")


def tally(row: Labelled, tags: Sequence[str], parents: Mapping[str, str], catch_all: str | None) -> tuple[int, ...]:
    """The :data:`COUNTS` of one paper tagged ``tags`` (slugs, best first), which :func:`figures` turns into scores."""
    shown = set(tags)
    implied = shown | {a for t in tags for a in ancestors(t, parents)}
    gold = row.topics
    return (len(tags), len(shown & gold), len(gold), len(implied & gold), row.primary in implied,
            bool(tags) and (tags[0] == row.primary or row.primary in ancestors(tags[0], parents)),
            not (implied & gold), catch_all in shown)


def figures(totals: Sequence[float], n: int) -> dict[str, float]:
    """The figures of the module's docstring from the :data:`COUNTS` summed over ``n`` papers."""
    given, right, wanted, found, prim_in, prim_first, none, catch = totals
    p = right / given if given else 0.0
    r = found / wanted if wanted else 0.0
    m = n or 1
    return {
        "n": n, "P": p, "R": r, "F1": 2 * p * r / (p + r) if p + r else 0.0,
        "prim∈": prim_in / m, "1st=prim": prim_first / m, "none": none / m, "catch": catch / m,
        "tags": given / m,
    }


def scores(rows: Sequence[Labelled], tagged: Sequence[Sequence[str]], parents: Mapping[str, str],
           catch_all: str | None) -> dict[str, float]:
    """The figures of the module's docstring for predicted slugs ``tagged`` (best first) of ``rows``."""
    totals = [0] * len(COUNTS)
    for row, tags in zip(rows, tagged):
        totals = [a + b for a, b in zip(totals, tally(row, tags, parents, catch_all))]
    return figures(totals, len(rows))


def table(results: Mapping[str, Mapping[str, float]]) -> str:
    cols = ("n", "P", "R", "F1", "prim∈", "1st=prim", "none", "catch", "tags")
    lines = ["| split | " + " | ".join(cols) + " |", "|" + " --- |" * (len(cols) + 1)]
    for name, s in results.items():
        cells = [str(s["n"])] + [f"{s[c]:.3f}" if c in ("P", "R", "F1") else f"{s[c]:.2f}" if c == "tags" else f"{s[c]:.1%}" for c in cols[1:]]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def tag_slugs(texts: Sequence[str], topics) -> list[tuple[str, ...]]:
    slug = {t.name: t.slug for t in topics}
    return [tuple(slug[name] for name in tags) for tags, _ in tag_texts(texts, topics)]


def time_tagging(topics, n: int = 3300) -> float:
    """CPU seconds to tag ``n`` abstracts of the benchmark corpus in one process (the texts read first)."""
    import tempfile

    from benchmarks.corpus import write_seeds
    from generator.seeds.parse import abstract_texts

    with tempfile.TemporaryDirectory() as tmp:
        paths = write_seeds(Path(tmp), n)
        texts = [t for p in paths for t in abstract_texts(p.read_bytes(), str(p))]
    tag_texts(texts[:1], topics)  # loading the taxonomy's matcher and the model is not tagging
    # CPU time, not wall time: a busy machine would otherwise decide the figure
    start = time.process_time()
    tag_texts(texts, topics)
    return time.process_time() - start


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--show", type=int, default=0, help="print this many random report papers with their tags")
    ap.add_argument("--seed", type=int, default=26)
    ap.add_argument("--time", action="store_true", help="time tagging 3,300 abstracts")
    args = ap.parse_args(argv)
    if not available():
        print(f"the labelled abstracts live in {SHARED}, which is absent: nothing to measure")
        return 0
    topics = load_taxonomy()
    parents = {t.slug: t.parent for t in topics if getattr(t, "parent", "")}
    catch_all = next((t.slug for t in topics if t.catch_all), None)
    rows = load_labels()
    tagged = tag_slugs([r.text for r in rows], topics)
    results = {}
    for split in ("report", "fit"):
        idx = [i for i, r in enumerate(rows) if r.split == split]
        results[split] = scores([rows[i] for i in idx], [tagged[i] for i in idx], parents, catch_all)
    print(table(results))
    print()
    # the report split's batches 1 to 3 were compared on in many rounds of the tagger; 7 to 9
    # were labelled after its last fit and never looked at before it: what a new paper gets
    parts = {"report, batches 1-3": lambda r: r.batch <= FRESH_BATCH - 1,
             "report, batches 7-9 (after the fit)": lambda r: r.batch >= FRESH_BATCH}
    per_part = {}
    for name, part in parts.items():
        idx = [i for i, r in enumerate(rows) if r.split == "report" and part(r)]
        per_part[name] = scores([rows[i] for i in idx], [tagged[i] for i in idx], parents, catch_all)
    print(table(per_part))
    print()
    # a venue can have papers in both splits (the report venues' other papers are fitted on): each part apart
    groups = sorted({(r.split != "report", r.venue, r.split) for r in rows})
    per = {}
    for _, v, split in groups:
        idx = [i for i, r in enumerate(rows) if r.venue == v and r.split == split]
        per[f"{v} ({split})"] = scores([rows[i] for i in idx], [tagged[i] for i in idx], parents, catch_all)
    print(table(per))
    if args.show:
        report = [i for i, r in enumerate(rows) if r.split == "report"]
        for i in sorted(random.Random(args.seed).sample(report, min(args.show, len(report)))):
            r = rows[i]
            print(f"\n{r.file}:{r.line}\n  {r.text[:600]}")
            print(f"  expert: {r.primary} + {', '.join(r.also) or '-'}")
            print(f"  tags:   {', '.join(tagged[i])}")
    if args.time:
        print(f"\ntagging 3,300 abstracts: {time_tagging(topics):.2f} s of CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
