"""Search on the built mission site, in Chromium, under each builder: the digest's own search
box and results (docs/assets/search.js) and worker (docs/assets/search-worker.js) over the
split index (generator/pages/search_index.py).

The expected answers are worked out here from each paper's result data (search/d/*.json:
title, text and topics) with a deliberately plain reading of it (words lower-cased),
not from the index files, so a test fails when the index or the worker misses a
paper, lets an excluded one through or ranks wrongly.
"""
from __future__ import annotations

import functools
import json
import math
import re
from collections import Counter
from urllib.parse import quote, urljoin, urlsplit

import pytest
import yaml
from support import REPO, SEARCH_JS

from browser.pages import DESKTOP, PHONE, describe, serious_violations, visit, wait_ready

pytestmark = pytest.mark.browser

WORD = re.compile(r"[^\W_]+")


@pytest.fixture(scope="module")
def index(built) -> dict[str, dict]:
    """Paper pages of the search index: path -> title, words (of title and text), shown, terms."""
    out = {}
    for path in sorted((built.site / "search" / "d").glob("*.json")):
        d = json.loads(path.read_text(encoding="utf-8"))
        title, text = d["title"], d["text"]
        out["/" + d["url"]] = {
            "title": " ".join(title.split()),
            "words": WORD.findall(f"{title} {text}".casefold()),
            "shown": WORD.findall(text),
            # what a query word may match: the title, the text and the topics
            "terms": WORD.findall(f"{title} {text} {' '.join(d.get('tags', []))}".casefold()),
        }
    return out


def phrase_of(path: str, index: dict[str, dict], n: int = 4) -> str:
    """The run of ``n`` words of the abstract as shown that the other papers share least."""
    df = Counter(w for d in index.values() for w in set(d["words"]))
    shown = index[path]["shown"]
    rarity = [math.log(len(index) / df[w.casefold()]) for w in shown]
    best = max(range(len(shown) - n + 1), key=lambda i: (sum(rarity[i : i + n]), -i))
    return " ".join(shown[best : best + n])


@pytest.fixture
def search(page, site_url):
    visit(page, site_url)

    def run(query: str) -> dict:
        answer = page.evaluate(SEARCH_JS, query)
        assert len(answer["results"]) == answer["count"], f"{query!r}: {answer['meta']!r} but {len(answer['results'])} shown"
        for r in answer["results"]:
            r["path"] = urlsplit(urljoin(page.url, r["href"])).path
        return answer

    return run


def has_phrase(words: list[str], phrase: list[str]) -> bool:
    n = len(phrase)
    return any(words[i : i + n] == phrase for i in range(len(words) - n + 1))


@pytest.mark.one_builder
def test_every_paper_is_found_first_by_a_phrase_of_its_abstract(search, papers, index, page_log):
    misses = []
    for paper in papers:
        phrase = phrase_of("/" + paper["url"], index)
        got = [r["path"] for r in search(phrase)["results"]]
        if got[:1] != ["/" + paper["url"]]:
            misses.append(f"{phrase!r}: want /{paper['url']}, got {got[:3]}")
    assert not misses, "\n".join(misses)
    assert page_log.problems() == []


def test_a_word_is_found_while_it_is_still_being_typed(search, papers):
    # the longest word of a title that no other paper has: typed up to 5 letters
    paper, word = max(
        ((p, w) for p in papers for w in WORD.findall(p["title"]) if len(w) >= 8
         and sum(w.casefold() in q["title"].casefold() for q in papers) == 1),
        key=lambda pw: (len(pw[1]), pw[0]["id"]),
    )
    got = [r["path"] for r in search(word[:5])["results"]]
    assert "/" + paper["url"] in got[:10], f"typing {word[:5]!r} (of {word!r}): {got[:10]}"


@pytest.mark.one_builder
def test_results_with_every_word_come_before_results_with_some(search, index):
    answer = search("unlearning language diffusion")
    ranks = [sum(any(x.startswith(w) for x in index[r["path"]]["terms"]) for w in ("unlearning", "language", "diffusion"))
             for r in answer["results"] if r["path"] in index]
    assert ranks, "no paper matched"
    assert ranks == sorted(ranks, reverse=True), f"words matched, in result order: {ranks}"


def test_a_quoted_phrase_must_appear_as_a_phrase(search, index):
    phrase = ["language", "models"]
    want = {p for p, d in index.items() if has_phrase(d["words"], phrase)}
    both_apart = {p for p, d in index.items() if set(phrase) <= set(d["words"]) and p not in want}
    assert want and both_apart, "the mission seeds no longer make this test meaningful"
    got = {r["path"] for r in search('"language models"')["results"]} & set(index)
    assert got == want, f"missing {sorted(want - got)}, not a phrase match {sorted(got - want)}"


