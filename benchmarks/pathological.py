"""Worst-case seed text: how long the text path takes on inputs built to be slow.

Every scan of seed text must be linear: a pull request must not be able to stall CI
or a reader's build. For each pathological shape (unclosed and nested macros, runs
of stars, dollars, brackets, URLs with trailing punctuation, ...), this times
``segments`` + ``to_html`` + ``to_plain`` + ``extract_links`` at 100 KB and 1 MB,
the parse of a seed holding it, and prints the ratio (linear is about 10).

    .venv/bin/python -m benchmarks.pathological [--sizes 100000 1000000]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time

from generator.core.errors import GeneratorError
from generator.core.markup import extract_links, segments, to_html, to_plain
from generator.seeds.parse import parse_seed

# Each unit is repeated until the text reaches the size measured.
SHAPES = {
    "unclosed \\textbf{": "\\textbf{a ",
    "nested \\textbf{...}": None,  # built below: "\\textbf{" * k + "x" + "}" * k
    "unclosed **": "**a ",
    "*a runs": "*a ",
    "unmatched $": "$a ",
    "unmatched \\(": "\\(a ",
    "$$ runs": "$$a ",
    "brackets [a](": "[a](https://",
    "link labels": "[" + "a" * 299 + "]",
    "URL with ))))": None,  # "https://a.org/" + ")" * n
    "URL with trailing .,;": None,
    "\\href{ unclosed": "\\href{https://a.org/{",
    "backslashes": "\\",
    "braces {{{": "{",
    "closing }}}": "}",
    "math bodies $x$": "$x^{y_{z}}$ ",
    "HTML <img>": "<img src=x onerror=alert(1)> ",
    "entities &lt;": "&lt;&#60;&amp; ",
    "mixed": "\\textbf{*[$a`](https://x.org/$)\\texttt{<b>}* ",
}


def make(shape: str, size: int) -> str:
    unit = SHAPES[shape]
    if shape == "nested \\textbf{...}":
        k = size // 10
        return "\\textbf{" * k + "x" + "}" * k
    if shape == "URL with ))))":
        return "https://a.org/" + ")" * size
    if shape == "URL with trailing .,;":
        return "https://a.org/" + ".,;:!?" * (size // 6)
    return unit * (size // len(unit) + 1)


def timed(fn, *args) -> float:
    runs = []
    for _ in range(3):
        segments.cache_clear()
        start = time.perf_counter()
        fn(*args)
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def text_path(text: str) -> None:
    segments(text)
    to_html(text)
    to_plain(text)
    extract_links(text)


def parse(data: bytes, path: str) -> None:
    """The parse of a seed; one this long is refused (parse.MAX_CHARS), after a linear read."""
    try:
        parse_seed(data, path)
    except GeneratorError:
        pass


def seed_of(text: str) -> bytes:
    return ("X 2026 Papers\n\n" + " ".join(["word"] * 20) + " " + text + "\n").encode("utf-8")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs=2, default=[100_000, 1_000_000])
    args = ap.parse_args()
    small, big = args.sizes
    print(f"{'shape':26} {'text ' + str(small // 1000) + ' KB':>12} {'text ' + str(big // 1000) + ' KB':>12} {'ratio':>6} {'parse ' + str(big // 1000) + ' KB':>14}")
    worst = (0.0, "")
    for shape in SHAPES:
        a = timed(text_path, make(shape, small))
        b = timed(text_path, make(shape, big))
        p = timed(parse, seed_of(make(shape, big)), "seeds/x.txt")
        worst = max(worst, (b + p, shape))
        print(f"{shape:26} {a:11.3f}s {b:11.3f}s {b / a if a else 0:6.1f} {p:13.3f}s")
    print(f"worst at {big // 1000} KB (text path + parse): {worst[0]:.3f}s ({worst[1]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
