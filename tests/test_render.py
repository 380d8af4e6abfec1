"""The render stage: pages whose front matter survives any title, HTML bodies, and papers.json."""
from __future__ import annotations

import dataclasses

import gzip
import html
import json
import re

import pytest
import yaml
from mkdocs.utils.meta import get_data
from test_parse import A2

from generator.core.model import Digest, Link, Paper, Source, Topic
from generator.pages.render import Repository, paper_json, render_json, render_paper, render_site, structured_data

TOPICS = [
    Topic("Generative Models", "generative-models", "Models that generate data.", ("diffusion",)),
    Topic("Machine Learning", "machine-learning", "Everything else.", (), catch_all=True),
]
SLUGS = {t.name: t.slug for t in TOPICS}


def make(title: str = "Fast Students", **fields) -> Paper:
    base = dict(
        id="0123456789ab",
        text=A2,
        venue="NeurIPS",
        year=2025,
        sources=(Source("seeds/a.txt", 3), Source("seeds/b.txt", 13)),
        links=(Link("https://github.com/example/fast-student", "code"),),
        title=title,
        tags=("Generative Models",),
        tag_evidence=(("Generative Models", ("diffusion model", "diffusion models")),),
        aliases=("ba9876543210",),
    )
    return Paper(**{**base, **fields})


def front(page: str) -> tuple[str, dict]:
    """(body, meta) read the way MkDocs reads a page, checked against plain yaml.safe_load.
    A page whose HTML is its front matter's ``body`` (frontmatter.html_page) has no Markdown."""
    markdown, meta = get_data(page)
    assert page.startswith("---\n")
    block = page[4 : page.index("\n---\n", 3)]
    assert yaml.safe_load(block) == meta
    if "body" in meta:
        assert markdown.strip() == "", markdown[:200]
        return meta.pop("body") + "\n", meta
    return markdown, meta


@pytest.mark.parametrize(
    "title",
    [
        "RewireNet: Curvature-Guided Rewiring",
        "---",
        "Before --- After",
        "A Title\n---\nwith a fake front-matter end",
        "'Single' and \"Double\" Quotes",
        "#1 Ranked: Why # Matters",
        "Key: value: {braces} [brackets] & <b>tags</b>",
        "- starts like a list item",
        "yes",
        "null",
        "2026",
        "Unicode \u2014 \u201cquotes\u201d \u00e9 \u4e2d\u6587",
        "% @ ` | > * ! ?",
    ],
)
def test_front_matter_round_trips_any_title(title):
    body, meta = front(render_paper(make(title), SLUGS))
    assert isinstance(meta["title"], str)
    assert html.unescape(meta["title"]) == title
    assert meta["title"] == html.escape(title)
    assert f"<h1>{html.escape(title)}</h1>" in body
    assert '<div class="digest-abstract"><p>Diffusion models generate images' in body