def test_a_minus_word_excludes_papers(search, index):
    # a word on fewer papers than the worker lists (its 20 best), so every match is shown
    plain = {r["path"] for r in search("learning")["results"]} & set(index)
    assert len(plain) < 20
    got = {r["path"] for r in search("learning -language")["results"]} & set(index)
    with_language = {p for p in plain if any(w.startswith("language") for w in index[p]["terms"])}
    assert with_language and got, "the mission seeds no longer make this test meaningful"
    assert got == plain - with_language


def test_results_show_the_title_as_text_and_mark_the_query_words(search, papers, index):
    paper = sorted(papers, key=lambda p: p["id"])[0]
    phrase = phrase_of("/" + paper["url"], index)
    first = search(phrase)["results"][0]
    assert first["path"] == "/" + paper["url"]
    assert " ".join(first["title"].split()) == index[first["path"]]["title"]
    assert set(first["elements"]) <= {"span", "mark"}, first["elements"]
    marked = {m.casefold() for m in first["marks"]}
    assert {w.casefold() for w in phrase.split() if len(w) > 3} <= marked, (phrase, first["marks"])


FIRST_AND_WHOLE_JS = """async (q) => {
  const dialog = document.querySelector('.digest-search__dialog');
  if (!dialog.open) document.querySelector('.digest-search__open').click();
  const input = dialog.querySelector('.digest-search__input');
  const list = dialog.querySelector('#digest-search-results');
  const hrefs = () => [...list.querySelectorAll('[role=option]')].map(o => o.dataset.href);
  const answers = () => Number(dialog.dataset.digestAnswers || 0);
  const before = answers();
  let first = null;
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no answer for ' + q)), 10000);
    new MutationObserver(() => { if (first === null && list.children.length) first = hrefs(); })
      .observe(list, {childList: true});
    new MutationObserver((_, obs) => { if (answers() > before) { obs.disconnect(); clearTimeout(timer); resolve(); } })
      .observe(dialog, {attributes: true, attributeFilter: ['data-digest-answers']});
    list.replaceChildren();
    input.value = q;
    input.dispatchEvent(new Event('input', {bubbles: true}));
  });
  return {first, whole: hrefs()};
}"""


def test_the_first_ten_results_come_first_and_the_rest_follow_in_the_same_order(page, search, index):
    """The worker posts the first ten results as soon as their data is in, then the whole
    answer: the first ten are its top ten, in order."""
    matching = [p for p, d in index.items() if any(w.startswith("model") for w in d["terms"])]
    assert len(matching) > 20, "the mission seeds no longer make this test meaningful"
    search("diffusion")  # the box is open and has answered once
    answer = page.evaluate(FIRST_AND_WHOLE_JS, "model")
    assert answer["first"] is not None and len(answer["first"]) == 10, answer
    assert len(answer["whole"]) >= 20 and answer["whole"][:10] == answer["first"]


def test_a_query_of_only_common_words_or_no_match_answers_nothing(search):
    assert search("the of and")["results"] == []
    assert search("qqqzzzxv")["results"] == []


