"""The statement title: what the paper says it does, in its own words, as a title.

Most abstracts say outright what the paper does: "we propose a framework for evaluating
detection methods under real-world conditions", "this work presents VIS Author Profiles, a
novel approach to ...", "we propose to replace the classification loss with ...". A title made
of that one clause names the contribution, and cannot name a baseline, a contrast or a passing
phrase instead: those are what the scored candidates of :mod:`.choose` get wrong most often.

The clause is read, never recombined: its verb tells what kind of statement it is, and the
words after it, cut where a phrase ends, are the title (turned into a title's form: "to
replace X" -> "Replacing X", "that X" -> the claim X). Its confidence says how sure the
reading is; below :data:`TRUSTED` the scored title stays.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from generator.derive.title.compose import _balanced, _title_case, _unglued
from generator.derive.title.faithful import ends_a_phrase, says_little
from generator.derive.title.phrases import _gerund, can_end
from generator.derive.title.words import (
    _W,
    _STOP,
    ARTICLES,
    FILLER,
    GENERIC,
    MAX_LENGTH,
    PARTITIVE,
    PREPOSITIONS,
    VAGUE,
    _COMMON_WORDS,
    ADJECTIVE_LIKE_NOUNS,
    _ADJECTIVE_END,
    _alternation,
)

# The kinds of statement, by their verb (``words.yml``): what the paper makes ("we propose X"),
# what it sets out to do ("we propose to replace X", "we aim to learn X"), what it studies ("we
# study X"), what it finds ("we derive bounds on X") and what it shows ("we show that X", not
# read yet). (Other verbs after "we", "we extend X", "we apply X", named a step of the work more
# often than the work: graded blind on the fit split, 1 such title of 12 was better.)
MAKES = _W["statement_making_verbs"]
STUDIES = _W["statement_study_verbs"]
SHOWS = _W["statement_claim_verbs"]
FINDS = _W["statement_result_verbs"]
REFERRING = _W["statement_referring_heads"]  # "the problem", "the techniques": said earlier
KIND_HEADS = _W["statement_kind_heads"]      # "the problem of X": X
INCOMPLETE = _W["statement_incomplete_nouns"]  # "the impact", "the ability": of what?
BARE_HEADS = _W["statement_bare_heads"]        # "Approach for X": X
GIVING = _W["giving_words"]                    # "a scheme called X": X
AIMS = _W["statement_aim_verbs"]          # "we aim to", "we seek to": what follows is the work
DROPPED = _W["statement_dropped_words"]   # "novel", "new": said of every paper's work
ENDS = _W["statement_clause_ends"]        # words that open another clause after the object
HEADS = _W["statement_generic_heads"]     # "method", "framework": said by the clause after them
NOT_WORK = _W["statement_not_the_work"]   # "results", "experiments": what the paper reports, not does

# a statement's subject: the paper's own voice
_OWN = r"(?:[Ww]e|[Tt]his\s+(?:paper|work|article|study|note|thesis|submission|manuscript)|[Oo]ur\s+(?:paper|work))"
_ADVERBS = r"(?:(?:[a-z]+ly|also|further|then|here|first|now|thus|therefore|instead|next|finally|in\s+addition|additionally),?\s+)*"
_VERBS = sorted(MAKES | STUDIES | SHOWS | AIMS | FINDS, key=len, reverse=True)
_STATEMENT = re.compile(rf"(?<![\w-]){_OWN}\s+{_ADVERBS}({_alternation(_VERBS)})(?:s|es|d|ed)?(?![\w-])"
                        rf"|(?<![\w-])[Oo]ur\s+(?:main\s+|primary\s+)?(goal|aim|objective|purpose)\s+(?:here\s+|in\s+this\s+\w+\s+)?is(?=\s+to\s)")
_TOKEN = re.compile(r"[\w@+.'’/&*^~–-]*[\w+*']|[,;:()\[\]\"“”]")

# At most this many words in a title, and a title says at least this many words of substance.
MOST_WORDS = 14
LEAST_SUBSTANCE = 2
# Confidence of a statement title read whole; cut short, vaguer or a claim, less.
TRUSTED = 0.85


@dataclass(frozen=True)
class Statement:
    """A statement title with how it was read: the sentence's index, the verb's kind and the
    confidence that it names the paper's work."""

    title: str
    sentence: int
    kind: str
    confidence: float


