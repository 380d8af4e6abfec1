"""The tagging stage: give each paper the topics of the taxonomy its abstract is about.

An abstract is split into words once; only a word that starts some phrase of the
taxonomy is looked up, in one dictionary of all phrases (longest first), so the cost
grows with the length of the abstract, not with the size of the taxonomy. A topic's score adds up its
mentions, weighted by where they occur: the opening sentences say what a paper is
about, a late sentence often only mentions a related field. A topic becomes a tag
when its score shows it is the subject, not a passing mention.
"""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from generator.core import schema
from generator.core.errors import TaxonomyError
from generator.core.model import Paper, Topic
from generator.core.schema import Report, check
from generator.core.text import sentences
from generator.core.yamlfile import load_yaml

TAXONOMY = Path(__file__).with_name("taxonomy.yml")

MAX_TAGS = 5
# Weight of one mention by sentence: the first sentence states the subject, the
# second usually narrows it; later ones add detail, context or experiments.
SENTENCE_WEIGHTS = (3.0, 2.5)
LATER_WEIGHT = 1.0
# A tag needs a mention in the first two sentences, or several later ones...
MIN_SCORE = 2.5
# ...and must not be dwarfed by the paper's main topic.
MIN_SHARE_OF_TOP = 0.2


_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

# A sentence boundary, written into the text as a word no phrase can contain.
_BREAK = "\x00"
# Every other character that is not a letter or digit separates words ("vision–language"
# is "vision language"); mapping them to spaces and splitting is the fastest tokenizer
# CPython has.
_SPACES = str.maketrans({c: " " for c in range(0x3000) if not chr(c).isalnum() and chr(c) != _BREAK})
# URLs and LaTeX macro names (\textbf, \emph) are not words of the abstract.
_SKIP = re.compile(r"(?:https?://|www\.)\S+|\\[A-Za-z]+")


# -- loading ---------------------------------------------------------------------------


def load_taxonomy(path: Path | None = None) -> list[Topic]:
    """Read and validate the taxonomy (default: ``taxonomy.yml`` next to this module).

    The file's shape is :data:`generator.core.schema.TAXONOMY`; on top of it, a slug is
    lower-case words joined by hyphens, phrases hold words, acronyms capitals,
    names and slugs are unique and at most one topic is the catch-all. Every
    problem of the file is reported at once, each naming the file, the line and the
    topic. Acronyms are kept with their capitals in :attr:`Topic.phrases` (see
    :func:`tag_paper`); plain phrases are lower-cased.
    """
    doc = load_yaml(path or TAXONOMY, TaxonomyError)
    problem = check(doc, schema.TAXONOMY, TaxonomyError)
    if problem.fatal:
        problem.raise_all()
    topics = [_read_topic(index, entry, problem) for index, entry in problem.records("topics")]
    _check_unique(doc.data["topics"], problem)
    problem.raise_all()
    return [topic for topic in topics if topic is not None]


def _read_topic(index: int, entry: dict, problem: Report) -> Topic | None:
    """The topic of an entry of the right shape, or None after reporting what else is wrong."""
    at = ("topics", index)
    label = f"topic {entry['name']!r}"
    before = len(problem.errors)
    for key in ("phrases", "acronyms"):
        for i, item in enumerate(entry.get(key, [])):
            if not item.translate(_SPACES).split():
                problem(f"{label}: {key!r} entries must be words, not {item!r}", *at, key, i)
            elif key == "acronyms" and item == item.lower():
                problem(f"{label}: acronym {item!r} has no capitals; put it under 'phrases'", *at, key, i)
    slug = entry["slug"]
    if not _SLUG.match(slug):
        problem(f"{label}: slug {slug!r} must be lower-case words joined by hyphens", *at, "slug")
    phrases = entry.get("phrases", [])
    acronyms = entry.get("acronyms", [])
    if entry.get("catch_all") is True:
        if phrases or acronyms:
            problem(f"{label}: the catch-all topic is given only when nothing else matches; it takes no phrases", *at)
    elif not phrases and not acronyms:
        where = "phrases" if "phrases" in entry else "acronyms"
        problem(f"{label}: no phrases or acronyms: the topic could never be given", *at, where)
    if len(problem.errors) != before:
        return None
    return Topic(
        name=entry["name"].strip(),
        slug=slug,
        description=entry["description"].strip(),
        phrases=tuple([p.lower() for p in phrases] + acronyms),
        catch_all=entry.get("catch_all", False),
    )


