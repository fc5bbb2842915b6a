"""The citations of an answer: one button each; clicking it points the page viewer at that
citation's page with its region highlighted. Earlier answers get one row of pills instead (a
button and caption per citation of every earlier answer made each rerun slower as a session grew)."""

from __future__ import annotations

import streamlit as st

from components import session
from components.answer_card import section_label
from components.safe_text import escape_markdown
from vera_core.answer.contract import Answer, Citation


def citation_label(cite: Citation) -> str:
    """Button text: "[2] p. 4" for a PDF page, "[1] md" for a Markdown section."""
    return f"[{cite.n}] {f'p. {cite.page}' if cite.page else 'md'}"


def citation_list(answer: Answer, index: int) -> None:
    """Render the citation buttons of the answer at `index` in the session."""
    target = session.viewer()
    for cite in answer.citations:
        active = target is not None and target.answer == index and target.citation == cite.n
        button_col, text_col = st.columns([1, 4], vertical_alignment="center")
        button_col.button(escape_markdown(citation_label(cite)), key=f"cite-{index}-{cite.n}",
                          type="primary" if active else "secondary", width="stretch",
                          on_click=session.select_citation, args=(index, cite.n),
                          help="Show this evidence in the page viewer")
        quote = cite.quote if len(cite.quote) <= 220 else cite.quote[:220] + "…"
        where = " · ".join(part for part in (cite.doc_type, cite.quarter.replace("-", " "),
                                             cite.speaker and f"speaker {cite.speaker}") if part)
        head = f"{cite.doc_name} · {where + ' · ' if where else ''}{section_label(cite.heading_path)} · {cite.kind}"
        text_col.caption(escape_markdown(f"{head}\n{quote}"))


def pills_key(index: int) -> str:
    return f"cite-pills-{index}"


def citation_pills(answer: Answer, index: int) -> None:
    """One compact row of citations of an earlier answer; picking one points the viewer at it."""
    key = pills_key(index)
    target = session.viewer()
    if target is None or target.answer != index:
        st.session_state[key] = None  # NOTE: only the answer the viewer shows keeps a pill selected
    st.pills("Citations", [c.n for c in answer.citations], key=key, label_visibility="collapsed",
             format_func=lambda n: escape_markdown(citation_label(next(c for c in answer.citations if c.n == n))),
             on_change=_pick, args=(index,))


def _pick(index: int) -> None:
    n = st.session_state.get(pills_key(index))
    if n is not None:
        session.select_citation(index, n)
