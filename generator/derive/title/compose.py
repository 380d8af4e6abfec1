"""Composition: a name and a phrase made into a Title-Cased title that ends where a phrase can end."""
from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from generator.core.text import SPACE_BEFORE_PUNCT
from generator.derive.title.phrases import can_end, ends_its_clause, trim
from generator.derive.title.words import (
    _ADJECTIVE_END,
    _COMMON_WORDS,
    _W,
    _STOP,
    ARTICLES,
    CLAUSE,
    CONTINUING_PARTICIPLES,
    GENERIC,
    HYPHEN_SPLIT,
    MAX_LENGTH,
    NOT_DOMAIN,
    ODD_CAPS,
    PREPOSITIONS,
    RELATIONS,
    SELF_FIRST,
    SELF_REFERENCE,
    SELF_VERBS,
    SMALL,
    TERM_WORD,
    THIRD_PERSON,
    VAGUE,
    VERB_FORMS,
)


def _fit(words: list[str], budget: int) -> list[str]:
    """The words, or when they are longer than ``budget`` characters the longest prefix within
    it that ends a noun phrase: on a word that can end a title, before a preposition or a
    clause word. Not before "and" ("for Robust" of "for robust and efficient prediction"), nor
    anywhere else the budget happens to fall; no such prefix, no words. Words that fit but end
    where no phrase can ("... Localize Efficiently in Large", its noun cut off at a comma) are cut
    back the same way, to themselves when there is no such prefix."""
    words = trim(words)
    # the length of each prefix, summed once (a join per prefix was quadratic on a long run)
    lengths = [0]
    fits = False
    for w in words:
        lengths.append(lengths[-1] + len(w) + (len(lengths) > 1))
        if lengths[-1] > budget:
            break
    else:
        if not words or can_end(words[-1]) or ends_its_clause(words):
            return words
        fits = True
    for k in range(len(lengths) - 2, 0, -1):
        low = words[k].lower()
        if (low in PREPOSITIONS or low in CLAUSE or low in ("during", "after", "before", "like", "while")) \
                and (can_end(words[k - 1]) or ends_its_clause(words[:k])) and not (low == "to" and words[k - 1].lower().endswith("ing")) \
                and not (low == "between" and words[k - 1].lower() in RELATIONS):
            # (not "Network for Learning | to Localize": a gerund's infinitive is its object, not a
            # phrase of its own; not "for Revealing the Relation | between X and Y": a relation
            # needs what it relates; and "... Based on the Method | of Moments", a participle's
            # phrase cut short, goes whole)
            return trim(_before_participle(words[:k]))
    return words if fits else []


def _before_participle(words: list[str]) -> list[str]:
    """The words without a closing participial phrase ("based on the method") a cut has shortened."""
    for j in range(len(words) - 2, 0, -1):
        # "based on the", "using a": a participle with its own phrase ("Network Based Architectures"
        # is a compound)
        if words[j].lower() in CONTINUING_PARTICIPLES and words[j + 1].lower() in PREPOSITIONS | ARTICLES:
            return words[:j] if can_end(words[j - 1]) else words
    return words


# A Greek letter stands for a symbol of the abstract's mathematics ("ε-differential privacy"): a
# capital would be another symbol ("Ε-Differential"), so its case is kept.
_GREEK = re.compile(r"^[\u0370-\u03ff\u1f00-\u1fff]")


def _case(word: str, first: bool) -> str:
    if "-" not in word and "–" not in word:
        if _GREEK.match(word):
            return word
        low = word.lower()
        if ODD_CAPS.match(word) and not word.isupper():
            return word[0] + word[1:].lower()
        if low != word:
            return word
        if low in SMALL and not first:
            return low
        return word[:1].upper() + word[1:]
    parts = HYPHEN_SPLIT.split(word)
    out = []
    for j, part in enumerate(parts):
        low = part.lower()
        if _GREEK.match(part):
            out.append(part)
        elif ODD_CAPS.match(part) and not part.isupper():
            out.append(part[0] + part[1:].lower())  # "LEak@k" -> "Leak@k"
        elif any(c.isupper() for c in part) or (j > 0 and len(part.rstrip(":")) == 1):
            out.append(part)  # "ViT", "NeRF", and the variable of "SAFE-k" / "top-k"
        elif low.rstrip("-–") in SMALL and not (first and j == 0):
            out.append(low)
        else:
            out.append(part[:1].upper() + part[1:])
    return "".join(out)


def _title_case(words: list[str], first: bool = True) -> str:
    out: list[str] = []
    for i, w in enumerate(words):
        out.append(_case(w, (i == 0 and first) or (i > 0 and out[-1].endswith(":"))))
    return SPACE_BEFORE_PUNCT.sub(lambda m: m.group(1) or m.group(2), " ".join(out))


def _balanced(words: list[str]) -> list[str]:
    text = " ".join(words)
    for o, c in ("()", "[]"):
        if text.count(o) != text.count(c):
            words = [w.replace(o, "").replace(c, "") for w in words]
    return [w.strip("\"“”") for w in words if w.strip("\"“”")]