def _kind(verb: str) -> str:
    for kind, verbs in (("aims", AIMS), ("makes", MAKES), ("studies", STUDIES), ("finds", FINDS), ("shows", SHOWS)):
        if verb in verbs:
            return kind
    return ""


def _stem(word: str) -> str:
    """The verb as the word lists hold it ("proposes" -> "propose", "studied" -> "study")."""
    low = word.lower()
    for form in (low, low[:-1], low[:-2], low[:-3] + "y" if low.endswith("ied") else "", low[:-3] + "y" if low.endswith("ies") else "",
                 low[:-1] if low.endswith("ed") else ""):
        if form and _kind(form):
            return form
    return low


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


_NEXT_VERBS = _W["next_clause_verbs"] | _W["contribution_verbs"] | _W["subject_verbs"]


def _is_verb_like(word: str) -> bool:
    """A word that opens a new clause after "and": "and show", "and use", "and evaluate it"."""
    low = word.lower()
    return _kind(_stem(low)) != "" or low in ENDS or low in _NEXT_VERBS or _stem(low) in _NEXT_VERBS \
        or low.rstrip("s") in _NEXT_VERBS


def _phrase(tokens: list[str], relative: bool) -> tuple[list[str], bool]:
    """The words of one phrase from the start of ``tokens``: up to a clause's end, a second verb,
    or punctuation. ``relative``: a "that"/"which" clause belongs to the phrase (after a head
    that only says what kind of thing it is: "a method that learns X")."""
    out: list[str] = []
    i = 0
    while i < len(tokens):
        if len(out) >= MOST_WORDS + 6:
            return out, False
        t = tokens[i]
        low = t.lower()
        nxt = tokens[i + 1].lower() if i + 1 < len(tokens) else ""
        if t in {",", ";", ":", "(", ")", "[", "]", '"', "“", "”"}:
            if t == "(":  # "(TOD)", "(see ...)": a parenthesis is skipped, not read
                depth, i = 1, i + 1
                while i < len(tokens) and depth:
                    depth += {"(": 1, ")": -1}.get(tokens[i], 0)
                    i += 1
                continue
            break
        if low in ("that", "which") and out:
            if not relative or low == "which":
                break
            relative = False  # one relative clause at most
            after = tokens[i + 2].lower() if i + 2 < len(tokens) else ""
            if nxt in ("is", "are") and (after.endswith("ed") or after in _W["irregular_participles"]):
                i += 2  # "an architecture that is trained to ...": "Architecture Trained to ..."
                continue
        elif (low in ENDS or low in ("what", "how", "whether", "why")) and out:
            break
        elif low in ("and", "or") and out and (_is_verb_like(nxt) or nxt in ARTICLES and len(out) > 6):
            break  # "X and show that ...", "X and the Y ..." after a long phrase: another clause
        elif low == "to" and out and out[-1].lower() in HEADS and (
                _infinitive(tokens, i + 1) or (nxt.endswith("ly") and _infinitive(tokens, i + 2))):
            # "a framework to evaluate X": Framework for Evaluating X ("to directly control X": for Controlling X)
            skip = 1 if nxt.endswith("ly") else 0
            out += ["for", _gerund(tokens[i + 1 + skip])]
            i += 2 + skip
            continue
        out.append(t)
        i += 1
    return out, True


def _ends(words: list[str]) -> bool:
    """Can the phrase end here? Not on a word no phrase ends on, an adjective whose noun was cut
    off ("... for Smooth"), a gerund with no object after a preposition ("... by Attempting"), a
    relative clause of a bare verb ("... That Adapts"), or a person's name after "by"."""
    if not ends_a_phrase(words):
        return False
    low = [w.lower() for w in words]
    last = low[-1]
    if _ADJECTIVE_END.search(last) and last not in ADJECTIVE_LIKE_NOUNS and not words[-1][:1].isupper() \
            and last.endswith(("al", "ive", "ous", "ic", "able", "ible", "ful", "less")) and len(low) > 1:
        return False
    if len(low) > 2 and last.endswith("ing") and low[-2] in PREPOSITIONS:
        return False
    if last in ("literature", "community", "field", "art") and len(low) > 2 and low[-2] == "the":
        return False  # "... to the Visualization Literature": where it goes, not what it is
    if len(low) > 2 and low[-2] in ("that", "which", "to"):
        return False  # "... That Adapts", "... to Evaluate": a clause cut after its verb
    if len(low) > 3 and low[-3] == "to" and low[-2].endswith("ly"):
        return False  # "... to Explicitly Describe"
    if last in INCOMPLETE or (last.endswith("est") and len(last) > 5 and words[-1].islower()) \
            or last in ("aimed", "based", "order", "alternative", "combination", "respect", "regard"):
        return False  # "... with Largest", "... in Order", "... as an Alternative": cut short
    return True


