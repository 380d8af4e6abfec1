"""The shape of every data file, declared once, and one checker for all of them.

Each YAML data file the generator reads is described here: which keys a mapping
has, which are required, what type each value is, which values are allowed. The
checker reports every problem of a file at once, each as ``path:line: message``
(lines come from :mod:`generator.core.yamlfile`), so the loaders only add the rules a
shape cannot say (a slug's form, names unique across topics, ids that must exist).

=============================  ==============================  ================================
file                           shape                           loaded by
=============================  ==============================  ================================
``generator/derive/taxonomy.yml``     :data:`TAXONOMY`                :func:`generator.derive.tag.load_taxonomy`
``seeds/curation.yml``         :data:`CURATION`                :func:`generator.derive.curate.load_curation`
``generator/core/link_kinds.yml``   :data:`LINK_KINDS`              :func:`load_link_rules`
``generator/derive/title/words.yml``  :data:`TITLE_WORDS`             :func:`load_title_words`
``generator/derive/related_words.yml``:data:`RELATED_WORDS`           :func:`generator.derive.related.load_stop_words`
``generator/derive/topic_weights.json``:data:`TOPIC_WEIGHTS`   :func:`generator.derive.tag.load_topic_model`
``generator/derive/related_weights.yml``:data:`RELATED_WEIGHTS`       :func:`generator.derive.related.load_term_weights`
=============================  ==============================  ================================

To read a new data file: declare its shape with :class:`Field`, :class:`Record`,
:class:`ListOf` and :class:`MapOf`, then ``doc = load(path, SHAPE, SomeError)``
returns the checked :class:`~generator.core.yamlfile.YamlFile` (``doc.data`` is plain
Python; ``doc.line(*keys)`` the line of any key) or raises every problem. A loader
with rules of its own calls :func:`check` instead and adds its problems to the
report's.

Every string value and list entry must be text: not empty, and free of control and
bidi characters (:func:`generator.core.chars.hidden_characters`), which are invisible or
reorder what a page shows.
"""
from __future__ import annotations

import difflib
import json
import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Union

from generator.core.chars import describe, hidden_characters
from generator.core.errors import GeneratorError, raise_all
from generator.core.yamlfile import Key, YamlFile, load_yaml

HERE = Path(__file__).parent
PACKAGE = HERE.parent  # the generator package: data files live beside the stage that reads them


def describe_value(value: object) -> str:
    """How a message names the type of a wrong value: ``a number``, ``a list``, ``nothing``."""
    if value is None:
        return "nothing"
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "a list",
            dict: "a mapping"}.get(type(value), type(value).__name__)


def python_type_name(value: object) -> str:
    """The taxonomy's older wording for a wrong value's type: ``str``, ``int``."""
    return type(value).__name__


_KIND_NAMES = {str: "string", list: "list of strings", bool: "boolean (true or false)", dict: "mapping", float: "number",
               int: "whole number"}


@dataclass(frozen=True)
class Field:
    """One value of a mapping.

    ``kind`` is ``str``, ``bool``, ``float`` (a number), ``int`` (a whole number above 0), ``list`` (of strings)
    or ``dict`` (string to ``values``: a string, a number, or a nested :class:`Field` of kind ``dict``). ``name`` is how messages name the kind ("list of topic names"),
    ``items`` how they name a list's entries ("words"); ``choices`` are the allowed
    values of a string; ``at_least_one`` makes an empty list an error with that text,
    and ``unique`` an entry listed twice, naming it with that noun ("topic").
    """

    kind: type
    required: bool = False
    name: str = ""
    items: str = "strings"
    choices: tuple[str, ...] = ()
    at_least_one: str = ""
    unique: str = ""
    values: "type | Field" = str

    @property
    def kind_name(self) -> str:
        return self.name or _KIND_NAMES[self.kind]


@dataclass(frozen=True)
class Record:
    """A mapping with declared keys, such as one topic of the taxonomy.

    ``noun`` names a record in messages (``topic 'Music'``, ``entry '0f6a98a6a2a8'``):
    by the value of ``name_key`` when it has one, else by its key in the enclosing
    mapping, else by its number. ``at_least_one`` asks for one key or more, not all
    required ones; ``value_name`` words the type of a wrong value.
    """

    fields: dict[str, Field]
    noun: str = ""
    name_key: str | None = None
    at_least_one: bool = False
    value_name: Callable[[object], str] = describe_value


