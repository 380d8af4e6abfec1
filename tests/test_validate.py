"""`validate`: what the digest makes of a new seed file, for the contributor and the pull request."""
from __future__ import annotations

import re
import shutil
import textwrap
import time
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import pytest
from support import REPO, github_markdown, run_generator
from support import summary_references as md
from test_cli import fingerprint
from test_parse import A1, A3

from generator.core.model import Link, Paper, Source
from generator.derive import curate
from generator.derive.tag import load_taxonomy
from generator.pipeline import derive
from generator.seeds.parse import parse_all, parse_seed
from generator.validate import Verdict, check, errors_markdown, report_markdown, report_text

MISSION = REPO / "seeds" / "000_ca08d30626a6d4f8.txt"
CURATED_TITLE = "ConsMSA: Semantic Distribution Consistency (as curated)"
CURATION = f'6234d1eff21f:\n  title: "{CURATED_TITLE}"\n'


def mission_abstract(line: int) -> str:
    [p] = [p for p in parse_seed(MISSION.read_bytes(), "m.txt") if p.source.line == line]
    return p.text


def new_seed() -> str:
    """A contribution: two new papers, a repeat inside the file, and a variant of a paper already in seeds/."""
    variant = mission_abstract(31) + " Code is available at https://github.com/example/consmsa."
    return "\n".join(
        [
            "NeurIPS 2025 Papers",
            "",
            A1,  # line 3: new
            "",
            *textwrap.wrap(variant, 70),  # line 5: duplicate of seeds/000...:31 and seeds/004...:23
        ]
        + ["", *textwrap.wrap(A1, 50)]  # a repeat of line 3
        + ["", A3, ""]
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "seeds", tmp_path / "seeds")
    (tmp_path / "seeds" / "curation.yml").write_text(CURATION, encoding="utf-8")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "contribute.md").write_text("# Contribute\n", encoding="utf-8")
    (tmp_path / "new.txt").write_text(new_seed(), encoding="utf-8")
    return tmp_path


def expected_papers(project: Path) -> dict[int, Paper]:
    """line of new.txt -> the paper the digest makes of it, as `build` would."""
    seeds = sorted((project / "seeds").glob("*.txt"))
    existing = parse_all([(f"seeds/{p.name}", p.read_bytes()) for p in seeds])
    submitted = parse_all([("new.txt", (project / "new.txt").read_bytes())])
    curation = curate.load_curation(project / "seeds" / "curation.yml", "seeds/curation.yml")
    digest = derive([*existing, *submitted], load_taxonomy(), curation)
    return {s.line: p for p in digest for s in p.sources if s.file == "new.txt"}


def test_check_gives_one_verdict_per_submitted_abstract(project):
    topics = load_taxonomy()
    existing = parse_all([(f"seeds/{p.name}", p.read_bytes()) for p in sorted((project / "seeds").glob("*.txt"))])
    submitted = parse_all([("new.txt", (project / "new.txt").read_bytes())])
    curation = curate.load_curation(project / "seeds" / "curation.yml", "seeds/curation.yml")
    _, verdicts = check(existing, submitted, topics, curation)
    repeat, last = _lines(project)
    assert [(str(v.source), v.status, v.duplicate_of and str(v.duplicate_of)) for v in verdicts] == [
        ("new.txt:3", "new", None),
        ("new.txt:5", "duplicate", "seeds/000_ca08d30626a6d4f8.txt:31"),
        (f"new.txt:{repeat}", "repeat", "new.txt:3"),
        (f"new.txt:{last}", "new", None),
    ]
    dup = verdicts[1]
    assert dup.existing_title == CURATED_TITLE
    assert [str(s) for s in dup.paper.sources] == [
        "new.txt:5", "seeds/000_ca08d30626a6d4f8.txt:31", "seeds/004_a8c92079105dd28c.txt:23"
    ]


def _lines(project: Path) -> tuple[int, int]:
    """(line of the repeat, line of A3) in new.txt."""
    lines = (project / "new.txt").read_text(encoding="utf-8").split("\n")
    starts = [i + 1 for i, l in enumerate(lines) if l and (i == 0 or not lines[i - 1])]
    return starts[3], starts[4]


