"""Ask page: a question box, the answer card with its citations, the cited page beside it, and the
evidence table of the answer or the session."""

from __future__ import annotations

import streamlit as st

from components import session
from components.answer_card import answer_card, answer_markdown, describe_intent
from components.citation_list import citation_list, citation_pills
from components.evidence_table import evidence_table
from components.page_viewer import page_viewer
from components.safe_text import escape_markdown
from components.settings_sidebar import settings_sidebar
from components.ingest_status import queue_status
from components.uploader import uploader
from components.access import readable, session_workspace
from components.workspace import session_answerer
from vera_core.errors import VeraError

# NOTE: earlier answers listed under the latest (the rest behind a toggle): each one shown costs the
# browser work on every question of a long session (a bare string here would be drawn: Streamlit magic)
EARLIER_SHOWN = 10
SAMPLE_REPORT = "Aurora_Annual_Report_2024.pdf"  # the bundled report the first suggestions ask about

ws = session_workspace()
options = settings_sidebar(ws)
answerer = session_answerer(readable())

with st.expander("Add documents", icon=":material/upload_file:"):
    uploader("ask_uploader", compact=True, rerun=False)


@st.fragment
def conversation() -> None:
    """The question box, the answers with their citations beside the page viewer, and the evidence.
    A fragment: asking, clicking a citation or paging the viewer reruns only this part, not the
    settings or the uploader (a whole-page rerun costs the browser about as much CPU again). The queue's
    live status is inside it: each question drops the status once the queue is empty (a live status
    left behind refreshes, and costs the browser, every second)."""
    queue_status(key="ask_queue", rerun=False)
    question = st.chat_input("Ask about the documents, e.g. What does page 4 say about the acquisition of Nordlicht?",
                             key="question")
    if question and question.strip():
        try:
            with st.spinner("Answering…"):
                session.add_answer(answerer.answer(question, options))
        except VeraError as exc:
            st.error(str(exc))
    answer_col, viewer_col = st.columns([1, 1], gap="medium")
    with answer_col:
        answers = session.answers()
        if not answers and any(d.name == SAMPLE_REPORT for d in ws.catalog.documents()):
            st.info("Try: *What does page 4 say about the acquisition of Nordlicht?* · *List all significant events* · "
                    "*What was total revenue in 2024 and 2023?* · *What is the reporting currency?*")
        elif not answers:  # NOTE: a session that cannot read the sample report is not shown questions about it
            st.info("Try: *What does page 2 say about ...?* · *List all risk factors* · *What was revenue in FY2023?* · "
                    "*Which policies address encryption of data at rest?*")
        shown = range(len(answers) - 1, -1, -1)
        if len(answers) > EARLIER_SHOWN + 1 and not st.session_state.get("show_all_earlier"):
            shown = range(len(answers) - 1, len(answers) - 2 - EARLIER_SHOWN, -1)
        for index in shown:
            _answer(answers[index], index, latest=index == len(answers) - 1)
            if index == len(answers) - 1 and len(answers) > 1:
                st.caption("Earlier questions")
        if len(answers) > EARLIER_SHOWN + 1:
            st.toggle(f"Show all {len(answers) - 1} earlier questions", key="show_all_earlier")
    with viewer_col:
        page_viewer(ws)
    if session.answers():
        st.divider()
        st.subheader("Evidence", anchor=False)
        evidence_table(session.answers()[-1], session.answers())


def _answer(answer, index: int, *, latest: bool) -> None:
    """The latest answer in full; an earlier one folded, with its text and citations once opened."""
    if latest:
        with st.container(border=True):
            st.caption(f"Question {index + 1} of this session")
            st.subheader(escape_markdown(answer.question), anchor=False)
            answer_card(answer, key=f"details-{index}")
            if answer.citations:
                st.markdown("**Citations**")
                citation_list(answer, index)
        return
    # NOTE: an earlier answer is one element until opened (a tracked expander draws its content only
    # while open): drawn content costs the browser on every question of the session
    box = st.expander(escape_markdown(answer.question), key=earlier_key(index), on_change="rerun")
    if box.open:
        with box:
            st.markdown(answer_markdown(answer))
            st.caption(f"{describe_intent(answer)} · grounding {answer.verification.grounding_score:.2f} "
                       f"{answer.verification.label}")
            if answer.citations:
                citation_pills(answer, index)


def earlier_key(index: int) -> str:
    """The key of an earlier answer's expander (its open state)."""
    return f"earlier-{index}"


conversation()