_BOUNDARIES = frozenset({"and", "that", "which", "using", "based", "where", "when", "by"})


def _cuts(words: list[str], whole: bool) -> list[list[str]]:
    """The words, then each shorter phrase of them that ends where a phrase can end (before a
    preposition, "and", a relative word), longest first; the words themselves only when the
    phrase ended where it was read (``whole``) and fits :data:`MOST_WORDS` and the title's length."""
    def fits(ws: list[str]) -> bool:
        return len(ws) <= MOST_WORDS and len(" ".join(ws)) <= MAX_LENGTH
    if "by" in words[1:]:
        at = words.index("by", 1)
        if at + 1 < len(words) and words[at + 1][:1].isupper() and not words[at + 1].isupper():
            words, whole = words[:at], True  # "... by Valpola", "... by Chaudhuri and Dasgupta": whose, not what
    out = [words] if whole and fits(words) and _ends(words) else []
    for k in range(len(words) - 1, 1, -1):
        low = words[k].lower()
        if (low in PREPOSITIONS or low in _BOUNDARIES) and fits(words[:k]) and _ends(words[:k]) \
                and words[k - 1].lower() not in PREPOSITIONS:
            out.append(words[:k])
    return out


def _clean(words: list[str]) -> list[str]:
    """The phrase without its opening article and the words every paper says of its work
    ("a novel", "new"; not later: "novel object instances" are unseen ones), and with "this",
    "its" said plainly ("this problem" -> "the problem")."""
    while words and (words[0].lower() in ARTICLES or words[0].lower() in DROPPED):
        words = words[2:] if len(words) > 2 and words[1].lower() in ("and", "yet", "but") and words[0].lower() in DROPPED \
            else words[1:]  # "a simple yet effective method": "Effective Method"
    out = []
    for k, w in enumerate(words):
        low = w.lower()
        if low in ("this", "these", "such") and k > 0 and k + 1 < len(words):
            out.append("the")
            continue
        if low in ("its", "their", "our") and k > 0:
            out.append("the")
            continue
        out.append(w)
    return out


_WORDLIKE = re.compile(r"^(?:[A-Za-z][\w@+.'’/&*^~–-]*|\d[\w.+-]*[A-Za-z][\w.+-]*|\d+(?:\.\d+)?[%x]?)$")


def _head(words: Sequence[str]) -> str:
    """The phrase's head noun: the word before its first preposition or clause word, lowered."""
    low = [w.lower() for w in words]
    at = next((k for k, w in enumerate(low) if k and (w in PREPOSITIONS or w in ("that", "which", ",", "to"))), len(low))
    return low[at - 1] if at else ""


_DETERMINERS = frozenset({"a", "an", "the", "its", "their", "each", "every", "both", "all", "any", "multiple", "many"})


def _infinitive(tokens: Sequence[str], at: int) -> bool:
    """Is ``tokens[at]``, after "to", a verb ("a method to learn sparse codes", "to estimate the
    X") rather than what the "to" leads to ("an approach to novel view synthesis")? A lower-case
    word that is no adjective, whose gerund ML abstracts use or that a determiner follows."""
    verb = tokens[at] if at < len(tokens) else ""
    after = tokens[at + 1].lower() if at + 1 < len(tokens) else ""
    if not (verb.isalpha() and verb.islower()) or verb in _STOP or verb in DROPPED or verb in FILLER \
            or verb.endswith(("ed", "ing", "ly", "al", "ous", "ive", "ic", "able", "ible", "ful", "less")):
        return False
    return after in _DETERMINERS or _gerund(verb) in _COMMON_WORDS