def test_paper_page_front_matter_and_body():
    paper = make('A: "B"', note="Camera-ready: see v2.", featured=True)
    page = render_paper(paper, SLUGS, repo=Repository("https://github.com/o/r", "trunk"))
    body, meta = front(page)
    # the structured data for the head (tests/test_head.py reads it back from built pages)
    assert meta.pop("jsonld") == structured_data(paper, SLUGS)
    assert meta == {
        "title": "A: &quot;B&quot;",
        "id": "0123456789ab",
        "venue": "NeurIPS",
        "year": 2025,
        "venue_slug": "neurips-2025",
        "tags": ["Generative Models"],
        "topics": [{"name": "Generative Models", "slug": "generative-models"}],
        "sources": [{"file": "seeds/a.txt", "line": 3}, {"file": "seeds/b.txt", "line": 13}],
        "template": "paper.html",
        "search": {"exclude": True},
        "featured": True,
        "description": "Diffusion models generate images of high quality but sample slowly because they need hundreds of denoising steps.",
    }
    # All the page shows: the sections (relative links from papers/<id>/), the title, venue
    # and topics, the text escaped (the apostrophes too), the URL a link of ours, its button,
    # the editor's note, escaped, and where it came from.
    assert body == (
        '<nav class="digest-crumbs" aria-label="The digest"><a href="../../">Home</a> · <a href="../../topics/">Topics</a> · '
        '<a href="../../venues/">Venues</a> · <a href="../../list/">All papers</a> · <a href="../../map/">Map</a> · '
        '<a href="../../reading-list/">Reading list</a></nav>\n'
        "<h1>A: &quot;B&quot;</h1>\n"
        '<p class="digest-derived"><small>Title derived from the abstract, not the authors\' '
        '(<a href="#sources">correct it</a>).</small></p>\n'
        '<p class="digest-meta"><a href="../../venues/neurips-2025/">NeurIPS 2025</a> · <a href="../../map/?paper=0123456789ab">On the map</a></p>\n'
        '<nav class="md-tags digest-topics" aria-label="Topics"><a class="md-tag" href="../../topics/generative-models/">Generative Models</a></nav>\n'
        '<div class="digest-abstract"><p>Diffusion models generate images of high quality but sample slowly because they need hundreds of '
        "denoising steps. We distill a pretrained diffusion model into a student that samples in four steps by "
        "matching the teacher&#x27;s trajectory in a learned latent space. The student keeps ninety percent of the "
        "teacher&#x27;s image quality on ImageNet at a tenth of the cost. Code is available at "
        '<a href="https://github.com/example/fast-student" rel="nofollow ugc">https://github.com/example/fast-student</a>.</p></div>\n'
        '<p class="digest-links"><a class="md-button md-button--primary" href="https://github.com/example/fast-student" '
        'rel="nofollow noopener noreferrer">Code<span class="digest-sr-only">: https://github.com/example/fast-student</span></a></p>\n'
        "<div class=\"admonition note\"><p class=\"admonition-title\">Editor's note</p><p>Camera-ready: see v2.</p></div>\n"
        '<section class="digest-sources"><h2 id="sources">Where it came from</h2><ul>'
        '<li><a href="https://github.com/o/r/blob/trunk/seeds/a.txt#L3">seeds/a.txt, line 3</a></li>'
        '<li><a href="https://github.com/o/r/blob/trunk/seeds/b.txt#L13">seeds/b.txt, line 13</a></li></ul>'
        "<p>This abstract was submitted 2 times; the submissions were merged into this page.</p>"
        "<p>Paper id <code>0123456789ab</code>. Title or topics wrong? "
        '<a href="https://github.com/o/r/edit/trunk/seeds/curation.yml">Correct them</a> in seeds/curation.yml '
        '(<a href="../../contribute/#curation">how</a>).</p></section>\n'
    )


PAPERS_JSON_KEYS = {"id", "title", "venue", "year", "tags", "url", "abstract", "sources", "links", "tag_evidence", "aliases", "related"}


def test_papers_json_schema_and_values():
    title = 'A: "B" --- #c <i>'
    doc = json.loads(render_json([make(title, related=("fedcba987654", "00000000000f"))]))
    assert list(doc) == ["papers"]
    [p] = doc["papers"]
    assert set(p) == PAPERS_JSON_KEYS
    assert p == {
        "id": "0123456789ab",
        "title": title,  # plain text in JSON; only the front matter is HTML-escaped
        "venue": "NeurIPS",
        "year": 2025,
        "tags": ["Generative Models"],
        "url": "papers/0123456789ab/",
        "abstract": A2,
        "sources": [{"file": "seeds/a.txt", "line": 3}, {"file": "seeds/b.txt", "line": 13}],
        "links": [{"url": "https://github.com/example/fast-student", "kind": "code"}],
        "tag_evidence": {"Generative Models": ["diffusion model", "diffusion models"]},
        "aliases": ["ba9876543210"],
        "related": ["fedcba987654", "00000000000f"],  # best first, as related.py ranked them
    }


def test_papers_json_marks_featured_and_notes_only_when_set():
    [plain, curated] = json.loads(render_json([make(), make(id="ffffffffffff", featured=True, note="n")]))["papers"]
    assert set(plain) == PAPERS_JSON_KEYS
    assert set(curated) - PAPERS_JSON_KEYS == {"featured", "note"}
    assert (curated["featured"], curated["note"]) == (True, "n")