def _drop_self_reference(words: list[str]) -> list[str]:
    """``We Present a Modern Solution to X`` -> ``Modern Solution to X``."""
    if not words or words[0].lower() not in SELF_FIRST:
        return words
    low = [w.lower() for w in words]
    for ref in SELF_REFERENCE:
        n = len(ref)
        verb = low[n] if len(low) > n else ""
        # "We ..." is always followed by its verb; "Work Stealing for ..." is a subject, not an opening
        is_verb = ref[-1] == "we" or verb in SELF_VERBS or (THIRD_PERSON.match(verb) and verb not in _STOP)
        if low[:n] == list(ref) and len(words) > n + 2 and is_verb:
            rest = words[n + 1 :]  # the verb goes with the opening
            while rest and rest[0].lower() in ARTICLES:
                rest = rest[1:]
            return rest if len(rest) >= 2 else words
    return words


def _drop_named_problem_head(words: list[str]) -> list[str]:
    """``Online Packet Scheduling with Deadlines Problem under ...``: a problem that has a
    capitalised name of its own needs no "problem" after it."""
    out = []
    for i, w in enumerate(words):
        nxt = words[i + 1].lower() if i + 1 < len(words) else ""
        prev = words[i - 1] if i else ""
        if w.lower() in ("problem", "problems") and prev[:1].isupper() and prev[1:].islower() and (not nxt or nxt in PREPOSITIONS):
            continue
        out.append(w)
    return out


# Words a PDF's copy glues to the next or the one before ("Learningwith", "Ofstochastic").
_GLUE = _W["glued_words"]


def _unglued(words: list[str]) -> list[str]:
    """The words with two words a copy glued together parted again: "Learningwith" is "Learning
    with", "Bipartitegraphs" "Bipartite graphs" (:func:`parted`)."""
    if all(len(w) < 8 for w in words):
        return words
    out: list[str] = []
    for w in words:
        out += parted(w)
    return out


@lru_cache(maxsize=65536)
def parted(w: str) -> tuple[str, ...]:
    """A word, or the two a copy glued together: only a word no ML abstract commonly uses, whose
    parts are two that they do, a small word of :data:`_GLUE` with a longer one, or two long ones
    (not "Multiview", "Hypergraphs", "Treewidth": a prefix is no word of its own)."""
    low = w.lower()
    if len(low) < 8 or not low.isalpha() or not w[1:].islower() or low in _COMMON_WORDS:
        return (w,)
    for i in range(2, len(low) - 1):
        a, b = low[:i], low[i:]
        if a in _COMMON_WORDS and b in _COMMON_WORDS and (
                (a in _GLUE and len(b) >= 5) or (b in _GLUE and len(a) >= 5)
                or (len(a) >= 6 and len(b) >= 6 and not b.startswith("abilit"))):
            return (w[:i], b)
    return (w,)


def _compose(name: str, tail: list[str]) -> str:
    tail = _unglued(tail)
    tail = _balanced(_drop_named_problem_head(_drop_self_reference(tail)))
    if not name:
        return _title_case(_fit(tail, MAX_LENGTH))
    head = name if len(name) <= MAX_LENGTH - 10 else " ".join(_fit(name.split(), MAX_LENGTH - 10))
    while tail and tail[0].lower() in PREPOSITIONS:  # "Name: For Moral Values" says nothing
        tail = tail[1:]
    if " ".join(tail).lower() == name.lower():
        tail = []  # not "CodeNeRF: CodeNeRF"
    rest = _fit(tail, MAX_LENGTH - len(head) - 2)
    # the name is written as the abstract writes it ("SAdam", not "Sadam"; "mixup", "iStoryline"
    # and "i-RevNet" as their authors spell them in their own titles)
    if not rest:
        return head
    return f"{head}: {_title_case(rest, first=True)}"


def overlaps(a: list[str], b: list[str]) -> bool:
    content = {w.lower() for w in a if w.lower() not in _STOP}
    return bool(content & {w.lower() for w in b if w.lower() not in _STOP})


def _weak(title: str) -> bool:
    """True for a title whose words after the name say next to nothing."""
    tail = title.partition(": ")[2] or title
    content = [w for w in tail.lower().split()
               if w not in _STOP and w not in GENERIC and w not in VAGUE and len(w) > 1 and w[0].isalnum()]
    return len(content) < 2


def _domain_term(sentences: list[str]) -> list[str]:
    """The abstract's domain as it names it: the word pair or triple of its first two
    sentences that the abstract repeats most (``Symbolic Music``, ``Transparent Objects``)."""
    if len(sentences) < 2:
        return []
    head = TERM_WORD.findall(" ".join(sentences[:2]))
    low = [w.lower() for w in head]
    bad = [w in _STOP or w in NOT_DOMAIN or w in VERB_FORMS or (len(w) <= 2 and not head[i].isupper()) for i, w in enumerate(low)]
    # only the head's n-grams can win, so count just those, in the whole text at once
    body = f" {' '.join(TERM_WORD.findall(' '.join(sentences).lower()))} "
    best: tuple[int, int, tuple[str, ...], int, int] | None = None
    seen: set[tuple[str, ...]] = set()
    for n in (2, 3):
        for i in range(len(low) - n + 1):
            if True in bad[i : i + n]:
                continue
            gram = tuple(low[i : i + n])
            if gram in seen:
                continue
            seen.add(gram)
            count = body.count(" " + " ".join(gram) + " ")
            if count >= 2 and (best is None or (count * n, count, gram) > best[:3]):
                best = (count * n, count, gram, i, n)
    return head[best[3] : best[3] + best[4]] if best else []


