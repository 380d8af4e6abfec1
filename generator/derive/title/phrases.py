"""Noun phrases: where one starts and ends, by the class of each word, and what describes a thing."""
from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from generator.derive.title.words import (
    _ADJECTIVE_END,
    _CANNOT_END,
    _STOP,
    ADJECTIVE_LIKE_NOUNS,
    ADVERBS,
    ANAPHORA,
    APPOSITIVE_INTRO,
    ARTICLES,
    BACKGROUND_VERBS,
    CAPITALISED,
    CLAUSE,
    CONTINUING_PARTICIPLES,
    COUNTS,
    DOUBLING,
    FILLER,
    GENERIC,
    IRREGULAR_PARTICIPLES,
    LOOSE_PREPOSITIONS,
    NOMINAL_GERUNDS,
    NOT_VERBS_BEFORE_OBJECT,
    LIGHT_FILLERS,
    LIGHT_VERBS,
    MANNER,
    MODIFIER_SUFFIXES,
    PLURAL,
    PREPOSITIONS,
    SIZE_WORDS,
    SMALL,
    SUBORDINATORS,
    THIRD_PERSON,
    VAGUE,
    VERB_FORMS,
    WEAK_START,
    WITH_TO,
)

# Words that open the object of a verb: "for solving | such problems", "by utilizing | the noise".
_OBJECT_START = frozenset("a an the this these those such its their our his her each every all both any some".split())
# Words that open a clause a gerund may take as its object: "to" of an infinitive, and the wh-words.
_CLAUSE_OBJECT = frozenset("to how what whether why which".split())


def _without_cut_object(words: list[str], nxt: str) -> list[str]:
    """The phrase without a closing preposition and gerund whose object the phrase left behind:
    "regularization technique for solving | such problems" is a "Regularization Technique", not
    one "for Solving". A gerund the sentence ends or a preposition follows is a noun and stays
    ("a model for clustering.", "for planning in ...")."""
    if len(words) >= 3 and (nxt.lower() in _OBJECT_START or nxt.lower() in _CLAUSE_OBJECT) \
            and words[-1].lower().endswith("ing") and words[-1].islower() and words[-2].lower() in PREPOSITIONS | {"and"}:
        # (nor one "for Learning" where "to localize" is what it learns, nor one "for Measuring"
        # where "how much two layers share" is what it measures)
        return words[:-2]
    if len(words) >= 3 and nxt.lower() == "that" and words[-2].lower() == "and" and words[-1].isalpha() \
            and words[-1].islower() and not words[-1].endswith("s"):
        return words[:-2]  # "on five tasks and find | that ...": the verb of a clause, not a noun of the phrase
    return words


def skip_parenthetical(tokens: list[str], i: int) -> int:
    """Index after the bracketed group that starts at ``tokens[i]``."""
    depth = 0
    for j in range(i, len(tokens)):
        if tokens[j] in "([":
            depth += 1
        elif tokens[j] in ")]":
            depth -= 1
            if depth <= 0:
                return j + 1
    return len(tokens)


def _manner_end(tokens: list[str], i: int) -> int:
    """Where an adverbial of manner that opens at ``tokens[i]`` ends ("in an unsupervised
    manner", "in a fully data-driven fashion": "in", an article, a few modifiers and a noun
    of :data:`MANNER`), or 0 when none opens there."""
    if tokens[i].lower() != "in" or i + 2 >= len(tokens) or tokens[i + 1].lower() not in ("a", "an"):
        return 0
    for j in range(i + 2, min(i + 6, len(tokens))):
        low = tokens[j].lower()
        if low in MANNER:
            # "in a way that ...", "in a manner of speaking" go on: only the closed adverbial
            return j + 1 if j + 1 == len(tokens) or tokens[j + 1].lower() not in ("of", "that", "which") else 0
        if not tokens[j][:1].isalnum() or low in _STOP:
            return 0
    return 0


# A verb that follows the subject's head: a word in -s before one is that head, not the verb
# ("synthesizing realistic profile faces | is promising": not "Realistic Profile").
_AUXILIARIES = frozenset("is are was were has have had can could may might will would should must does".split())


def _auxiliary_next(tokens: list[str], i: int) -> bool:
    return i < len(tokens) and tokens[i].lower() in _AUXILIARIES


