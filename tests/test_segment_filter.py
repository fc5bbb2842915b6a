"""The segment filter: a question asked of the business segment a filter names, over the documents that
print it; a segment no document prints leaves nothing and says so (`vera query --segment`; the API's and
the app's are in test_api.py and test_app_ask.py)."""

from __future__ import annotations

import json

import pytest

from vera_core.cli.main import main
from vera_core.documents.filters import LibraryFilters, segment_question
from vera_core.errors import VeraError


def test_the_question_is_asked_of_the_segment_unless_it_names_it():
    assert segment_question("What was revenue in 2024?", ["Fluid Power"]) == \
        "What was revenue in 2024 for the Fluid Power segment?"
    assert segment_question("Fluid power revenue in 2024", ["Fluid Power"]) == "Fluid power revenue in 2024"
    assert segment_question("What did Sensors and Electronics earn?", ["Sensors & Electronics"]) == \
        "What did Sensors and Electronics earn?"
    assert segment_question("operating income Q3 2024", ["Reality Labs"]) == \
        "operating income Q3 2024 for the Reality Labs segment"
    assert LibraryFilters(segment=(" reality  labs segment",)).segment == ("reality labs",)
    with pytest.raises(VeraError, match="one segment at a time"):
        LibraryFilters(segment=("Fluid Power", "Motion Control"))


def test_vera_query_answers_for_the_segment_and_says_when_no_document_prints_it(sample_store, capsys):
    store = str(sample_store.data_dir)
    assert main(["--data-dir", store, "query", "What was capital expenditure in 2024?", "--segment", "motion control",
                 "--mode", "deterministic", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert "27,640" in answer["answer"] and "70,740" not in answer["answer"]
    assert {c["page"] for c in answer["citations"]} == {10}
    assert answer["notices"][0].startswith("Filters applied: segment motion control")
    assert 'asked as "What was capital expenditure in 2024 for the Motion Control segment?"' in answer["notices"][0]
    assert main(["--data-dir", store, "query", "What was revenue in 2024?", "--segment", "Reality Labs"]) == 2
    err = capsys.readouterr().err
    assert "segment filter leaves none" in err and "no document in scope prints 'Reality Labs'" in err
