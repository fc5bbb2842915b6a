"""The Ask page (AppTest): every intent on the samples, the answer card, modes and settings, citation
selection moving the page viewer, Markdown citations, and the evidence CSV download."""

from __future__ import annotations

import csv
import io

import pytest
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage

from tests.app_harness import ask, card_field, infos, markdown_texts, start, unescape, viewer_caption
from vera_core.answer.evidence_rows import COLUMNS
from vera_core.question_options import VERIFIER_OFF_NOTICE

LLM_NOTICE = "LLM unavailable"


@pytest.fixture
def app(sample_store, monkeypatch):
    return start(monkeypatch, sample_store.data_dir)


@pytest.mark.parametrize(("question", "intent", "expected", "page"), [
    ("What does page 4 say about the acquisition of Nordlicht?", "Location - page 4",
     "acquired 100% of Nordlicht Sensors GmbH", 4),
    ("List all significant events", "Coverage - list - MD&A > Significant events",
     "Contained cyber security incident", 4),
    ("What is the reporting currency?", "Metadata - default currency", "EUR", 1),
    ("What was total revenue in 2024 and 2023?", "Figure - revenue", "1,032,400", 6),
    ("What does the report say about the dividend proposal?", "Semantic - numeric", "dividend", None),
])
def test_each_intent_is_answered_with_its_route_and_cited_page(app, question, intent, expected, page):
    ask(app, question)
    assert card_field(app, "Intent") == intent
    answer_text = unescape(markdown_texts(app)[0])
    assert expected in answer_text
    caption = viewer_caption(app)
    assert "[1] selected" in caption
    if page is not None:
        assert f"page {page} of 11" in caption


def test_a_verdict_leads_the_card_with_each_segment_cited(app):
    """The segment table's "Group" row is the sum of the others (a total, not a segment), so the verdict
    names the best segment, above the answer, and each segment's figure is a citation."""
    ask(app, "Which segment had the highest Adjusted EBITDA in 2024?")
    assert [s.value for s in app.success] == ["Verdict: Motion Control"]
    assert card_field(app, "Intent").startswith("Verdict - Adjusted EBITDA by segment")
    text = unescape(markdown_texts(app)[0])
    assert text.startswith("Motion Control: it had the highest Adjusted EBITDA of the 5 segments")
    assert "Group" not in text and "[5]" in text
    assert "page 10 of 11" in viewer_caption(app)  # the segment results table


def test_a_verdict_that_cannot_be_computed_is_withheld_with_the_reason(app):
    ask(app, "Which segment had the highest operating profit in 2024?")
    assert [i for i in infos(app) if i.startswith("Verdict withheld: No table in scope prints operating profit")]


def test_list_answer_shows_every_item_with_its_marker(app):
    ask(app, "List all significant events")
    text = unescape(markdown_texts(app)[0])
    assert text.startswith("7 items in")
    bullets = [line for line in text.splitlines() if line.startswith("- ")]
    assert len(bullets) == 7
    assert [b.rsplit("[", 1)[1] for b in bullets] == [f"{n}]" for n in range(1, 8)]


def test_answer_card_shows_grounding_figures_retrieval_and_timings(app):
    ask(app, "What was total revenue in 2024 and 2023?")
    assert card_field(app, "Grounding") == ":green[1.00 grounded]"
    assert card_field(app, "Retrieval").startswith("1 hop")
    summary = next(c.value for c in app.caption if c.value.startswith("Figures:"))
    assert "match" in summary and "mismatch" not in summary
    assert "ms (route" in summary and "retrieve" in summary and "verify" in summary
    assert len(app.dataframe) == 1  # the evidence table: the details are drawn once opened
    app.session_state["details-0"] = True
    app.run()
    figures = app.dataframe[0].value
    assert set(figures["status"]) == {"match"} and "1,032,400" in set(figures["figure"])


def test_earlier_questions_stay_visible(app):
    ask(app, "List all significant events")
    ask(app, "What is the reporting currency?")
    assert [unescape(e.label) for e in app.expander if "significant" in e.label] == ["List all significant events"]
    assert unescape(app.subheader[0].value) == "What is the reporting currency?"
    assert "Question 2 of this session" in [c.value for c in app.caption]