@dataclass(frozen=True)
class ListOf:
    """The file is a mapping with one key, ``key``, holding a list of records."""

    key: str
    item: Record
    problem: str  # the message when the file is not shaped so


@dataclass(frozen=True)
class MapOf:
    """The file maps keys of its own (paper ids, say) to records."""

    item: Record
    problem: str  # the message when the file is not a mapping; {type} is the type found
    key_problem: str = "key {key!r} must be a string"  # when a key is not a string


Shape = Union[ListOf, MapOf, Record]


@dataclass
class Report:
    """What :func:`check` found: every problem, and which records they are in.

    ``fatal`` means the file as a whole has the wrong shape and nothing in it was
    checked. ``bad`` holds the key paths of records with a problem, which a loader
    skips (its own rules would only repeat what is already reported).
    """

    doc: YamlFile
    error: type[GeneratorError]
    errors: list[GeneratorError] = field(default_factory=list)
    bad: set[Key] = field(default_factory=set)
    fatal: bool = False

    def __call__(self, message: str, *keys: Hashable) -> None:
        """Report ``message`` at the line of the value reached by ``keys``."""
        self.errors.append(self.error(message, self.doc.path, self.doc.line(*keys)))

    def records(self, *at: Hashable) -> list[tuple[Hashable, Any]]:
        """(key or index, value) of each record under ``at`` that passed the check."""
        container = self.doc.data
        for k in at:
            container = container[k]
        items = container.items() if isinstance(container, dict) else enumerate(container)
        return [(k, v) for k, v in items if (*at, k) not in self.bad]

    def raise_all(self) -> None:
        raise_all(self.errors)