def _named_in(words: list[str]) -> list[str]:
    """The name a phrase gives and what follows it: "Learning Scheme Called Network Iterative
    Learning for Deep Neural Networks" -> "Network Iterative Learning for Deep Neural Networks"."""
    low = [w.lower() for w in words]
    for k in range(1, len(low) - 1):
        if low[k] in GIVING and words[k + 1][:1].isupper():
            return words[k + 1:]
    return words


def _without_kind_of(words: list[str]) -> list[str]:
    """ "... for the Task of Finding X" -> "... for Finding X", "Approach to the Problems of
    Evaluating X" -> "Approach to Evaluating X": the kind of thing says nothing a title needs."""
    low = [w.lower() for w in words]
    for k in range(1, len(low) - 3):
        if low[k - 1] in PREPOSITIONS and low[k] == "the" and low[k + 1].rstrip("s") in KIND_HEADS and low[k + 2] == "of":
            return words[:k] + words[k + 3:]
    return words


def _headless(words: list[str]) -> list[str]:
    """The phrase without a bare head that only says what kind of thing the work is, when what
    follows says what it does: "Approach for Automatic Scene Illumination with Fireflies" ->
    "Automatic Scene Illumination with Fireflies", "Method That Combines X with Y" -> "Combining X
    with Y" (an editor reads "Approach for ..." as clumsy). A head with words of its own before
    it stays: "Online Algorithm for Solving ...", "General Framework for ...")."""
    if len(words) < 4 or words[0].lower() not in BARE_HEADS:
        return words
    link, rest = words[1].lower(), words[2:]
    if link in ("that", "which") and rest[0].islower() and rest[0].endswith("s") and not rest[0].endswith("ss"):
        verb = rest[0][:-3] + "y" if rest[0].endswith("ies") else rest[0][:-2] if rest[0].endswith(("shes", "ches", "xes", "sses")) else rest[0][:-1]
        return [_gerund(verb).capitalize(), *rest[1:]]
    if link == "of" and words[0].lower() in ("way", "ways", "method", "means") and rest[0].lower().endswith("ing"):
        return [rest[0][:1].upper() + rest[0][1:], *rest[1:]]  # "Way of Reducing X" -> "Reducing X"
    if link in ("for", "to") and rest[0].lower() not in ARTICLES and len(_substance(rest)) >= LEAST_SUBSTANCE:
        if link == "to" and _infinitive(rest, 0):
            return [_gerund(rest[0]).capitalize(), *rest[1:]]  # "Method to Learn the X" -> "Learning the X"
        if link == "to" and rest[0].islower() and not (rest[0] in DROPPED or _ADJECTIVE_END.search(rest[0])):
            return words  # "a framework to probe for ...": a verb or a noun, the words do not say which
        return [rest[0][:1].upper() + rest[0][1:], *rest[1:]]  # "Approach to Novel View Synthesis"
    return words


def _referring(words: Sequence[str]) -> bool:
    """Does a phrase that opened on "the" stand for what an earlier sentence said ("the problem",
    "the techniques"; not "the problem of X", which says what)?"""
    low = [w.lower() for w in words]
    head = _head(words)
    at = low.index(head) if head in low else -1
    return head in REFERRING and (at + 1 >= len(low) or low[at + 1] != "of")


def _past_kind(words: list[str]) -> list[str]:
    """Without a head that only says what kind of thing follows: "Problem of Estimating the
    Cluster Tree" -> "Estimating the Cluster Tree", "a number of related problems" -> "Related
    Problems"."""
    if len(words) > 3 and (words[0].lower() in KIND_HEADS or words[0].lower() in PARTITIVE) and words[1].lower() == "of":
        rest = words[2:]
        while rest and rest[0].lower() in ARTICLES:
            rest = rest[1:]
        return rest
    return words


def _substance(words: Sequence[str]) -> list[str]:
    return [w for w in words if w.lower() not in _STOP and w.lower() not in GENERIC and w.lower() not in VAGUE
            and w.lower() not in FILLER and any(c.isalpha() for c in w)]