def _phrase(tokens: list[str], start: int, limit: int = 16, wh: bool = False, subject: bool = False) -> list[str]:
    """The noun phrase starting at ``start``: up to a clause boundary, brackets dropped."""
    out: list[str] = []
    i = start
    while i < len(tokens) and len(out) < limit:
        tok = tokens[i]
        low = tok.lower()
        if tok in "([":
            i = skip_parenthetical(tokens, i)
            continue
        if tok == "," and out and not wh and i + 1 < len(tokens) \
                and (_ADJECTIVE_END.search(out[-1].lower()) or out[-1].lower() in FILLER) \
                and tokens[i + 1].islower() and tokens[i + 1] not in CLAUSE and tokens[i + 1] not in ARTICLES:
            out.append(tok)  # "a downstream-agnostic, label-only method": the phrase goes on
            i += 1
            continue
        if tok in ",;:)]" or tok in ("–", "—", "-"):
            break
        if out and not wh and low in PREPOSITIONS and low != "to" and out[-1].lower() in ("and", "or"):
            out.pop()
            break  # "... spaces and | for learning": two prepositional phrases, not one noun phrase
        if out and _manner_end(tokens, i):
            break  # "... in an unsupervised manner": how it is done, not part of what
        if out and low in WITH_TO and i + 1 < len(tokens) and tokens[i + 1].lower() == "to":
            break  # "... functions subject to a budget": what is said of the noun, not part of it
        if out and not wh:
            if low in CONTINUING_PARTICIPLES:
                out.append(tok)
                if i + 1 < len(tokens) and tokens[i + 1].lower() in PREPOSITIONS:
                    out.append(tokens[i + 1])
                    i += 1
                i += 1
                continue
            if low == "to" and "from" in out[-6:] and i + 1 < len(tokens) and tokens[i + 1].lower() not in VERB_FORMS:
                out.append(tok)  # "from dense geometry to compact primitives"
                i += 1
                continue
            if low == "to" and out[-1].lower() == "learning" and i + 1 < len(tokens) and tokens[i + 1].isalpha():
                out += [tok, tokens[i + 1]]  # "learning to generate 3D surfaces"
                i += 2
                continue
            if low in CLAUSE or (low in BACKGROUND_VERBS and not _auxiliary_next(tokens, i + 1)):
                break
            if tok.islower() and _THIRD_PERSON_S.match(low) and not _auxiliary_next(tokens, i + 1) \
                    and (low in _CANNOT_END or _verb_before_its_object(out[-1], tok, tokens, i + 1)):
                break  # "the multi-armed bandit problem | constitutes an archetypal setting": its verb ends it
            if _auxiliary_next(tokens, i + 1):
                pass  # the subject's head, before its verb: "realistic profile faces | is promising"
            elif verb_in_place(tokens, i) or (subject and tok.islower() and _verb_after_singular(out[-1], low)
                                            and not low.endswith(("is", "us", "ss", "ics"))
                                            and _modifier_follows(tokens, i + 1)):
                break  # "... loss and | connect it to ...", "Semantic scene completion | predicts volumetric ..."
            if subject and _LOWER_WORD.match(tok) and i + 1 < len(tokens) and tokens[i + 1].lower() in _OBJECT_OPENERS \
                    and not low.endswith(("s", "ly")) and low not in _STOP and low not in NOT_VERBS_BEFORE_OBJECT \
                    and out[-1].lower() not in _DETERMINERS:
                break  # "approaches to distributed sparse regression | assume the data ...": the subject's verb
            if subject and PLURAL.search(out[-1]) and tok.isalpha() and tok.islower() \
                    and low not in PREPOSITIONS and low not in ("and", "or"):
                break  # "Deep research agents extend ...": a verb after a plural subject
        elif wh and out and low in ("we", "our", "by", "thereby", "which", "where", "while"):
            break
        out.append(tok)
        i += 1
    if not wh and i < len(tokens):
        out = _without_cut_object(out, tokens[i])
    if len(out) >= limit and not wh and i < len(tokens) and tokens[i] not in ",;:)]" \
            and tokens[i].lower() not in CLAUSE and tokens[i].lower() not in BACKGROUND_VERBS:
        # the limit fell inside the phrase ("... in Document Visual Question | Answering"): end it
        # before its last preposition, where a shorter noun phrase ends, not at the count
        last = max((j for j in range(2, len(out)) if out[j].lower() in PREPOSITIONS), default=0)
        if last:
            out = out[:last]
    return out


