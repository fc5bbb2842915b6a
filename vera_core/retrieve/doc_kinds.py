"""What kind of document each one is (a filing, a policy, a contract), and which kind a question asks
about: "which policies address ..." searches the policies and leaves a 10-K in the same store out.

A document's kind is read from its title (front matter, PDF metadata, first heading), its file name,
and for filings and contracts the opening of its text (an SEC cover page, "This Agreement is entered
into ..."). Nothing is guessed: a document none of these name is `other`, searched by every question
that names documents in general."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Sequence
from typing import Literal

from vera_core.store.catalog import ChunkRecord, DocumentRecord

__all__ = ["DocKind", "KIND_NOUNS", "document_kind", "kind_asked", "kind_of"]

DocKind = Literal["filing", "policy", "contract", "other"]

_FILING = re.compile(
    r"\bform\s+(?:10-?k|10-?q|8-?k|20-?f|6-?k|40-?f|s-1)\b|\b(?:10-?k|10-?q|8-?k|20-?f)\b"
    r"|\bsecurities\s+and\s+exchange\s+commission\b|\bannual\s+report\b|\bquarterly\s+report\b"
    r"|\binterim\s+report\b|\bearnings\s+(?:release|report)\b|\bproxy\s+statement\b|\bprospectus\b"
    r"|\breports?\s+(?:first|second|third|fourth|full)[- ](?:quarter|year)\b|\bresults\s+for\s+the\s+(?:quarter|year)\b",
    re.I)
_CONTRACT = re.compile(
    r"\bagreement\b|\bcontract\b|\blease\b|\bterms\s+(?:and\s+conditions|of\s+(?:service|business))\b"
    r"|\bstatement\s+of\s+work\b|\bNDA\b|\bmemorandum\s+of\s+understanding\b|\baddendum\b"
    r"|\bby\s+and\s+between\b|\bentered\s+into\s+(?:as\s+of|on|by)\b", re.I)
_POLICY = re.compile(
    r"\bpolic(?:y|ies)\b|\bprocedures?\b|\bstandards?\b|\bguidelines?\b|\bcode\s+of\s+(?:conduct|ethics|practice)\b"
    r"|\bcharter\b|\bhandbook\b|\bplaybook\b|\bprotocol\b", re.I)
_BY_TITLE: tuple[tuple[DocKind, re.Pattern[str]], ...] = (("filing", _FILING), ("contract", _CONTRACT),
                                                          ("policy", _POLICY))
_BY_OPENING: tuple[tuple[DocKind, re.Pattern[str]], ...] = (("filing", _FILING), ("contract", _CONTRACT))

KIND_NOUNS: dict[DocKind, str] = {
    "policy": r"polic(?:y|ies)|procedures?|standards|guidelines|codes?\s+of\s+conduct",
    "contract": r"contracts?|agreements?|leases?",
    "filing": r"filings?|10-?Ks?|10-?Qs?|8-?Ks?|annual\s+reports?|quarterly\s+reports?|earnings\s+releases?|reports",
}
"""The nouns by which a question names a kind of document; 'documents' and 'files' name every kind."""
_NOUN = {kind: re.compile(rf"\b(?:{pattern})\b", re.I) for kind, pattern in KIND_NOUNS.items()}
_ANY = re.compile(r"\b(?:documents?|files?)\b", re.I)

_OPENING_CHARS = 2000
_cache: dict[tuple[str, str], DocKind] = {}
_lock = threading.Lock()


def kind_of(name: str, titles: Sequence[str], opening: str) -> DocKind:
    """The kind named by a document's titles (first), its file name, then its opening text."""
    stem = re.sub(r"[_.]+", " ", name.rsplit(".", 1)[0])
    for text, rules in ((" | ".join(t for t in titles if t), _BY_TITLE), (stem, _BY_TITLE),
                        (opening[:_OPENING_CHARS], _BY_OPENING)):
        for kind, pattern in rules:
            if text and pattern.search(text):
                return kind
    return "other"


def document_kind(doc: DocumentRecord, chunks: Sequence[ChunkRecord] | Callable[[], Sequence[ChunkRecord]]) -> DocKind:
    """The kind of a stored document (cached per document and content): its front matter or PDF
    title and first heading, its name, the opening of its first chunks (`chunks`, or a function that
    reads them: called only when the kind is not cached yet)."""
    key = (doc.doc_id, doc.sha256)
    with _lock:
        if key in _cache:
            return _cache[key]
    if callable(chunks):
        chunks = chunks()
    meta = doc.metadata or {}
    titles = [str((meta.get("front_matter") or {}).get("title") or ""), str((meta.get("pdf") or {}).get("title") or "")]
    titles += [c.heading_titles[0] for c in chunks[:1] if c.heading_titles]
    opening = " ".join(c.text for c in chunks[:3])
    kind = kind_of(doc.name, titles, opening)
    with _lock:
        _cache[key] = kind
    return kind


def kind_asked(question: str) -> tuple[DocKind | None, str]:
    """The kind of document a question names ('policies' -> policy) and the noun it used; (None,
    'documents') when it names documents in general."""
    found = [(m.start(), kind, m.group(0)) for kind, pattern in _NOUN.items() for m in [pattern.search(question)] if m]
    if found:
        _, kind, noun = min(found)
        return kind, noun
    generic = _ANY.search(question)
    return None, generic.group(0) if generic else "documents"
