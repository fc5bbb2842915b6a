"""What VERA asks Claude: a cited answer, every item of a section, search keywords, and an
extractor + auditor check of a figure. Each call raises `LLMUnavailableError` on failure."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from vera_core.llm import prompts
from vera_core.llm.claims import ParsedReply, parse_reply
from vera_core.llm.client import ClaudeClient, UsageMeter
from vera_core.records import ChunkRecord

MAX_SOURCES = 12
"""Sources sent with a question (retrieved chunks, best first)."""
MAX_SCOPE_SOURCES = 40
"""Chunks of a coverage scope sent for item extraction (a section, in document order)."""


@dataclass(frozen=True)
class Audit:
    """The extractor's reading of a cited source and the auditor's verdict on a claim."""

    citation: int
    claim: str
    extracted: str
    """The figure the extractor read in the source ('NONE' when it found none)."""
    supported: bool
    """The auditor said YES."""


class LLMLayer:
    """Claude behind VERA's questions; every reply is parsed, never trusted as-is."""

    def __init__(self, client: ClaudeClient) -> None:
        self.client = client

    @property
    def model(self) -> str:
        return self.client.settings.llm_model

    def meter(self) -> UsageMeter:
        return self.client.meter()

    def answer(self, question: str, chunks: Sequence[ChunkRecord], doc_names: dict[str, str],
               meter: UsageMeter) -> tuple[ParsedReply, list[ChunkRecord]]:
        """A cited answer from the best retrieved chunks; returns the parsed reply and the sources sent."""
        sent = list(chunks[:MAX_SOURCES])
        text = self.client.complete(prompts.ANSWER, prompts.sources_message(question, sent, doc_names), meter)
        return parse_reply(text, len(sent)), sent

    def items(self, question: str, scope: Sequence[ChunkRecord], doc_names: dict[str, str],
              meter: UsageMeter) -> tuple[ParsedReply, list[ChunkRecord]]:
        """Every item of a section the question asks for, one cited line each."""
        sent = list(scope[:MAX_SCOPE_SOURCES])
        text = self.client.complete(prompts.ITEMS, prompts.sources_message(question, sent, doc_names), meter,
                                    max_tokens=max(self.client.settings.llm_max_tokens, 2048))
        reply = parse_reply(text, len(sent))
        reply.is_list = True
        return reply, sent

    def pick_row(self, item: str, period: str, labels: Sequence[str], meter: UsageMeter) -> int | None:
        """Which of `labels` (0-based) is the line item `item`, by Claude; None when it names none.
        Only a row number comes back: the figure is read by VERA from that row's cell."""
        listing = "\n".join(f"{i}. {label[:120]}" for i, label in enumerate(labels, start=1))
        text = self.client.complete(prompts.PICK_ROW, f"Line item: {item} ({period})\n\nRows:\n{listing}", meter,
                                    max_tokens=10).strip()
        m = re.match(r"\d+", text)
        index = int(m.group(0)) - 1 if m else -1
        return index if 0 <= index < len(labels) else None

    def keywords(self, question: str, meter: UsageMeter) -> str:
        """Search keywords for another retrieval hop (comma-separated words only, at most 8)."""
        text = self.client.complete(prompts.EXPAND, f"Question: {question}", meter, max_tokens=100)
        words = [w.strip() for w in re.split(r"[,\n]", text) if w.strip()]
        return " ".join(w for w in words[:8] if len(w) <= 60 and re.fullmatch(r"[\w&%$'., /()-]+", w))

    def audit(self, question: str, claim: str, citation: int, chunk: ChunkRecord, doc_name: str,
              meter: UsageMeter) -> Audit:
        """Extractor: the figure the source gives for the question; auditor: does the source state the claim?"""
        source = prompts.source_block(1, chunk, doc_name)
        extracted = self.client.complete(prompts.EXTRACT, f"Sources:\n\n{source}\n\nQuestion: {question}",
                                         meter, max_tokens=60).strip().splitlines()[0][:80]
        verdict = self.client.complete(prompts.AUDIT, f"Sources:\n\n{source}\n\nClaim: {claim}", meter, max_tokens=5)
        return Audit(citation, claim, extracted, verdict.strip().upper().startswith("YES"))