def trim(words: list[str]) -> list[str]:
    """Drop words a title may not end with (counted from the end, then cut once: a copy per
    dropped word was quadratic on a long run of them)."""
    end = len(words)
    while end and (words[end - 1].lower().rstrip(".") in _STOP or words[end - 1].lower() in CONTINUING_PARTICIPLES
                   or words[end - 1].endswith(("-", "–"))
                   or not any(c.isalnum() for c in words[end - 1])):
        end -= 1
    return words[:end]


def drop_fillers(words: list[str]) -> list[str]:
    i = 0
    while i < len(words) and (words[i].lower() in FILLER or words[i] == "," or (i and words[i].lower() in ("and", "but", "yet"))):
        i += 1  # "a simple and scalable approach", "a simple, but highly accurate approach": the joiner goes with the filler before it
    return words[i:]


def is_generic(words: list[str]) -> bool:
    """True for phrases like "framework" or "learning-based method" that say nothing alone."""
    if not words:
        return True
    if any(w.lower() in PREPOSITIONS for w in words):
        return False
    return words[-1].lower() in GENERIC and len(words) <= 2


# Verbs whose own form ends in -ed (those in -eed aside: need, proceed).
_ED_VERBS = frozenset({"embed", "shed", "wed", "bed", "shred", "imbed"})


def _gerund(verb: str) -> str:
    v = verb.lower()
    if v.endswith("ing") or (v.endswith("ed") and not v.endswith("eed") and v not in _ED_VERBS):
        return v  # a participle stays one: "an approach to automated design", not "Automateding"
    if v.endswith("ie"):
        return v[:-2] + "ying"
    if v.endswith("e") and not v.endswith(("ee", "ye", "oe")) and len(v) > 2:
        return v[:-1] + "ing"
    if len(v) <= 4 and re.fullmatch(r"[^aeiou]*[aeiou][bdgmnpt]", v):
        return v + v[-1] + "ing"
    if v in DOUBLING:
        return v + v[-1] + "ing"  # control -> controlling, transfer -> transferring
    return v + "ing"


def _desc_clause(tokens: list[str], i: int) -> list[str]:
    """``that monitors and mitigates X`` at ``i`` as ``for Monitoring and Mitigating X``.

    A light verb says nothing itself: ``that offers a reliable assessment of X`` is
    ``for Reliable Assessment of X``.
    """
    if i + 1 < len(tokens) and tokens[i].lower() in ("that", "which"):
        j = i + 1
        while j < len(tokens) and tokens[j].endswith("ly"):
            j += 1
        if j < len(tokens) and tokens[j].lower() in LIGHT_VERBS:
            j += 1
            while j < len(tokens) and (tokens[j].lower() in ARTICLES or tokens[j].lower() in LIGHT_FILLERS):
                j += 1
            obj = drop_fillers(_phrase(tokens, j, limit=14))
            return ["for"] + obj if len(obj) >= 2 and not any(w.lower() in ANAPHORA for w in obj) else []
        words: list[str] = []
        while j < len(tokens) and THIRD_PERSON.match(tokens[j]) and tokens[j] not in BACKGROUND_VERBS - {"learns", "generates", "encodes", "captures"}:
            words.append(_gerund(_stem(tokens[j])))
            if j + 2 < len(tokens) and tokens[j + 1] == "and" and THIRD_PERSON.match(tokens[j + 2]):
                words.append("and")
                j += 2
                continue
            k = j + 1
            if k + 2 < len(tokens) and tokens[k] == "," and tokens[k + 1].lower() == "or" and "," in tokens[k + 2 : k + 6]:
                k = tokens.index(",", k + 2) + 1  # "decomposes, or “unwraps”, a video": the aside goes
            obj = _phrase(tokens, k, limit=14)
            if any(w.lower() in ANAPHORA for w in obj):
                return []  # "combines the strengths of these two directions" needs what came before
            return ["for"] + words + obj if obj else []
    return []


def _stem(verb: str) -> str:
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    if verb.endswith(("sses", "shes", "ches", "xes", "zes")):
        return verb[:-2]
    return verb[:-1]


