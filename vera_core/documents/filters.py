"""Filters on the IR library: the quarter, fiscal year and type of the documents a question searches,
the speakers whose turns it reads and the business segment it asks about. One record for the API (`filters`
of `POST /query`), `vera query` and the app's sidebar; a filter that leaves no document names itself and what would widen it (the
quarters and types that are there), never silently drops."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from vera_core.documents.identity import DOC_TYPES, Identity
from vera_core.errors import VeraError
from vera_core.records import DocumentRecord
from vera_core.transcripts.speakers import same_person

__all__ = ["SPEAKER_ROLES", "LibraryFilters", "NothingMatches", "apply_filters", "normal_quarter", "segment_pattern",
           "segment_question"]


SPEAKER_ROLES = ("CEO", "CFO", "investor relations", "analyst", "management")
"""Roles a speaker filter may name instead of a person."""
_ROLE_NAMES = {"ceo": "CEO", "cfo": "CFO", "ir": "investor relations", "investor relations": "investor relations",
               "analyst": "analyst", "analysts": "analyst", "management": "management", "executives": "management"}


class NothingMatches(VeraError):
    """The filters leave no document; the message names them and what the store holds instead."""


def normal_quarter(text: str) -> str:
    """'2025-Q2' from '2025-Q2', '2025Q2', 'Q2 2025', '2Q25'; 'FY2024' from 'FY2024', 'FY24' or '2024'."""
    raw = text.strip().upper().replace(" ", "")
    for pattern, build in ((r"^(\d{4})-?Q([1-4])$", lambda m: f"{m[1]}-Q{m[2]}"),
                           (r"^Q([1-4])-?(?:FY)?(\d{4}|\d{2})$", lambda m: f"{_year(m[2])}-Q{m[1]}"),
                           (r"^([1-4])Q(\d{4}|\d{2})$", lambda m: f"{_year(m[2])}-Q{m[1]}"),
                           (r"^FY(\d{4}|\d{2})-?Q([1-4])$", lambda m: f"{_year(m[1])}-Q{m[2]}"),
                           (r"^(?:FY)?(\d{4}|\d{2})$", lambda m: f"FY{_year(m[1])}")):
        found = re.match(pattern, raw)
        if found:
            return build(found)
    raise VeraError(f"{text!r} is not a quarter such as 2025-Q2 (or Q2 2025, 2Q25) or a fiscal year such as FY2024.")


def _year(text: str) -> int:
    return int(text) + 2000 if len(text) == 2 else int(text)


@dataclass(frozen=True)
class LibraryFilters:
    """What the documents a question reads must be, and whose turns it reads."""

    quarter: tuple[str, ...] = ()
    """Fiscal quarters ('2025-Q2') or years ('FY2024': every document of that fiscal year)."""
    fiscal_year: tuple[int, ...] = ()
    doc_type: tuple[str, ...] = ()
    """DOC_TYPES."""
    speaker: tuple[str, ...] = ()
    """Speakers (or roles: CEO, CFO, analyst) whose turns a transcript answer reads."""
    segment: tuple[str, ...] = ()
    """The business segment the question asks about ("Reality Labs"): only documents printing its name are read,
    and the question is asked of that segment (`segment_question`). One at a time: a figure is one segment's."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "quarter", tuple(normal_quarter(q) for q in self.quarter))
        segments = tuple(dict.fromkeys(name for s in self.segment if (name := _segment_name(s))))
        if len(segments) > 1:
            raise VeraError(f"Filter one segment at a time, not {', '.join(map(repr, segments))}: a figure is one "
                            "segment's; ask again for each.")
        object.__setattr__(self, "segment", segments)
        object.__setattr__(self, "speaker", tuple(_ROLE_NAMES.get(s.strip().lower(), s.strip()) for s in self.speaker))
        unknown = [t for t in self.doc_type if t not in DOC_TYPES]
        if unknown:
            raise VeraError(f"{', '.join(map(repr, unknown))} is not a document type; choose among {', '.join(DOC_TYPES)}.")

    def __bool__(self) -> bool:
        return bool(self.quarter or self.fiscal_year or self.doc_type or self.speaker or self.segment)

    def describe(self) -> str:
        parts = [f"quarter {', '.join(self.quarter)}" if self.quarter else "",
                 f"fiscal year {', '.join(map(str, self.fiscal_year))}" if self.fiscal_year else "",
                 f"type {', '.join(self.doc_type)}" if self.doc_type else "",
                 f"speaker {', '.join(self.speaker)}" if self.speaker else "",
                 f"segment {', '.join(self.segment)}" if self.segment else ""]
        return "; ".join(p for p in parts if p)


