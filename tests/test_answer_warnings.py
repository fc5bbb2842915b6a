"""Issue 27, item 6: an answer's warnings are typed. Each carries a code a program reads (`alerts`), and the contract's
`warnings` keeps their texts in order; an answer saved before codes existed loads with its warnings coded."""

from __future__ import annotations

import json

from vera_core.answer import compose
from vera_core.answer.contract import Verification
from vera_core.records import ChunkRecord


def _chunk(text: str) -> ChunkRecord:
    return ChunkRecord("c0", "doc", 0, "text", text, text, "Report/Results", ("Report", "Results"), "s1", 1, 1, (), "", "", 0)


def test_a_figure_the_source_does_not_print_is_warned_of_by_code_and_the_label_warning_comes_first():
    chunk = _chunk("Revenue for the year was $4,210 million, up from $3,980 million.")
    pieces = [compose.Piece("Revenue was $9,999 million, and the moon is made of cheese.", chunk, chunk.text)]
    verification = compose.verify(pieces, [1], embed=None)
    codes = [a.code for a in verification.alerts]
    assert verification.label != "grounded" and codes[0] == "grounding", verification.alerts
    assert "figure_check" in codes, verification.alerts
    assert verification.warnings == [a.text for a in verification.alerts]
    assert verification.warnings[0].startswith("This answer is ")


def test_the_contract_keeps_warnings_as_texts_and_adds_their_codes():
    verification = compose.no_evidence_verification("No table of the document prints revenue for Q3 2024.")
    data = json.loads(verification.model_dump_json())
    assert data["warnings"] == ["No table of the document prints revenue for Q3 2024."]
    assert data["alerts"] == [{"code": "nothing_found", "text": "No table of the document prints revenue for Q3 2024."}]
    assert Verification.model_validate_json(verification.model_dump_json()) == verification


def test_an_answer_saved_without_codes_loads_with_its_warnings_coded():
    saved = {"grounding_score": 0.6, "label": "ungrounded", "warnings": [
        "This answer is ungrounded (grounding 0.60): check the cited evidence.", "Auditor: source [2] does not support 'x'",
        "Coverage check failed for item: Data retention…", "Something only an older VERA said."]}
    loaded = Verification.model_validate(saved)
    assert [a.code for a in loaded.alerts] == ["grounding", "auditor", "coverage_check", "other"]
    assert loaded.warnings == saved["warnings"]