def _verb_like(word: str) -> bool:
    """Could ``word`` after "to" be a verb ("to render")? Not "to novel view synthesis"."""
    low = word.lower()
    return (
        word.isalpha() and word.islower() and low not in _STOP and low not in VAGUE and low not in FILLER
        and not low.endswith(("al", "ic", "ous", "ive", "ary", "ful", "less", "ly", "ing", "ion", "ions", "ity"))
    )


def _described(tokens: list[str], i: int, phrase: list[str]) -> list[str]:
    """A description phrase, with a following "that VERBs ..." clause when it has no preposition,
    or its purpose: "a general theory to analyze X" is a "General Theory for Analyzing X"."""
    if phrase and not any(w.lower() in PREPOSITIONS for w in phrase):
        j = i + len(phrase)
        if j + 2 < len(tokens) and tokens[j].lower() == "to":
            k = j + 1
            while k < len(tokens) and tokens[k].endswith("ly"):
                k += 1  # "to directly render": the adverb goes
            verbs: list[str] = []
            while k + 1 < len(tokens) and _verb_like(tokens[k]):
                verbs += [_gerund(tokens[k])]
                k += 1
                if k + 1 < len(tokens) and tokens[k] == "and" and _verb_like(tokens[k + 1]):
                    verbs.append("and")
                    k += 1
                    continue
                break
            purpose = trim(_phrase(tokens, k, limit=12)) if verbs else []
            if len(purpose) >= 2 and not any(w.lower() in ANAPHORA for w in purpose) \
                    and not _ADJECTIVE_END.search(purpose[-1].lower()) and purpose[-1].lower() not in FILLER \
                    and purpose[-1].lower() not in SIZE_WORDS:
                return phrase + ["for"] + verbs + purpose
        while j < len(tokens) and tokens[j] != "that" and tokens[j] != "which" and j < i + len(phrase) + 8 \
                and tokens[j] not in (";", ":") and tokens[j].lower() not in ("we", "our", "is", "are", "to", "while"):
            j += 1
        return phrase + _desc_clause(tokens, j)
    return phrase


def _appositive(tokens: list[str], i: int) -> list[str]:
    """The phrase of ``NAME, a DESC`` / ``NAME: a DESC`` / ``NAME - a DESC`` starting at ``i``."""
    if i < len(tokens) and tokens[i] == "(":
        i = skip_parenthetical(tokens, i)
    if i + 1 < len(tokens) and tokens[i] in APPOSITIVE_INTRO:
        j = i + 1
        if tokens[j].lower() in ("which", "that") and j + 2 < len(tokens) and tokens[j + 1].lower() in ("is", "are"):
            j += 2
        elif tokens[j].lower() in ("which", "that"):
            clause = _desc_clause(tokens, j)
            return clause[1:] if clause else []
        if tokens[j].lower() in ARTICLES or (tokens[i] == ":" and tokens[j][:1].isalpha()):
            while j < len(tokens) and tokens[j].lower() in ARTICLES:
                j += 1
            phrase = _phrase(tokens, j)
            return drop_fillers(_described(tokens, j, phrase))
    if i < len(tokens) and tokens[i].lower() == "for":
        return _phrase(tokens, i)
    return []


def _expansion(tokens: list[str], i: int) -> list[str]:
    """``NAME (Bayesian Cognitive Integration)``: a spelled-out name in brackets at ``i``."""
    if i < len(tokens) and tokens[i] == "(":
        end = skip_parenthetical(tokens, i)
        inner = tokens[i + 1:end - 1]
        if len(inner) >= 2 and all(CAPITALISED.match(w) or w.lower() in SMALL for w in inner):
            return inner
    return []


# Words that may join two parts of one noun phrase ("learning of sparse codes for images").
_JOINS = frozenset("of for in on with and via from under over across between without through using during throughout".split())
# A word after these is a verb, whatever it looks like ("we train", "it improves", "to render").
_VERB_NEXT = frozenset("we it they which that who to can may will have has had could would should must might "
                       "cannot help helps helped".split())
MAX_PHRASE_WORDS = 10
# Words that open a subordinate clause: the phrases after them are details.
_SUBORDINATE = frozenset("where which while whereas whilst although though wherein whereby whose".split())