def test_validate_text_report(project):
    before = fingerprint(project)
    result = run_generator("validate", "new.txt", cwd=project)
    assert fingerprint(project) == before
    papers = expected_papers(project)
    repeat, last = _lines(project)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == (
        "new.txt: 4 abstract(s)\n"
        "  line 3: new\n"
        f"    title: {papers[3].title}\n"
        f"    tags:  {', '.join(papers[3].tags)}\n"
        # the variant adds "Code is available at <url>." (6 words) to the abstract on the site
        f"  line 5: duplicate of {CURATED_TITLE!r} (seeds/000_ca08d30626a6d4f8.txt:31); "
        f"replaces the abstract shown on the site (+6 words), which read: {mission_abstract(31)}; "
        "adds links: https://github.com/example/consmsa; "
        # and new.txt sorts before seeds/: the merged paper takes its venue
        "moves it from ICML 2026 to NeurIPS 2025\n"
        f"  line {repeat}: repeats the abstract at line 3\n"
        f"  line {last}: new\n"
        f"    title: {papers[last].title}\n"
        f"    tags:  {', '.join(papers[last].tags)}\n"
    )
    assert papers[3].title and papers[3].tags and papers[last].title and papers[last].tags


def test_validate_markdown_report(project):
    before = fingerprint(project)
    result = run_generator("validate", "new.txt", "--format", "markdown", "--site-url", "https://digest.example/", cwd=project)
    assert fingerprint(project) == before
    papers = expected_papers(project)
    repeat, last = _lines(project)
    def row(line: int, status: str) -> str:
        p = papers[line]
        return f"| {line} | <code>{md(p.title)}</code> | {md(', '.join(p.tags))} | {status} |"

    dup = papers[5]
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == "\n".join(
        [
            "## Seed check",
            "",
            "### <code>new&#46;txt</code>",
            "",
            "4 abstract(s): 2 new, 2 duplicate(s).",
            "",
            "| Line | Title | Tags | Status |",
            "| ---: | --- | --- | --- |",
            row(3, "new"),
            row(5, f"duplicate of [<code>{md(CURATED_TITLE)}</code>](https://digest.example/papers/{dup.id}/) "
                   f"(<code>{md('seeds/000_ca08d30626a6d4f8.txt:31')}</code>); "
                   f"**{md('replaces the abstract shown on the site (+6 words), which read: ')}"
                   f"<code>{md(mission_abstract(31))}</code>{md('; adds links: ')}"
                   f"<code>{md('https://github.com/example/consmsa')}</code>{md('; moves it from ')}"
                   f"<code>{md('ICML 2026')}</code>{md(' to ')}<code>{md('NeurIPS 2025')}</code>**"),
            row(repeat, "repeats line 3 of this file"),
            row(last, "new"),
            "",
        ]
    )


def test_validate_a_file_already_in_seeds_is_not_its_own_duplicate(project):
    result = run_generator("validate", "seeds/004_a8c92079105dd28c.txt", cwd=project)
    assert result.returncode == 0
    assert result.stdout.startswith("seeds/004_a8c92079105dd28c.txt: 19 abstract(s)\n  line 3: new\n")
    assert "  line 23: duplicate of 'ConsMSA: Semantic Distribution Consistency (as curated)' " \
           "(seeds/000_ca08d30626a6d4f8.txt:31)\n" in result.stdout
    assert result.stdout.count("duplicate of") == 2


def test_report_text_without_a_digest():
    [p] = parse_seed(f"X 2020 Papers\n\n{A1}\n".encode(), "a.txt")
    p2 = Paper(**{**p.__dict__, "title": "T", "tags": ("Graph Learning",)})
    p3 = Paper(**{**p2.__dict__, "curated": ("title",)})
    # a maintainer's title is no guess: nothing asked for
    verdicts = [Verdict(p.source, p3, "new")]
    assert report_text(verdicts) == "a.txt: 1 abstract(s)\n  line 3: new\n    title: T\n    tags:  Graph Learning\n"
    assert report_markdown(verdicts).endswith("| 3 | <code>T</code> | Graph Learning | new |\n")
    # "T" says nothing of the abstract: a derived title so unlike it is asked for (issue 25)
    verdicts = [Verdict(p.source, p2, "new")]
    assert report_text(verdicts) == (
        "a.txt: 1 abstract(s)\n  line 3: new\n    title: T\n"
        f"    (derived, uncertain: please give the real title in seeds/curation.yml under id {p.id})\n"
        "    tags:  Graph Learning\n")
    summary = report_markdown(verdicts)
    assert f"| 3 | <code>T</code> | Graph Learning | new; title uncertain, please give the real one in seeds/curation.yml (id {p.id}) |" in summary
    assert summary.endswith("Titles are derived from the abstracts. Where one is marked uncertain, please add the paper's "
                            "real title to seeds/curation.yml under its id, as title: followed by the title in quotes.\n")


