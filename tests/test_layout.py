"""The layout stage: the map's coordinates, on real abstracts of two unrelated communities."""
from __future__ import annotations

import random
import re

import numpy as np
import pytest
from support import CORPORA, corpus_files

from generator.derive.map_layout import layout_texts, nearest
from generator.seeds.identify import paper_id

PER_CORPUS = 100


def _abstracts(folder: str) -> list[str]:
    out = []
    for path in corpus_files():
        if path.parent.name != folder:
            continue
        body = path.read_text(encoding="utf-8-sig").partition("\n")[2]
        out += [" ".join(p.split()) for p in re.split(r"\n\s*\n", body) if len(p.split()) >= 20]
    return out[:PER_CORPUS]


@pytest.fixture(scope="module")
def two_fields() -> tuple[list[str], list[str], dict[str, str]]:
    """ids and texts of music (ISMIR 2024) and neural-field abstracts, and each id's field."""
    if not (CORPORA / "ismir2024").is_dir() or not (CORPORA / "neural-fields").is_dir():
        pytest.skip(f"the shared corpora ismir2024 and neural-fields are not in {CORPORA}")
    field = {}
    texts = []
    for name in ("ismir2024", "neural-fields"):
        for t in _abstracts(name):
            field[paper_id(t)] = name
            texts.append(t)
    return [paper_id(t) for t in texts], texts, field


@pytest.fixture(scope="module")
def laid_out(two_fields):
    ids, texts, _ = two_fields
    return layout_texts(ids, texts)


def _map_neighbours(coords: dict, k: int) -> dict[str, list[str]]:
    ids = sorted(coords)
    points = np.array([coords[i] for i in ids])
    d = ((points[:, None, :] - points[None, :, :]) ** 2).sum(-1)
    np.fill_diagonal(d, np.inf)
    return {ids[r]: [ids[c] for c in np.argsort(d[r])[:k]] for r in range(len(ids))}


def test_papers_of_one_field_are_neighbours_on_the_map(two_fields, laid_out):
    _, _, field = two_fields
    coords, info = laid_out
    assert info.method == "t-SNE" and info.papers == len(field)
    neighbours = _map_neighbours(coords, 10)
    same = [sum(field[j] == field[i] for j in near) / 10 for i, near in neighbours.items()]
    assert np.mean(same) >= 0.9, f"only {np.mean(same):.0%} of a paper's 10 map neighbours share its field"


def test_coordinates_are_normalised_to_a_unit_box(laid_out):
    points = np.array(list(laid_out[0].values()))
    assert points.min() >= -0.5 - 1e-9 and points.max() <= 0.5 + 1e-9
    assert max(np.ptp(points[:, 0]), np.ptp(points[:, 1])) == pytest.approx(1.0)


def test_the_same_papers_in_any_order_give_the_same_map_and_strangers_places_are_ignored(two_fields, laid_out):
    ids, texts, _ = two_fields
    order = list(range(len(ids)))
    random.Random(3).shuffle(order)
    strangers = {f"{k:012x}": (0.1, 0.1) for k in range(len(ids))}  # a previous map of other papers
    again, info = layout_texts([ids[i] for i in order], [texts[i] for i in order], strangers, 50.0)
    assert info.method == "t-SNE"
    assert again == laid_out[0]


def _moved(before: dict, after: dict) -> float:
    return float(np.median([np.hypot(after[i][0] - before[i][0], after[i][1] - before[i][1]) for i in before]))


def test_added_papers_move_the_others_little_and_land_near_their_kind(two_fields, laid_out):
    ids, texts, field = two_fields
    before, info = laid_out
    # Five new papers: each a real abstract cut to its first half, so each has an obvious field.
    new_texts = [" ".join(t.split()[: len(t.split()) // 2]) + " (extended version)" for t in texts[::40]]
    new_ids = [paper_id(t) for t in new_texts]
    after, grown = layout_texts(ids + new_ids, texts + new_texts, before, info.span)
    assert grown.method == "t-SNE (continued)" and grown.continued == len(ids)
    fresh, _ = layout_texts(ids + new_ids, texts + new_texts)
    moved, moved_fresh = _moved(before, after), _moved(before, fresh)
    # Points of a 200-paper map are about 1/sqrt(200) = 7% of its width apart.
    assert moved < 0.5 / np.sqrt(len(ids)), f"existing papers moved {moved:.1%} of the map's width (median)"
    assert moved < moved_fresh / 4, f"moved {moved:.1%}, hardly less than a new layout's {moved_fresh:.1%}"
    neighbours = _map_neighbours(after, 5)
    for new, text in zip(new_ids, texts[::40]):
        kind = field[paper_id(text)]
        near = [field[j] for j in neighbours[new] if j in field]
        assert near.count(kind) >= 4, f"a new {kind} paper landed among {near}"


def test_without_a_new_paper_the_previous_map_is_kept_exactly(two_fields, laid_out):
    ids, texts, _ = two_fields
    before, _ = laid_out
    fewer = ids[5:]
    kept, info = layout_texts(fewer, texts[5:], before)
    assert info.method == "previous map"
    assert kept == {i: before[i] for i in fewer}


@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_tiny_digests_get_a_map_too(n):
    texts = [f"paper {k} studies {'graphs' if k % 2 else 'music'} with {'networks' if k % 3 else 'models'}" for k in range(n)]
    ids = [f"{k:012x}" for k in range(n)]
    coords, _ = layout_texts(ids, texts)
    assert sorted(coords) == ids
    assert all(-0.5 <= v <= 0.5 for xy in coords.values() for v in xy)


def test_nearest_finds_the_most_similar_rows_in_order():
    vectors = np.array([[1.0, 0.0], [0.8, 0.6], [0.0, 1.0], [-1.0, 0.0], [0.6, 0.8]])
    idx, dist = nearest(vectors, 2)
    # by hand: row 0 is nearest to row 1 (cos 0.8), then row 4 (cos 0.6)
    assert idx[0].tolist() == [1, 4]
    assert idx[2].tolist() == [4, 1]
    assert dist[0, 0] == pytest.approx(np.sqrt(2 - 2 * 0.8))
    assert all(r not in idx[r] for r in range(5))
