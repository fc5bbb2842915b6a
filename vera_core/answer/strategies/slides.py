"""Which slide of a deck shows something ("Which slide of Meta's Q1 2024 presentation gives the new definition of
ARPP?", "where in the deck is next quarter's guidance?"): every slide of the decks in scope weighed by how many of the
topic's words its title and its text print (a title's word counts twice, once as text; a word counts more the fewer
slides print it) and by how close in meaning it is to the topic (`answer.meaning`), the best slides named by number and
title, each cited with its sentence or row that best shares the topic. Slides whose weight is close to the best are
named too (a topic several slides print)."""

from __future__ import annotations

import re

from vera_core.answer.compose import Piece
from vera_core.answer.meaning import closeness
from vera_core.answer.strategies.base import Evidence, Plan, Services
from vera_core.answer.units import rarity_weights, shared_weight, split_units
from vera_core.documents.identity import DECK_TYPE
from vera_core.finance.line_items import expand_abbreviations
from vera_core.questions.library import metric_named
from vera_core.records import ChunkRecord
from vera_core.retrieve.synonyms import read_concepts
from vera_core.text import terms

__all__ = ["gather"]

MAX_SLIDES = 3
CLOSE_SHARE = 0.75
"""A slide weighing this share of the best one's is named beside it."""
MEANING_WEIGHT = 2.0
"""The topic's weight a slide as close in meaning as can be adds to a slide that prints some of the topic, per unit of
cosine over MEANING_FLOOR (`answer.meaning`); a slide that prints none of it is never named for its meaning alone."""
MEANING_FLOOR = 0.2
"""A slide's cosine to the topic below this says nothing of it."""
TITLE_WEIGHT = 1.0
"""A title's word counts this much more than the same word in the slide's text."""
_ASKING = re.compile(r"\b(?:which|what|where|slides?|pages?|decks?|presentations?|earnings|show(?:s|n)?|gives?|has|have|"
                     r"talks?|about|mention(?:s|ed)?|discuss(?:es|ed)?|in|on|of|the|does|do|is|are)\b|"
                     r"\b(?:Q[1-4]|[1-4]Q)\s*(?:FY\s*)?['\u2019]?\d{0,4}\b|\b(?:19|20)\d\d\b", re.I)


def gather(plan: Plan, services: Services) -> Evidence:
    catalog = services.ws.catalog
    scope = set(services.doc_ids(plan))
    decks = [d for d in catalog.documents() if d.doc_id in scope and (d.identity or {}).get("doc_type") == DECK_TYPE]
    if not decks:
        return Evidence(empty_message="No slide deck is in scope.", hops=1)
    companies = " ".join(str((d.identity or {}).get("company", "")) for d in decks)
    wanted = topic_words(_ASKING.sub(" ", plan.intent.focus or plan.question)) - terms(companies)
    chunks = [c for d in decks for c in services.ws.doc_chunks(d.doc_id) if c.page_start]
    if not wanted or not chunks:
        return Evidence(empty_message="The question names no topic to look for on the slides.", hops=1)
    slides: dict[tuple[str, int], list[ChunkRecord]] = {}
    for chunk in chunks:
        slides.setdefault((chunk.doc_id, chunk.page_start), []).append(chunk)
    printed = {key: terms(" ".join(c.text + " " + _title(c) for c in group)) for key, group in slides.items()}
    weight = rarity_weights([own & wanted for own in printed.values()])
    scored = []
    for key, group in slides.items():
        title = terms(_title(group[0]))
        score = shared_weight(printed[key] & wanted, weight) + TITLE_WEIGHT * shared_weight(title & wanted, weight)
        if score > 0:
            scored.append((score, key))
    if scored:  # NOTE: "their biggest customers" is the slide "Top 10 Customer Accounts by Revenue": its meaning too
        total = shared_weight(wanted, weight)
        near = closeness(services.ws, " ".join(_ASKING.sub(" ", plan.intent.focus or plan.question).split()),
                         [c for _, key in scored for c in slides[key]])
        scored = [(score + MEANING_WEIGHT * total * max(0.0, max(near[c.chunk_id] for c in slides[key]) - MEANING_FLOOR),
                   key) for score, key in scored]
    if not scored:
        return Evidence(empty_message="No slide of the decks in scope prints the topic asked "
                                      f"({len(slides)} slides read).", hops=1, scope=tuple(chunks))
    scored.sort(key=lambda x: (-x[0], x[1][1]))
    best = scored[0][0]
    chosen = [key for score, key in scored[:MAX_SLIDES] if score >= CLOSE_SHARE * best]
    pieces = [_piece(slides[key], weight, key[1]) for key in chosen]
    return Evidence(pieces=tuple(pieces), hops=1, scope=tuple(c for key in chosen for c in slides[key]),
                    sections=tuple(f"{d.stem}: every slide" for d in decks))


_SHORT_NAME = re.compile(r"\b[A-Z][A-Za-z]{1,5}\b")
"""A word that may be a measure's short name ("FCF", "ARPP")."""


def topic_words(topic: str) -> set[str]:
    """The topic's words, with the words a slide may print for them: a measure's name for its short name ("FCF": free
    cash flow, the metric library's alias), an accounting shorthand written out ("capex"), and each phrase of a synonym
    group a word of the topic belongs to ("outlook": guidance)."""
    words = terms(topic) | terms(expand_abbreviations(topic))
    for short in _SHORT_NAME.findall(topic):
        metric = metric_named(short) if short.isupper() else None
        if metric is not None:
            words |= terms(metric.name)
    for concept in read_concepts(topic):
        if concept.group:
            words |= {token for phrase in concept.phrases if len(phrase) == 1 for token in terms(" ".join(phrase))}
    return words


def _title(chunk: ChunkRecord) -> str:
    return chunk.heading_titles[-1] if chunk.heading_titles else ""


def _piece(group: list[ChunkRecord], weight: dict[str, float], page: int) -> Piece:
    """The slide named by number and title, cited with its unit that best shares the topic (`weight`: each topic
    word's weight; a word every slide prints, a footer's company name, weighs nearly nothing)."""
    scored = [(shared_weight(terms(u.text), weight), -i, u)
              for i, u in enumerate(u for chunk in group for u in split_units(chunk))]
    scored = [x for x in scored if x[0] > 0]
    unit = max(scored, key=lambda x: x[:2])[2] if scored else None
    title = _title(group[0])
    named = title if re.match(r"slide\s+\d+\b", title, re.I) else f"Slide {page} ({title})" if title else f"Slide {page}"
    if unit is None:  # NOTE: the title alone shares the topic: the slide is cited by it
        return Piece(f"{named}.", group[0], title or group[0].text[:80], checked=title or group[0].text[:80])
    return Piece(f"{named}: {unit.text}", unit.chunk, unit.quote, checked=unit.quote)