def test_a_new_paper_whose_title_the_abstract_backs_is_not_asked_for():
    text = ("Hanabi is a cooperative card game. We propose the Simplified Action Decoder (SAD), which lets agents "
            "learn conventions. SAD sets a new state of the art on Hanabi.")
    [p] = parse_seed(f"X 2020 Papers\n\n{text}\n".encode(), "a.txt")
    backed = Paper(**{**p.__dict__, "title": "SAD: Simplified Action Decoder", "tags": ("Graph Learning",)})
    assert report_text([Verdict(p.source, backed, "new")]) == (
        "a.txt: 1 abstract(s)\n  line 3: new\n    title: SAD: Simplified Action Decoder\n    tags:  Graph Learning\n")


# -- the pull-request summary quotes seed text; nothing in it becomes markup -----------------

# Markdown that would end a code span, start a link or image, become HTML or emphasis,
# split a table cell or be autolinked, if a seed's text were taken as Markdown.
HOSTILE = [
    "a `tick` and ``two`` ends",
    "![img](https://evil.example/i.png)",
    "[link](https://evil.example/) <img src=x onerror=alert(1)>",
    "*em* **strong** ~~del~~ _u_ | pipe \\ back",
    "&amp; &#96; www.evil.example me@evil.example",
    "https://evil.example/x <https://evil.example/y>",
    "<!-- c --> <script>alert(2)</script> $x$",
]


