"""What a page says of itself in its head: the canonical link, Open Graph and Twitter tags,
and on paper pages one JSON-LD ScholarlyArticle. Read back as a link preview or a search
engine reads them: the page parsed by html5lib (the HTML standard's parsing algorithm), each
tag's attribute and the script's text as that parser gives them, the JSON by json. A hostile
title and abstract (support.HOSTILE_TITLE, HOSTILE_ABSTRACT) must come back as the same text
and leave the head as it was."""
from __future__ import annotations

import json
from pathlib import Path

import feedparser
import html5lib
from support import HOSTILE_ABSTRACT, HOSTILE_TITLE, SITE_URL, published_papers

from generator.core.markup import esc, first_sentence, to_plain
from generator.core.model import Link, Paper, Source
from generator.pages.render import structured_data

XHTML = "{http://www.w3.org/1999/xhtml}"


def head_of(path: Path) -> dict:
    """The page's head as a preview validator reads it: meta properties and names, the
    canonical link, the JSON-LD scripts (parsed), the title, and how many elements of each tag."""
    doc = html5lib.parse(path.read_bytes(), transport_encoding="utf-8")
    head = doc.find(f"{XHTML}head")
    body = doc.find(f"{XHTML}body")
    out = {"meta": {}, "canonical": [], "jsonld": [], "tags": {}, "body_scripts": len(body.findall(f".//{XHTML}script"))}
    for el in head:
        tag = el.tag.removeprefix(XHTML)
        out["tags"][tag] = out["tags"].get(tag, 0) + 1
        if tag == "meta" and (el.get("property") or el.get("name")):
            out["meta"].setdefault(el.get("property") or el.get("name"), []).append(el.get("content"))
        elif tag == "link" and el.get("rel") == "canonical":
            out["canonical"].append(el.get("href"))
        elif tag == "script" and el.get("type") == "application/ld+json":
            out["jsonld"].append(json.loads(el.text))
        elif tag == "title":
            out["title"] = el.text
    return out


def one(head: dict, key: str) -> str:
    values = head["meta"].get(key, [])
    assert len(values) == 1, (key, values)
    return values[0]


def paper_page(site: Path, pid: str) -> Path:
    return site / "papers" / pid / "index.html"


