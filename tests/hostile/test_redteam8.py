"""Red-team round 8: seed text and data that stalled a stage, or that the site lost or showed
as something else, which the other hostile tests did not hold.

Each test fails on the code it was written against for the reason its docstring gives.
"""
from __future__ import annotations

import time

import pytest

from generator.errors import GeneratorError
from generator.parse import parse_seed

ABSTRACT = (
    "We study robust sparse attention for long documents and report gains on five benchmarks across many "
    "settings, with an analysis of when the sparsity pattern helps and when it hurts accuracy."
)


def _seconds(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


# -- the parse: a header line read in quadratic time ------------------------------------------


@pytest.mark.parametrize("header", [
    "ICML" + " " * 30_000 + "x",
    "ICML" + " " * 30_000 + "2026 Papersx",
    "ICML " + "2026 " * 6_000 + "Papers x",
], ids=["spaces", "spaces_then_year", "years"])
def test_a_long_header_line_is_refused_without_reading_it_quadratically(header):
    """HEADER (a lazy venue, then white space, the year and "Papers") was matched before the
    line's length was checked: on a first line of spaces each place the venue may end
    retries every run of the spaces after it. 30,000 spaces took 8 s, 200,000 (200 KB of a
    seed) about six minutes, and a megabyte of them hours, in the build and in the
    pull-request check alike. The line is too long to be a header whatever it holds."""
    data = (header + "\n\n" + ABSTRACT + "\n").encode("utf-8")
    errors = []

    def parse():
        try:
            parse_seed(data, "seeds/long.txt")
        except GeneratorError as e:
            errors.extend(getattr(e, "errors", [e]))

    took = _seconds(parse)
    assert [str(e).split(": ", 1)[0] for e in errors] == ["seeds/long.txt:1"]
    assert "the first line must be '<Venue> <Year> Papers'" in str(errors[0])
    assert took < 1.0, f"the parse took {took:.1f} s"
