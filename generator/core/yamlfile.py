"""Read a YAML data file and remember the line of every key and list item.

The taxonomy and the curation file are written by people, so their loaders report
``path:line: message``. PyYAML's composed node tree keeps the position of each node;
this module turns that tree into plain Python data plus a table of lines, addressed by
the same keys and indexes used to reach a value in the data::

    doc = load_yaml(path, TaxonomyError)
    doc.data["topics"][3]["slug"]
    doc.line("topics", 3, "slug")   # the line of the ``slug:`` key of the fourth topic

The files are small and written by hand, and curation comes in by pull request, so
the loader refuses what no data file here needs and an attacker would use: anchors
and aliases (``&a``/``*a``; eight levels of ``[*a, *a, ...]`` in a few hundred bytes
expand to tens of millions of items), and nesting deeper than :data:`MAX_DEPTH`
(which would otherwise exhaust Python's stack). Both are ``path:line: message``
errors, and the node tree is walked with an explicit stack.
"""
from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from generator.core.errors import GeneratorError, raise_all

Key = tuple[Hashable, ...]

# The deepest data file (the taxonomy) nests four levels; a margin, far below the
# recursion limit that PyYAML's composer would reach first.
MAX_DEPTH = 32


class _Refused(yaml.MarkedYAMLError):
    """A construct the data files do not allow; ``problem`` is the message as shown."""


class _DataLoader(yaml.SafeLoader):
    """PyYAML's safe loader, refusing anchors and aliases and capping the depth as it composes."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: yaml.Node | None, index: object) -> yaml.Node:
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            raise _Refused(problem=f"YAML aliases (*{event.anchor}) are not allowed in data files: "
                           "write the value out", problem_mark=event.start_mark)
        if event.anchor is not None:
            raise _Refused(problem=f"YAML anchors (&{event.anchor}) are not allowed in data files: "
                           "write each value out", problem_mark=event.start_mark)
        if isinstance(event, yaml.CollectionStartEvent):
            if self._depth >= MAX_DEPTH:
                raise _Refused(problem=f"nested more than {MAX_DEPTH} levels deep", problem_mark=event.start_mark)
            self._depth += 1
            try:
                return super().compose_node(parent, index)
            finally:
                self._depth -= 1
        return super().compose_node(parent, index)

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        # PyYAML's constructors raise plain ValueError on values they cannot build
        # (an integer past Python's 4,300-digit limit, !!timestamp 9999-99-99, !!float abc),
        # and a "\ud800" escape builds a lone surrogate that no file can hold: each is
        # the writer's mistake at this node's line, not a crash.
        try:
            value = super().construct_object(node, deep)
        except (ValueError, OverflowError) as exc:
            raise _Refused(problem=f"this value cannot be read: {exc}", problem_mark=node.start_mark) from None
        if isinstance(value, str) and _SURROGATE.search(value):
            raise _Refused(problem="this text holds a lone UTF-16 surrogate escape (\\ud800-\\udfff), "
                           "which is not a character", problem_mark=node.start_mark)
        return value


_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class YamlFile:
    """A parsed YAML file: its data and the 1-based line of every mapping key and list item."""

    path: str
    data: Any
    lines: dict[Key, int] = field(default_factory=dict, repr=False)

    def line(self, *keys: Hashable) -> int:
        """The line of the value reached by ``keys`` (mapping keys and list indexes).

        A key that is not in the file (a missing field, say) gives the line of the
        nearest enclosing entry that is, so an error still points at the right place.
        """
        for end in range(len(keys), -1, -1):
            found = self.lines.get(tuple(keys[:end]))
            if found is not None:
                return found
        return 1


def load_yaml(path: Path, error: type[GeneratorError] = GeneratorError, name: str | None = None) -> YamlFile:
    """Parse the YAML file at ``path``.

    ``name`` is how errors name the file (default: ``path`` as given). Unreadable
    files, syntax errors and duplicate mapping keys raise ``error`` with the line.
    """
    shown = name if name is not None else str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"cannot read the file: {exc}", shown) from exc
    # The generator's own data (word lists, weights, the default taxonomy) is ours: libyaml
    # composes it, in a tenth of the time (the 156 kB related_weights.yml was most of a one-shot
    # build's 0.9 s of reading at 20,000 papers); its lines and duplicate keys are found as for
    # any file. A contributor's or maintainer's file given by path (the curation file, a
    # --taxonomy) is composed by the careful reader, which refuses aliases and deep nesting.
    return parse_yaml(text, shown, error, trusted=shipped(path))


_FAST = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_PACKAGE = Path(__file__).resolve().parents[1]


def shipped(path: Path) -> bool:
    """Whether ``path`` is a data file of the generator package itself (not a contributor's or
    a maintainer's file: the curation file, a taxonomy given with --taxonomy)."""
    try:
        return path.resolve().is_relative_to(_PACKAGE)
    except OSError:
        return False


def parse_yaml(text: str, name: str, error: type[GeneratorError] = GeneratorError, trusted: bool = False) -> YamlFile:
    """Parse YAML ``text``; errors name it ``name``. An empty document gives ``data`` None.
    ``trusted``: the generator's own file, composed by libyaml (which does not refuse aliases
    nor cap the depth)."""
    loader = _DataLoader(text)
    try:
        root = yaml.compose(text, Loader=_FAST) if trusted else loader.get_single_node()
        if root is None:
            return YamlFile(name, None, {(): 1})
        lines: dict[Key, int] = {(): root.start_mark.line + 1}
        problems: list[GeneratorError] = []
        _record_lines(loader, root, lines, problems, name, error)
        raise_all(problems)
        data = loader.construct_document(root)
    except _Refused as exc:
        raise error(exc.problem or "", name, exc.problem_mark.line + 1 if exc.problem_mark else None) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        what = " ".join(part for part in (exc.context, exc.problem) if part)
        raise error(f"invalid YAML: {what}", name, mark.line + 1 if mark else None) from exc
    except yaml.YAMLError as exc:
        raise error(f"invalid YAML: {exc}", name) from exc
    finally:
        loader.dispose()
    return YamlFile(name, data, lines)


def _record_lines(
    loader: yaml.SafeLoader,
    root: yaml.Node,
    lines: dict[Key, int],
    problems: list[GeneratorError],
    name: str,
    error: type[GeneratorError],
) -> None:
    """Fill ``lines`` for every key and item under ``root``; duplicate and non-scalar keys go to ``problems``.

    An explicit stack rather than recursion; children are pushed in reverse, so
    entries are visited (and problems found) in file order.
    """
    stack: list[tuple[yaml.Node, Key]] = [(root, ())]
    while stack:
        node, at = stack.pop()
        children: list[tuple[yaml.Node, Key]] = []
        if isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                lines[at + (index,)] = item.start_mark.line + 1
                children.append((item, at + (index,)))
        elif isinstance(node, yaml.MappingNode):
            for key_node, value in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue  # merged entries keep the lines of the mapping they come from
                line = key_node.start_mark.line + 1
                if not isinstance(key_node, yaml.ScalarNode):
                    problems.append(error("a mapping key must be a plain value, not a list or mapping", name, line))
                    continue
                key = loader.construct_object(key_node)
                if at + (key,) in lines:
                    # PyYAML would silently keep the last one; a repeated key is almost always a mistake
                    first = lines[at + (key,)]
                    problems.append(error(f"duplicate key {key!r} (first given on line {first})", name, line))
                    continue
                lines[at + (key,)] = line
                children.append((value, at + (key,)))
        stack.extend(reversed(children))