@pytest.mark.one_builder
def test_only_the_first_32_words_of_a_query_count(search):
    # each query word scores every paper: a crafted link's ?q= of 1,500 words took the
    # reader's tab hundreds of MB and seconds, so words past the 32nd are left out
    assert search("unlearning")["results"], "the mission seeds no longer make this test meaningful"
    unmatched = " ".join(f"qqqzzz{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(32))
    assert search(f"{unmatched} unlearning")["results"] == []
    assert search(f"{unmatched[: unmatched.rindex(' ')]} unlearning")["results"]  # the 32nd word counts


# -- filters: topic:, venue:, year:, has:code, and the buttons that write them ------------------


def _with(papers: list[dict], **want) -> set[str]:
    """Paths of the papers with every wanted value, read plainly from papers.json."""
    out = set()
    for p in papers:
        if "topic" in want and want["topic"] not in p["tags"]:
            continue
        if "code" in want and not any(link["kind"] == "code" for link in p["links"]):
            continue
        if "year" in want and p["year"] != want["year"]:
            continue
        out.add("/" + p["url"])
    return out


def _slug(built, name: str) -> str:
    facets = json.loads((built.site / "search" / "facets.json").read_text(encoding="utf-8"))
    return next(slug for slug, shown, _ in facets["topic"] if shown == name)


def test_has_code_alone_lists_exactly_the_papers_with_a_code_link(search, papers):
    want = _with(papers, code=True)
    assert want and len(want) < len(papers), "the mission seeds no longer make this test meaningful"
    assert {r["path"] for r in search("has:code")["results"]} == want


def test_a_topic_filter_combines_with_words(search, papers, index, built):
    topic = Counter(t for p in papers for t in p["tags"]).most_common(1)[0][0]
    words_of = {p: set(d["terms"]) for p, d in index.items()}
    want = {p for p in _with(papers, topic=topic) if any(w.startswith("learning") for w in words_of[p])}
    everywhere = {p for p, ws in words_of.items() if any(w.startswith("learning") for w in ws)}
    assert want and everywhere - want, "the mission seeds no longer make this test meaningful"
    got = {r["path"] for r in search(f"learning topic:{_slug(built, topic)}")["results"]}
    assert got == want


@functools.cache
def _parents() -> dict[str, str]:
    """Each topic's parent, by name, read from the taxonomy as a maintainer writes it (once:
    read again for every paper and button, it was most of the filter test's 40 s)."""
    topics = yaml.safe_load((REPO / "generator" / "derive" / "taxonomy.yml").read_text(encoding="utf-8"))["topics"]
    name_of = {t["slug"]: t["name"] for t in topics}
    return {t["name"]: name_of[t["parent"]] for t in topics if t.get("parent")}


def _on_topic_page(tags: list[str]) -> set[str]:
    """The topics whose page holds a paper of these tags: each tag and the topics it sits in
    (a child's papers are its parent's too)."""
    parent = _parents()
    out: set[str] = set()
    for t in tags:
        while t and t not in out:
            out.add(t)
            t = parent.get(t)
    return out


def test_filter_buttons_show_counts_and_narrow_the_results(page, search, papers, index):
    plain = {r["path"] for r in search("learning")["results"]} & set(index)
    page.locator(".digest-filters .digest-filter").first.wait_for()
    # every topic button counts the matching papers that have the topic or one inside it
    shown = page.evaluate("""() => [...document.querySelectorAll('.digest-filters .digest-filter')].map(b => ({
        token: b.dataset.token, name: b.children[0].textContent, count: Number(b.children[1].textContent),
        pressed: b.getAttribute('aria-pressed')}))""")
    topics = [b for b in shown if b["token"].startswith("topic:")]
    assert topics
    by_path = {"/" + p["url"]: p for p in papers}
    for b in topics:
        assert b["count"] == sum(b["name"] in _on_topic_page(by_path[p]["tags"]) for p in plain), b
    assert all(b["pressed"] == "false" for b in shown)
    # pressing one writes its token into the query and narrows the results to it
    chosen = min(topics, key=lambda b: (b["count"], b["token"]))
    page.locator(f'.digest-filter[data-token="{chosen["token"]}"]').click()
    page.wait_for_function("t => document.querySelector('.digest-search__input').value.includes(t)", arg=chosen["token"])
    page.locator(f'.digest-filter[data-token="{chosen["token"]}"][aria-pressed="true"]').wait_for()
    page.wait_for_function("() => Number(document.querySelector('.digest-search__dialog').dataset.digestAnswers) >= 2")
    got = {page.evaluate("h => new URL(h, location.href).pathname", o.get_attribute("data-href"))
           for o in page.locator("#digest-search-results [role=option]").all()}
    assert got == {p for p in plain if chosen["name"] in _on_topic_page(by_path[p]["tags"])}


def test_quoted_phrases_count_32_words_in_all_and_fetch_their_pair_files_together(page, search, index):
    # each pair of adjacent words in a phrase is looked up in a pair file: five quoted
    # abstracts in a link's ?q= fetched 450 of 588 pair files at 20,000 papers, one after
    # another, so the words of all phrases together are capped at 32 and fetched at once
    path = max(index, key=lambda p: (len(index[p]["shown"]), p))
    shown = index[path]["shown"]
    assert len(shown) >= 40, "the mission seeds no longer make this test meaningful"
    events: list[tuple[str, str]] = []
    page.on("request", lambda r: "/search/p/" in r.url and events.append(("start", r.url)))
    page.on("requestfinished", lambda r: "/search/p/" in r.url and events.append(("end", r.url)))
    # the 33rd word of the phrases matches nothing, and no longer counts
    query = f'"{" ".join(shown[:20])}" "{" ".join(shown[20:32])} qqqzzznotaword"'
    assert path in {r["path"] for r in search(query)["results"]}
    starts = [url for kind, url in events if kind == "start"]
    assert starts and len(starts) == len(set(starts)), f"a pair file fetched twice: {starts}"
    in_flight = peak = 0
    for kind, _ in events:
        in_flight += 1 if kind == "start" else -1
        peak = max(peak, in_flight)
    assert len(set(starts)) == 1 or peak > 1, f"pair files fetched one after another: {events}"


# -- the box: keyboard, links, highlighting, accessibility --------------------------------------


ACTIVE = """() => {
  const input = document.querySelector('.digest-search__input');
  const id = input.getAttribute('aria-activedescendant');
  const chosen = [...document.querySelectorAll('#digest-search-results [aria-selected=true]')].map(o => o.id);
  return {id, chosen, focused: document.activeElement === input,
          href: id ? document.getElementById(id).dataset.href : null};
}"""


def test_the_keyboard_opens_chooses_opens_a_result_and_closes(page, page_log, site_url, papers, index):
    paper = sorted(papers, key=lambda p: p["id"])[0]
    phrase = phrase_of("/" + paper["url"], index)
    visit(page, site_url)
    dialog = page.locator(".digest-search__dialog")
    page.keyboard.press("/")
    assert dialog.is_visible() and page.evaluate(ACTIVE)["focused"]
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    page.keyboard.press("Control+k")
    assert dialog.is_visible() and page.evaluate(ACTIVE)["focused"]
    page.keyboard.type(phrase)
    # answers to the words typed so far arrive meanwhile: wait for the whole phrase's, which
    # lists the paper first (test_every_paper_is_found_first_by_a_phrase_of_its_abstract)
    page.wait_for_function("""url => {
        const options = document.querySelectorAll('#digest-search-results [role=option]');
        return options.length >= 2 && new URL(options[0].dataset.href).pathname === url;
    }""", arg="/" + paper["url"])
    options = page.locator("#digest-search-results [role=option]")
    assert page.evaluate(ACTIVE)["id"] is None
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    second = page.evaluate(ACTIVE)
    assert second["chosen"] == [second["id"]] == [options.nth(1).get_attribute("id")]
    page.keyboard.press("ArrowUp")
    first = page.evaluate(ACTIVE)
    assert first["chosen"] == [first["id"]] == [options.nth(0).get_attribute("id")]
    assert urlsplit(first["href"]).path == "/" + paper["url"]
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(re.escape(paper["url"]) + r"\?h="))
    wait_ready(page)
    # the page opened marks the query words found, as text in <mark> elements
    marked = {m.casefold() for m in page.locator("article mark.digest-highlight").all_inner_texts()}
    assert {w.casefold() for w in phrase.split() if len(w) > 3} <= marked, (phrase, marked)
    assert page_log.problems() == []