def _segment_name(text: str) -> str:
    """'Reality Labs' from 'Reality Labs', 'reality labs segment' or ' Reality  Labs '."""
    return re.sub(r"\s+(?:reportable\s+|operating\s+)?segment$", "", " ".join(text.split()), flags=re.I)


def segment_pattern(segment: str) -> re.Pattern[str]:
    """A segment's name as a document or a question prints it: whole words, any case, any spacing, "&" or "and"."""
    words = [re.escape(w) if w not in ("&", "and") else r"(?:&|and)" for w in segment.split()]
    return re.compile(r"(?<![\w&])" + r"\s+".join(words) + r"(?![\w&])", re.I)


def segment_question(question: str, segments: Sequence[str]) -> str:
    """The question asked of the segment a filter names: "What was revenue in 2024?" with Fluid Power is "What was
    revenue in 2024 for the Fluid Power segment?"; a question that already names it is asked as it is."""
    if not segments or segment_pattern(segments[0]).search(question):
        return question
    body = question.rstrip()
    end = re.search(r"[?.!]+$", body)
    stem, mark = (body[:end.start()], end.group(0)) if end else (body, "")
    return f"{stem.rstrip()} for the {segments[0]} segment{mark}"


def _quarter_ok(identity: Identity, wanted: Sequence[str]) -> bool:
    return not wanted or identity.quarter in wanted or f"FY{identity.fiscal_year}" in wanted


def _speaks(doc: DocumentRecord, speakers: Sequence[str]) -> bool:
    people = (doc.metadata or {}).get("transcript", {}).get("participants", [])
    roles = {p["role"] for p in people if p.get("role")}
    if roles & {"CEO", "CFO", "investor relations", "other executive"}:
        roles.add("management")
    return any(s in roles or any(same_person(s, p["name"]) for p in people) for s in speakers)


def apply_filters(docs: Sequence[DocumentRecord], filters: LibraryFilters,
                  identity_of: Callable[[DocumentRecord], Identity],
                  prints: Callable[[DocumentRecord, re.Pattern[str]], bool] | None = None) -> list[DocumentRecord]:
    """The documents the filters keep; `NothingMatches` naming the filter that emptied them and what the
    store holds instead. `prints(doc, pattern)`: whether a document's text prints a segment's name (without it, a
    segment filter keeps every document)."""
    kept = list(docs)
    steps = ((filters.doc_type, lambda d: identity_of(d).doc_type in filters.doc_type, "type",
              lambda: sorted({identity_of(d).doc_type for d in docs})),
             (filters.quarter, lambda d: _quarter_ok(identity_of(d), filters.quarter), "quarter",
              lambda: sorted({identity_of(d).quarter for d in kept_before if identity_of(d).quarter})),
             (filters.fiscal_year, lambda d: identity_of(d).fiscal_year in filters.fiscal_year, "fiscal year",
              lambda: sorted({str(identity_of(d).fiscal_year) for d in kept_before if identity_of(d).fiscal_year})),
             (filters.speaker, lambda d: _speaks(d, filters.speaker), "speaker",
              lambda: sorted({p["name"] for d in kept_before
                              for p in (d.metadata or {}).get("transcript", {}).get("participants", [])})[:12]),
             (filters.segment, lambda d: prints is None or any(prints(d, segment_pattern(s)) for s in filters.segment),
              "segment", lambda: []))
    for wanted, keep, name, present in steps:
        if not wanted:
            continue
        kept_before = kept
        kept = [d for d in kept if keep(d)]
        if not kept:
            there = present()
            raise NothingMatches(
                f"No document matches {filters.describe()}: the {name} filter leaves none. Widen it"
                + (f"; the documents in scope have {name}s {', '.join(map(str, there))}." if there else
                   f"; no document in scope prints {' or '.join(map(repr, wanted))}." if name == "segment" else "."))
    return kept