def _read(sentence: str, index: int) -> Statement | None:
    m = _STATEMENT.search(sentence)
    if not m:
        return None
    verb = _stem(m.group(1) or "aim")  # "our goal is to learn X": as "we aim to learn X"
    kind = _kind(verb)
    rest = _tokens(sentence[m.end():])
    if len(rest) > 3 and rest[0].lower() in ("in", "here") and rest[1].lower() in ("this", "the") \
            and rest[2].lower() in ("paper", "work", "article", "study", "note", "letter"):
        rest = rest[3:]  # "we propose in this article a tractable framework ..."
    if kind == "shows" and rest[:1] and rest[0].lower() in ("a", "an"):
        kind = "makes"  # "we demonstrate a spiking neural circuit for ...": a thing shown is a thing made
    confidence = 1.0
    if verb in ("focus", "look", "put"):  # "focus on X", "look at X", "put forward X"
        if rest and rest[0].lower() in ("on", "at", "forward", "upon"):
            rest = rest[1:]
        else:
            return None
    elif rest and rest[0].lower() in ("on", "upon") and verb in ("build", "report"):
        return None  # "we build on top of X", "we report on X": another's work, or results
    if rest[:1] == ["that"] and kind != "shows":
        return None  # "we suggest that ...", "we find that ...": a claim the verb does not make
    if kind == "aims" or (rest[:1] == ["to"] and kind in ("makes", "studies")):
        # "we aim to learn X", "we propose to replace X": what follows is the work, as a gerund
        if rest[:1] != ["to"] or len(rest) < 3 or not rest[1].isalpha() or not rest[1].islower():
            return None
        rest = [_gerund(rest[1]).capitalize(), *rest[2:]]
        kind = "does"
    elif kind == "shows":
        return None  # a claim is a clause with its verb, which a phrase reader cuts: not read yet
    elif kind == "finds":
        confidence = 0.7  # a result ("we derive bounds on X") names the work less surely
    if kind == "does":
        obj = _clean(rest[1:])
        if not obj or obj[0].lower() in NOT_WORK or (rest[1].lower() == "the" and _referring(obj)):
            return None  # "we address two questions", "we extend the techniques": what was said before
    if kind == "studies" and rest[:1] and rest[0].lower() in ("how", "whether", "why", "what", "when"):
        confidence = 0.8  # "we study how X affects Y": a question, whole or not at all
        words, whole = _phrase(rest, relative=False)
        if not whole or len(words) > MOST_WORDS or not ends_a_phrase(words):
            return None
        words = [rest[0].capitalize(), *words[1:]]
    else:
        if kind != "does":
            if not rest or rest[0].lower() in NOT_WORK or rest[0].lower() in PREPOSITIONS or \
                    (rest[0].lower() == "the" and _referring(_clean(rest))):
                return None  # "we present results", "we study the problem": what, it says elsewhere
            rest = _past_kind(_clean(rest))
        start = _clean(rest)
        head_at = next((k for k, w in enumerate(start) if w.lower() in PREPOSITIONS | {"that", "which", ","}), len(start))
        relative = head_at > 0 and start[head_at - 1].lower() in HEADS
        words, whole = _phrase(start, relative)
        words = _clean(words)
    if any(not _WORDLIKE.match(w) or (len(w) == 1 and w.lower() != "a") for w in words):
        return None  # mathematics read as words ("2 Fi _i 1n", "a matrix B")
    words = _headless(_without_kind_of(_named_in(words)))
    for cut in _cuts(words, whole):
        if _says_something(cut, kind):
            shortened = (0.15 if len(cut) > 3 else 0.45) if cut is not words else 0.0  # "Visualization Application"
            weak = 0.3 if cut[0].lower() in HEADS and len(cut) <= 3 else 0.0  # "Framework for Learning": what for?
            studied = 0.1 if kind == "studies" else 0.0
            studied += 0.2 if len(_substance(cut)) < 3 else 0.0  # "Bandit Optimization": the field, not the work
            title = _title_case(_balanced(_unglued(cut)))
            return Statement(title, index, kind, max(0.05, round(confidence - shortened - weak - studied, 2)))
    return None


_POINTING = frozenset({"it", "they", "them", "this", "these", "those", "such", "we", "us", "same", "above",
                       "aforementioned", "former", "latter", "following"})