class _Elements(HTMLParser):
    """Every element (tag, attributes) and the text of each <code>, <td> and <a>."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict]] = []
        self.open: list[str] = []
        self.texts: dict[str, list[str]] = {"code": [], "td": [], "a": [], "h3": []}

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))
        self.open.append(tag)
        if tag in self.texts:
            self.texts[tag].append("")

    def handle_endtag(self, tag):
        while self.open and self.open.pop() != tag:
            pass

    def handle_data(self, data):
        for tag in set(self.open) & set(self.texts):
            self.texts[tag][-1] += data


def rendered(markdown: str) -> _Elements:
    parsed = _Elements()
    parsed.feed(github_markdown(markdown))
    return parsed


def test_errors_in_the_summary_are_quoted_exactly_and_make_no_markup(tmp_path):
    name = "new`|![i](x)[l](y).txt"  # a file name is the contributor's too
    (tmp_path / name).write_text("ICML 2026 Papers\n\n" + "\n\n".join(HOSTILE) + "\n", encoding="utf-8")
    result = run_generator("validate", "--format", "markdown", name, cwd=tmp_path)
    messages = result.stderr.splitlines()
    assert result.returncode == 1 and len(messages) == len(HOSTILE)
    assert all(name in m and "too short" in m for m in messages)
    html = rendered(result.stdout)
    assert {tag for tag, _ in html.elements} == {"h2", "p", "ul", "li", "code"}
    assert html.texts["code"] == messages


def test_the_report_shows_titles_tags_and_file_names_exactly_and_makes_no_markup():
    name = "seeds/a`b|c![i](x).txt"
    [paper] = parse_seed(f"X 2020 Papers\n\n{A1}\n".encode(), name)
    hostile = [replace(paper, title=t, tags=(t, "Graph Learning")) for t in HOSTILE]
    verdicts = [Verdict(replace(paper.source, line=3 + i), p, "new") for i, p in enumerate(hostile)]
    old = Source("seeds/x`y.txt", 9)
    verdicts.append(Verdict(Source(name, 99), hostile[2], "duplicate", old, hostile[1]))
    html = rendered(report_markdown(verdicts, "https://digest.example/"))
    assert {tag for tag, _ in html.elements} == {
        "h2", "h3", "p", "table", "thead", "tbody", "tr", "th", "td", "code", "a"
    }
    assert [attrs for tag, attrs in html.elements if tag == "a"] == [{"href": f"https://digest.example/papers/{paper.id}/"}]
    assert html.texts["h3"] == [name]
    assert html.texts["code"] == [name, *HOSTILE, HOSTILE[2], HOSTILE[1], str(old)]
    cells = [html.texts["td"][i:i + 4] for i in range(0, len(html.texts["td"]), 4)]
    # none of the hostile titles is a phrase of the abstract: each is asked for (issue 25)
    ask = f"new; title uncertain, please give the real one in seeds/curation.yml (id {paper.id})"
    assert cells[:-1] == [[str(3 + i), t, f"{t}, Graph Learning", ask] for i, t in enumerate(HOSTILE)]
    assert cells[-1] == ["99", HOSTILE[2], f"{HOSTILE[2]}, Graph Learning", f"duplicate of {HOSTILE[1]} ({old})"]
    assert html.texts["a"] == [HOSTILE[1]]


class _Outside(HTMLParser):
    """The text of rendered HTML that is outside ``code``, ``pre`` and ``a``: where GitHub's
    HTML pipeline turns ``@name`` into a mention (a notification) and ``#12`` into a link to
    an issue. Its mention and reference filters read the text after Markdown has decoded
    character references, and skip only those elements."""

    SKIPPED = {"code", "pre", "a"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.text = ""

    def handle_starttag(self, tag, attrs):
        self.open.append(tag)

    def handle_endtag(self, tag):
        while self.open and self.open.pop() != tag:
            pass

    def handle_data(self, data):
        self.text += " " if self.SKIPPED & set(self.open) else data


def github_references(markdown: str) -> list[str]:
    """The mentions and issue references GitHub would make of ``markdown``."""
    outside = _Outside()
    outside.feed(github_markdown(markdown))
    return re.findall(r"(?<![\w`])@[A-Za-z0-9][\w/-]*|(?<![\w&])#\d+|\bGH-\d+", outside.text, flags=re.IGNORECASE)


def test_the_report_mentions_no_one_and_references_no_issue():
    # A title is read from the abstract ("We propose @octocat, a ..." is titled "@octocat"),
    # and a duplicate's new links are the seed's too: quoted, not mentions or references.
    [paper] = parse_seed(f"X 2020 Papers\n\n{A1}\n".encode(), "seeds/a.txt")
    titles = ["@octocat", "Net for @github/security and #12", "GH-7 Fixes"]
    hostile = [replace(paper, title=t) for t in titles]
    verdicts = [Verdict(replace(paper.source, line=3 + i), p, "new") for i, p in enumerate(hostile)]
    linked = replace(hostile[0], text=paper.text + " More words here.",
                     links=(Link("https://@octocat.example/#12", "project"),))
    verdicts.append(Verdict(Source("seeds/a.txt", 99), linked, "duplicate", Source("seeds/x.txt", 9), hostile[1]))
    for site_url in ("", "https://digest.example/"):
        report = report_markdown(verdicts, site_url)
        assert github_references(report) == []
        cells = rendered(report).texts["td"]
        assert [cells[i + 1] for i in range(0, 12, 4)] == titles
        assert "adds links: https://@octocat.example/#12" in cells[-1]


def test_a_summary_too_big_for_github_still_shows_the_duplicates_that_rewrite_a_paper():
    # GitHub drops a step summary over 1 MiB whole: 20,000 new abstracts in as many files
    # (2.7 MB of summary) hid the one row a reviewer must see. Each file's rows were also
    # found by a pass over every verdict: 400 million comparisons, 12 s here.
    [paper] = parse_seed(f"X 2020 Papers\n\n{A1}\n".encode(), "a.txt")
    verdicts = [Verdict(Source(f"seeds/{i:05d}.txt", 3), replace(paper, title=f"Title number {i}"), "new")
                for i in range(20_000)]
    rewrite = replace(paper, text=paper.text + " Retracted: see https://evil.example/x for the real one.",
                      links=(Link("https://evil.example/x", "project"),))
    verdicts.append(Verdict(Source("seeds/99999.txt", 7), rewrite, "duplicate", Source("seeds/old.txt", 3), paper))
    start = time.perf_counter()
    report = report_markdown(verdicts, "https://digest.example/")
    assert time.perf_counter() - start < 10
    assert len(report.encode("utf-8")) <= 1 << 20
    assert "| 7 | " in report and "replaces the abstract shown on the site" in report
    listed = report.count("| 3 | <code>Title number")
    assert 1_000 < listed < 20_000
    assert f"**{20_000 - listed} of the 20001 abstracts are not listed**" in report
    assert f"{20_000 - listed} more file(s) are not listed." in report
    # below the limit, nothing is left out
    small = report_markdown(verdicts[:10] + verdicts[-1:])
    assert "not listed" not in small and small.count("| 3 | ") == 10


def test_a_summary_of_problems_stays_within_what_github_shows():
    messages = [f"seeds/x.txt:{3 + 2 * i}: this paragraph has 3 word(s), too short to be an abstract (at least 20): "
                f"'a b {i}'" for i in range(20_000)]
    report = errors_markdown(messages)
    assert len(report.encode("utf-8")) <= 1 << 20
    listed = report.count("\n- <code>")
    assert 1_000 < listed < 20_000 and f"{20_000 - listed} more problem(s) are not listed" in report
    assert errors_markdown(messages[:3]).count("\n- <code>") == 3
