"""Claude's reply -> claims with citations -> Pieces on real chunks. A citation to a source that was
not sent is dropped and reported; a claim left without a valid citation is dropped and reported."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from vera_core.answer.compose import Piece
from vera_core.answer.units import split_units
from vera_core.records import ChunkRecord
from vera_core.text import content_tokens

_MARK = re.compile(r"\[(\d{1,3})\]")
_BULLET = re.compile(r"^\s*(?:[-*\u2022]|\d{1,3}[.)])\s+")
_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\"'$])|(?<=\])\s+(?=[A-Z(\"'$])")
NOT_FOUND = "NOT FOUND"


@dataclass(frozen=True)
class DraftClaim:
    """One sentence or list item of the reply."""

    text: str
    """Without citation markers."""
    citations: tuple[int, ...]
    """1-based numbers of the sources it cites that exist."""


@dataclass
class ParsedReply:
    """A reply split into claims, with what had to be dropped."""

    claims: list[DraftClaim] = field(default_factory=list)
    is_list: bool = False
    unknown_citations: list[int] = field(default_factory=list)
    """Cited source numbers that name no source sent (hallucinated citations)."""
    uncited: list[str] = field(default_factory=list)
    """Claims dropped because they cite no existing source."""
    not_found: bool = False


def parse_reply(text: str, sources: int) -> ParsedReply:
    """Split `text` into claims; `sources` is how many numbered sources were sent."""
    reply = ParsedReply()
    body = text.strip()
    if not body or body.upper().startswith(NOT_FOUND):
        reply.not_found = True
        return reply
    lines = [ln.strip() for ln in body.splitlines() if ln.strip()]
    bullets = [ln for ln in lines if _BULLET.match(ln)]
    reply.is_list = len(bullets) >= 2 and len(bullets) * 2 >= len(lines)
    if reply.is_list:
        parts = [_BULLET.sub("", ln) for ln in bullets]
    else:
        parts = [p for ln in lines for p in _SPLIT.split(ln)]
    for part in parts:
        numbers = [int(n) for n in _MARK.findall(part)]
        valid = tuple(dict.fromkeys(n for n in numbers if 1 <= n <= sources))
        reply.unknown_citations += [n for n in numbers if not 1 <= n <= sources]
        claim = re.sub(r"\s+([.,;:!?])", r"\1", _MARK.sub("", part)).strip(" -")
        if not claim:
            continue
        if valid:
            reply.claims.append(DraftClaim(claim, valid))
        else:
            reply.uncited.append(claim)
    return reply


def to_pieces(reply: ParsedReply, chunks: Sequence[ChunkRecord], pages: tuple[int, ...] = ()) -> list[Piece]:
    """Each claim on the cited chunk that shares most of its words, quoting its closest sentence
    or table row (the highlight)."""
    pieces = []
    for claim in reply.claims:
        words = set(content_tokens(claim.text))
        best = None
        for n in claim.citations:
            chunk = chunks[n - 1]
            for unit in split_units(chunk) or []:
                overlap = len(words & set(content_tokens(unit.text)))
                if best is None or overlap > best[0]:
                    best = (overlap, chunk, unit.quote)
            if best is None:
                best = (0, chunk, chunk.text[:300])
        _, chunk, quote = best
        pieces.append(Piece(claim.text, chunk, quote, score=1.0, pages=pages))
    return pieces
