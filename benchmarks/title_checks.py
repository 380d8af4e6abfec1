"""Cheap mechanical checks of a derived title against its abstract: what an editor would send
back that a program can see without understanding the paper.

Each check answers for one title (and the abstract it was derived from) and is independent of
the generator: the benchmark must not grade the generator with the generator's own rules. The
word lists are data, in ``title_checks.yml``.

- ``ends``: the title ends on a word that cannot end one (a preposition, article, conjunction,
  pronoun, auxiliary, hanging adverb or clause verb), on a pair cut in the middle ("... with
  Respect"), or on an adjective with its noun cut off ("... for Recovering Sparse");
- ``broken``: a word of the title that is no word of the abstract but two of them glued
  ("Certifiedpatchdefense"), one with a stray letter ("Networksk"), a capitalised Greek
  letter where the abstract has a symbol ("Ε-Differential"), or a name lifted from a URL;
- ``known_name``: the part before the colon is a known algorithm, theorem, model or data set
  ("CLT:", "NTK:", "CMA-ES:") or a person the abstract cites ("Feldman and Vondrak");
- ``joined``: the words after the name are not all words of one sentence of the abstract:
  phrases of different sentences joined ("X for Y").
"""
from __future__ import annotations

import re
from pathlib import Path

import yaml

_DATA = yaml.safe_load(Path(__file__).with_name("title_checks.yml").read_text(encoding="utf-8"))
WORD_CLASSES = ("prepositions", "conjunctions", "determiners", "pronouns", "auxiliaries", "adverbs", "verb_forms")
CANNOT_END = frozenset(w for key in WORD_CLASSES for w in _DATA[key])
HANGING = frozenset(_DATA["hanging_pairs"])
ADJECTIVE_END = re.compile(rf"(?:{'|'.join(sorted(_DATA['adjective_suffixes'], key=len, reverse=True))})$")
SUFFIX_NOUNS = frozenset(_DATA["adjective_suffix_nouns"])
ADJECTIVES = frozenset(_DATA["adjectives"])
KNOWN = frozenset(_DATA["known_methods"])
CHECKS = ("ends", "broken", "known_name", "joined")

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
_URL = re.compile(r"(?:https?://|www\.|github\.com)\S+", re.I)
_GREEK_CAPS = re.compile(r"[Α-Ω]")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[\"“])")
# words a title may add that its abstract need not hold
_JOINERS = frozenset("a an the of for and or in on with to via from by as at into under over "
                     "towards toward through beyond versus vs".split())


def _words(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def _fold(word: str) -> str:
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


def ends_badly(title: str) -> bool:
    """Does the title end where no title can (a function word, a cut pair, a lone adjective)?"""
    words = re.findall(r"[\w'’-]+", title.lower())
    if not words:
        return True
    last = words[-1]
    if last in CANNOT_END or " ".join(words[-2:]) in HANGING:
        return True
    tail = title.partition(": ")[2] or title
    # "GLAD: Deep Learning Architecture for Recovering Sparse": an adjective whose noun was cut
    # (only a lower-case word of the abstract's vocabulary; names keep their own endings)
    if last in ADJECTIVES:
        return True
    return len(tail.split()) > 1 and "-" not in last and last not in SUFFIX_NOUNS and ADJECTIVE_END.search(last) is not None \
        and len(last) > 4 and not title.split()[-1].isupper()


def broken_tokens(title: str, abstract: str) -> list[str]:
    """The title's words that are mangled forms of the abstract's: glued, a stray letter, a
    capitalised Greek letter, a name taken from a link."""
    own = set(_words(_URL.sub(" ", abstract)))
    own |= {_fold(w) for w in own}
    links = " ".join(_URL.findall(abstract)).lower()
    out = []
    for raw in re.findall(r"\S+", title):
        if _GREEK_CAPS.search(raw) and raw not in abstract:
            out.append(raw)
            continue
        for w in _words(raw):
            if w in own or w in _JOINERS or len(w) < 3 or w.isdigit():
                continue
            glued = any(w[:k] in own and w[k:] in own for k in range(2, len(w) - 1))
            stray = (w[:-1] in own or w[1:] in own or _fold(w[:-1]) in own) and len(w) > 4
            if glued or stray or (links and w in links):
                out.append(raw)
    return out


def known_name(title: str, abstract: str) -> bool:
    """Is the title's name (before the colon) a known method or a cited person?"""
    name, colon, _ = title.partition(": ")
    if not colon:
        return False
    if name.lower() in KNOWN:
        return True
    # "Feldman and Vondrak": capitalised surnames the abstract cites with "et al." or a year
    return re.search(rf"\b{re.escape(name)}\s*(?:et al|\(\d{{4}}|\[\d|,? \d{{4}})", abstract) is not None


def sentences(abstract: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(" ".join(abstract.split())) if s]


def joined(title: str, abstract: str) -> bool:
    """Are the title's words after its name not all words of one sentence of the abstract? (A
    gerund counts as the sentence's verb: "Replacing the Classification Loss" of "we propose to
    replace the classification loss", "Combining X" of "an approach that combines X".)"""
    name, colon, tail = title.partition(": ")
    words = {_fold(w) for w in _words(tail if colon else title) if w not in _JOINERS and len(w) > 1}
    if not words:
        return False
    for s in sentences(abstract):
        said = {_fold(w) for w in _words(s)}
        if all(w in said or (w.endswith("ing") and _verb_of(w, said)) for w in words):
            return False
    return True


def _verb_of(gerund: str, said: set[str]) -> bool:
    """Does the sentence hold the verb of ``gerund`` ("learn", "learns" for "learning"; "control"
    for "controlling"; "combine" for "combining")?"""
    stem = gerund[:-3]
    stems = {stem, stem + "e", stem[:-1] if len(stem) > 3 and stem[-1] == stem[-2] else stem}
    return len(stem) >= 3 and any(w in said or w + "s" in said or w + "es" in said or w + "d" in said
                                  or w + "ed" in said for w in stems)


def check(title: str, abstract: str) -> dict[str, bool]:
    """Every check of one title: name -> does it fail."""
    return {
        "ends": ends_badly(title),
        "broken": bool(broken_tokens(title, abstract)),
        "known_name": known_name(title, abstract),
        "joined": joined(title, abstract),
    }