def test_a_paper_page_previews_as_an_article_with_its_own_address(addressed_site):
    site = addressed_site.site
    paper = next(p for p in published_papers(site) if p["id"] != addressed_site.hostile_id)
    head = head_of(paper_page(site, paper["id"]))
    url = SITE_URL + paper["url"]
    assert head["canonical"] == [url]
    assert one(head, "og:url") == url
    assert one(head, "og:type") == "article"
    assert one(head, "og:title") == paper["title"]
    assert one(head, "og:description") == one(head, "description") == to_plain(first_sentence(paper["abstract"], 160))
    assert one(head, "og:site_name") == "ML Paper Digest"
    assert one(head, "og:image") == SITE_URL + "assets/preview.png"
    assert (site / "assets" / "preview.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert one(head, "twitter:card") == "summary"
    (data,) = head["jsonld"]
    assert data["@context"] == "https://schema.org" and data["@type"] == "ScholarlyArticle"
    assert data["headline"] == paper["title"]
    assert data["description"] == to_plain(first_sentence(paper["abstract"], 160))
    assert "abstract" not in data
    assert data["url"] == url
    assert data["keywords"] == paper["tags"]
    assert data["publication"] == {"@type": "PublicationEvent", "name": f"{paper['venue']} {paper['year']}"}
    assert data["datePublished"] == str(paper["year"])


def test_code_links_are_in_the_structured_data(addressed_site):
    site = addressed_site.site
    with_code = [p for p in published_papers(site) if any(l["kind"] == "code" for l in p["links"])]
    assert with_code
    for paper in with_code[:5]:
        (data,) = head_of(paper_page(site, paper["id"]))["jsonld"]
        codes = [l["url"] for l in paper["links"] if l["kind"] == "code"]
        work = data["workExample"] if isinstance(data["workExample"], list) else [data["workExample"]]
        assert [w["codeRepository"] for w in work] == codes
        assert {w["@type"] for w in work} == {"SoftwareSourceCode"}


def test_a_hostile_title_and_abstract_come_back_as_the_same_text_and_end_nothing(addressed_site):
    site = addressed_site.site
    page = paper_page(site, addressed_site.hostile_id)
    paper = next(p for p in published_papers(site) if p["id"] == addressed_site.hostile_id)
    assert paper["title"] == HOSTILE_TITLE
    # a seed's line separators are white space (the parse keeps them as spaces)
    assert paper["abstract"].split() == HOSTILE_ABSTRACT.split()
    head = head_of(page)
    (data,) = head["jsonld"]
    assert data["headline"] == HOSTILE_TITLE
    assert data["description"] == to_plain(first_sentence(paper["abstract"], 160))
    assert "</script><!-- a \"quoted\"" in data["description"]
    assert one(head, "og:title") == HOSTILE_TITLE
    assert head["title"] == f"{HOSTILE_TITLE} - ML Paper Digest"
    assert one(head, "og:description") == to_plain(first_sentence(paper["abstract"], 160))
    # the head holds what every paper page's head holds, and no script the seed wrote
    other = head_of(paper_page(site, next(p["id"] for p in published_papers(site) if p["id"] != paper["id"])))
    assert head["tags"] == other["tags"]
    assert head["body_scripts"] == other["body_scripts"]
    raw = page.read_text(encoding="utf-8")
    script = raw[raw.index('<script type="application/ld+json">'):]
    script = script[: script.index("</script>")]
    for unsafe in ("<!--", "</", "<script", "\u2028", "\u2029", "]]>"):
        assert unsafe not in script[1:], unsafe


def test_other_pages_preview_as_the_website(addressed_site):
    site = addressed_site.site
    home = head_of(site / "index.html")
    assert home["canonical"] == [SITE_URL] and one(home, "og:url") == SITE_URL
    assert one(home, "og:type") == "website" and one(home, "og:title") == "ML Paper Digest"
    assert home["jsonld"] == []
    topic = next(p for p in sorted((site / "topics").glob("*/index.html")))
    head = head_of(topic)
    url = f"{SITE_URL}topics/{topic.parent.name}/"
    assert head["canonical"] == [url] and one(head, "og:url") == url
    assert one(head, "og:type") == "website" and one(head, "og:title") == head["title"].removesuffix(" - ML Paper Digest")
    assert head["jsonld"] == []
    contribute = head_of(site / "contribute" / "index.html")
    assert one(contribute, "og:url") == SITE_URL + "contribute/"
    assert one(contribute, "og:description") == one(contribute, "description")


def test_without_site_url_no_page_claims_an_address(mission_site):
    site = mission_site.site
    paper = published_papers(site)[0]
    for page in (paper_page(site, paper["id"]), site / "index.html", site / "list" / "index.html"):
        head = head_of(page)
        assert head["canonical"] == [] and "og:url" not in head["meta"] and "og:image" not in head["meta"], page
        assert one(head, "og:title") and one(head, "twitter:card") == "summary"
    (data,) = head_of(paper_page(site, paper["id"]))["jsonld"]
    assert "url" not in data and data["headline"] == paper["title"]


def test_feeds_link_absolutely_when_the_address_is_known(addressed_site):
    site = addressed_site.site
    topics = [p for p in sorted((site / "topics").glob("*/feed.xml")) if b"<entry>" in p.read_bytes()]
    for path in [site / "feed.xml", *topics[:3]]:
        # fetched from elsewhere: absolute links do not depend on where the reader got the feed
        feed = feedparser.parse(path.read_bytes(), response_headers={"content-location": "https://mirror.example/x/feed.xml",
                                                                     "content-type": "application/atom+xml"})
        assert not feed.bozo, feed.get("bozo_exception")
        assert feed.entries
        for entry in feed.entries:
            assert entry.link.startswith(SITE_URL + "papers/"), entry.link
        assert {l.rel: l.href for l in feed.feed.links}["self"] == SITE_URL + path.relative_to(site).as_posix()
    hostile = next(e for e in feedparser.parse((site / "feed.xml").read_bytes()).entries
                   if e.link == f"{SITE_URL}papers/{addressed_site.hostile_id}/")
    assert hostile.title == HOSTILE_TITLE


def test_structured_data_escapes_what_would_end_its_script():
    p = Paper(id="abc123abc123", text=HOSTILE_ABSTRACT, venue="NeurIPS", year=2025,
              sources=(Source("seeds/x.txt", 3, "NeurIPS", 2025),), title=HOSTILE_TITLE, tags=("Speech",),
              links=(Link("https://github.com/example/a", "code"), Link("https://example.org/d", "data")))
    html = structured_data(p, {"Speech": "speech"}, "https://x.example/")
    start, end = '<script type="application/ld+json">', "</script>"
    assert html.startswith(start) and html.endswith(end)
    inner = html[len(start) : -len(end)]
    assert "<" not in inner and ">" not in inner and "\u2028" not in inner and "\u2029" not in inner
    data = json.loads(inner)
    assert data["headline"] == HOSTILE_TITLE and data["keywords"] == ["Speech"]
    assert data["workExample"] == {"@type": "SoftwareSourceCode", "codeRepository": "https://github.com/example/a"}
    assert data["url"] == "https://x.example/papers/abc123abc123/"
    assert esc(HOSTILE_TITLE) not in html  # JSON, not HTML: the text is not entity-escaped