def _says_something(cut: list[str], kind: str) -> bool:
    """Is the phrase a title on its own? Not when it points elsewhere ("the same", "the
    technique" said before), opens on what the paper reports, or says nothing specific."""
    low = [w.lower() for w in cut]
    if _POINTING.intersection(low):
        return False  # the phrase points elsewhere: it says nothing on its own
    after = [*low[2:], ""]
    if any(a == "the" and b in INCOMPLETE and c not in ("of", "to") for a, b, c in zip(low, low[1:], after)):
        return False  # "Quantifying the Impact in Simulated Datasets": the impact of what?
    if any(a == "the" and ((b in REFERRING and c != "of") or ((b in HEADS or cut[k + 1].islower()) and (c in PREPOSITIONS - {"of"} or not c)))
           for k, (a, b, c) in enumerate(zip(low, low[1:], after))):
        return False  # "... for the Architecture", "... of the Objective": said before, not here
    if low[0] in NOT_WORK or low[0] in PREPOSITIONS or low[0] in ("and", "or") \
            or any(a in ARTICLES and b in PREPOSITIONS | {"to"} for a, b in zip(low, low[1:])):
        return False
    said = cut[1:] if kind == "does" else cut  # the gerund of "we aim to learn" says nothing of what
    # (words most abstracts use say something together: "Regularization Method for Generative
    # Adversarial Networks"; two or three of them alone do not: "Deep Neural Network Model")
    substance = len(_substance(said))
    return substance >= LEAST_SUBSTANCE and not (says_little(said) and substance < 4) and can_end(cut[-1])


@lru_cache(maxsize=64)
def _statements(sentences: tuple[str, ...]) -> tuple[Statement, ...]:
    return tuple(s for i, sentence in enumerate(sentences) if (s := _read(sentence, i)) is not None)


_ORDER = {"makes": 0, "does": 1, "studies": 2, "finds": 3, "shows": 4}


def statement_title(sentences: Sequence[str]) -> Statement | None:
    """The title of the paper's own statement of its work: the first sentence that states what
    the paper makes, does or studies (a result only where no sentence does); None when no
    sentence states the work in a phrase that says something on its own."""
    found = _statements(tuple(sentences))
    if not found:
        return None
    first = min(s.sentence for s in found if s.kind != "finds") if any(s.kind != "finds" for s in found) else found[0].sentence
    return min((s for s in found if s.sentence == first), key=lambda s: _ORDER[s.kind])


_PRESENTING = re.compile(r"(?:\b(?:called|named|dubbed|termed|coined|name|call|dub|term)\s+(?:it\s+|them\s+|this\s+\w+\s+|our\s+\w+\s+)?(?:as\s+)?"
                         r"|\b(?:our|novel|new|proposed)\s+(?:[\w-]+\s+){0,3}?"
                         r"|\bcontribution\s+(?:of\s+(?:this|the)\s+\w+\s+)?is\s+)[\"“'‘]?$", re.I)
# a name followed by what it is: "X: a novel ...", "X, a simple ...", "X (a new ...)"
_APPOSITIVE = re.compile(r"^\}?\s*[,:(—–]\s*(?:an?|the)\s+(?:novel|new|simple|general|unified|principled|scalable|efficient|"
                         r"(?:[\w-]+\s+){0,3}?(?:method|approach|framework|model|algorithm|architecture|module|system|"
                         r"technique|network|dataset|benchmark|tool|toolkit|library|loss|objective|metric|estimator|procedure|"
                         r"strategy|scheme|regularizer|layer|mechanism|attack|defense|agent|policy))\b", re.I)
# what a name in parentheses abbreviates is read back to this many characters for the words that give it
_LONG_FORM = 120