def test_an_earlier_answers_citation_pill_moves_the_viewer_to_its_page(app):
    ask(app, "List all significant events")
    ask(app, "What is the reporting currency?")
    assert not viewer_caption(app).startswith("Aurora_Annual_Report_2024.pdf, page 5")
    assert not app.get("pills")  # an earlier answer's text and citations are drawn once it is opened
    app.session_state["earlier-0"] = True
    app.run()
    assert any(unescape(text).startswith("7 items in") for text in markdown_texts(app))
    pills = app.pills(key="cite-pills-0")
    assert pills.value is None and "[6] p. 5" in [unescape(str(o)) for o in pills.options]
    pills.set_value(6).run()
    assert viewer_caption(app).startswith("Aurora_Annual_Report_2024.pdf, page 5 of 11: [6] selected")
    app.button(key="cite-1-1").click().run()  # back to the latest answer: the earlier pill is cleared
    assert app.pills(key="cite-pills-0").value is None


def test_llm_modes_say_no_llm_and_answer_deterministically(app):
    app.sidebar.radio(key="opt_mode").set_value("llm_always").run()
    assert any("No LLM is configured" in c.value for c in app.sidebar.caption)
    ask(app, "List all significant events")
    assert any(LLM_NOTICE in i for i in infos(app))
    assert unescape(markdown_texts(app)[0]).startswith("7 items in")

    app.sidebar.radio(key="opt_mode").set_value("deterministic").run()
    assert not any("No LLM is configured" in c.value for c in app.sidebar.caption)
    ask(app, "List all significant events")
    assert not any(LLM_NOTICE in i for i in infos(app))


def test_settings_apply_to_the_next_question(app, sample_store):
    app.sidebar.toggle(key="opt_hybrid").set_value(False)
    app.sidebar.toggle(key="opt_verifier").set_value(False).run()
    ask(app, "What was total revenue in 2024 and 2023?")
    summary = next(c.value for c in app.caption if c.value.startswith("Figures:"))
    assert "dense retrieval" in summary
    assert VERIFIER_OFF_NOTICE in infos(app)

    policy = next(d.doc_id for d in sample_store.catalog.documents() if d.name == "expense_policy.md")
    app.sidebar.multiselect(key="opt_docs").set_value([policy]).run()
    ask(app, "What is the reporting currency?")
    answer_text = unescape(markdown_texts(app)[0])
    assert "expense_policy.md" in answer_text and "Aurora" not in answer_text


def test_clicking_a_citation_moves_the_viewer_to_its_page(app):
    ask(app, "List all significant events")
    assert viewer_caption(app).startswith("Aurora_Annual_Report_2024.pdf, page 4 of 11: [1] selected")
    first_image = app.image[0].value
    app.button(key="cite-0-6").click().run()
    assert viewer_caption(app).startswith("Aurora_Annual_Report_2024.pdf, page 5 of 11: [6] selected")
    assert app.image[0].value != first_image
    app.button(key="viewer-next").click().run()
    assert "page 6 of 11" in viewer_caption(app)
    app.button(key="viewer-prev").click().run()
    app.button(key="viewer-prev").click().run()
    assert "page 4 of 11: [6] selected; citations on this page [1], [2], [3], [4]" in viewer_caption(app)


def test_markdown_citation_shows_its_section_with_the_quote_highlighted(app):
    ask(app, "What is the maximum hotel rate per night?")
    assert not app.image  # the first citation is in expense_policy.md: no page to render
    viewer = [m.value for m in app.markdown if ":orange-background[" in m.value]
    assert viewer, "no highlighted quote in the viewer"
    assert "180 per night" in unescape(viewer[0].split(":orange-background[", 1)[1])
    assert any(c.value.startswith("expense_policy.md · Travel and Expense Policy > Expense limits")
               for c in app.caption)


