"""The registrant's own name, read from its documents: words a question uses for the company ("Salesforce
APAC revenue", "Sonic Automotive's used vehicles") are never a qualifier of a line item."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from vera_core.finance.line_items import label_terms
from vera_core.records import ChunkRecord
from vera_core.transcripts.speakers import near_spelling

__all__ = ["Registrant", "cover_chunks", "registrant_words"]

_LEGAL = re.compile(r"\b((?:(?:[A-Z]|\d+[A-Z])[\w&'.-]*\s+){0,4}(?:[A-Z]|\d+[A-Z])[\w&'.-]*),?\s+(?i:Inc\b\.?|Incorporated|Corporation|Corp\b\.?|"
                    r"Company|Co\b\.|Holdings?|Ltd\b\.?|Limited|plc|N\.V\.|S\.A\.|AG|SE|LLC|L\.P\.|Bancorp|Group)\b")
_EXCHANGE = re.compile(r"[^\n]{0,80}(?i:nasdaq|nyse|new\s+york\s+stock\s+exchange|trading\s+symbols?|ticker)[^\n]{0,120}")
_TICKER = re.compile(r"\b[A-Z]{2,5}\b")
_LISTED_NAME = re.compile(r"\b((?:[A-Z][\w&'.-]*\s+){0,3}[A-Z][\w&'.-]*)\s*\(\s*(?i:nyse|nasdaq|nyse\s+american|tsx|lse)\s*:")
"""A release names its company before its listing: "Salesforce (NYSE: CRM), the #1 AI CRM, today announced ..."."""
_SYMBOLS = re.compile(r"trading\s+symbols?(?:\s*\(s\))?", re.I)
_SYMBOL_JOINED = re.compile(r"(?i:per\s+share)\s+(?P<t>(?=(?:[a-z]*[A-Z]){2})[A-Za-z]{2,6})\s+(?i:the\s+)?"
                            r"(?i:new\s+york|nasdaq|nyse)")
"""The cover's class line read as one line: "Common Stock, par value $0.01 per share OrCL New York Stock Exchange"."""
_SYMBOL_LINE = re.compile(r"\s*(?=(?:[a-z]*[A-Z]){2})[A-Za-z]{2,6}\s*")
"""A cover's trading-symbol column prints each ticker on a line of its own ("WHLR", "OrCL" in small capitals)."""
_NOT_NAME_TOKEN = re.compile(r"\d+|10-?[KQ]|8-?K|20-?F|6-?K|\d{4}Q[1-4]|Q[1-4]|dated|earnings|release|transcript|slides|"
                             r"annual|report", re.I)
"""Parts of a document's file name that are its year, form or kind, not the company ("3M_2018_10K": 3M)."""
FIRST_CHUNKS = 8
"""A filing's cover (or a release's headline) is in its first chunks."""
COVER_PAGES = 1
"""...and on its first pages, however many chunks they make."""
WRAPPED_COVER_PAGES = 12
"""An annual report that wraps its 10-K (a letter to shareholders first: TD SYNNEX's) prints the form's cover, with its
trading symbols, a few pages in."""


NOT_A_NAME = label_terms("annual report form quarterly earnings release the and of k q cost costs total charge charges "
                         "market markets stock nasdaq nyse exchange common class United States")
"""Words the name patterns pick up beside a name that are line-item words, never the company; nor the country a
dateline prints before it ("SAN JOSE, Calif., United States--(BUSINESS WIRE)--eBay Inc."), which a question's "U.S. GMV"
asks as a qualifier."""


def cover_chunks(chunks: Sequence[ChunkRecord]) -> list[ChunkRecord]:
    """The chunks a document's name and ticker are read from: its first FIRST_CHUNKS, every chunk of its cover
    page (a cover split into many small chunks prints its trading symbol after the eighth), and a chunk of the first
    WRAPPED_COVER_PAGES that prints the trading symbols (the form's cover behind a letter to shareholders)."""
    return [c for i, c in enumerate(chunks) if i < FIRST_CHUNKS or 0 < (c.page_start or 0) <= COVER_PAGES
            or (0 < (c.page_start or 0) <= WRAPPED_COVER_PAGES and _SYMBOLS.search(c.text))]


class Registrant:
    """The company's name words, and its documents' squashed stems ("BCBBANCORP": "bcb" and "bancorp" are
    in it): `word in registrant` says whether a question's word names the company."""

    def __init__(self, words: frozenset[str], stems: frozenset[str], cover: frozenset[str] = frozenset()) -> None:
        self.words = words
        self.stems = stems
        self.cover = cover
        """Every word of the documents' first pages: a name owning an item in a question ("Salesforce's
        income from operations") that the cover prints is the company's, not a brand's."""

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and (word in self.words or (len(word) >= 3 and any(word in s for s in self.stems))
                                          or (len(word) >= MIN_TYPED and any(near_spelling(word, w) for w in self.words
                                                                             if len(w) >= MIN_TYPED + 1)))


MIN_TYPED = 5
"""A word this long or longer, one letter off a name word longer still (never its first: `near_spelling`), is the name
mistyped ("twilo" for Twilio)."""


def registrant_words(names: Iterable[str], first_texts: Iterable[str]) -> Registrant:
    """Normalised words of the company's name: its documents' names (stems: "UBER_2021_10K" -> uber), the
    legal names on their first pages ("Tesla, Inc.", "WEIS MARKETS, INC.") and the tickers printed there."""
    words: set[str] = set()
    tickers: set[str] = set()
    cover: set[str] = set()
    names = list(names)
    stems = frozenset(re.sub(r"[^a-z]", "", re.sub(r"\d.*$", "", n.rsplit(".", 1)[0].lower())) for n in names)
    for name in names:
        parts = re.split(r"[_\s-]+", name.rsplit(".", 1)[0])
        words |= {w for p in parts if not _NOT_NAME_TOKEN.fullmatch(p) for w in label_terms(p) if len(w) > 1}
    for text in first_texts:
        cover |= label_terms(text[:4000])
        for pattern in (_LEGAL, _LISTED_NAME):
            for m in pattern.finditer(text[:4000]):
                words |= label_terms(m.group(1))
        for m in _EXCHANGE.finditer(text[:6000]):  # the ticker on a cover ("Nasdaq: BCBP", "(NASDAQ: INTC)")
            for t in _TICKER.findall(m.group(0)):
                if t not in ("NYSE", "LLC", "NASDAQ", "USD"):
                    # NOTE: a ticker is the company even when it spells a line-item word ("COST"), in the
                    # question's normalised form too
                    tickers |= {t.lower(), *label_terms(t)}
        for m in _SYMBOL_JOINED.finditer(text[:6000]):
            tickers |= {m.group("t").lower(), *label_terms(m.group("t"))}
        for m in _SYMBOLS.finditer(text[:6000]):
            for line in text[m.end():m.end() + 600].splitlines():
                if _SYMBOL_LINE.fullmatch(line) and line.strip().upper() not in ("NYSE", "NONE", "LLC", "NASDAQ", "USD"):
                    tickers |= {line.strip().lower(), *label_terms(line.strip())}
    # NOTE: a name that starts with a digit ("3M") is also read without it, as questions' words are ("3M capex": m)
    words |= {re.sub(r"^\d+", "", w) for w in words if re.match(r"^\d+[a-z]", w)}
    return Registrant(frozenset((words - NOT_A_NAME) | tickers), frozenset(s for s in stems if len(s) >= 3),
                      frozenset(cover))
