"""A figure a release states in a sentence and in no table (vera_core/answer/figures/sentence_figure.py): the item
named before the figure, the period after it, the document's quarter, and abstention when sentences disagree or
speak of another period, a change or a forecast."""

from __future__ import annotations

import pytest

from vera_core.answer.figures.sentence_figure import sentence_figure, stated_piece
from vera_core.documents.identity import Identity
from vera_core.answer.units import split_units
from vera_core.questions.figure import asked_periods
from vera_core.records import ChunkRecord

Q3 = Identity(fiscal_year=2024, fiscal_quarter=3, period_end="2024-09-30")
HIGHLIGHTS = ("Third Quarter 2024 Operational and Other Financial Highlights. "
              "• Family daily active people (DAP)– DAP was 3.29 billion on average for September 2024, an increase of "
              "5% year-over-year. "
              "• Long-term debt – Long-term debt was $28.82 billion as of September 30, 2024. "
              "• Cash, cash equivalents, and marketable securities– Cash, cash equivalents, and marketable securities were "
              "$70.90 billion as of September 30, 2024. Free cash flow was $15.52 billion. "
              "• Headcount– Headcount was 72,404 as of September 30, 2024, an increase of 9% year-over-year.")


def _units(*paragraphs: str, doc: str = "rel"):
    chunks = [ChunkRecord(f"{doc}-c{i}", doc, i, "text", p, p, "Highlights", ("Highlights",), "s", 1, 1, (), "", "", 60)
              for i, p in enumerate(paragraphs)]
    return [u for c in chunks for u in split_units(c)]


def _ask(question: str, *paragraphs: str, identity: Identity = Q3):
    periods, words = asked_periods(question)
    return sentence_figure(question, periods[0], words, {"meta"}, _units(*paragraphs), {"rel": identity})


@pytest.mark.parametrize(("question", "value", "subject"), [
    ("META headcount at end of 3Q24?", 72_404, "Headcount"),
    ("What was Meta's headcount at the end of Q3 2024?", 72_404, "Headcount"),
    ("Meta DAP in Q3 2024?", 3.29e9, "DAP"),
    ("What was Meta's long-term debt as of September 30, 2024?", 28.82e9, "Long-term debt"),
    ("Meta cash and marketable securities at end of Q3 2024", 70.90e9,
     "Cash, cash equivalents, and marketable securities"),  # a list of items names the figure, commas and all
])
def test_the_figure_a_sentence_states_for_the_quarter_asked_is_read(question, value, subject):
    found, _ = _ask(question, HIGHLIGHTS)
    assert found is not None and found.amount == pytest.approx(value) and found.subject == subject


def test_the_figure_answer_cites_the_sentence_and_records_it_as_read_from_a_sentence():
    found, _ = _ask("META headcount at end of 3Q24?", HIGHLIGHTS)
    piece, figure = stated_piece(found, "META_2024Q3_RELEASE.pdf")
    assert "72,404" in piece.text and "as of September 30, 2024" in piece.text
    assert piece.quote.endswith("Headcount was 72,404 as of September 30, 2024, an increase of 9% year-over-year.")
    assert (figure.value * figure.scale, figure.unit, figure.source, figure.cell.row) == (72_404, "", "sentence", -1)


@pytest.mark.parametrize("question", [
    "META headcount at end of 2Q24?",  # another quarter than the document's
    "Meta headcount growth in Q3 2024?",  # the change, not the level
    "Meta revenue in Q3 2024?",  # no sentence names it
])
def test_another_period_a_change_or_an_item_no_sentence_names_is_not_read(question):
    assert _ask(question, HIGHLIGHTS)[0] is None


def test_a_sentence_dated_at_another_day_or_looking_forward_does_not_answer():
    other_day = "Headcount was 67,317 as of June 30, 2024."
    forward = "We expect headcount to be 75,000 at the end of the quarter."
    assert _ask("META headcount at end of 3Q24?", other_day)[0] is None
    assert _ask("META headcount at end of 3Q24?", forward)[0] is None


def test_two_sentences_stating_different_figures_leave_the_question_unanswered():
    found, every = _ask("META headcount at end of 3Q24?", HIGHLIGHTS,
                        "Headcount was 72,400 as of September 30, 2024.")
    assert found is None and {f.amount for f in every} == {72_404, 72_400}


def test_a_sentence_naming_no_period_is_its_documents_quarter_only():
    plain = "Headcount was 72,404, an increase of 9% year-over-year."
    assert _ask("META headcount at end of 3Q24?", plain)[0].amount == 72_404
    assert _ask("META headcount at end of 3Q24?", plain, identity=Identity(fiscal_year=2024, fiscal_quarter=2, period_end="2024-06-30"))[0] is None
    assert _ask("META headcount at end of 3Q24?", "Headcount for the full year was 72,404.")[0] is None
