"""Synthetic-but-realistic seed sets of any size, for benchmarks.

The text is real: abstracts from the shared corpora (``../shared/corpora``) and the
repository's ``seeds/``. The originals are used as they are; beyond them, each new
abstract is an original with about half of its lower-case words swapped for
other words of the corpora (a fixed seed per copy). It keeps the original's
length, sentence shape, LaTeX, Unicode and URLs, but, like the papers of a real
conference, shares few word 3-grams with any other abstract (the deduplicator
merges none and verifies few candidates) and gets a title of its own (titles
rarely clash). ``mix`` (interleaved sentences of two abstracts) is kept for
stress tests: its copies share whole sentences, which no real conference does.

    from benchmarks.corpus import write_seeds
    paths = write_seeds(Path("/tmp/seeds"), 3300)
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SOURCES = (REPO.parent / "shared" / "corpora", REPO / "seeds")
# Every real abstract there is (the titled set too): about 5,700 originals, so a 50,000-paper
# digest holds each about nine times rather than ninety, nearer a real digest's vocabulary.
ALL_SOURCES = (*SOURCES, REPO.parent / "shared" / "titled")
HEADER = re.compile(r"^(?P<venue>.+?)\s+(?P<year>\d{4})\s+Papers\s*$")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[$\\])")
_WORD = re.compile(r"\w+")
# Control characters copied from PDFs (U+0002 for a soft hyphen): the generator
# rightly refuses them, and a benchmark wants a build, not a seed report.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
PER_FILE = 100
MIN_SHARE = 0.35  # each parent's part of a mixed abstract, in words


@dataclass(frozen=True)
class Abstract:
    venue: str
    year: int
    text: str
    sentences: tuple[str, ...]


def _words(text: str) -> int:
    return len(_WORD.findall(text))


def read_abstracts(sources: tuple[Path, ...] = SOURCES) -> list[Abstract]:
    """Every abstract of the seed files under ``sources``, in a stable order, without repeats."""
    seen: set[str] = set()
    out: list[Abstract] = []
    for root in sources:
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*.txt")):
            text = path.read_text(encoding="utf-8-sig").replace("\r\n", "\n")
            head, _, body = text.partition("\n")
            m = HEADER.match(head.strip())
            if not m:
                continue
            for para in re.split(r"\n\s*\n", body):
                para = " ".join(_CONTROL.sub("", para).split())
                if _words(para) < 20 or para in seen:
                    continue
                seen.add(para)
                sentences = tuple(s for s in SENTENCE_END.split(para) if s)
                out.append(Abstract(m["venue"], int(m["year"]), para, sentences))
    if not out:
        raise FileNotFoundError(f"no seed files found under {', '.join(map(str, sources))}")
    return out


def mix(a: Abstract, b: Abstract) -> str | None:
    """A's sentences at even places, B's at odd ones; None when one of them would dominate."""
    picked_a = a.sentences[0::2]
    picked_b = b.sentences[1::2] or b.sentences[:1]
    if len(picked_a) + len(picked_b) < 3:
        return None
    parts: list[str] = []
    for i in range(max(len(picked_a), len(picked_b))):
        parts += picked_a[i : i + 1] + picked_b[i : i + 1]
    text = " ".join(parts)
    total = _words(text)
    if min(_words(" ".join(picked_a)), _words(" ".join(picked_b))) < MIN_SHARE * total:
        return None
    return text


_WORD_TOKEN = re.compile(r"^([(\[\"'“‘]*)([A-Za-z]{3,})([)\]\"'”’.,;:!?]*)$")
SWAP = 0.5


def vary(a: Abstract, k: int, vocabulary: list[str]) -> str:
    """Copy ``k`` of ``a`` with about SWAP of its words (3+ letters) replaced, punctuation and case kept.

    LaTeX, numbers, URLs and short function words are left as they are.
    """
    rng = random.Random(k)
    out = []
    for token in a.text.split(" "):
        m = _WORD_TOKEN.match(token)
        if m and rng.random() < SWAP:
            word = vocabulary[rng.randrange(len(vocabulary))]
            if m[2][0].isupper():
                word = word.capitalize()
            token = f"{m[1]}{word}{m[3]}"
        out.append(token)
    return " ".join(out)


def abstracts(n: int, pool: list[Abstract] | None = None) -> list[Abstract]:
    """``n`` distinct abstracts: the originals first, then varied copies of them."""
    pool = pool or read_abstracts()
    out = list(pool[:n])
    vocabulary = sorted({m[2].lower() for a in pool for t in a.text.split(" ") if (m := _WORD_TOKEN.match(t))})
    k = 0
    while len(out) < n:
        a = pool[k % len(pool)]
        out.append(Abstract(a.venue, a.year, vary(a, k, vocabulary), ()))
        k += 1
    return out


def mixed_abstracts(n: int, pool: list[Abstract] | None = None) -> list[Abstract]:
    """``n`` distinct abstracts: the originals first, then mixes of two different ones (a stress test)."""
    pool = pool or read_abstracts()
    out = list(pool[:n])
    used: set[tuple[int, int]] = set()
    size = len(pool)
    step = 1
    while len(out) < n:
        if step >= size:
            raise ValueError(f"cannot make {n} distinct abstracts from {size} originals")
        for i, a in enumerate(pool):
            if len(out) >= n:
                break
            # Partners at a growing stride: a new pairing each round, never (a, a).
            j = (i + step * 37) % size
            if j == i or (i, j) in used:
                continue
            text = mix(a, pool[j])
            if text is None:
                continue
            used.add((i, j))
            out.append(Abstract(a.venue, a.year, text, ()))
        step += 1
    return out


def write_seeds(dest: Path, n: int, sources: tuple[Path, ...] = SOURCES) -> list[Path]:
    """Write seed files holding ``n`` distinct abstracts into ``dest``; returns their paths.

    Files are grouped by venue and year (as the sources were), at most 100 abstracts
    each, in the digest's seed format. Deterministic: the same ``n`` writes the same files.
    """
    dest.mkdir(parents=True, exist_ok=True)
    groups: dict[tuple[str, int], list[str]] = {}
    for a in abstracts(n, read_abstracts(sources)):
        groups.setdefault((a.venue, a.year), []).append(a.text)
    paths: list[Path] = []
    for (venue, year), texts in sorted(groups.items()):
        slug = re.sub(r"[^a-z0-9]+", "-", venue.casefold()).strip("-")
        for k in range(0, len(texts), PER_FILE):
            path = dest / f"bench-{slug}-{year}-{k // PER_FILE:02d}.txt"
            chunk = texts[k : k + PER_FILE]
            path.write_text(f"{venue} {year} Papers\n\n" + "\n\n".join(chunk) + "\n", encoding="utf-8")
            paths.append(path)
    return paths


if __name__ == "__main__":  # pragma: no cover - a quick look: python -m benchmarks.corpus DEST N
    import sys

    written = write_seeds(Path(sys.argv[1]), int(sys.argv[2]))
    print(f"{len(written)} seed files in {sys.argv[1]}")