def load_json(path: Path, shape: Shape, error: type[GeneratorError] = GeneratorError, name: str | None = None) -> YamlFile:
    """Read the JSON file at ``path`` (a fitted data file, written by a script, too big for
    the YAML reader to be quick) and check it against ``shape``; raise every problem.
    JSON keeps no lines: problems name the file and the key."""
    shown = name if name is not None else str(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise error(f"cannot read the file: {exc}", shown) from exc
    doc = YamlFile(shown, data, {(): 1})
    check(doc, shape, error).raise_all()
    return doc


def check(doc: YamlFile, shape: Shape, error: type[GeneratorError]) -> Report:
    """Every problem of ``doc`` against ``shape``; an empty document has none."""
    report = Report(doc, error)
    data = doc.data
    if data is None and isinstance(shape, MapOf):
        return report  # an empty file (or one of comments only) maps nothing
    if isinstance(shape, ListOf):
        if not isinstance(data, dict) or set(data) != {shape.key} or not isinstance(data[shape.key], list):
            report(shape.problem)
            report.fatal = True
            return report
        for index, item in enumerate(data[shape.key]):
            _check_record(report, shape.item, item, (shape.key, index), f"#{index + 1}")
    elif isinstance(shape, MapOf):
        if not isinstance(data, dict):
            report(shape.problem.format(type=describe_value(data).removeprefix("a ")))
            report.fatal = True
            return report
        for key, item in data.items():
            if not isinstance(key, str):
                report(shape.key_problem.format(key=key), key)
                report.bad.add((key,))
                continue
            _check_record(report, shape.item, item, (key,), repr(key))
    else:
        _check_record(report, shape, data, (), "")
    return report


def load(path: Path, shape: Shape, error: type[GeneratorError] = GeneratorError, name: str | None = None) -> YamlFile:
    """Read the YAML file at ``path`` and check it against ``shape``; raise every problem."""
    doc = load_yaml(path, error, name)
    check(doc, shape, error).raise_all()
    return doc


def _label(record: Record, value: object, fallback: str) -> str:
    if not record.noun:
        return ""
    if record.name_key and isinstance(value, dict) and isinstance(value.get(record.name_key), str):
        return f"{record.noun} {value[record.name_key]!r}: "
    return f"{record.noun} {fallback}: "


def _check_record(report: Report, record: Record, value: object, at: Key, fallback: str) -> None:
    before = len(report.errors)
    label = _label(record, value, fallback)
    keys = ", ".join(record.fields)
    if not isinstance(value, dict) or (record.at_least_one and not value):
        wanted = f"at least one of: {keys}" if record.at_least_one else f"keys {keys}"
        report(f"{label}expected a mapping with {wanted}", *at)
        report.bad.add(at)
        return
    for key, item in value.items():
        spec = record.fields.get(key) if isinstance(key, str) else None
        if spec is None:
            near = difflib.get_close_matches(str(key), list(record.fields), n=1)
            hint = f"did you mean {near[0]!r}? " if near else ""
            report(f"{label}unknown key {key!r} ({hint}expected one of: {keys})", *at, key)
        else:
            _check_value(report, record, label, spec, key, item, (*at, key))
    for key, spec in record.fields.items():
        if spec.required and key not in value:
            report(f"{label}missing key {key!r}", *at)
    if len(report.errors) > before:
        report.bad.add(at)


def _check_value(report: Report, record: Record, label: str, spec: Field, key: str, value: object, at: Key) -> None:
    if spec.kind is float and isinstance(value, int) and not isinstance(value, bool):
        return  # 3 is a number as much as 3.0
    if not isinstance(value, spec.kind) or (spec.kind is float and not math.isfinite(value)) or (
            spec.kind is int and (isinstance(value, bool) or value < 1)):
        report(f"{label}{key!r} must be a {spec.kind_name} above 0, not {value!r}" if spec.kind is int
               else f"{label}{key!r} must be a {spec.kind_name}, not {record.value_name(value)}", *at)
    elif spec.kind is str:
        _check_text(report, f"{label}{key!r}", value, at)
        if spec.choices and value not in spec.choices:
            near = difflib.get_close_matches(value, spec.choices, n=1)
            hint = f"did you mean {near[0]!r}? " if near else ""
            report(f"{label}{key!r} is {value!r} ({hint}expected one of: {', '.join(spec.choices)})", *at)
    elif spec.kind is list:
        if not value and spec.at_least_one:
            report(f"{label}{key!r} {spec.at_least_one}", *at)
        seen: set[str] = set()
        for i, item in enumerate(value):
            if not isinstance(item, str) or not item.strip():
                report(f"{label}{key!r} entries must be {spec.items}, not {item!r}", *at, i)
                continue
            _check_text(report, f"{label}{key!r} entry {item.strip()!r}", item, (*at, i), empty_ok=True)
            if spec.unique and item.strip() in seen:
                report(f"{label}{spec.unique} {item.strip()!r} is listed twice", *at, i)
            seen.add(item.strip())
    elif spec.kind is dict:
        if isinstance(spec.values, Field):
            for k, item in value.items():
                _check_value(report, record, label, spec.values, f"{key}.{k}", item, (*at, k))
            return
        number = spec.values is float
        if number and set(map(type, value)) <= {str} and set(map(type, value.values())) <= {int, float} \
                and _finite_sum(value.values()):
            return  # every key a string and every value a finite number (a fitted table's 200,000, at C speed)
        for k, item in value.items():
            if number and isinstance(k, str) and _is_number(item):
                continue
            if not isinstance(k, str) or not isinstance(item, spec.values) or number:
                wanted = "numbers" if number else "strings"
                report(f"{label}{key!r} must map strings to {wanted}, not {k!r} to {record.value_name(item)}", *at, k)
            else:
                _check_text(report, f"{label}{key!r} entry {k!r}", item, (*at, k))


def _is_number(value: object) -> bool:
    try:
        return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    except OverflowError:  # an integer too big for a float (JSON has no limit)
        return False


def _finite_sum(values) -> bool:
    """Whether the numbers' sum, as floats, is finite: then each is (NaN and infinities do not
    cancel out into a finite sum; an integer too big for a float raises on the way, where as an
    integer it could cancel another). A sum that overflows says nothing: the caller checks one by one."""
    try:
        return math.isfinite(sum(map(float, values)))
    except OverflowError:
        return False


def _check_text(report: Report, what: str, value: str, at: Key, empty_ok: bool = False) -> None:
    text = value.strip()
    if not text and not empty_ok:
        report(f"{what} must not be empty", *at)
        return
    found = hidden_characters(text)
    if found:
        where = ", ".join(f"{describe(c)} at column {col}" for col, c in found[:3])
        more = f" and {len(found) - 3} more" if len(found) > 3 else ""
        report(f"{what} contains {where}{more}: remove it (control and bidi characters are invisible "
               "or reorder the text)", *at)


# -- the shapes ----------------------------------------------------------------------------

TOPIC = Record(
    {
        "name": Field(str, required=True),
        "slug": Field(str, required=True),
        "description": Field(str, required=True),
        "phrases": Field(list, items="words"),
        "acronyms": Field(list, items="words"),
        "catch_all": Field(bool),
        "parent": Field(str),
    },
    noun="topic",
    name_key="name",
    value_name=python_type_name,
)
TAXONOMY = ListOf("topics", TOPIC, "expected a mapping with one key, 'topics', holding a list of topics")

CURATION_ENTRY = Record(
    {
        "title": Field(str),
        "tags": Field(list, name="list of topic names", items="topic names", at_least_one="must name at least one topic",
                      unique="topic"),
        "featured": Field(bool),
        "hide": Field(str),
        "note": Field(str),
    },
    noun="entry",
    at_least_one=True,
)
CURATION = MapOf(
    CURATION_ENTRY,
    "expected a mapping from paper id to corrections, not a {type}",
    # YAML reads an id of digits only as a number (and drops leading zeros), so ask for quotes
    key_problem="paper id {key!r} must be written in quotes, like \"{key}\"",
)

# The tagger's fitted model (generator/derive/tag.py), written by benchmarks/fit_topics.py.
TOPIC_WEIGHTS = Record(
    {
        "about": Field(str, required=True),
        "fitted_on": Field(list, required=True),
        # feature name -> weight of the shared logistic model; "bias" is one of them
        "weights": Field(dict, required=True, name="mapping from feature name to number", values=float),
        # the calibrated rule: a tag's probability must reach threshold, and share_of_top of the first tag's
        "threshold": Field(float, required=True),
        "share_of_top": Field(float, required=True),
        "early_weight": Field(float, required=True),
        # term (a word or two joined by a space) -> inverse document frequency: the vocabulary
        "idf": Field(dict, required=True, name="mapping from term to number", values=float),
        # topic slug -> term -> weight of the term in the topic's profile
        "profiles": Field(dict, required=True, name="mapping from topic slug to terms",
                          values=Field(dict, name="mapping from term to number", values=float)),
        # topic slug -> term -> weight of the topic's linear classifier, and slug -> its intercept
        "classifiers": Field(dict, name="mapping from topic slug to terms",
                             values=Field(dict, name="mapping from term to number", values=float)),
        "intercepts": Field(dict, name="mapping from topic slug to number", values=float),
        # at most this many tags a paper (1 to 4)
        "max_tags": Field(int),
        # place of a tag after the first ("2", "3", "4") -> what its probability must reach (default: threshold)
        "place_thresholds": Field(dict, name="mapping from a tag's place to number", values=float),
    },
)

LINK_KINDS_VALUES = ("code", "data", "paper", "project")
LINK_RULE = Record(
    {
        "host": Field(str, required=True),
        "path": Field(str),
        "kind": Field(str, required=True, choices=LINK_KINDS_VALUES),
    },
    noun="rule",
)
LINK_KINDS = ListOf("rules", LINK_RULE, "expected a mapping with one key, 'rules', holding a list of rules")

_WORD_LISTS = (
    "stop_words", "small_words", "contribution_verbs", "subject_verbs", "evaluation_nouns", "naming_verbs",
    "clause_words", "filler_adjectives", "partitive_nouns", "ground_nouns", "generic_heads", "common_acronyms", "availability_words",
    "subordinators", "background_verbs", "light_verbs", "contribution_gerunds", "vague_nouns",
    "self_reference", "known_names", "name_prefixes", "modifier_suffixes", "adverbs", "not_domain_words", "adjective_like_nouns", "not_link_names",
    "cannot_end", "manner_nouns", "count_words", "adjectives_with_to", "hanging_adjectives", "established_names",
    "own_work_nouns", "giving_words", "presenting_words", "loose_words", "object_stops", "next_clause_verbs",
    "object_openers", "says_little_words", "cut_idioms", "result_nouns", "kind_of_heads", "glued_words",
    "glued_before_capital", "clause_openers", "opening_clause_words", "passive_contribution_verbs", "clause_verbs",
    "clause_verbs_with_object",
    "example_markers", "contrast_markers", "not_verbs_before_object", "irregular_participles",
    "nominal_gerunds", "statement_making_verbs", "statement_study_verbs",
    "statement_claim_verbs", "statement_aim_verbs", "statement_dropped_words", "statement_clause_ends",
    "statement_generic_heads", "statement_not_the_work", "statement_result_verbs", "statement_referring_heads",
    "statement_kind_heads", "statement_incomplete_nouns", "statement_bare_heads",
)
# YAML reads a bare on/no/yes as a boolean: such a word must be quoted in the file
_WORDS = "words (quote on, no, yes)"
TITLE_WORDS = Record({key: Field(list, required=True, items=_WORDS) for key in _WORD_LISTS})
TEXT_WORDS = Record(
    {
        "latex_symbols": Field(dict, required=True, name="mapping from macro name to symbol"),
        "abbreviations": Field(list, required=True, items=_WORDS),
    },
)

# YAML reads a bare on/no/yes as a boolean: such a word must be quoted in the file
RELATED_WORDS = Record({"stop_words": Field(list, required=True, items="words (quote on, no, yes)")})
# Document frequencies, grouped: each maps a frequency (a quoted number) to the terms of
# that frequency, separated by spaces (a pair's two words joined by "+").
_BY_FREQUENCY = "mapping from a document frequency to the terms of that frequency"
RELATED_WEIGHTS = Record(
    {
        "about": Field(str, required=True),
        "abstracts": Field(int, required=True),
        "words": Field(dict, required=True, name=_BY_FREQUENCY),
        "pairs": Field(dict, required=True, name=_BY_FREQUENCY),
    },
)


# -- loaders for files that need nothing beyond their shape -------------------------------


@dataclass(frozen=True)
class LinkRule:
    """A URL whose host is ``host`` (or a subdomain of it) and whose path starts with ``path`` is a ``kind`` link."""

    host: str
    kind: str
    path: str = ""


@lru_cache(maxsize=None)
def load_link_rules(path: Path = HERE / "link_kinds.yml") -> tuple[LinkRule, ...]:
    """The link rules, in order (the first that matches wins); checked, cached per path."""
    doc = load(path, LINK_KINDS, GeneratorError, _shown(path))
    return tuple(LinkRule(r["host"].strip().lower(), r["kind"], r.get("path", "")) for r in doc.data["rules"])


def load_title_words(path: Path = PACKAGE / "derive" / "title" / "words.yml", error: type[GeneratorError] = GeneratorError,
                     name: str | None = None) -> dict[str, frozenset[str]]:
    """The title stage's word lists, each as a frozenset of its words; checked against :data:`TITLE_WORDS`."""
    doc = load(path, TITLE_WORDS, error, name or _shown(path))
    return {key: frozenset(value) for key, value in doc.data.items()}


def load_text_words(path: Path = HERE / "text.yml") -> dict[str, Any]:
    """How plain text is read (``generator/core/text.py``): ``latex_symbols`` as a dict, ``abbreviations`` as a frozenset."""
    doc = load(path, TEXT_WORDS, GeneratorError, _shown(path))
    return {"latex_symbols": dict(doc.data["latex_symbols"]), "abbreviations": frozenset(doc.data["abbreviations"])}


def _shown(path: Path) -> str:
    """A data file of the package is named by its path in the repository."""
    try:
        return path.resolve().relative_to(PACKAGE.parent).as_posix()
    except ValueError:
        return str(path)
