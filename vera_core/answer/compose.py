"""From extracted evidence pieces to the answer contract: numbered citations, [n] markers,
list items, and the verification of every claim (grounding, figures, coverage)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from vera_core.answer.contract import (AnswerWarning, Citation, ClaimCheck, Item, NumberCheck, Polygon, Verification,
                                       grounding_label)
from vera_core.answer.grounding import aggregate, score_claim
from vera_core.answer.numbers import verify_numbers
from vera_core.records import ChunkRecord, Rect
from vera_core.text import content_tokens

QUOTE_LIMIT = 480
ITEM_COVERAGE = 0.70


@dataclass(frozen=True)
class Piece:
    """One claim of a draft answer and the evidence behind it."""

    text: str
    chunk: ChunkRecord
    quote: str
    amount: str | None = None
    score: float = 1.0
    pages: tuple[int, ...] = ()
    """When set (location questions), the citation shows only these pages of the chunk."""
    checked: str = ""
    """What grounding checks when the claim's words are VERA's own (a figure converted to the unit
    asked): the cited cell as printed, its row label and column. '' checks `text`."""
    regions: tuple[Rect, ...] = ()
    """When set (a table cell and its row label), the citation highlights these, and outlines the
    chunk's own regions faintly."""


def citations_for(pieces: Sequence[Piece], doc_names: dict[str, str], doc_formats: dict[str, str],
                  locate: Callable[[ChunkRecord, str], tuple[int, tuple] | None] | None = None
                  ) -> tuple[list[Citation], list[int]]:
    """One citation per distinct (chunk, quote); returns them and each piece's citation number.
    `locate` narrows a text citation to the page and lines where its quote is printed."""
    numbers: dict[tuple[str, str], int] = {}
    citations: list[Citation] = []
    per_piece: list[int] = []
    for piece in pieces:
        key = (piece.chunk.chunk_id, piece.quote)
        if key not in numbers:
            numbers[key] = len(citations) + 1
            chunk = piece.chunk
            page = _cited_page(piece) or None
            rects = [r for r in chunk.polygons if not piece.pages or r.page in piece.pages]
            found = locate(chunk, piece.quote) if locate and chunk.kind == "text" else None
            if found and (not piece.pages or found[0] in piece.pages):
                page, rects = found[0], [r for r in found[1] if not piece.pages or r.page in piece.pages]
            context: list[Rect] = []
            if piece.regions:
                context, rects, page = rects, list(piece.regions), piece.regions[0].page
            citations.append(Citation(
                n=numbers[key], doc_id=chunk.doc_id, doc_name=doc_names.get(chunk.doc_id, chunk.doc_id),
                format=doc_formats.get(chunk.doc_id, "pdf"), page=page,
                heading_path=chunk.heading_path, chunk_id=chunk.chunk_id, kind=chunk.kind,
                quote=_trim(piece.quote), score=round(piece.score, 6),
                polygons=[Polygon(**r.as_dict()) for r in rects],
                context_polygons=[Polygon(**r.as_dict()) for r in context]))
        per_piece.append(numbers[key])
    return citations, per_piece


def _cited_page(piece: Piece) -> int:
    allowed = [p for p in piece.chunk.pages if not piece.pages or p in piece.pages]
    return allowed[0] if allowed else piece.chunk.page_start


def _trim(text: str) -> str:
    text = text.strip()
    return text if len(text) <= QUOTE_LIMIT else text[:QUOTE_LIMIT - 1].rstrip() + "…"


def item_verified(text: str, chunk: ChunkRecord) -> bool:
    """Coverage verifier: at least 70% of the item's normalised tokens occur in its cited chunk."""
    tokens = content_tokens(text)
    if not tokens:
        return False
    source = set(content_tokens(chunk.text + " " + chunk.caption))
    return sum(1 for t in tokens if t in source) / len(tokens) >= ITEM_COVERAGE


def source_text(chunk: ChunkRecord) -> str:
    """What a claim is checked against: the chunk's text and its caption."""
    return chunk.text + ("\n" + chunk.caption if chunk.caption else "")


LABEL_WARNING = "This answer is {label} (grounding {score:.2f}): check the cited evidence."


def label_warning(label: str, score: float) -> AnswerWarning:
    """The warning an answer that is not grounded carries first."""
    return AnswerWarning(code="grounding", text=LABEL_WARNING.format(label=label, score=score))


def verify(pieces: Sequence[Piece], numbers: list[int],
           embed: Callable[[list[str]], list[list[float]]] | None) -> Verification:
    """Grounding of every claim against its cited chunk, with numeric verification."""
    sources = {n: source_text(p.chunk) for p, n in zip(pieces, numbers)}
    texts = [p.checked or p.text for p in pieces]
    per_claim = [verify_numbers(t, {n: sources[n]}) for t, n in zip(texts, numbers)]
    claims = [score_claim(t, [n], {n: sources[n]}, checks=c) for t, n, c in zip(texts, numbers, per_claim)]
    partial = [i for i, c in enumerate(claims) if c.lexical < 1.0 and c.citations]
    if embed and partial:  # one batch for every claim whose words alone do not settle its support
        embed(list(dict.fromkeys([texts[i] for i in partial] + [sources[numbers[i]] for i in partial])))
        for i in partial:
            n = numbers[i]
            claims[i] = score_claim(texts[i], [n], {n: sources[n]}, embed=embed, checks=per_claim[i])
    claims = [c.model_copy(update={"text": p.text}) if p.checked else c for c, p in zip(claims, pieces)]
    checks: list[NumberCheck] = [c for group in per_claim for c in group]
    score, label = aggregate(claims)
    alerts = [AnswerWarning(code="figure_check", text=f"Figure check: {c.message}")
              for c in checks if c.status != "match" and c.message]
    if label != "grounded" and claims:
        alerts.insert(0, label_warning(label, score))
    return Verification(grounding_score=score, label=label, claims=claims, numbers=checks, alerts=alerts)


def no_evidence_verification(message: str) -> Verification:
    """An answer that states nothing but what was searched: no claim to ground."""
    return Verification(grounding_score=1.0, label=grounding_label(1.0),
                        alerts=[AnswerWarning(code="nothing_found", text=message)])


def items_for(pieces: Sequence[Piece], numbers: list[int]) -> list[Item]:
    return [Item(text=p.text, citations=[n], amount=p.amount, verified=item_verified(p.checked or p.text, p.chunk))
            for p, n in zip(pieces, numbers)]
