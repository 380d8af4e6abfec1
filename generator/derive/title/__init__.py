"""The title stage: a short, human-looking title for every abstract.

Seeds hold abstracts only, so titles are derived. Real paper titles lead with the
name of the contribution and say what it is ("KSTER: Recovering Edited Data ...");
when an abstract names its method we do the same, otherwise we state the paper's
subject as a noun phrase. The steps, one module each:

- :mod:`.candidates` reads an abstract's sentences into candidate titles;
- :mod:`.names` finds the method it names, with its acronym's long form;
- :mod:`.phrases` reads noun phrases, ending them by word class;
- :mod:`.compose` makes a name and a phrase into a title;
- :mod:`.choose` scores the candidates with weights fitted on real titles (``weights.json``);
- :mod:`.unique` keeps every title once within a digest.

The word lists are in ``words.yml``.
"""
from __future__ import annotations

from generator.derive.title.choose import derive_title, first_titles
from generator.derive.title.compose import could_be_title, could_be_titles
from generator.derive.title.unique import title_all, title_papers
from generator.derive.title.words import MAX_LENGTH

__all__ = ["MAX_LENGTH", "could_be_title", "could_be_titles", "derive_title", "first_titles", "title_all", "title_papers"]