def test_render_site_lists_every_generated_file_and_leaves_hidden_papers_out():
    shown = make()
    hidden = make(id="aaaaaaaaaaaa", hidden="withdrawn", venue="ICML", year=2026)
    files = render_site(Digest([shown, hidden], TOPICS), seed_files=2)
    assert sorted(files) == [
        "index.md",
        "list.md",
        "list/_frame.md",  # frames `python -m generator site` fills in (generator/site/stamp.py)
        "list/newest.md",  # each listing in its other orders
        "list/venue.md",
        "papers.json",
        "papers.json.gz",  # what the site publishes (mkdocs.yml leaves papers.json out)
        "papers/0123456789ab.md",
        "papers/_alias.md",
        "papers/_frame.md",
        "papers/ba9876543210.md",  # the merged variant's id redirects to the paper
        "topics/_deep/_frame.md",
        "topics/_frame.md",
        "topics/generative-models.md",
        "topics/generative-models/newest.md",
        "topics/generative-models/venue.md",
        "topics/index.md",
        "topics/machine-learning.md",
        "topics/machine-learning/newest.md",
        "topics/machine-learning/venue.md",
        "venues/_deep/_frame.md",
        "venues/_frame.md",
        "venues/index.md",
        "venues/neurips-2025.md",
        "venues/neurips-2025/newest.md",  # a venue page has no venue order
    ]
    assert [p["id"] for p in json.loads(files["papers.json"])["papers"]] == ["0123456789ab"]
    assert gzip.decompress(files["papers.json.gz"]) == files["papers.json"]
    for path, content in files.items():
        if path.endswith(".md"):
            front(content.decode("utf-8") if isinstance(content, bytes) else content)  # every page's front matter parses


def test_render_is_deterministic():
    digest = Digest([make(), make(id="ffffffffffff", title="Zeta")], TOPICS)
    assert render_site(digest, 1) == render_site(Digest(list(reversed(list(digest))), TOPICS), 1)


def test_single_star_emphasis_from_the_seed_is_emphasis_and_a_lone_star_is_text():
    from generator.core.markup import to_html

    html = to_html("termed PIAA, which formulates *Patch-level Inference*. Also a * b and c*d*e.")
    assert "<em>Patch-level Inference</em>" in html
    assert "a * b and c*d*e." in html
    assert html.count("<em>") == 1


from hypothesis import given, settings
from hypothesis import strategies as st

from generator.pages.render import front_matter

_keys = st.from_regex(r"[a-z_]{1,8}", fullmatch=True) | st.sampled_from(["no", "yes", "on", "null", "true"]) | st.text(min_size=1)
_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_keys, inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(_keys, _values, min_size=1, max_size=6))
def test_front_matter_round_trips_any_values_through_mkdocs(meta):
    page = front_matter(meta) + "\nBody text.\n"
    body, read = get_data(page)
    assert read == meta
    assert body.strip() == "Body text."


def test_front_matter_escapes_what_yaml_would_fold_or_refuse():
    text = "line\u2028sep\u2029para\x85nel\ufeffbom\x7fdel\x00nul\x1besc"
    block = front_matter({"title": text})
    assert "\u2028" not in block and "\x85" not in block and "\ufeff" not in block and "\x7f" not in block
    assert yaml.safe_load(block.strip("-\n").rsplit("---", 1)[0]) == {"title": text}


def _ends_page(paper_id: str) -> bool:
    """The rule of a page's end, written out here: the id's hash (blake2b, 4 bytes, "page") is 0 modulo 100."""
    import hashlib
    h = hashlib.blake2b(paper_id.encode(), digest_size=4, person=b"page").digest()
    return int.from_bytes(h, "little") % 100 == 0


def _list_pages(papers: list[Paper], parse: bool = True) -> dict[str, str]:
    from generator.pages.render import render_list
    files = render_list(papers, when=lambda p: f"{p.year}")
    return {path: front(page)[0] for path, page in files.items()} if parse else files


_LISTED = re.compile(r'href="(?:\.\./)*papers/([0-9a-f]{12})/"')