def _check_unique(entries: list[object], problem: Report) -> None:
    first_line: dict[tuple[str, str], int] = {}
    catch_all = None
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict):
            continue
        for key in ("name", "slug"):
            value = entry.get(key)
            if not isinstance(value, str):
                continue
            line = problem.doc.line("topics", index, key)
            first = first_line.setdefault((key, value.strip().casefold()), line)
            if first != line:
                problem(f"topic {entry.get('name')!r}: duplicate {key} {value!r} (first used on line {first})", "topics", index, key)
        if entry.get("catch_all") is True:
            if catch_all is None:
                catch_all = entry.get("name")
            else:
                problem(
                    f"topic {entry.get('name')!r}: only one topic may be the catch-all (already {catch_all!r})",
                    "topics", index, "catch_all",
                )


# -- matching --------------------------------------------------------------------------


def tag_paper(paper: Paper, topics: Sequence[Topic]) -> Paper:
    """The paper with ``tags`` (1 to 5 topic names, best first) and their ``tag_evidence``.

    A phrase matches whole words, ignoring case, hyphens and a plural ending on its
    last word; a phrase written with capitals (an acronym such as ``RL`` or ``NeRF``)
    matches only with exactly those capitals, plus a plural ``s``. The catch-all topic
    is given only when no other topic is mentioned at all.
    """
    return _tag(paper, _matcher(tuple(topics)))


def tag_papers(papers: Iterable[Paper], topics: Sequence[Topic]) -> list[Paper]:
    """Tag every paper, leaving alone those whose tags a maintainer curated."""
    matcher = _matcher(tuple(topics))
    return [paper if "tags" in paper.curated else _tag(paper, matcher) for paper in papers]


# (topic index, the phrase as the taxonomy writes it, the capitals an acronym needs or "")
Hit = tuple[int, str, str]


@dataclass(frozen=True)
class _Matcher:
    topics: tuple[Topic, ...]
    # a phrase's words, lower-cased and joined by spaces -> what it is evidence of
    hits: dict[str, tuple[Hit, ...]]
    # the words phrases start with, and the sentence break: every other word is skipped at once
    firsts: frozenset[str]
    # the first two words of longer phrases -> their numbers of words, longest first
    lengths: dict[str, tuple[int, ...]]
    catch_all: int | None


@lru_cache(maxsize=8)
def _matcher(topics: tuple[Topic, ...]) -> _Matcher:
    hits: dict[str, list[Hit]] = {}
    lengths: dict[str, set[int]] = {}
    for index, topic in enumerate(topics):
        for phrase in topic.phrases:
            case_sensitive = phrase != phrase.lower()
            words = phrase.translate(_SPACES).split()
            for last in _inflections(words[-1], case_sensitive):
                written = " ".join([*words[:-1], last])
                entries = hits.setdefault(written.lower(), [])
                if all(i != index for i, _, _ in entries):
                    entries.append((index, phrase, written if case_sensitive else ""))
                if len(words) > 1:
                    lengths.setdefault(" ".join(written.lower().split()[:2]), set()).add(len(words))
    return _Matcher(
        topics=topics,
        hits={k: tuple(v) for k, v in hits.items()},
        firsts=frozenset([_BREAK, *(key.split()[0] for key in hits)]),
        lengths={two: tuple(sorted(ns, reverse=True)) for two, ns in lengths.items()},
        catch_all=next((i for i, t in enumerate(topics) if t.catch_all), None),
    )