def test_a_q_link_opens_the_box_with_its_query_answered(page, page_log, site_url, papers):
    want = _with(papers, code=True)
    visit(page, site_url + "list/?q=has:code")
    page.wait_for_function("() => Number(document.querySelector('.digest-search__dialog').dataset.digestAnswers) >= 1")
    assert page.locator(".digest-search__input").input_value() == "has:code"
    got = {page.evaluate("h => new URL(h).pathname", o.get_attribute("data-href"))
           for o in page.locator("#digest-search-results [role=option]").all()}
    assert got == want
    assert page.locator('.digest-filter[data-token="has:code"][aria-pressed="true"]').count() == 1
    assert page_log.problems() == []


def test_highlighting_writes_no_markup_from_the_link(page, page_log, site_url, papers):
    """?h= comes from any link: its words are marked as text, anything else in it is ignored."""
    paper = papers[0]
    word = max(WORD.findall(paper["title"]), key=len)
    visit(page, site_url + paper["url"] + "?h=" + quote(f'<img src=x onerror="alert(1)"> {word} <b>bold</b>'))
    marks = page.locator("article mark.digest-highlight").all_inner_texts()
    assert marks and all(WORD.fullmatch(m) for m in marks), marks
    assert word.casefold() in {m.casefold() for m in marks}
    assert page.locator("article img[src=x], article mark b, article mark img").count() == 0
    assert page_log.problems() == []


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_open_box_has_no_serious_accessibility_violations(open_page, page_log, site_url, axe_source, scheme, viewport):
    page = open_page(color_scheme=scheme, viewport=PHONE if viewport == "phone" else DESKTOP)
    visit(page, site_url)
    answer = page.evaluate(SEARCH_JS, "learning")
    assert answer["count"] > 1
    page.locator(".digest-search__input").press("ArrowDown")
    assert page.locator(".digest-search__input").get_attribute("aria-activedescendant")
    assert page.locator(".digest-search__input").get_attribute("role") == "combobox"
    assert page.locator("#digest-search-results").get_attribute("role") == "listbox"
    # the box itself: the pages behind it have tests of their own (test_site.py)
    serious = serious_violations(page, axe_source, ".digest-search__dialog")
    assert serious == [], f"search open ({scheme}, {viewport}):\n" + describe(serious)
    # nothing on the page behind the box is reachable while it is open (a modal dialog)
    assert page.evaluate("() => document.querySelector('.digest-search__dialog').matches(':modal')")
    assert page_log.problems() == []
