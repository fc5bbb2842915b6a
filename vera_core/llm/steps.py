"""The LLM layer's steps in the query path. Each either improves the evidence or leaves the
deterministic result in place with a notice naming why; none raises."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from vera_core.answer.compose import label_warning
from vera_core.answer.contract import AnswerWarning, AuditCheck, Verification
from vera_core.answer.grounding import aggregate
from vera_core.answer.numbers import find_numbers
from vera_core.errors import LLMUnavailableError
from vera_core.llm.claims import to_pieces
from vera_core.llm.client import UsageMeter
from vera_core.llm.layer import LLMLayer

if TYPE_CHECKING:
    from vera_core.answer.strategies import Evidence, Plan

NO_KEY = "LLM unavailable (no Anthropic API key configured): answered deterministically."
MAX_AUDITS = 3
AUDIT_FAIL_CAP = 0.5
"""Support of a claim the auditor rejects is capped here, below the supported threshold."""


def write_answer(layer: LLMLayer | None, plan: Plan, evidence: Evidence, meter: UsageMeter | None,
                 doc_names: dict[str, str]) -> Evidence:
    """The evidence with Claude's cited claims in place of the deterministic pieces when they
    survive parsing; else the same pieces with a notice saying why."""
    if layer is None:
        return replace(evidence, notices=evidence.notices + (NO_KEY,))
    intent = plan.intent
    items = intent.type == "coverage" and intent.subtype in ("list", "numeric_list")
    sources = list(evidence.scope) if intent.type in ("coverage", "location") else [h.chunk for h in evidence.hits]
    if not sources:
        return evidence
    try:
        ask = layer.items if items else layer.answer
        reply, sent = ask(plan.question, sources, doc_names, meter)
    except LLMUnavailableError as exc:
        return replace(evidence, notices=evidence.notices + (str(exc),))
    warnings = []
    if reply.unknown_citations:
        warnings.append(AnswerWarning(code="llm_unknown_source", text="The LLM cited sources that do not exist "
                        f"({', '.join(f'[{n}]' for n in sorted(set(reply.unknown_citations)))}); "
                        "those citations were dropped."))
    for claim in reply.uncited:
        warnings.append(AnswerWarning(code="llm_uncited_claim",
                                      text=f"Dropped an LLM statement that cites no source: {claim[:120]!r}"))
    warned = replace(evidence, warnings=evidence.warnings + tuple(warnings))
    pages = tuple(intent.pages) if intent.type == "location" else ()
    pieces = to_pieces(reply, sent, pages)
    if not pieces:
        why = "found nothing" if reply.not_found else "gave no claim citing a source"
        return replace(warned, notices=warned.notices + (f"The LLM {why}: answered deterministically.",))
    # NOTE: the LLM's claims replace the pieces, so the figures read from cells (one per piece) go too:
    # their citation numbers would name the LLM's sources
    return replace(warned, pieces=tuple(pieces), written_by_llm=True, is_list=items or reply.is_list, figures=(),
                   missing=(),
                   notices=warned.notices + (f"Written by {layer.model} from {len(sent)} sources; every claim "
                                             "is checked against the source it cites.",))


def pick_row(layer: LLMLayer | None, item: str, period: str, labels: list[str], mode: str,
             meter: UsageMeter | None) -> tuple[int | None, str]:
    """Claude's choice of the row that is a metric's operand the deterministic resolver found no row
    for, and a notice: (None, '') when the LLM is absent or the mode deterministic, (None, why) when it
    fails."""
    if layer is None or mode == "deterministic" or not labels:
        return None, ""
    try:
        return layer.pick_row(item, period, labels, meter), ""
    except LLMUnavailableError as exc:
        return None, str(exc)


def keywords(layer: LLMLayer | None, question: str, mode: str, meter: UsageMeter | None) -> tuple[str, str]:
    """Extra search keywords for an expansion hop, and a notice: ('', '') when the LLM is absent or
    the mode deterministic, ('', why) when it fails."""
    if layer is None or mode == "deterministic":
        return "", ""
    try:
        return layer.keywords(question, meter), ""
    except LLMUnavailableError as exc:
        return "", str(exc)


def audit(layer: LLMLayer | None, plan: Plan, evidence: Evidence, meter: UsageMeter | None,
          verification: Verification, numbers: list[int], doc_names: dict[str, str]) -> tuple[Verification, list[str]]:
    """Extractor + auditor on the figure claims of a numeric answer; a NO lowers the grounding score.
    Returns the verification and notices (why an audit was skipped)."""
    intent = plan.intent
    notices: list[str] = []
    if layer is None or plan.mode == "deterministic" or not (intent.numeric or intent.subtype == "attribute"):
        return verification, notices
    claims = list(verification.claims)
    audits: list[AuditCheck] = []
    for i, (piece, n) in enumerate(zip(evidence.pieces, numbers)):
        if len(audits) >= MAX_AUDITS:
            break
        if not [m for m in find_numbers(piece.text) if not m.is_year]:
            continue
        try:
            result = layer.audit(plan.question, piece.text, n, piece.chunk,
                                 doc_names.get(piece.chunk.doc_id, ""), meter)
        except LLMUnavailableError as exc:
            notices.append(f"{exc} (figure audit skipped)")
            break
        audits.append(AuditCheck(citation=n, claim=piece.text, extracted=result.extracted,
                                 supported=result.supported))
        if not result.supported and i < len(claims):
            claim = claims[i]
            claims[i] = claim.model_copy(update={"support": min(claim.support, AUDIT_FAIL_CAP), "supported": False})
    if not audits:
        return verification, notices
    score, label = aggregate(claims)
    # NOTE: the label warning is written again for the audited score (an earlier one names the old score)
    alerts = [w for w in verification.alerts if w.code != "grounding"]
    for a in audits:
        if not a.supported:
            alerts.append(AnswerWarning(code="auditor", text=f"Auditor: source [{a.citation}] does not support "
                                        f"{a.claim[:100]!r} (extractor read {a.extracted!r})."))
    if label != "grounded":
        alerts.insert(0, label_warning(label, score))
    return verification.model_copy(update={"claims": claims, "grounding_score": score, "label": label,
                                            "alerts": alerts, "audits": audits}), notices
