"""The titled corpora (``../shared/titled``): real abstracts with their real titles and keywords.

Shared by the title benchmark, the title-weight fit and the dedupe-threshold check.
Read in place, never copied into the repository.

    from benchmarks.titled import TITLED, load_titled
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from generator.seeds.parse import decode, joined_paragraph, paragraphs

REPO = Path(__file__).resolve().parents[1]

TITLED = REPO.parent / "shared" / "titled"
# The venues the title weights are fitted on; every other venue only reports.
FITTED = ("neurips2013", "neurips2014", "neurips2015", "neurips2016", "neurips2017", "neurips2018")


@dataclass(frozen=True)
class Titled:
    """One abstract of the titled corpora, where it is and what its authors called it."""

    venue: str  # the folder: neurips2013, iclr2018, ...
    where: str  # file:line, as resubmissions.jsonl names it
    text: str
    title: str
    keywords: tuple[str, ...]

    @property
    def fitted(self) -> bool:
        return self.venue in FITTED


def available() -> bool:
    return (TITLED / "README.md").is_file()


def skip_message() -> str:
    return f"the titled corpora are not at {TITLED} (they live beside the repository, not in it): nothing to measure"


def load_titled(root: Path = TITLED) -> list[Titled]:
    """Every abstract with its truth, in folder, file and line order."""
    out: list[Titled] = []
    for truth in sorted(root.glob("*/truth.jsonl")):
        rows = [json.loads(line) for line in truth.read_text(encoding="utf-8").splitlines() if line.strip()]
        by_file: dict[str, dict[int, str]] = {}
        for rel in sorted({r["file"] for r in rows}):
            lines = decode((root / rel).read_bytes(), rel).split("\n")
            by_file[rel] = {start: joined_paragraph(para) for start, para in paragraphs(lines[1:], first_line=2)}
        for r in rows:
            out.append(Titled(truth.parent.name, f"{r['file']}:{r['line']}", by_file[r["file"]][r["line"]],
                              r["title"], tuple(r.get("keywords") or ())))
    return out
