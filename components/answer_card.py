"""The answer card: answer text with [n] markers, the router's intent, grounding, figure checks,
retrieval and timings. Everything from the documents or a model is shown as escaped text."""

from __future__ import annotations

import streamlit as st

from components.safe_text import escape_markdown
from vera_core.answer.compose import label_warning
from vera_core.answer.contract import Answer

INTENT_NAMES = {"location": "Location", "coverage": "Coverage", "metadata": "Metadata", "semantic": "Semantic",
                "figure": "Figure", "metric": "Metric", "verdict": "Verdict"}
GROUNDING_COLORS = {"grounded": "green", "partial": "orange", "ungrounded": "red"}
SECTION_ABBREVIATIONS = {"Management's discussion and analysis": "MD&A"}


def section_label(heading_path: str) -> str:
    """A heading path for people: without the file stem, " > " between levels, long names shortened."""
    parts = [p for p in heading_path.split("/") if p][1:] or [heading_path]
    return " > ".join(SECTION_ABBREVIATIONS.get(p, p) for p in parts)


def describe_intent(answer: Answer) -> str:
    """The route the router chose, e.g. "Coverage - list - MD&A > Significant events"."""
    intent = answer.intent
    parts = [INTENT_NAMES.get(intent.type, intent.type)]
    if intent.subtype:
        parts.append(intent.subtype.replace("_", " "))
    if intent.type == "location" and intent.pages:
        parts.append("page " + ", ".join(map(str, intent.pages)))
    if intent.type == "coverage" and answer.retrieval.sections:
        parts.append(section_label(answer.retrieval.sections[0]))
    if intent.type == "semantic":
        parts.append("numeric" if intent.numeric else "passages")
    if intent.type == "metric" and answer.calculation is not None:
        parts.append(answer.calculation.metric)
    if intent.type == "figure" and answer.figures:
        parts.append(", ".join(dict.fromkeys(f.line_item for f in answer.figures)))
    if intent.type == "verdict" and answer.verdict is not None:
        parts.append(answer.verdict.basis)
    return " - ".join(parts)


def verdict_line(answer: Answer) -> str:
    """The verdict as the card's first line ("Verdict: yes", "Verdict withheld: ..."), '' for other answers."""
    verdict = answer.verdict
    if verdict is None:
        return ""
    if verdict.value is None:
        return f"Verdict withheld: {verdict.withheld}"
    return f"Verdict: {verdict.value}"


def answer_markdown(answer: Answer) -> str:
    """The answer as escaped Markdown: a list answer as bullets, each with its [n] markers."""
    if answer.items:
        lead = answer.answer.split("\n", 1)[0]
        bullets = [f"- {escape_markdown(item.text)} " + " ".join(f"\\[{n}\\]" for n in item.citations)
                   for item in answer.items]
        return escape_markdown(lead) + "\n\n" + "\n".join(bullets)
    return escape_markdown(answer.answer)


def figures_summary(answer: Answer) -> str:
    """Numeric verification in a few words, e.g. "Figures: 3 match, 1 mismatch"."""
    numbers = answer.verification.numbers
    if not numbers:
        return "Figures: none to check"
    counts = {s: sum(1 for n in numbers if n.status == s) for s in ("match", "mismatch", "not_found")}
    return "Figures: " + ", ".join(f"{c} {s.replace('_', ' ')}" for s, c in counts.items() if c)


def calculation_rows(answer: Answer) -> list[dict]:
    """The calculation's operands as rows: operand, row label, value as printed, period, source [n]."""
    by_n = {c.n: c for c in answer.citations}
    rows = []
    for op in answer.calculation.operands:
        cite = by_n.get(op.citation)
        where = f"[{op.citation}] {cite.doc_name}, page {cite.page}" if cite and cite.page else f"[{op.citation}]"
        rows.append({"operand": op.name, "row": op.row_label, "value": op.printed, "period": op.period,
                     "source": where})
    return rows