def _wants_domain(title: str) -> bool:
    """A title that says what kind of thing the paper offers ("... Method") but not what
    for, or that says too little to place the paper ("Piano Music", "StyleSDF: High Resolution")."""
    low = title.lower()
    if " for " in low:
        return False
    words = low.replace(":", " ").split()
    tail = (low.partition(": ")[2] or low).split()
    content = [w for w in tail if w not in _STOP and len(w) > 1]
    return any(w in GENERIC for w in words) or len(content) < 3


def _with_domain(title: str, term: list[str]) -> str:
    """``GraphMuse: Graph Processing Framework and Library`` + ``for Symbolic Music``,
    when the title does not name the domain yet and there is room."""
    have = {w.rstrip("s") for w in title.lower().replace(":", " ").split()}
    if not term or all(w.lower().rstrip("s") in have for w in term):
        return title
    # only a title that says what kind of thing the paper offers ("... Method", "...
    # Framework") but not what for; and a term that ends on a noun, not "Causal"
    words = title.lower().replace(":", " ").split()
    if not any(w in GENERIC for w in words) or _ADJECTIVE_END.search(term[-1].lower()):
        return title
    joined = " ".join(_title_case(term).split())
    if " for " in title.lower():
        return title  # "X for Y in Z" reads like a search query
    longer = f"{title} for {joined}"
    return longer if len(longer) <= MAX_LENGTH else title


def _completed(titles: list[str], sentences: list[str]) -> list[str]:
    """Titles that need it get the abstract's domain (the term costs a count of the whole abstract)."""
    if not any(_wants_domain(t) for t in titles):
        return titles
    term = _domain_term(sentences)
    return [_with_domain(t, term) for t in titles]


def agreed_topic(topic: list[str], sentences: list[str]) -> bool:
    """The opening sentence's subject shares a content word with the abstract's most repeated
    term of its first sentences: it names the field, not a passing detail."""
    if not topic or len(topic) > 5:
        return False
    term = {w.lower() for w in _domain_term(sentences)} - _STOP
    return bool(term & {w.lower() for w in topic})


_TITLE_WORD = re.compile(r"\w+")
# A title's word may be an inflection of the abstract's ("recovering" of "recover"):
# its first letters are then the abstract's.
_STEM = 5
_UNMARKED = str.maketrans("", "", "*_`")


def _in_text(word: str, low: str) -> bool:
    """Whether a title's word is the abstract's, or an inflection the stage makes of one: a verb
    in -ing ("tending" of "tend", "turning" of "turn", "making" of "make", "running" of "run")."""
    if word[:_STEM] in low or word == "for":
        return True
    if len(word) > 5 and word.endswith("ing"):
        base = word[:-3]
        return any(b[:_STEM] in low for b in (base, base + "e", base[:-1] if base[-1:] == base[-2:-1] else base))
    return False


def could_be_title(title: str, text: str) -> bool:
    """Whether ``title`` is one this stage could make of ``text``: at most :data:`MAX_LENGTH`
    printable characters (no control character, no line break); each word, or its first
    five letters, found in the text, or "for", which :func:`_with_domain` adds; and every
    other sign in the text too, but the ": " after a name.

    Not a derivation (that is what a cached title saves), so a title the stage makes
    of TeX (``$\\alpha$`` read as α) fails, and is derived again; a verb it inflects in
    -ing passes; a title of words the abstract does not hold never passes.
    """
    return could_be_titles((title,), text)


def could_be_titles(titles: Iterable[str], text: str) -> bool:
    """:func:`could_be_title` for each of ``titles`` (the text read once)."""
    low = None
    for title in titles:
        if not (isinstance(title, str) and 0 < len(title) <= MAX_LENGTH and title.strip() == title
                and title.isprintable()):
            return False
        if low is None:
            # as the stage reads it: emphasis marks (``**P**atch``) and line-end hyphens ("poten- tial") gone
            low = text.casefold().translate(_UNMARKED).replace("- ", "")
        if not all(_in_text(w, low) for w in _TITLE_WORD.findall(title.casefold())):
            return False
        if not all(c in text or _MADE_OF.get(c, "\0") in text for c in set(_SIGN.findall(title))):
            return False
    return True


# a title's character that is neither a letter or digit, a space nor the ": " after a name
_SIGN = re.compile(r"[^\w :]|_")
# signs the stage makes of TeX's (generator/core/text.py): a title holding one is made of the text
# holding the other ("inconsistency--exhibiting" gives "Inconsistency–Exhibiting")
_MADE_OF = {"–": "--", "—": "---", "“": "``", "”": "''"}
