"""Dangerous pieces of seed text, composed the way an attacker would.

The strategy glues together the pieces where two parsers could read an abstract
differently: math delimiters of every kind, backslashes before closers, dollars and
backticks inside URLs, code and emphasis spans, HTML, character references,
brackets, and formulas built to hang KaTeX. The property tests draw from it with
hypothesis; the browser test builds a site from a fixed, seeded sample.
"""
from __future__ import annotations

import random
import unicodedata

from hypothesis import strategies as st

MATH = ["$", "$$", "\\(", "\\)", "\\[", "\\]", "$x$", "$$y$$", "\\(z\\)"]
BACKSLASHES = ["\\", "\\\\", "\\$", "\\ ", " \\ $", "\\)", "\\]", "\\}", "\\{", "\\%", "\\,"]
URLS = [
    "https://a.example/", "https://a.example/$", "https://a.example/`", "https://a.example/$'$",
    "http://x.org/a_(b))", "https://x.org/?q=<b>&r=\"", "https://[evil.example]/x", "https://[::1]/p",
    "https://a.example:99999/", "\\url{https://[::1}", "\\url{", "\\href{", "}{", "](", "[code](",
    "javascript:", "data:text/html,", "JaVaScRiPt:alert(1)",
]
SPANS = ["`", "``", "```", "\\texttt{", "\\textbf{", "\\emph{", "\\textit{", "\\text{", "**", "*", "_", "__", "}"]
HTML = [
    "<img src=x onerror=alert(1)>", "<script>alert(2)</script>", "</p>", "</span>", "</code>", "<!--", "-->",
    "<![CDATA[", "]]>", "<svg/onload=alert(3)>", "<a href=javascript:alert(4)>x</a>", "<p>", "<div>", "<b",
    '"', "'", "=", "<", ">",
]
ENTITIES = ["&", "&lt;", "&#60;", "&#x3C;", "&amp;lt;", "&nbsp;", "&#0;", "&#x202e;", ";"]
BRACKETS = ["[", "]", "(", ")", "{", "}", "{{", "}}", "{%", "%}", "|", "#", "> ", "- ", "1. "]
KATEX = ["\\sqrt{", "\\kern{-5000em}", "\\raisebox{-9000em}{x}", "\\def\\a{\\a\\a}\\a", "^{", "_{", "\\left(", "\\right)"]
WORDS = ["x", "word", "Model", " ", "  ", "é", "中", "\u2028", "1", "."]
PIECES = MATH + BACKSLASHES + URLS + SPANS + HTML + ENTITIES + BRACKETS + KATEX + WORDS
KINDS = {"math": MATH, "backslashes": BACKSLASHES, "urls": URLS, "spans": SPANS, "html": HTML,
         "entities": ENTITIES, "brackets": BRACKETS, "katex": KATEX, "words": WORDS}

# Formulas made to hang or crash the reader's tab if KaTeX were handed them.
KATEX_BOMBS = [
    "$" + "\\sqrt{" * 150 + "x" + "}" * 150 + "$",
    "$\\raisebox{-9000em}{x}$",
    "$\\kern{-5000em} x$",
    "$\\hspace{-5000em} x$",
    "$\\mkern-99999mu x$",
    "$\\rule{10000em}{10000em}$",
    "$\\def\\a{\\a\\a}\\a$",
    "$" + "x^{" * 60 + "y" + "}" * 60 + "$",
    "$" + "\\frac{1}{" * 100 + "2" + "}" * 100 + "$",
    "$" + "\\left(" * 200 + "x" + "\\right)" * 200 + "$",
    "$" + "\\sqrt" * 300 + " x$",
    "$" + "x+" * 3000 + "x$",
]


def _no_controls(text: str) -> str:
    # What can reach an abstract: parse rejects control characters (Cc) and folds whitespace.
    return " ".join("".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cs")).split())


_piece = st.one_of(st.sampled_from(PIECES), st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=3))
# An abstract as parse hands it on: one line, whitespace folded.
attack_text = st.lists(_piece, max_size=60).map("".join).map(_no_controls)


def compose(rng: random.Random, pieces: int = 40) -> str:
    """One attack abstract from a seeded generator (for the browser test's site)."""
    kinds = rng.sample(sorted(KINDS), 3)
    parts = [rng.choice(KINDS[k]) if rng.random() < 0.8 else rng.choice(PIECES) for k in kinds for _ in range(pieces // 3)]
    rng.shuffle(parts)
    return _no_controls("".join(parts))


def attack_seed(count: int = 20, seed: int = 10) -> str:
    """A seed file: the KaTeX bombs and ``count`` composed attacks, each in ordinary prose
    that ends with the words "stays visible." (the browser test checks the end is shown)."""
    rng = random.Random(seed)
    bodies = KATEX_BOMBS + [compose(rng) for _ in range(count)]
    # Prose of its own for each case, so that no two cases read as near duplicates and merge.
    vocabulary = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(4, 9))) for _ in range(400)]
    paragraphs = [
        f"We study {' '.join(rng.sample(vocabulary, 24))}. Case {i}: {body} The rest stays visible."
        for i, body in enumerate(bodies)
    ]
    return "ATTACK 2026 Papers\n\n" + "\n\n".join(paragraphs) + "\n"
