"""The curation stage: the maintainers' corrections from ``seeds/curation.yml``.

The file maps a paper id to the fields a maintainer sets by hand::

    3f2a9c0d41be:
      title: "Fake Forgetting: Conformal Prediction Exposes Unreliable Unlearning"
      tags: [Machine Unlearning, Uncertainty Quantification]
      featured: true
      note: "Best paper runner-up."
    9e01d2c3b4a5:
      hide: "withdrawn by the authors"

Loading validates the file's shape (every problem, each with its line);
applying it checks the ids against the parsed papers and the tag names against the
taxonomy, since neither is known while the file is read.
"""
from __future__ import annotations

import difflib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from generator.core import schema
from generator.core.errors import CurationError, GeneratorError, raise_all
from generator.core.model import Paper, Topic
from generator.core.schema import check
from generator.core.yamlfile import YamlFile, load_yaml, parse_yaml
from generator.seeds.read import display_path, unsafe_input

WHERE_IDS_ARE = "docs/papers.json lists every id after a build"


@dataclass(frozen=True)
class Entry:
    """The corrections for one paper, as written on ``line`` of the curation file.

    A field the entry does not set is ``None``.
    """

    id: str
    line: int
    title: str | None = None
    tags: tuple[str, ...] | None = None
    tag_lines: tuple[int, ...] = ()  # the line of each tag, for messages about one of them
    featured: bool | None = None
    hide: str | None = None
    note: str | None = None


@dataclass(frozen=True)
class Curation:
    """Every entry of a curation file, in file order; ``path`` is how messages name the file."""

    path: str
    entries: tuple[Entry, ...] = ()

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def get(self, paper_id: str) -> Entry | None:
        """The entry written for this id (not resolving aliases: that needs the papers)."""
        return next((e for e in self.entries if e.id == paper_id), None)


# -- loading ---------------------------------------------------------------------------


def load_curation(path: Path, shown: str) -> Curation:
    """Read and validate the curation file at ``path``; messages name it ``shown``.

    An empty file (or one of comments only) is an empty curation. Every problem of
    the file is reported at once, each with its line.
    """
    return read_curation(load_yaml(path, CurationError, shown))


def read_curation(doc: YamlFile) -> Curation:
    """Validate a parsed curation file (see :func:`load_curation`); its shape is
    :data:`generator.core.schema.CURATION`."""
    problem = check(doc, schema.CURATION, CurationError)
    problem.raise_all()
    if doc.data is None:
        return Curation(doc.path)
    return Curation(doc.path, tuple(_entry(doc, key, fields) for key, fields in doc.data.items()))


def _entry(doc: YamlFile, key: str, fields: dict) -> Entry:
    tags = fields.get("tags")
    return Entry(
        id=key,
        line=doc.line(key),
        title=fields["title"].strip() if "title" in fields else None,
        tags=tuple(t.strip() for t in tags) if tags is not None else None,
        tag_lines=tuple(doc.line(key, "tags", i) for i in range(len(tags))) if tags is not None else (),
        featured=fields.get("featured"),
        hide=fields["hide"].strip() if "hide" in fields else None,
        note=fields["note"].strip() if "note" in fields else None,
    )


# -- applying --------------------------------------------------------------------------


def apply_curation(papers: list[Paper], curation: Curation, topics: Sequence[Topic]) -> list[Paper]:
    """The papers with the maintainers' corrections applied, in the same order.

    An entry may name a paper by its id or by the id of a duplicate merged into it
    (an alias), so ids stay valid when a variant of an abstract is submitted. A curated
    title or tag list is recorded in :attr:`Paper.curated`, which the title and tag
    stages leave alone. Unknown ids and topics are errors naming the file and line,
    with the nearest known name as a suggestion.
    """
    index: dict[str, int] = {}
    for i, paper in enumerate(papers):
        index[paper.id] = i
        for alias in paper.aliases:
            index.setdefault(alias, i)
    topic_names = [t.name for t in topics]
    known_topics = set(topic_names)
    problems: list[GeneratorError] = []
    claimed: dict[int, Entry] = {}
    out = list(papers)
    for entry in curation:
        where = index.get(entry.id)
        if where is None:
            problems.append(CurationError(_unknown_id(entry.id, index), curation.path, entry.line))
            continue
        if where in claimed:
            first = claimed[where]
            problems.append(
                CurationError(
                    f"entry {entry.id!r} is the same paper as entry {first.id!r} (line {first.line}): "
                    f"merge the two entries under {papers[where].id!r}",
                    curation.path,
                    entry.line,
                )
            )
            continue
        claimed[where] = entry
        bad_tags = False
        for tag, line in zip(entry.tags or (), entry.tag_lines):
            if tag not in known_topics:
                problems.append(CurationError(_unknown_topic(entry.id, tag, topic_names), curation.path, line))
                bad_tags = True
        if not bad_tags:
            out[where] = _curated(out[where], entry)
    raise_all(problems)
    return out


def _curated(paper: Paper, entry: Entry) -> Paper:
    changes: dict[str, object] = {}
    curated = set(paper.curated)
    if entry.title is not None:
        changes["title"] = entry.title
        curated.add("title")
    if entry.tags is not None:
        changes["tags"] = entry.tags
        changes["tag_evidence"] = ()
        curated.add("tags")
    if entry.featured is not None:
        changes["featured"] = entry.featured
    if entry.hide is not None:
        changes["hidden"] = entry.hide
    if entry.note is not None:
        changes["note"] = entry.note
    return replace(paper, **changes, curated=tuple(sorted(curated)))


def _unknown_id(paper_id: str, known: dict[str, int]) -> str:
    near = difflib.get_close_matches(paper_id, sorted(known), n=1, cutoff=0.6)
    if near:
        return f"unknown paper id {paper_id!r}; did you mean {near[0]!r}? ({WHERE_IDS_ARE})"
    return f"unknown paper id {paper_id!r} ({WHERE_IDS_ARE})"


def _unknown_topic(paper_id: str, tag: str, names: list[str]) -> str:
    by_folded = {n.casefold(): n for n in names}
    near = difflib.get_close_matches(tag.casefold(), list(by_folded), n=1, cutoff=0.6)
    hint = f"did you mean {by_folded[near[0]]!r}?" if near else "the topics are listed in generator/derive/taxonomy.yml"
    return f"entry {paper_id!r}: unknown topic {tag!r}; {hint}"


CURATION_FILE = "curation.yml"


def find_curation(seed_dirs: Sequence[Path]) -> Curation | None:
    """The curation file of the first seed folder that has one."""
    for d in seed_dirs:
        path = d / CURATION_FILE
        if d.is_dir() and (path.exists() or path.is_symlink()):
            problem = unsafe_input(path, d)
            if problem:
                raise CurationError(problem, display_path(path))
            return load_curation(path, display_path(path))
    return None


def read_curation_bytes(shown: str, data: bytes) -> Curation:
    """A curation file read from elsewhere than the working tree (a pull request's base):
    its bytes, named ``shown`` in messages."""
    return read_curation(parse_yaml(data.decode("utf-8", "replace"), shown, CurationError))