def test_evidence_csv_download_has_the_export_columns_and_a_row_per_claim(app, monkeypatch):
    saved: list[tuple[str, bytes]] = []
    original = MemoryMediaFileStorage.load_and_get_id

    def record(self, path_or_data, mimetype, kind, filename=None):
        if mimetype.startswith("text/csv"):
            saved.append((filename, path_or_data if isinstance(path_or_data, bytes) else path_or_data.encode()))
        return original(self, path_or_data, mimetype, kind, filename)

    monkeypatch.setattr(MemoryMediaFileStorage, "load_and_get_id", record)
    ask(app, "List all significant events")
    assert app.get("download_button")[0].proto.label == "Download CSV (7 rows)"
    rows = list(csv.DictReader(io.StringIO(saved[-1][1].decode())))
    assert tuple(rows[0]) == COLUMNS
    assert [r["citation"] for r in rows] == [str(n) for n in range(1, 8)]
    assert {r["page"] for r in rows} == {"4", "5"}
    assert rows[0]["claim"].startswith("Acquisition of Nordlicht Sensors GmbH")

    ask(app, "What is the reporting currency?")
    app.segmented_control(key="evidence_scope").set_value("Whole session").run()
    rows = list(csv.DictReader(io.StringIO(saved[-1][1].decode())))
    assert {r["question"] for r in rows} == {"List all significant events", "What is the reporting currency?"}
    assert len(rows) == 9


FIRST_PAGE_SCRIPT = """
import json, sys
from streamlit.testing.v1 import AppTest
import components.workspace
components.workspace.WARM_UP_DELAY_S = 3600  # the background warm-up loads the rest later: not this run
at = AppTest.from_file(sys.argv[1], default_timeout=120)
at.run()
assert not at.exception, at.exception
assert at.chat_input(key="question") is not None
print(json.dumps(sorted(m for m in sys.argv[2:] if sys.modules.get(m) is not None)))  # None: blocked
"""
HEAVY_MODULES = ("llama_index.core", "chromadb", "torch", "sentence_transformers", "transformers", "scipy",
                 "rank_bm25", "pandas", "onnxruntime", "pymupdf4llm", "anthropic")


def test_the_first_page_draws_without_the_answering_machinery(sample_store, monkeypatch):
    """A fresh server's first page imports only what it draws: the question box comes before
    llama-index, Chroma, torch, scipy, pandas and the rest (importing them took 2-4 s of the first
    page load); the background warm-up loads them afterwards."""
    import json
    import subprocess
    import sys

    from tests.app_harness import APP
    monkeypatch.setenv("VERA_DATA_DIR", str(sample_store.data_dir))
    run = subprocess.run([sys.executable, "-c", FIRST_PAGE_SCRIPT, str(APP), *HEAVY_MODULES],
                         capture_output=True, text=True, timeout=300, cwd=APP.parent)
    assert run.returncode == 0, run.stderr[-2000:]
    assert json.loads(run.stdout.strip().splitlines()[-1]) == []


def test_sidebar_filter_chips_narrow_the_next_question_and_say_when_nothing_is_left(app):
    assert app.sidebar.multiselect(key="opt_quarter").options == ["FY2024"]
    assert app.sidebar.multiselect(key="opt_doc_type").options == ["annual_report", "policy"]
    app.sidebar.multiselect(key="opt_doc_type").set_value(["policy"]).run()
    ask(app, "What is the reporting currency?")
    answer_text = unescape(markdown_texts(app)[0])
    assert "Aurora" not in answer_text
    assert any(i.startswith("Filters applied: type policy") for i in infos(app))
    # the annual report's quarter with the policy type leaves nothing: said, with what would widen it
    app.sidebar.multiselect(key="opt_quarter").set_value(["FY2024"]).run()
    ask(app, "What is the reporting currency?")
    errors = [e.value for e in app.error]
    assert any("quarter filter leaves none" in e for e in errors), errors


def test_a_segment_chip_asks_the_question_of_that_segment(app):
    segment = app.sidebar.multiselect(key="opt_segment")
    segment.set_value(["Fluid Power"]).run()
    ask(app, "What was revenue in 2024?")
    answer_text = unescape(markdown_texts(app)[0])
    assert "236,450" in answer_text and "1,032,400" not in answer_text
    assert any('segment Fluid Power' in i and 'asked as "What was revenue in 2024 for the Fluid Power segment?"' in i
               for i in infos(app)), infos(app)
    app.sidebar.multiselect(key="opt_segment").set_value(["Reality Labs"]).run()
    ask(app, "What was revenue in 2024?")
    errors = [e.value for e in app.error]
    assert any("segment filter leaves none" in e and "'Reality Labs'" in e for e in errors), errors