# Words that cannot be inside a noun phrase: function, clause and verb words.
_BREAK_WORDS = _STOP | CLAUSE | BACKGROUND_VERBS | _CANNOT_END | VERB_FORMS | ARTICLES


_SINGULAR_END = re.compile(r"(?:tion|sion|ment|ness|ity|ance|ence|ism|ure|ing|ogy|ics)$")
_THIRD_PERSON_S = re.compile(r"^[a-z]{3,}(?:[^su]s)$")


def _verb_after_singular(prev: str, word: str) -> bool:
    """``Semantic scene completion predicts``: a lower-case word in -s after a singular noun
    (one in -tion, -ment, -ity, ...) is its verb, not a plural noun of the phrase (a capitalised
    one is a noun: "Markov Decision Processes")."""
    return _THIRD_PERSON_S.match(word) is not None and _SINGULAR_END.search(prev.lower()) is not None


# Words that open a noun phrase and so cannot follow a plural noun in it: after "network merges" they
# show "merges" to be a verb with its object ("the network merges the strokes").
_DETERMINERS = frozenset("a an the this these those its their our his her each every".split())


def _verb_before_its_object(prev: str, word: str, tokens: list[str], i: int) -> bool:
    """``The grouping network merges the strokes``: a lower-case word in -s after a singular noun
    is that noun's verb when a determiner opens its object next; a plural noun of the phrase is
    followed by a verb, a preposition or the end of the clause, not by "the" ("Entropy Rate
    Quantifies", "Feedback Follows" end on a verb)."""
    return _THIRD_PERSON_S.match(word) is not None and not prev.lower().endswith("s") and prev[-1:].isalpha() \
        and i < len(tokens) and tokens[i].lower() in _DETERMINERS


# What opens the object a verb takes right after it: an article, a determiner, a pronoun
# ("and connect it to ...", "considering a generative cost"); not "that" (a noun takes a relative
# clause) nor "each" ("weights each time").
_OBJECT_OPENERS = frozenset("a an the this these those its their our his her it them".split())
_LOWER_WORD = re.compile(r"^[a-z][a-z\-]*[a-z]$")
_PARTICIPLE = re.compile(r"^[a-z]{3,}(?:ed|en)$")


def verb_in_place(tokens: list[str], i: int, opening: bool = True) -> bool:
    """Is ``tokens[i]`` used as a verb where it stands, so that no noun phrase holds it? A word
    is a verb by its form and its place together, since most words of a field are nouns and verbs
    both ("model", "design"): before its object (an article or a pronoun next), one in -ing or -ed
    after a noun ("a hybrid training objective | considering a generative cost"), a plain one
    coordinated with a verb ("the local back-matching loss and | connect it to ..."), or after a
    plural subject ("platforms for sparse regression | assume the ..."); before its agent, a
    participle ("biclusters | found by ..."). A noun is followed by a preposition, a clause or
    another noun, and a phrase opening a sentence ("In this case the ...", "In online learning
    the ...") ends on a noun that an article may follow: a word after a determiner, and an -ing
    noun of a field, are no verbs. Past such an opening (``opening`` false: the sentence opens
    on no preposition, or its comma is behind), a plain word before its object is a verb too:
    "approaches to distributed sparse regression | assume the data ..."."""
    tok = tokens[i]
    if i == 0 or i + 1 >= len(tokens) or not _LOWER_WORD.match(tok):
        return False
    # (the next word as written: "matrix A" names a matrix, "matrix a" is no English)
    low, nxt, prev = tok, tokens[i + 1], tokens[i - 1].lower()
    if low in _STOP or low in PREPOSITIONS or low in LOOSE_PREPOSITIONS or low in NOT_VERBS_BEFORE_OBJECT \
            or low in ADVERBS or low in CONTINUING_PARTICIPLES or prev in _DETERMINERS or prev in _OBJECT_START:
        return False
    participle = _PARTICIPLE.match(low) is not None or low in IRREGULAR_PARTICIPLES
    if nxt == "by":
        return participle
    if nxt not in _OBJECT_OPENERS or (low.endswith("ly") and len(low) > 4):
        return False
    if low.endswith("ing") and len(low) > 5:
        return low not in NOMINAL_GERUNDS and prev not in PREPOSITIONS and prev[:1].isalpha()
    if participle and low.endswith("ed"):
        return prev[:1].isalpha() and prev not in PREPOSITIONS
    if low.endswith("s"):
        return prev in ("and", "or")
    return prev in ("and", "or") or (_is_plural(tokens[i - 1]) and tokens[i - 1].isalpha()) \
        or (not opening and not low.endswith(("ed", "ing")) and prev[:1].isalpha() and prev not in PREPOSITIONS)