def _order_pages(files: dict[str, str], order: str) -> list[str]:
    first = "list.md" if order == "title" else f"list/{order}.md"
    rest = sorted((f for f in files if re.fullmatch(rf"list/{order}-\d+\.md", f)), key=lambda f: int(f[:-3].rsplit("-", 1)[1]))
    return [first, *rest]


def test_a_long_listing_is_paged_in_every_order_where_its_papers_say_and_each_page_links_its_neighbours():
    """Every paper on exactly one page of each order, in the order's order; a page ends after at
    least 200 papers at a paper whose id says so (or at 600), a last page of fewer than 30 going
    onto the one before (a last page may hold 30 to 629); the pages of an order link to each other, and each order's first page
    from every page; the number of papers is said on each order's first page only."""
    papers = [make(id=f"{i:012x}", title=f"Paper {i:05d}", year=2000 + i % 20) for i in range(1207)]
    files = _list_pages(papers)
    by_id = {p.id: p for p in papers}
    for order in ("title", "venue", "newest"):
        pages = _order_pages(files, order)
        assert len(pages) >= 3, order
        chunks = [_LISTED.findall(files[page]) for page in pages]
        listed = [pid for chunk in chunks for pid in chunk]
        assert sorted(listed) == sorted(by_id), order
        if order == "newest":
            years = [by_id[pid].year for pid in listed]
            assert years == sorted(years, reverse=True)
        elif order == "title":
            assert listed == [p.id for p in sorted(papers, key=lambda p: p.title)]
        for k, chunk in enumerate(chunks):
            last = k == len(chunks) - 1
            assert (30 <= len(chunk) <= 629) if last else (200 <= len(chunk) <= 600), (order, k)
            # no earlier paper past the 200th could have ended it
            assert not any(_ends_page(pid) for pid in chunk[199:-1]), (order, k)
            if not last:
                assert _ends_page(chunk[-1]) or len(chunk) == 600, (order, k)
        counted = [page for page in pages if "<strong>1207 papers</strong>" in files[page]]
        assert counted == pages[:1], order
        assert f"Page 2 of {len(pages)}" in files[pages[1]]
    second = files["list/title-2.md"]
    assert 'href="../../list/" rel="prev"' in second and 'href="../../list/title-3/" rel="next"' in second
    assert 'href="../../list/newest/"' in second and 'href="../../list/venue/"' in second