def presents(name: str, sentences: Sequence[str]) -> bool:
    """Does the abstract present ``name`` as the paper's own work, as a paper names what it makes?
    It gives it ("a method called X", "our X", "the proposed X", "a new X", "the main contribution
    is X"), or a sentence of ours makes it ("we propose X", "we introduce a simple method, X",
    "this paper presents an approach; X", "we propose a new type of normalizing flow, inverse
    autoregressive flow (IAF)"). A name met only where the paper studies, analyses or uses it
    ("we analyze skip-gram with negative-sampling (SGNS)", "we apply SVI to ...") is another's."""
    pattern = re.compile(rf"(?<![\w/.-]){re.escape(name)}(?![\w/-])")
    for sentence in sentences:
        for m in pattern.finditer(sentence):
            bracketed = sentence[m.start() - 1:m.start()] == "("
            before = sentence[:m.start() - 1] if bracketed else sentence[:m.start()]
            if _PRESENTING.search(before[-60:]) or (bracketed and re.search(
                    r"\b(?:called|named|dubbed|termed|coined|our|novel|new|proposed)\b", before[-_LONG_FORM:], re.I)):
                return True
            after = sentence[m.end():m.end() + 80]
            if _APPOSITIVE.search(after) and not _OTHERS_AFTER.search(after):
                return True  # "SchNetX: a novel deep learning architecture", "blendout, a simple regularizer"
            stated = _STATEMENT.search(sentence)
            if not stated or stated.start() > m.start() or _kind(_stem(stated.group(1) or "aim")) not in ("makes", "aims"):
                continue
            between = sentence[stated.end():m.start()]
            if bracketed and "." not in between:
                return True  # "we propose a ... algorithm with dynamic episodes (TSDE)"
            if not re.search(r"[.]|\b(?:which|that|where|of|to|than|from|by|with|using|on)\b", between) \
                    and len(between) < 90:
                return True  # the object of "we propose", before any clause or preposition
    return False


_OTHERS_AFTER = re.compile(r"^\)?,?\s*(?:\(?\s*[A-Z][\w-]+\s+et\s+al|(?:\w+\s+){0,3}?(?:introduced|proposed|developed|presented|"
                           r"described)\s+(?:by|in)\b)")
_OTHERS_BEFORE = re.compile(
    r"(?:\b(?:we|this\s+(?:paper|work))\s+(?:\w+ly\s+)?(?:study|studies|analy[sz]e|analy[sz]es|consider|considers|investigate|"
    r"investigates|apply|applies|use|uses|employ|employs|extend|extends|revisit|revisits|examine|examines|adapt|adapts|"
    r"leverage|leverages|improve|improves|generali[sz]e|generali[sz]es|accelerate|accelerates|address|addresses|"
    r"explore|explores)"
    r"\s+(?:[\w-]+\s+){0,6}?"
    r"|\b(?:advances|progress|success)\s+(?:in\s+|of\s+|with\s+)?using\s+(?:[\w-]+\s+){0,5}?"
    r"|\b(?:popular|standard|classical|classic|well-known|existing|widely[\s-]used|commonly[\s-]used|recently[\s-]proposed|"
    r"state-of-the-art|traditional|conventional|so-called|known\s+as|original|vanilla|seminal)\s+(?:[\w-]+\s+){0,3}?)"
    r"\(?[\"“'‘]?$", re.I)


# What the paper varies or generalises is another's ("a lifted variant of the weighted mini-bucket
# (WMB) algorithm"), unless the sentence goes on to name the variant ("which we call Variational
# Bi-LSTM": then the name is part of the paper's own).
_VARIED_BEFORE = re.compile(r"\b(?:variants?|extensions?|generali[sz]ations?)\s+of\s+(?:the\s+|an?\s+)?"
                            r"(?:[\w-]+\s+){0,5}?\(?[\"“'‘]?$", re.I)
_NAMED_AFTER = re.compile(r"\b(?:we\s+call|called|named|dubbed|termed)\b", re.I)


def anothers(name: str, sentences: Sequence[str]) -> bool:
    """Is ``name`` another's work that the paper studies, uses or improves, and never one it
    gives its own work (:func:`presents`)? "We analyze skip-gram with negative-sampling (SGNS), a
    word embedding method introduced by Mikolov et al.", "we apply the popular NUTS sampler".
    (Only on such evidence: many abstracts give their own name in ways no pattern foresees,
    "With OpinionConv, we develop ...", "CoTune adapts features ...", and dropping a paper's own
    name costs more than keeping another's.)"""
    if presents(name, sentences):
        return False
    pattern = re.compile(rf"(?<![\w/.-]){re.escape(name)}(?![\w/-])")
    for sentence in sentences:
        for m in pattern.finditer(sentence):
            before = sentence[max(0, m.start() - 90):m.start()]
            if _OTHERS_BEFORE.search(before) or _OTHERS_AFTER.search(sentence[m.end():m.end() + 60]) \
                    or (_VARIED_BEFORE.search(before) and not _NAMED_AFTER.search(sentence[m.end():])):
                return True
    return False
