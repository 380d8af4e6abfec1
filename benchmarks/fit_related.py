"""Fit the related-papers term table (``generator/derive/related_weights.yml``) on real abstracts.

Related papers weigh each word and pair of adjacent words by an idf from a shipped
table rather than from the digest, so that two papers' score depends on those two
papers alone (issue 31). The table is the document frequency of each term, as
:func:`generator.derive.related.terms` reads terms, over the fitted venues' abstracts
(NeurIPS 2013-2018, ``benchmarks/titled.py``), one count per distinct abstract. Words on
at least ``--min-words`` abstracts and pairs on at least ``--min-pairs`` are kept; the
rest weigh as a term seen once. ICLR 2017 and 2018 stay out of the fit:
``benchmarks/related.py`` measures on them.

    .venv/bin/python -m benchmarks.fit_related [--min-words 2] [--min-pairs 3] [--dry-run]
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict

from benchmarks.titled import FITTED, available, load_titled, skip_message
from generator.derive.related import WEIGHTS_FILE, load_stop_words, terms


def frequencies(texts: list[str]) -> tuple[Counter, Counter]:
    """Document frequencies of the words and of the pairs of ``texts``."""
    stop = load_stop_words()
    words, pairs = Counter(), Counter()
    for text in texts:
        w, p = terms(text, stop)
        words.update(set(w))
        pairs.update(set(p))
    return words, pairs


def grouped(counts: Counter, least: int) -> dict[str, str]:
    """Frequency (as text, most frequent first) -> its terms, sorted, separated by spaces; a pair's words joined by +."""
    by_df: dict[int, list[str]] = defaultdict(list)
    for term, df in counts.items():
        if df >= least:
            by_df[df].append(term.replace(" ", "+"))
    return {str(df): " ".join(sorted(by_df[df])) for df in sorted(by_df, reverse=True)}


def render(abstracts: int, words: dict[str, str], pairs: dict[str, str], about: str) -> str:
    # json.dumps writes valid YAML flow scalars; one frequency a line keeps diffs readable
    lines = [f"# {about}", f"about: {json.dumps(about)}", f"abstracts: {abstracts}"]
    for kind, groups in (("words", words), ("pairs", pairs)):
        lines.append(f"{kind}:")
        lines += [f"  {json.dumps(df)}: {json.dumps(listed)}" for df, listed in groups.items()]
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--min-words", type=int, default=2)
    ap.add_argument("--min-pairs", type=int, default=3)
    ap.add_argument("--dry-run", action="store_true", help="print the counts, write nothing")
    args = ap.parse_args()
    if not available():
        sys.exit(skip_message())
    texts = sorted({t.text for t in load_titled() if t.fitted})
    words, pairs = frequencies(texts)
    kept_words = sum(1 for c in words.values() if c >= args.min_words)
    kept_pairs = sum(1 for c in pairs.values() if c >= args.min_pairs)
    print(f"{len(texts)} abstracts of {', '.join(FITTED)}: {len(words)} words ({kept_words} kept), "
          f"{len(pairs)} pairs ({kept_pairs} kept)")
    if args.dry_run:
        return
    about = (f"Document frequencies of words (on {args.min_words} abstracts or more) and adjacent word pairs "
             f"(on {args.min_pairs} or more) over the fitted venues' abstracts; "
             "written by benchmarks/fit_related.py, do not edit.")
    WEIGHTS_FILE.write_text(render(len(texts), grouped(words, args.min_words), grouped(pairs, args.min_pairs), about),
                            encoding="utf-8")
    print(f"wrote {WEIGHTS_FILE}")


if __name__ == "__main__":
    main()
