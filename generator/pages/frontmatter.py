"""How a generated page is written: a YAML front matter block whose every value is one line
of JSON, and HTML blocks written by us. Every page of the pages stage goes through here."""
from __future__ import annotations

import json
import re
from json.encoder import encode_basestring as _json_string  # the C encoder of JSON strings

NOT_INDEXED = {"search": {"exclude": True}}


# Characters a YAML double-quoted scalar may not hold raw: what YAML 1.1 does not count
# as printable, and the Unicode line breaks it would fold (NEL, LS, PS) and the BOM.
_YAML_UNSAFE = re.compile("[^\t\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]")


_KEY = re.compile(r"[a-z_]+")


_YAML_WORDS = frozenset("y n yes no on off true false null".split())


def _yaml_safe(text: str) -> str:
    """JSON text with what YAML 1.1 would fold or refuse escaped. JSON escapes every control
    character below 0x20 and is ASCII outside its strings, so an ASCII text can only hold DEL
    among the unsafe ones, and only inside a string; str.isascii() is a flag, not a scan
    (most text is ASCII)."""
    if (not text.isascii() or "\x7f" in text) and _YAML_UNSAFE.search(text):
        return _YAML_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}" if ord(m.group()) < 0x10000 else f"\\U{ord(m.group()):08x}", text)
    return text


def _flow(value: object) -> str:
    """``value`` (a string, number, boolean, None, or a list or dict of them) on one line:
    JSON, which YAML reads as double-quoted scalars (with the same escapes: \\" \\\\ \\n
    \\uXXXX ...) and flow collections."""
    if isinstance(value, str):
        return _yaml_safe(_json_string(value))
    if isinstance(value, float):
        raise TypeError("front matter holds no floats")
    return _yaml_safe(json.dumps(value, ensure_ascii=False, separators=(", ", ": ")))


def front_matter(meta: dict) -> str:
    """A YAML front matter block. Every string is double-quoted with JSON's escapes (which
    YAML shares), so no value can read as another type or break out of its line; a
    property test round-trips arbitrary text through PyYAML. Written by hand because
    PyYAML's representer cost more than the rest of rendering at 3,300 papers, and so did
    block-style lists and mappings at 50,000: each top-level value is one line of JSON."""
    lines = []
    for key, value in meta.items():
        if not isinstance(key, str):
            raise TypeError(f"front matter keys are strings, not {type(key).__name__}")
        # a plain name stays plain unless YAML 1.1 would read it as a boolean or null
        key = key if _KEY.fullmatch(key) and key not in _YAML_WORDS else _flow(key)
        lines.append(f"{key}: {_flow(value)}")
    return "---\n" + "\n".join(lines) + "\n---\n"


def html_page(meta: dict, *parts: str) -> str:
    """A page whose HTML, written by us, is the front matter's ``body``, printed by its
    template (paper.html, listing.html); the Markdown is empty.

    Raw HTML in the Markdown is passed through untouched but not unread: Python-Markdown
    and MkDocs each run an HTML parser over it, which was half of ``mkdocs build`` at
    3,300 papers (their pages hold over 250,000 tags). In the front matter the HTML is
    one YAML string, which MkDocs reads with libyaml in C.
    """
    return front_matter({**meta, "body": "\n".join(parts)}) + "\n"


def html_block(*parts: str) -> str:
    """Page content that Markdown passes through as it is: block-level HTML written by us."""
    return "\n".join(parts) + "\n"