def test_a_new_paper_changes_the_listing_pages_it_lands_on_not_those_after_it():
    """Pages by position shifted every page after a new paper (all of "newest", half of "title"
    on average): with pages that end where their papers say, a new paper changes the page it
    lands on and its order's first page (the count), but for the rare new paper that moves where
    a page ends. 30 papers added one at a time to a list of 2,000, at random titles and as the newest."""
    import random

    rng = random.Random(7)
    papers = [make(id=f"{rng.getrandbits(48):012x}", title=f"Paper {rng.random():.9f}", year=2000 + rng.randrange(20))
              for _ in range(2000)]
    before = _list_pages(papers, parse=False)
    more: dict[str, list[int]] = {"title": [], "venue": [], "newest": []}
    for _ in range(30):
        new = make(id=f"{rng.getrandbits(48):012x}", title=f"Paper {rng.random():.9f}", year=2020)
        papers.append(new)
        after = _list_pages(papers, parse=False)
        for order in more:
            old, now = _order_pages(before, order), _order_pages(after, order)
            landed = {page for page in now if f"papers/{new.id}/" in after[page]}
            changed = {page for page in now if before.get(page) != after[page]} | (set(old) - set(now))
            more[order].append(len(changed - landed - {now[0]}))
        before = after
    for order, extra in more.items():
        # a page moved its end for at most a few of the 30 (positional pages: nearly every one)
        assert sum(n > 0 for n in extra) <= 3, (order, extra)
        assert sorted(extra)[len(extra) // 2] == 0, (order, extra)


def test_a_topic_lists_first_sentences_by_title_and_titles_with_venues_in_its_other_orders():
    from generator.pages.render import render_topic

    papers = [make(id=f"{i:012x}", title=f"Paper {i}", year=2020 + i) for i in range(3)]
    files = {path: front(page)[0] for path, page in render_topic(TOPICS[0], papers, when=lambda p: str(p.year)).items()}
    slug = TOPICS[0].slug
    assert sorted(files) == [f"topics/{slug}.md", f"topics/{slug}/newest.md", f"topics/{slug}/venue.md"]
    sentence = "Diffusion models generate images of high quality but sample slowly"
    by_title = files[f"topics/{slug}.md"]
    assert by_title.count(sentence) == 3
    for order in ("newest", "venue"):
        page = files[f"topics/{slug}/{order}.md"]
        assert sentence not in page
        for p in papers:
            assert f'<li><a href="../../../papers/{p.id}/">{p.title}</a> · NeurIPS {p.year}</li>' in page


def test_a_seed_file_name_is_one_path_in_its_repository_link():
    # "#" and "?" in a file's name ended the path: the link opened seeds/what with a fragment
    repo = Repository("https://github.com/o/r", "main")
    assert repo.blob("seeds/what?#100% é.txt") == "https://github.com/o/r/blob/main/seeds/what%3F%23100%25%20%C3%A9.txt"


# -- topics that nest --------------------------------------------------------------------

NESTED = [
    Topic("Generative Models", "generative-models", "Models that generate data.", ("diffusion",)),
    Topic("Generative Adversarial Networks", "gans", "A generator against a discriminator.", ("gan",),
          parent="generative-models"),
    Topic("Optimization", "optimization", "Minimising functions.", ("sgd",)),
    Topic("Machine Learning", "machine-learning", "Everything else.", (), catch_all=True),
]


def test_a_childs_papers_are_on_its_parents_page_too():
    gan = make(id="aaaaaaaaaaa1", title="A GAN", tags=("Generative Adversarial Networks",))
    both = make(id="aaaaaaaaaaa2", title="Both", tags=("Generative Adversarial Networks", "Generative Models"))
    other = make(id="aaaaaaaaaaa3", title="Steps", tags=("Optimization",))
    by_topic = Digest([gan, both, other], NESTED).by_topic()
    assert [p.id for p in by_topic["Generative Models"]] == ["aaaaaaaaaaa1", "aaaaaaaaaaa2"]  # each once
    assert [p.id for p in by_topic["Generative Adversarial Networks"]] == ["aaaaaaaaaaa1", "aaaaaaaaaaa2"]
    assert [p.id for p in by_topic["Optimization"]] == ["aaaaaaaaaaa3"]
    files = render_site(Digest([gan, both, other], NESTED), seed_files=1)
    assert "A GAN" in files["topics/generative-models.md"]
    assert "<strong>2 papers</strong>" in files["topics/generative-models.md"]


def test_the_topics_index_shows_children_under_their_parent():
    papers = [make(id=f"aaaaaaaaaab{i}", title=f"Steps {i}", tags=("Optimization",)) for i in range(3)]
    papers.append(make(id="aaaaaaaaaaa1", title="A GAN", tags=("Generative Adversarial Networks",)))
    index = get_data(render_site(Digest(papers, NESTED), seed_files=1)["topics/index.md"])[1]["body"]
    rows = re.findall(r"<tr><td>(.*?)</td><td[^>]*>(\d+)</td>", index)
    assert rows == [
        ('<a href="optimization/">Optimization</a>', "3"),
        ('<a href="generative-models/">Generative Models</a>', "1"),
        ('<span class="digest-subtopic">↳ </span><a href="gans/">Generative Adversarial Networks</a>', "1"),
        ('<a href="machine-learning/">Machine Learning</a>', "0"),
    ]


def test_a_derived_title_says_so_and_a_curated_one_does_not():
    """Seeds hold abstracts only: a title the generator made is marked as such, with a link to
    where it is corrected (issue 25: readers took derived titles for the authors')."""
    derived, _ = front(render_paper(make("Derived Title"), SLUGS))
    assert "Title derived from the abstract, not the authors' (<a href=\"#sources\">correct it</a>)" in derived
    assert '<h2 id="sources">' in derived
    curated, _ = front(render_paper(dataclasses.replace(make("Real Title"), curated=("title",)), SLUGS))
    assert "Title derived from the abstract" not in curated


def _many(n: int) -> list[Paper]:
    return sorted((make(f"Paper {i}", id=f"{i * 7919:012x}", text=f"Abstract number {i} about thing {i % 7}.")
                   for i in range(n)), key=lambda p: p.id)


def test_papers_json_gz_is_members_of_chunks_that_read_as_papers_json():
    from generator.pages.render import _json_parts, papers_gz

    papers = _many(3_000)
    parts = _json_parts(papers)
    text = "".join(parts)
    assert json.loads(text) == json.loads(render_json(papers)) and text == render_json(papers)
    data, table = papers_gz(papers, parts)
    assert gzip.decompress(data).decode("utf-8") == text  # any gzip reader reads the members as one text
    assert 1 < len(table) < 15 and sum(n for _, _, n in table) == len(data)
    # these abstracts repeat each other, so each member restarting its dictionary shows; real
    # abstracts do not (0.1% at 20,000 papers, handbook/performance.md)
    assert len(data) < 1.25 * len(gzip.compress(text.encode("utf-8"), compresslevel=6, mtime=0))
    # one paper more: one chunk is compressed again, and the rest reused give the bytes of a fresh build
    previous = {h: data[at : at + n] for h, at, n in table}
    more = sorted([*papers, make("Added", id="0123456789ab", text="A new abstract.")], key=lambda p: p.id)
    fresh, fresh_table = papers_gz(more, _json_parts(more))
    reused, reused_table = papers_gz(more, _json_parts(more), previous)
    assert reused == fresh and reused_table == fresh_table
    assert len({h for h, _, _ in fresh_table} - set(previous)) == 1
    assert gzip.decompress(fresh).decode("utf-8") == render_json(more)


def test_a_reused_member_is_taken_as_given():
    """The members are reused by their chunk's hash, not compressed again: what makes a rebuild cheap
    (the kept state vouches for them, generator/pages/kept.py)."""
    from generator.pages.render import _json_parts, papers_gz

    papers = _many(300)
    data, table = papers_gz(papers, _json_parts(papers))
    h = table[0][0]
    marker = gzip.compress(b"marker", mtime=0)
    assert papers_gz(papers, _json_parts(papers), {h: marker})[0].startswith(marker)


def test_listing_keys_change_for_the_listings_of_a_new_paper_only():
    from generator.pages.render import listing_keys

    topics = (Topic("Vision", "vision", "", ()), Topic("Language", "language", "", ()))
    papers = [make(f"P{i}", id=f"{i:012x}", tags=("Vision",) if i % 2 else ("Language",), venue="ICML" if i % 3 else "ICLR")
              for i in range(12)]
    before = listing_keys(Digest(papers, topics))
    after = listing_keys(Digest([*papers, make("New", id="ffffffffffff", tags=("Vision",), venue="ICLR")], topics))
    assert {k for k in after if before.get(k) != after[k]} == {"topic:vision", "venue:iclr-2025", "list"}
    retitled = [dataclasses.replace(papers[0], title="Another") if i == 0 else p for i, p in enumerate(papers)]
    changed = listing_keys(Digest(retitled, topics))
    assert {k for k in changed if before[k] != changed[k]} == {"topic:language", "venue:iclr-2025", "list"}


def test_a_papers_json_entry_given_is_taken_and_where_each_lies_is_said():
    """A rebuild takes each unchanged paper's JSON from the previous papers.json (the kept state
    vouches for it, generator/pages/kept.py); render_site then says where each paper's lies."""
    papers = sorted(_many(5), key=lambda p: p.id)
    entries = {papers[2].id: b'"marker"'}
    data = render_site(Digest(papers, TOPICS), 1, entries=entries)["papers.json"]
    assert data.count(b',"marker",') == 1 and data != render_json(papers).encode("utf-8")
    assert [data[at : at + n] for at, n in entries.values()] == [
        b'"marker"' if i == 2 else json.dumps(paper_json(p), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        for i, p in enumerate(papers)]
