"""Characters that must not reach a page: controls, and marks that reorder or hide text.

Seed abstracts are pasted from PDFs, so their invisible marks are removed
(:data:`INVISIBLE`) and control characters refused. Text a person writes on
purpose, such as a curated title, is checked with :func:`hidden_characters` and
refused instead: a bidi override there (U+202E) would make a title read backwards
or hide a word, and nothing legitimate needs one.
"""
from __future__ import annotations

import unicodedata

# Bidirectional formatting controls: embeddings and overrides (U+202A-U+202E),
# isolates (U+2066-U+2069), the left-to-right, right-to-left and Arabic letter marks.
BIDI_CONTROLS = frozenset(
    [0x200E, 0x200F, 0x061C] + list(range(0x202A, 0x202F)) + list(range(0x2066, 0x206A))
)

# Invisible characters that can reorder or hide text (bidi controls, zero-width
# marks). They carry no content in an abstract or a header, so they are removed.
INVISIBLE = dict.fromkeys([0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x180E, *BIDI_CONTROLS])

# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): characters a font
# draws as nothing, among them letters (the Hangul fillers U+115F, U+1160, U+3164, U+FFA0),
# and U+2800 BRAILLE PATTERN BLANK, drawn as a space but not white space. A venue name is
# a few Latin words: with one of these, "ICML\u3164 2026" showed as "ICML 2026" on a venue
# page of its own beside the real one. They are removed from a seed's header.
_IGNORABLE_RANGES = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x2800, 0x2800),
    (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
HEADER_INVISIBLE = {**INVISIBLE, **dict.fromkeys(c for a, b in _IGNORABLE_RANGES for c in range(a, b + 1))}


def hidden_characters(text: str) -> list[tuple[int, str]]:
    """(1-based column, character) of every control character (category Cc) and bidi control."""
    return [(i, c) for i, c in enumerate(text, start=1) if ord(c) in BIDI_CONTROLS or unicodedata.category(c) == "Cc"]


def describe(c: str) -> str:
    """``U+202E (RIGHT-TO-LEFT OVERRIDE)``: how a message names an invisible character."""
    name = unicodedata.name(c, "")
    return f"U+{ord(c):04X} ({name})" if name else f"U+{ord(c):04X}"
