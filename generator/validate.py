"""What ``python -m generator validate`` reports: the digest's view of new seed files.

Pure: takes the papers already in the digest (and, for a pull request, the whole
digest as its base commit had it) and the parsed papers of the files being checked,
and returns one :class:`Verdict` per submitted abstract.
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from generator.core.model import Digest, Paper, Source, Topic
from generator.derive.cache import text_key
from generator.derive.curate import Curation
from generator.derive.published import PublishedPaper, edits_in_place
from generator.derive.title.review import uncertain
from generator.pipeline import derive_all
from generator.seeds.identify import paper_id


@dataclass(frozen=True)
class Verdict:
    """What the digest makes of one submitted abstract."""

    source: Source
    paper: Paper  # the paper it ends up in (merged with whatever it duplicates)
    # "new"; "published" (the same text, already in the digest, in this file); "edit" (a
    # published abstract edited in place); "duplicate" (of a paper in the digest);
    # "repeat" (of a new abstract earlier in the checked files)
    status: str
    duplicate_of: Source | None = None
    existing: Paper | None = None  # for all but new and repeat: the paper as the site shows it now

    @property
    def rewrite(self) -> str:
        """For an abstract that changes what the site shows of a paper: how, in a few words, else "".

        The merged paper shows its most complete variant and every variant's links, so a
        resubmission with text added replaces the abstract on the existing paper's page,
        and one with a link in place of a sentence adds the link though the text shown
        stays; it takes the venue of its first source by file name, so a resubmission in a
        file that sorts first moves it: a reviewer must be told, not shown the word
        "duplicate" alone.
        """
        return self.rewrite_as(str, str)

    def rewrite_as(self, words: Callable[[str], str], quoted: Callable[[str], str]) -> str:
        """:attr:`rewrite` with its own words written by ``words`` and what comes from a seed
        (links, venues, the text replaced) by ``quoted``."""
        old, new = self.existing, self.paper
        if self.status not in ("duplicate", "edit", "published") or old is None:
            return ""
        what = []
        if new.id != old.id:
            what.append(words("moves it from ") + quoted(f"papers/{old.id}/") + words(" to ") + quoted(f"papers/{new.id}/"))
        if old.hidden and not new.hidden:
            what.append(words("brings back a hidden paper (hidden: ") + quoted(old.hidden) + words(")"))
        if new.text != old.text:
            added = len(new.text.split()) - len(old.text.split())
            what.append(words(f"replaces the abstract shown on the site ({added:+d} words), which read: ")
                        + quoted(old.text))
        # a merge takes every variant's links, also when the text shown does not change
        new_links = sorted({l.url for l in new.links} - {l.url for l in old.links})
        if new_links:
            what.append(words("adds links: ") + words(", ").join(map(quoted, new_links)))
        if (new.venue, new.year) != (old.venue, old.year):
            what.append(words("moves it from ") + quoted(f"{old.venue} {old.year}") + words(" to ")
                        + quoted(f"{new.venue} {new.year}"))
        return words("; ").join(what)

    @property
    def existing_title(self) -> str:
        """The title a contributor finds on the site today (the merged paper may be retitled)."""
        return (self.existing or self.paper).title


def check(
    existing: Sequence[Paper],
    submitted: Sequence[Paper],
    topics: Sequence[Topic],
    curation: Curation | None = None,
    base: Sequence[Paper] | None = None,
    base_curation: Curation | None = None,
) -> tuple[Digest, list[Verdict]]:
    """Verdicts for every submitted abstract, in file and line order.

    ``existing`` are the digest's other papers and ``submitted`` those of the files being
    checked; ``base`` is the whole digest before the change (by default ``existing``: the
    files are new), with its ``base_curation`` (by default ``curation``). The digest after
    keeps the ids of the papers before (:mod:`generator.derive.published`), so each submitted
    abstract is found in the paper it was, and every change to that paper is told.
    ``curation`` is the digest's curation file: a duplicate is named by the title the
    site shows, which a maintainer may have corrected.
    """
    base = existing if base is None else base
    before, derived = (derive_all(base, topics, base_curation if base_curation is not None else curation)
                       if base else (Digest([]), {}))
    # mostly the same texts after: their titles and tags are not derived again
    known = {text_key(text): d.entry() for text, d in derived.items()}
    texts: dict[str, list[str]] = {}
    base_text = {s: p.text for p in base for s in p.sources}
    published = []
    for p in before:
        texts[p.id] = sorted({base_text[s] for s in p.sources if s in base_text})
        published.append(PublishedPaper.of(p))
    current = [*existing, *submitted]
    digest, _ = derive_all(current, topics, curation, known=known, published=published, published_texts=texts)
    claims = edits_in_place(published, current)
    checked = {s.file for p in submitted for s in p.sources}
    now_text = {s: p.text for p in submitted for s in p.sources}
    base_ids = {(s.file, paper_id(t)) for s, t in base_text.items()}
    verdicts: list[Verdict] = []
    for paper in digest:
        was = before.get(paper.id)
        mine = [s for s in paper.sources if s.file in checked and s in now_text]
        for i, src in enumerate(mine):
            text_id = paper_id(now_text[src])
            if was is None:
                verdicts.append(Verdict(src, paper, "repeat", mine[0]) if i else Verdict(src, paper, "new"))
            elif (src.file, text_id) in base_ids:
                verdicts.append(Verdict(src, paper, "published", was.source, was))
            elif claims.get(text_id) == was.id:
                verdicts.append(Verdict(src, paper, "edit", was.source, was))
            else:
                verdicts.append(Verdict(src, paper, "duplicate", was.source, was))
    return digest, sorted(verdicts, key=lambda v: v.source)


def _status_text(v: Verdict) -> str:
    if v.status == "new":
        return "new"
    if v.status == "repeat":
        return f"repeats the abstract at line {v.duplicate_of.line}"
    text = {
        "published": "already published",
        "edit": f"edits the abstract of {v.existing_title!r} ({v.duplicate_of})",
        "duplicate": f"duplicate of {v.existing_title!r} ({v.duplicate_of})",
    }[v.status]
    return f"{text}; {v.rewrite}" if v.rewrite else text


def report_text(verdicts: Sequence[Verdict]) -> str:
    lines: list[str] = []
    current = None
    per_file = Counter(v.source.file for v in verdicts)
    for v in verdicts:
        if v.source.file != current:
            current = v.source.file
            lines.append(f"{current}: {per_file[current]} abstract(s)")
        lines.append(f"  line {v.source.line}: {_status_text(v)}")
        if v.status == "new":
            lines.append(f"    title: {v.paper.title}")
            if uncertain(v.paper):
                lines.append(f"    (derived, uncertain: please give the real title in seeds/curation.yml under id {v.paper.id})")
            lines.append(f"    tags:  {', '.join(v.paper.tags)}")
    return "\n".join(lines) + "\n"


# -- the pull-request summary ------------------------------------------------------------
#
# GitHub renders the job summary as GitHub Flavored Markdown, and everything quoted in
# it (titles, tags, file names, messages) comes from a seed or a pull request. A code
# span cannot quote such text: a backtick in it ends the span, and character
# references are not decoded inside one. So seed text is written with every ASCII
# character that is not a letter, digit or space (all of Markdown's syntax, and the
# ":", "." and "@" that GitHub's autolinks look for), and every control, format and
# line-separator character, as a numeric character reference; quoted text goes in an
# HTML <code> element, whose content is ordinary Markdown text. Nothing in it can then
# end the quote, split a table cell, or become a link, image, emphasis or HTML.
#
# Every text from a seed (titles, links, file names, messages) is quoted so, or is a
# link's label: after Markdown, GitHub's HTML pipeline reads the text, its character
# references decoded, and makes "@name" a mention (a notification) and "#12" a link to
# an issue, everywhere but in code, pre and a elements. Tags and the report's own words
# are written with md_text alone.


_NOT_PLAIN = re.compile(r"[^A-Za-z0-9 ]")


def _reference(m: re.Match) -> str:
    c = m.group()
    if c.isascii() or unicodedata.category(c)[0] == "C" or unicodedata.category(c) in ("Zl", "Zp"):
        return f"&#{ord(c)};"
    return c  # a letter, mark, symbol or punctuation outside ASCII: no Markdown syntax


def md_text(text: str) -> str:
    """``text`` as GitHub Markdown shows it, character for character, with no markup."""
    return _NOT_PLAIN.sub(_reference, text)


def md_quote(text: str) -> str:
    """``text`` quoted as code in GitHub Markdown; nothing in it can end the quote."""
    return f"<code>{md_text(text)}</code>"


# GitHub shows a step's summary up to 1 MiB and drops a larger one whole: a pull request of
# thousands of new abstracts would hide the rows a reviewer must see (a duplicate that
# rewrites a paper already on the site) with the rest.
SUMMARY_BYTES = 1_000_000


def _status_markdown(v: Verdict, base: str) -> str:
    if v.status in ("duplicate", "edit", "published"):
        title = md_quote(v.existing_title)
        target = f"[{title}]({base}{'papers/' + v.paper.id + '/'})" if base else title
        status = {
            "duplicate": f"duplicate of {target} ({md_quote(str(v.duplicate_of))})",
            "edit": f"edits the abstract of {target} ({md_quote(str(v.duplicate_of))})",
            "published": "already published",
        }[v.status]
        if v.rewrite:
            status += f"; **{v.rewrite_as(md_text, md_quote)}**"
        return status
    if v.status == "new" and uncertain(v.paper):
        return f"new; title uncertain, please give the real one in seeds/curation.yml (id {md_text(v.paper.id)})"
    if v.status == "repeat":
        return f"repeats line {v.duplicate_of.line} of this file"
    return "new"


def _urgency(v: Verdict) -> int:
    """Which rows a cut summary keeps first: those that change a paper of the site, other
    duplicates, repeats, new, already published."""
    if v.rewrite:
        return 0
    return {"duplicate": 1, "edit": 1, "repeat": 2, "new": 3}.get(v.status, 4)


def _file_head(f: str, rows: Sequence[Verdict]) -> list[str]:
    new = sum(1 for v in rows if v.status == "new")
    published = sum(1 for v in rows if v.status == "published")
    counts = f"{new} new, " + (f"{published} already published, " if published else "")
    return [
        f"### {md_quote(f)}",
        "",
        f"{len(rows)} abstract(s): {counts}{len(rows) - new - published} duplicate(s).",
        "",
        "| Line | Title | Tags | Status |",
        "| ---: | --- | --- | --- |",
    ]


def report_markdown(verdicts: Sequence[Verdict], site_url: str = "", limit: int = SUMMARY_BYTES) -> str:
    """The pull-request summary: one table per file, within ``limit`` bytes (see SUMMARY_BYTES):
    past it, duplicates are listed first and the rest counted."""
    base = site_url.rstrip("/") + "/" if site_url else ""
    by_file: dict[str, list[int]] = {}  # each file's verdicts, by index
    for i, v in enumerate(verdicts):
        by_file.setdefault(v.source.file, []).append(i)
    rows = [f"| {v.source.line} | {md_quote(v.paper.title)} | {md_text(', '.join(v.paper.tags))} | {_status_markdown(v, base)} |"
            for v in verdicts]
    heads = {f: "\n".join(_file_head(f, [verdicts[i] for i in ix])) for f, ix in by_file.items()}
    size = lambda text: len(text.encode("utf-8")) + 2  # noqa: E731  (and its line breaks)
    budget = limit - 2_000  # the title and the notes
    listed = set(range(len(verdicts)))
    if sum(map(size, rows)) + sum(map(size, heads.values())) > budget:
        listed, used, opened = set(), 0, set()
        for i in sorted(range(len(verdicts)), key=lambda i: (_urgency(verdicts[i]), verdicts[i].source)):
            f = verdicts[i].source.file
            cost = size(rows[i]) + (size(heads[f]) if f not in opened else 0)
            if used + cost > budget:
                break
            listed.add(i)
            used += cost
            opened.add(f)
    out: list[str] = ["## Seed check", ""]
    if len(listed) < len(verdicts):
        out += [f"**{len(verdicts) - len(listed)} of the {len(verdicts)} abstracts are not listed**: GitHub shows a summary "
                "of at most 1 MiB. Duplicates are listed first; `python -m generator validate` lists every abstract.", ""]
    hidden_files = 0
    for f in sorted(by_file):
        shown = [i for i in by_file[f] if i in listed]
        if not shown:
            hidden_files += 1
            continue
        out += heads[f].split("\n")
        out += [rows[i] for i in shown]
        if len(shown) < len(by_file[f]):
            out.append(f"\n{len(by_file[f]) - len(shown)} more abstract(s) of this file are not listed.")
        out.append("")
    if hidden_files:
        out += [f"{hidden_files} more file(s) are not listed.", ""]
    if any(v.status == "new" and uncertain(v.paper) for v in verdicts):
        out += ["Titles are derived from the abstracts. Where one is marked uncertain, please add the paper's "
                "real title to seeds/curation.yml under its id, as title: followed by the title in quotes.", ""]
    return "\n".join(out)


def errors_markdown(messages: Sequence[str], limit: int = SUMMARY_BYTES) -> str:
    """The pull-request summary when the seeds have problems: every message, quoted, as many
    as fit in ``limit`` bytes (see SUMMARY_BYTES) and the rest counted."""
    out = ["## Seed check", "", "The seed files have problems; nothing was added:", ""]
    used = 1_000
    for n, m in enumerate(messages):
        line = f"- {md_quote(m)}"
        used += len(line.encode("utf-8")) + 1
        if used > limit:
            out += ["", f"{len(messages) - n} more problem(s) are not listed: GitHub shows a summary of at most 1 MiB "
                        "(`python -m generator validate` lists them all)."]
            break
        out.append(line)
    return "\n".join(out) + "\n"