def _modifier_follows(tokens: list[str], i: int) -> bool:
    """Does an adjective or a determiner follow, opening an object ("completion predicts |
    volumetric occupancy")? Not a plain word, which may be the verb of a plural before it
    ("partition models | divide a ...", "noising schemes | control overfitting")."""
    if i >= len(tokens):
        return False
    nxt = tokens[i].lower()
    return nxt in _DETERMINERS or (nxt.isalpha() and tokens[i].islower() and _ADJECTIVE_END.search(nxt) is not None
                                   and nxt not in ADJECTIVE_LIKE_NOUNS)


def _noun_follows(tokens: list[str], i: int) -> bool:
    """Does what follows ``tokens[i - 1]`` show it to be a noun, not a verb: a preposition or the
    end of the clause? "predict semantic and instance features from images" (a verb has its
    object next: "scene completion predicts the ...")."""
    if i >= len(tokens):
        return True
    nxt = tokens[i].lower()
    # (and a bracketed abbreviation of the phrase, "latent feature models (LFMs)"; not a
    # reference, "predicts (Fig. 2) the ...")
    return nxt in PREPOSITIONS or nxt in (",", ";", ":", ")", ".") or nxt in CLAUSE \
        or (nxt == "(" and i + 2 < len(tokens) and tokens[i + 2] == ")"
            and sum(c.isupper() for c in tokens[i + 1]) >= 2)


def _plural_noun(word: str) -> bool:
    """A lower-case plural ("networks", "studies"): a lower-case word after it is its verb
    ("Coordinate networks benefit from ..."), since English modifies with the singular
    ("network training"). Not "analysis", "class", "physics", "various", "status"."""
    return word.islower() and len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "ics", "ous"))


_ADJECTIVE_PREFIXES = frozenset({"off", "on", "non", "well", "ill"})
_NOUN_ENDS = ("ment", "eed")


# Words that open a clause inside a title, which may end on its verb ("How to Estimate Dense
# Representations When Multiple Feature Types Exist").
INNER_CLAUSE = frozenset({"when", "if", "whether", "how", "why", "where", "while", "once", "because", "what"})
# Words no title ends on that are no verb of a clause either: determiners, pronouns, auxiliaries.
_NO_CLAUSE_VERB = frozenset("another every many more most much other several some various them there they very "
                            "almost already been being could does have might must shall should will would were "
                            "unless whereas although though however rather once".split())


def ends_its_clause(words: Sequence[str]) -> bool:
    """Does the title end on the verb of a clause it holds whole, with its opener and its subject
    ("... When Multiple Feature Types Exist")? Such a verb ends a title where it would end no phrase."""
    low = [w.lower() for w in words]
    if len(low) < 4 or not any(w in INNER_CLAUSE for w in low[1:-2]):
        return False
    last = low[-1]
    return last in _CANNOT_END and len(last) > 3 and last not in _STOP and last not in ADVERBS \
        and last not in _NO_CLAUSE_VERB and not last.endswith("ly")


@lru_cache(maxsize=65536)
def can_end(word: str) -> bool:
    """Can a title end on ``word``? Not on a preposition, a verb form, an adverb or an adjective."""
    low = word.lower().rstrip(".")
    if low in _STOP or low in _CANNOT_END or low in _JOINS or low in CONTINUING_PARTICIPLES:
        return False
    if low.endswith("ly") and len(low) > 4:
        return False
    if low in SIZE_WORDS:
        return False  # "... in Large": an adjective whose noun the comma after it cut off
    if low.endswith(("'s", "’s")) and not word[:-2].isupper():
        return False  # "Deep Neural Network's", "Children's": a possessive, its noun cut off ("SDP's" is a plural)
    if low.split("-", 1)[0] in _ADJECTIVE_PREFIXES and "-" in low:
        return False  # "off-policy", "non-convex", "well-posed": adjectives, whatever follows
    if "-" in low and (low.rsplit("-", 1)[1] in MODIFIER_SUFFIXES
                       or (low.endswith("ed") and not low.endswith("eed") and len(low.rsplit("-", 1)[1]) > 3)):
        return False  # "superposition-structured", "vector-valued", "learning-based": a modifier, its noun cut off
    if word[:1].isupper() and not word.isupper() and word[1:].islower():
        return low not in FILLER  # a capitalised word is a name, whatever its ending
    if low.endswith(_NOUN_ENDS):
        return True  # "alignment", "environment", "speed": noun endings that look like "-ent", "-ed"
    return not _ADJECTIVE_END.search(low) or low in ADJECTIVE_LIKE_NOUNS or word.isupper() or "-" in low


