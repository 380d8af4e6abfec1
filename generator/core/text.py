"""Sentences, tokens and plain text of an abstract: one reading for every stage.

Titles, tags and the first sentence shown in listings all need to know where a
sentence ends; they used to split in four ways that disagreed on "e.g." or on a
sentence opening with math. They all split here:

- :func:`sentences` cuts raw or plain text after ``.``, ``!`` or ``?`` when a space and
  something that can open a sentence (a capital, digit, quote, bracket, ``$`` or a
  LaTeX macro) follow, except after an abbreviation (``e.g.``, ``et al.``) or an initial;
- :func:`first_sentence` is the first of them, as written;
- :func:`plain` is readable text: no URLs, LaTeX macros, ``$`` or Markdown emphasis;
- :func:`tokens` are the words and punctuation marks a sentence's phrases are read from.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from html import unescape

from generator.core.schema import load_text_words

_WORDS = load_text_words()
_SYMBOLS: dict[str, str] = _WORDS["latex_symbols"]
_ABBREVIATIONS = frozenset(_WORDS["abbreviations"])

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[“‘$\\])")
_TOKEN = re.compile(r"[^\s,;:()\[\]]+(?:(?<=\d),\d{3}(?!\d)[^\s,;:()\[\]]*)*|[,;:()\[\]]")  # 145,912 is one token
# A dash between words ("method---SEGA", "work—FastGCN", "X -- a Y") is a mark of its own, not a
# hyphen: split off as "—". (A single hyphen joins a compound; an en dash a range or a pair of names.)
_DASH_TOKEN = re.compile(r"(?:[^\s,;:()\[\]—-]|(?<!-)-(?!-))+(?:(?<=\d),\d{3}(?!\d)[^\s,;:()\[\]—-]*)*|—|-{2,}|[,;:()\[\]]")

_TEX_ESCAPE = re.compile(r"\\([%&#_$])")
# LaTeX accents ("{\"o}", "\"{o}", "Nystr\"om" inside a word, "\c{c}") as Unicode combining marks,
# composed after; not an escaped quote ("the \"kernel trick\"", "don\'t")
_TEX_ACCENT = re.compile(r"""\{\\(['`"^~=.])\s*([A-Za-z])\}|\\(['`"^~=.])\s*\{([A-Za-z])\}"""
                         r"""|(?<=[A-Za-z])\\(['`"^~=.])([A-Za-z])(?=[A-Za-z])|\\([uvHcr])\s*\{([A-Za-z])\}""")
_ACCENTS = {"'": "\u0301", "`": "\u0300", '"': "\u0308", "^": "\u0302", "~": "\u0303", "=": "\u0304", ".": "\u0307",
            "u": "\u0306", "v": "\u030c", "H": "\u030b", "c": "\u0327", "r": "\u030a"}
# commands whose argument is no text to read: citations, references, labels, addresses
_TEX_UNREAD = re.compile(r"\\(?:cite[a-z]*|ref|eqref|autoref|cref|Cref|label|url|href)\*?\s*(?:\[[^\]]*\]\s*)*\{[^{}]*\}")
# before a space, the end, a bracket, a dash or a mark (what a dropped citation leaves it beside), or after a dash
_TIE = re.compile(r"(?<=\S)~(?=\s|$|[-–—(.,;:])|(?<=[-–—])~")
_TEX_WRAP = re.compile(r"\\[A-Za-z]+\*?\s*\{([^{}]*)\}")
_TEX_MACRO = re.compile(r"\\([A-Za-z]+|[,;:! ])\s*")
_TEX_DROP = str.maketrans("", "", "{}$^")
_TEX_SUBSCRIPT = re.compile(r"(?<=\w)_(?=\w)")
_TEX_BOLD = re.compile(r"\\text(?:bf|sc)\s*\{((?:[^{}]|\{[^{}]*\})*)\}")  # bold or small capitals: a name
_MD_BOLD = re.compile(r"\*\*(.+?)\*\*|__(.+?)__")
_MD_ITALIC = re.compile(r"(?<![\w*])\*(?!\s)([^*]+?)(?<!\s)\*(?![\w*])")
_DASHES = re.compile(r"-{2,3}")
SPACE_BEFORE_PUNCT = re.compile(r"\s+([,.;:!?)\]])|([(\[])\s+")


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` (raw or plain), each as written, with its closing mark."""
    out: list[list[str]] = []
    for part in _SENTENCE_END.split(text):
        if out and _ends_with_abbreviation(out[-1][-1]):
            out[-1].append(part)  # joined once below: repeated += on a long run is quadratic
        else:
            out.append([part])
    return [" ".join(parts) for parts in out]


def first_sentence(text: str) -> str:
    """The first sentence of ``text`` as written (what listings show under a title)."""
    for part in _SENTENCE_END.finditer(text):
        if not _ends_with_abbreviation(text, part.start()):
            return text[: part.start()]
    return text


def _ends_with_abbreviation(sentence: str, end: int | None = None) -> bool:
    """True if the full stop ending ``sentence[:end]`` belongs to "e.g.", "et al.", "Fig." or an initial.

    Reads only the last word, in place (no copy of the text before it)."""
    end = len(sentence) if end is None else end
    if not end or sentence[end - 1] != ".":
        return False
    word = sentence[sentence.rfind(" ", 0, end) + 1 : end - 1].lstrip("([\"'")
    return word in _ABBREVIATIONS or (len(word) == 1 and word.isupper())


def tokens(sentence: str) -> list[str]:
    """Words (with their hyphens, quotes and inner full stops) and the marks , ; : ( ) [ ] and —
    (an em dash, or two or three hyphens, written as "—")."""
    if "—" not in sentence and "--" not in sentence:
        return _TOKEN.findall(sentence)
    return ["—" if t[0] == "-" and t.count("-") == len(t) and len(t) > 1 else t for t in _DASH_TOKEN.findall(sentence)]


def _accented(m: re.Match) -> str:
    mark, letter = next((m.group(k), m.group(k + 1)) for k in (1, 3, 5, 7) if m.group(k))
    return unicodedata.normalize("NFC", letter + _ACCENTS[mark])


@lru_cache(maxsize=4096)
def plain(text: str) -> str:
    """Plain readable text: no HTML character references, URLs, LaTeX macros, ``$`` or Markdown emphasis."""
    if "&" in text:
        text = unescape(text)  # "Harsanyi&#39;s", "&quot;Short-Dot&quot;": text scraped from web pages
    if "://" in text or "www." in text or ".github.io" in text:
        # word by word: a URL pattern would rescan every word from each of its letters
        text = " ".join([w for w in text.split(" ") if "://" not in w and "www." not in w and ".github.io" not in w])
    if "\\" in text or "$" in text or "{" in text:
        if "\\" in text:
            # "Cram\\'er", "Nystr\\"om": the letter with its accent; "~\\cite{key}": no key left in the text
            text = _TEX_ACCENT.sub(_accented, text)
            text = _TEX_UNREAD.sub("", text)
        text = _TEX_ESCAPE.sub(lambda m: "\0" + m.group(1), text)
        previous = None
        while previous != text:
            previous, text = text, _TEX_WRAP.sub(r"\1", text)
        text = _TEX_MACRO.sub(lambda m: _SYMBOLS.get(m.group(1), ""), text)
        text = text.translate(_TEX_DROP).replace("\0", "")
        if "_" in text:
            text = _TEX_SUBSCRIPT.sub("", text)
    if "~" in text:
        text = _TIE.sub(" ", text)  # LaTeX's unbreakable space ("Server~\\cite{x} for", "SON~--~a"); not "~10%"
    if "*" in text or "__" in text:
        text = _MD_BOLD.sub(lambda m: m.group(1) or m.group(2), text)
        text = _MD_ITALIC.sub(r"\1", text).replace("*", "")
    if "``" in text:
        text = text.replace("``", "“").replace("''", "”")  # LaTeX quotes
    if ",”" in text or ',"' in text:
        text = text.replace(",”", "”,").replace(',"', '",')  # “X,” a system ...: the comma ends the name
    if "--" in text:
        text = _DASHES.sub(lambda m: "—" if len(m.group(0)) == 3 else "–", text)
    if "  " in text or "\n" in text or "\t" in text or "\r" in text or text[:1] == " " or text[-1:] == " ":
        text = " ".join(text.split())
    if " ," in text or " ." in text or " )" in text or "( " in text or " ;" in text or " :" in text:
        text = SPACE_BEFORE_PUNCT.sub(lambda m: m.group(1) or m.group(2), text)
    return text


def bold_spans(text: str) -> list[str]:
    """What the author set in bold or small capitals (LaTeX or Markdown), as plain text."""
    if "&" in text:
        text = unescape(text)
    found = [m.group(1) for m in _TEX_BOLD.finditer(text)] if "\\textbf" in text or "\\textsc" in text else []
    if "**" in text or "__" in text:
        found += [m.group(1) or m.group(2) for m in _MD_BOLD.finditer(text)]
    return [plain(f) for f in found if f]