def _inflections(word: str, case_sensitive: bool) -> tuple[str, ...]:
    if case_sensitive:
        return (word, word + "s")
    forms = [word, word + "s", word + "es"]
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        forms.append(word[:-1] + "ies")
    return tuple(forms)


def tag_texts(texts: Iterable[str], topics: Sequence[Topic]) -> list[tuple[tuple[str, ...], tuple]]:
    """(tags, evidence) for each abstract text: what :func:`tag_papers` sets, for work on texts alone."""
    matcher = _matcher(tuple(topics))
    return [_choose(text, matcher) for text in texts]


def _tag(paper: Paper, m: _Matcher) -> Paper:
    tags, evidence = _choose(paper.text, m)
    return dataclasses.replace(paper, tags=tags, tag_evidence=evidence)


def _choose(text: str, m: _Matcher) -> tuple[tuple[str, ...], tuple]:
    scores, evidence = _score(text, m)
    ranked = sorted(scores, key=lambda i: (-scores[i], i))
    top = scores[ranked[0]] if ranked else 0.0
    chosen = [i for i in ranked if scores[i] >= MIN_SCORE and scores[i] >= MIN_SHARE_OF_TOP * top][:MAX_TAGS]
    if not chosen and ranked:
        # Nothing stands out: the strongest mention still says more than the catch-all.
        chosen = ranked[:1]
    if not chosen and m.catch_all is not None:
        chosen = [m.catch_all]
    return (
        tuple(m.topics[i].name for i in chosen),
        tuple((m.topics[i].name, tuple(evidence.get(i, ()))) for i in chosen),
    )


def _score(text: str, m: _Matcher) -> tuple[dict[int, float], dict[int, list[str]]]:
    """Topic index -> weighted mentions, and topic index -> the phrases found, in text order."""
    # Checked with `in` first: few abstracts have either, and the scan would cost more than the rest.
    if "\\" in text or "http" in text or "www." in text:
        text = _SKIP.sub(" ", text)
    text = f" {_BREAK} ".join(sentences(text))
    text = text.translate(_SPACES)
    lower = text.lower().split()
    words: list[str] = []  # as written, split only when an acronym needs its capitals checked
    scores: dict[int, float] = {}
    evidence: dict[int, list[str]] = {}
    counted: set[tuple[int, int]] = set()  # (topic, sentence) already scored once
    sentence, weight, resume = 0, SENTENCE_WEIGHTS[0], 0
    firsts, lengths, table = m.firsts, m.lengths, m.hits
    last = len(lower) - 1
    for i, word in enumerate(lower):
        if word not in firsts or i < resume:
            continue
        if word == _BREAK:
            sentence += 1
            weight = SENTENCE_WEIGHTS[sentence] if sentence < len(SENTENCE_WEIGHTS) else LATER_WEIGHT
            continue
        # The longest phrase starting here wins: "vision language model" is not also a "language model".
        longer = lengths.get(f"{word} {lower[i + 1]}") if i < last else None
        for n in (*longer, 1) if longer else (1,):
            hits = table.get(" ".join(lower[i : i + n]) if n > 1 else word)
            if hits is None:
                continue
            found = False
            for topic, phrase, capitals in hits:
                if capitals:
                    words = words or text.split()
                    if " ".join(words[i : i + n]) != capitals:
                        continue
                found = True
                # "reinforcement learning (RL)": more mentions in one sentence add less
                key = (topic, sentence)
                scores[topic] = scores.get(topic, 0.0) + (weight / 2 if key in counted else weight)
                counted.add(key)
                phrases = evidence.setdefault(topic, [])
                if phrase not in phrases:
                    phrases.append(phrase)
            if found:
                resume = i + n
                break
    return scores, evidence