def noun_phrases(tokens: list[str]) -> list[list[str]]:
    """The noun phrases of a sentence's tokens, found by word class alone: runs of words that
    are not clause, verb or function words, joined by prepositions such as "of" and "for",
    each ending on a word that can end a title. Bracketed asides are skipped."""
    out: list[list[str]] = []
    run: list[str] = []
    i, skip_next = 0, False

    def close(nxt: str = "") -> None:
        if not run:
            return
        words = _without_cut_object(list(run), nxt)
        while words and (words[0].lower() in FILLER or words[0].lower() in WEAK_START or words[0].lower() in COUNTS
                         or words[0].lower() in _JOINS or words[0].lower() in ARTICLES
                         or words[0].lower() in SUBORDINATORS):
            words = words[1:]  # "Despite impressive advances in X": the phrase is what follows
        words = _without_time(words)
        while len(words) > 1 and words[0].lower().endswith("ed") and words[1].lower() in _JOINS:
            words = words[2:]  # "deployed on embedded devices": a participle and its preposition
        # a noun phrase of a question is no question ("Spatial Invariances? for ...")
        words = [w.rstrip("?") for w in _end_at_phrase(words) if w.rstrip("?")]
        if sum(w.lower() not in _JOINS for w in words) >= 2:
            out.append(words)
        run.clear()

    n = len(tokens)
    inverted = False
    # a sentence opening on a preposition ends that phrase on a noun an article may follow ("In
    # this case the ...", "For sparse data the ..."), up to its first comma
    opening = bool(tokens) and (tokens[0].lower() in PREPOSITIONS or tokens[0].lower() in SUBORDINATORS)
    while i < n:
        tok = tokens[i]
        if tok == "(" or tok == "[":
            i = skip_parenthetical(tokens, i)
            continue
        low = tok.lower()
        manner = _manner_end(tokens, i)
        if manner:
            close(tok)  # "in an unsupervised manner": how the thing before it is done
            i = manner
            continue
        if run and low in WITH_TO and i + 1 < n and tokens[i + 1].lower() == "to":
            close(tok)  # "submodular functions subject to a budget": the adjective opens what is said of them
            i += 2
            continue
        i += 1
        if low in _SUBORDINATE and (out or run):
            break  # "..., where the learner receives ...": a detail of what came before
        if not run and low == "following" and i >= 2 and tokens[i - 2].lower() == "the":
            continue  # "the following sparse PCA problem" points ahead (not "following complex instructions")
        if low == "to" and run and run[-1].lower() == "learning" and (len(run) == 1 or run[-2].lower() in _JOINS) \
                and i < n and _verb_like(tokens[i]):
            # "learning to rank", "for learning to localize": one name of a task (not "reinforcement
            # learning | to find", a purpose)
            run += [tok, tokens[i]]
            i += 1
            continue
        if skip_next:
            # "to further stabilize X", "we then train": the adverb, then the verb, go
            # (a modal or a subject keeps it going: "that can | solve X", "how can we efficiently |
            # propagate X" -- the verb is the word after them)
            skip_next = (low.endswith("ly") and len(low) > 4) or low in ADVERBS or low in _VERB_NEXT
            close()
        elif run and low in _JOINS and low not in ("and", "or") and run[-1].lower() in ("and", "or"):
            # "over Hilbert spaces and | for learning": "and" joins two prepositional phrases, not
            # two nouns of one phrase; the one before it ends there
            run.pop()
            close(tok)
        elif run and low in _JOINS:
            run.append(tok)
        elif low in _BREAK_WORDS or not low[:1].isalnum() or (low.endswith("ly") and len(low) > 4) \
                or (run and low[-1:] == "s" and tok.islower() and _verb_after_singular(run[-1], low)
                    and not _noun_follows(tokens, i)) \
                or (run and _verb_before_its_object(run[-1], tok, tokens, i)) \
                or (run and verb_in_place(tokens, i - 1, opening and "," not in tokens[:i - 1])) \
                or (run and tok.isalpha() and tok.islower() and _plural_noun(run[-1])):
            if low in _PLURAL_VERBS and _ends_on_a_clause_subject(run) and not _relative_open(tokens, i - 1):
                run.clear()  # "the amount of generalizable information language models learn": no phrase
            if inverted and low not in BACKGROUND_VERBS and low not in VERB_FORMS:
                # "when does learning elicit existing knowledge,": subject, verb and object in one run
                # (not "how do neural networks | learn": the verb ended the subject)
                run.clear()
            close(tok)
            skip_next = low in _VERB_NEXT
        else:
            if not run:
                # a question's subject after "does": its verb, in the plain form, follows in the run
                inverted = i >= 2 and tokens[i - 2].lower() in ("does", "do", "did")
            run.append(tok)
    if inverted:
        run.clear()
    close()
    return out