def calculation_table(answer: Answer) -> None:
    """The calculation as a small table; each operand's [n] citation button highlights its cell."""
    import pandas as pd  # NOTE: here, not at the top: the app's first page draws without pandas (~0.4 s)
    calc = answer.calculation
    source = {"question": "definition from the question", "library": "library definition",
              "text": "amounts stated in the text"}.get(calc.source, calc.source)
    st.caption(f"Calculation ({source}: {calc.definition}): {calc.expression}")
    st.table(pd.DataFrame(calculation_rows(answer)).set_index("operand"))


def _field(column, label: str, markdown_value: str, help: str | None = None) -> None:
    """A labelled value of the card (wraps, unlike st.metric, so long intents stay readable)."""
    column.caption(label, help=help)
    column.markdown(f"**{markdown_value}**")


def answer_card(answer: Answer, key: str) -> None:
    """Render one answer's card (the question is the caller's heading); `key` names its details."""
    v, r, t = answer.verification, answer.retrieval, answer.timings_ms
    if answer.verdict is not None:
        (st.success if answer.verdict.value else st.info)(verdict_line(answer))
    st.markdown(answer_markdown(answer))
    if answer.calculation is not None and answer.calculation.operands:
        calculation_table(answer)
    intent_col, grounding_col, retrieval_col = st.columns([5, 3, 3])
    _field(intent_col, "Intent", escape_markdown(describe_intent(answer)), help=f"Router rule: {answer.intent.rule}")
    _field(grounding_col, "Grounding", f":{GROUNDING_COLORS[v.label]}[{v.grounding_score:.2f} {v.label}]")
    _field(retrieval_col, "Retrieval", f"{r.hops} hop{'s' if r.hops != 1 else ''}, coverage {r.coverage:.0%}")
    if v.label != "grounded":
        st.warning(label_warning(v.label, v.grounding_score).text)
    for alert in v.alerts:
        if alert.code != "grounding":
            st.warning(alert.text)
    for notice in answer.notices:
        st.info(notice)
    st.caption(f"{figures_summary(answer)} · {r.candidates} candidates, {r.mode} retrieval · "
               f"{t.total:.0f} ms (route {t.route:.0f}, retrieve {t.retrieve:.0f}, "
               f"synthesize {t.synthesize:.0f}, verify {t.verify:.0f})")
    # NOTE: drawn only while open (a tracked expander): its tables cost the browser on every question
    details = st.expander("Verification, retrieval and timings", key=key, on_change="rerun")
    if details.open:
        with details:
            _details(answer)


def _details(answer: Answer) -> None:
    """The card's details: each figure checked, each claim's support, retrieval and mode."""
    import pandas as pd
    v, r = answer.verification, answer.retrieval
    if v.numbers:
        st.caption("Figures checked against their cited source")
        st.dataframe(pd.DataFrame([{"figure": n.text, "status": n.status, "citation": n.citation,
                                    "source": n.source_text or "", "message": n.message} for n in v.numbers]),
                     hide_index=True, width="stretch")
    else:
        st.caption("No figures to check in this answer.")
    if v.claims:
        st.caption("Support of each claim by its citations")
        st.dataframe(pd.DataFrame([{"claim": c.text, "citations": ", ".join(map(str, c.citations)),
                                    "support": round(c.support, 2), "supported": c.supported,
                                    "figures ok": c.numbers_ok} for c in v.claims]),
                     hide_index=True, width="stretch")
    pages = ", ".join(map(str, r.searched_pages)) or "-"
    st.text(f"Retrieval: {r.mode}, {r.hops} hop(s), coverage {r.coverage:.2f}, {r.candidates} candidates, "
            f"pages searched {pages}" + (f", sections {'; '.join(map(section_label, r.sections))}" if r.sections else ""))
    st.text(f"Coverage mode: {answer.mode}; router rule: {answer.intent.rule}")
