"""The LLM layer's steps in the query path. Each either improves the state or leaves the
deterministic result in place with a notice naming why; none raises."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vera_core.answer.compose import is_label_warning, label_warning
from vera_core.answer.contract import AuditCheck, Verification
from vera_core.answer.grounding import aggregate
from vera_core.answer.numbers import find_numbers
from vera_core.errors import LLMUnavailableError
from vera_core.llm.claims import to_pieces
from vera_core.llm.layer import LLMLayer

if TYPE_CHECKING:
    from vera_core.query import QueryState

NO_KEY = "LLM unavailable (no Anthropic API key configured): answered deterministically."
MAX_AUDITS = 3
AUDIT_FAIL_CAP = 0.5
"""Support of a claim the auditor rejects is capped here, below the supported threshold."""


def write_answer(layer: LLMLayer | None, state: QueryState, doc_names: dict[str, str]) -> None:
    """Replace the deterministic pieces with Claude's cited claims when they survive parsing."""
    if layer is None:
        state.notices.append(NO_KEY)
        return
    intent = state.intent
    items = intent.type == "coverage" and intent.subtype in ("list", "numeric_list")
    sources = state.scope if intent.type in ("coverage", "location") else [h.chunk for h in state.hits]
    if not sources:
        return
    try:
        ask = layer.items if items else layer.answer
        reply, sent = ask(state.question, sources, doc_names, state.meter)
    except LLMUnavailableError as exc:
        state.notices.append(str(exc))
        return
    if reply.unknown_citations:
        state.llm_warnings.append("The LLM cited sources that do not exist "
                                  f"({', '.join(f'[{n}]' for n in sorted(set(reply.unknown_citations)))}); "
                                  "those citations were dropped.")
    for claim in reply.uncited:
        state.llm_warnings.append(f"Dropped an LLM statement that cites no source: {claim[:120]!r}")
    pages = tuple(intent.pages) if intent.type == "location" else ()
    pieces = to_pieces(reply, sent, pages)
    if not pieces:
        why = "found nothing" if reply.not_found else "gave no claim citing a source"
        state.notices.append(f"The LLM {why}: answered deterministically.")
        return
    state.pieces, state.llm_wrote = pieces, True
    state.is_list = items or reply.is_list
    state.notices.append(f"Written by {layer.model} from {len(sent)} sources; every claim is checked "
                         "against the source it cites.")


def keywords(layer: LLMLayer | None, state: QueryState) -> str:
    """Extra search keywords for an expansion hop ('' when the LLM is absent or fails)."""
    if layer is None or state.mode == "deterministic":
        return ""
    try:
        return layer.keywords(state.question, state.meter)
    except LLMUnavailableError as exc:
        if str(exc) not in state.notices:
            state.notices.append(str(exc))
        return ""


def audit(layer: LLMLayer | None, state: QueryState, verification: Verification, numbers: list[int],
          doc_names: dict[str, str]) -> Verification:
    """Extractor + auditor on the figure claims of a numeric answer; a NO lowers the grounding score."""
    intent = state.intent
    if layer is None or state.mode == "deterministic" or not (intent.numeric or intent.subtype == "attribute"):
        return verification
    claims = list(verification.claims)
    audits: list[AuditCheck] = []
    for i, (piece, n) in enumerate(zip(state.pieces, numbers)):
        if len(audits) >= MAX_AUDITS:
            break
        if not [m for m in find_numbers(piece.text) if not m.is_year]:
            continue
        try:
            result = layer.audit(state.question, piece.text, n, piece.chunk,
                                 doc_names.get(piece.chunk.doc_id, ""), state.meter)
        except LLMUnavailableError as exc:
            state.notices.append(f"{exc} (figure audit skipped)")
            break
        audits.append(AuditCheck(citation=n, claim=piece.text, extracted=result.extracted,
                                 supported=result.supported))
        if not result.supported and i < len(claims):
            claim = claims[i]
            claims[i] = claim.model_copy(update={"support": min(claim.support, AUDIT_FAIL_CAP), "supported": False})
    if not audits:
        return verification
    score, label = aggregate(claims)
    # NOTE: the label warning is written again for the audited score (an earlier one names the old score)
    warnings = [w for w in verification.warnings if not is_label_warning(w)]
    for a in audits:
        if not a.supported:
            warnings.append(f"Auditor: source [{a.citation}] does not support {a.claim[:100]!r} "
                            f"(extractor read {a.extracted!r}).")
    if label != "grounded":
        warnings.insert(0, label_warning(label, score))
    return verification.model_copy(update={"claims": claims, "grounding_score": score, "label": label,
                                            "warnings": warnings, "audits": audits})