# Verbs that agree with a plural subject ("models learn"): not an auxiliary, a past form or an adverb.
_PLURAL_VERBS = frozenset(
    w for w in BACKGROUND_VERBS
    if w.isalpha() and not w.endswith(("s", "ed", "ly"))
    and w not in {"is", "are", "was", "were", "has", "have", "had", "can", "could", "may", "might", "will",
                  "would", "should", "must", "does", "do", "did", "still", "also", "often"}
)


def _is_plural(word: str) -> bool:
    low = word.lower()
    return len(low) > 3 and low.endswith("s") and not low.endswith(("ss", "us", "is", "ics", "ous"))


def _ends_on_a_clause_subject(run: list[str]) -> bool:
    """Does a run that a plural verb ends hold that verb's subject at its end, a relative clause
    without "that": "the amount of generalizable information language models | learn during
    training". Its head before the first joining word is singular and cannot be the subject of
    "learn"; the plural after the join is, and where that subject starts no word class tells."""
    words = [w for w in run if w.lower() not in ARTICLES and w.lower() not in FILLER]
    k = next((j for j, w in enumerate(words) if w.lower() in _JOINS and w.lower() not in ("and", "or")), 0)
    return 0 < k < len(words) - 1 and not _is_plural(words[k - 1]) and _is_plural(words[-1])


def _relative_open(tokens: list[str], i: int) -> bool:
    """Is a relative clause open before ``tokens[i]``, whose verb a plural subject before it
    agrees with: "Variational methods that rely on a recognition network to approximate the
    posterior of directed graphical models | offer ..." (not "We find that the amount of ...",
    where "that" opens what is found)."""
    for j in range(i - 1, -1, -1):
        if tokens[j].lower() in ("that", "which", "who"):
            return j + 1 < i and tokens[j + 1].lower() not in ARTICLES and tokens[j + 1].lower() not in ANAPHORA
    return False


_TIME_NOUNS = frozenset("years decades decade times days".split())
_TIME_MODIFIERS = frozenset("recent past last few several".split())


def _without_time(words: list[str]) -> list[str]:
    """The phrase without a closing "in recent years" or "over the past decade": when, not what."""
    n = len(words)
    if n >= 4 and words[-1].lower() in _TIME_NOUNS:
        for k in range(n - 2, max(n - 5, 0), -1):
            if words[k].lower() in ("in", "over", "during", "for") and any(w.lower() in _TIME_MODIFIERS for w in words[k + 1:]):
                return words[:k]
    return words


def _end_at_phrase(words: list[str]) -> list[str]:
    """The longest prefix of at most MAX_PHRASE_WORDS words that ends where a phrase can end:
    on a word that can end a title, before a joining word or at the run's end."""
    ends = [k for k in range(1, min(len(words), MAX_PHRASE_WORDS) + 1)
            if can_end(words[k - 1]) and (k == len(words) or words[k].lower() in _JOINS or k == MAX_PHRASE_WORDS)]
    # prefer a cut before a joining word to one in the middle of a run of nouns
    joined = [k for k in ends if k == len(words) or words[k].lower() in _JOINS]
    return words[: (joined or ends or [0])[-1]]
