"""Outline lists (vera_core/answer/outlines.py, ingest/markdown_prep.outline_lists): items marked
"a." / "i." / "(a)" / "(iv)", nested by indentation or marker style, and the lead-in that owns
them; a list question gets every item under the outline item or lead-in it names, and no titles."""

from __future__ import annotations

import pytest

from tests.conftest import settings_for
from vera_core.answer.outlines import items_asked, read_outline
from vera_core.ingest.service import Ingestor
from vera_core.query import QueryEngine
from vera_core.records import ChunkRecord
from vera_core.workspace import Workspace

ACCEPTABLE_USE = """# Acceptable Use Policy

## 1. Purpose

This policy sets the rules for using the Group's computers, networks and accounts.

## 3. User responsibilities

Every user must follow these rules:

a. Password protection
    i. Choose a passphrase of at least four random words.
    ii. Never write a password down or keep it in a browser.
    iii. Change a password at once when someone else may know it.
b. Email and messaging
    i. Do not forward Group email to personal accounts.
    ii. Report phishing messages with the Report button.
c. Internet use
    i. Do not download software from unapproved sites.

## 4. Monitoring

The Group may monitor the use of its systems within the limits of the law.
"""

INCIDENT = """# Incident Response Policy

## Reporting an incident

Report every suspected incident to the Security Operations Centre within one hour.

The following information must be included in every incident notification:

(a) the date and time the incident was detected;
(b) the systems and data affected;
    (i) the categories of personal data, if any;
    (ii) the approximate number of records;
(c) the name and contact details of the person reporting;
(d) the actions already taken to contain the incident.

## Closing an incident

The incident manager closes an incident once the root cause is fixed.
"""

PASSWORD_RULES = ["Choose a passphrase of at least four random words.",
                  "Never write a password down or keep it in a browser.",
                  "Change a password at once when someone else may know it."]
NOTIFICATION_ITEMS = ["the date and time the incident was detected;", "the systems and data affected;",
                      "the name and contact details of the person reporting;",
                      "the actions already taken to contain the incident."]


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> QueryEngine:
    folder = tmp_path_factory.mktemp("outlines")
    ws = Workspace(settings_for(folder / "store"))
    for name, text in (("acceptable_use_policy.md", ACCEPTABLE_USE), ("incident_response_policy.md", INCIDENT)):
        (folder / name).write_text(text)
        assert Ingestor(ws).ingest_file(folder / name).status == "ingested"
    return QueryEngine(ws)


def test_the_rules_under_a_lettered_outline_item_are_listed_without_the_section_titles(engine):
    answer = engine.answer("List all the password protection rules", docs=["acceptable_use_policy.md"],
                           mode="deterministic")
    assert (answer.intent.type, answer.intent.subtype) == ("coverage", "list")
    assert [i.text for i in answer.items] == PASSWORD_RULES
    assert all(i.citations for i in answer.items)
    assert "Email and messaging" not in answer.answer and "Password protection:" not in answer.answer


def test_a_lead_in_owns_the_parenthesised_items_after_it_at_their_own_level(engine):
    answer = engine.answer("List all the information that must be included in an incident notification",
                           docs=["incident_response_policy.md"], mode="deterministic")
    assert [i.text for i in answer.items] == NOTIFICATION_ITEMS
    quotes = {c.n: c.quote for c in answer.citations}
    assert all(quotes[i.citations[0]].startswith(("- (a)", "- (b)", "- (c)", "- (d)")) for i in answer.items)


def test_a_section_of_an_outline_lists_its_top_level_items(engine):
    answer = engine.answer("List the user responsibilities", docs=["acceptable_use_policy.md"], mode="deterministic")
    assert [i.text for i in answer.items] == ["Password protection", "Email and messaging", "Internet use"]


def _chunk(text: str) -> ChunkRecord:
    return ChunkRecord("c1", "d", 0, "text", text, text, "p/s", ("s",), "s", 3, 3, (), "", "", 40)


def test_pdf_outline_lines_without_indentation_nest_by_marker_style():
    outline = read_outline([_chunk("Access rules are as follows:\na. Password protection\ni. Use a passphrase.\n"
                                   "ii. Never share it.\nb. Remote access\ni. Use the VPN.\nc. Hardware\n"
                                   "i. Lock unattended screens.")])
    assert [(o.marker, o.level) for o in outline] == [("a.", 0), ("i.", 1), ("ii.", 1), ("b.", 0), ("i.", 1),
                                                      ("c.", 0), ("i.", 1)]
    assert [o.text for o in items_asked(outline, "password protection rules")] == ["Use a passphrase.", "Never share it."]
    assert [o.text for o in items_asked(outline, "remote access")] == ["Use the VPN."]
    assert outline[0].lead_in == "Access rules are as follows:"


def test_a_letter_that_follows_its_predecessor_is_a_letter_not_a_roman_numeral():
    outline = read_outline([_chunk("\n".join(f"{c}. item {c}" for c in "abcdefghij"))])
    assert {o.level for o in outline} == {0}


def test_an_inline_list_whose_count_is_stated_gives_each_name():
    from vera_core.answer.series import inline_series
    from vera_core.answer.units import split_units

    units = split_units(_chunk("Acme manages its operations in four business segments. The reportable segments are "
                               "Industrial, Safety and Graphics, Health Care, and Consumer. Each segment is run by a "
                               "president."))
    series = inline_series(units, "segments")
    assert series.items == ("Industrial", "Safety and Graphics", "Health Care", "Consumer") and series.counted
    assert inline_series(units, "presidents") is None


@pytest.mark.parametrize("question, doc, expected", [
    ("List all the password protection rules", "acceptable_use_policy.md", ("outline", 0, 0)),
    ("List all the rules for removable media", "acceptable_use_policy.md", ("outline", 0, 1)),
    ("List all the information that must be included in an incident notification", "incident_response_policy.md",
     ("outline", 0, None)),
    ("List all the steps to be reimbursed for an expense claim", "expense_policy.md", ("list", 0, None)),
])
def test_sample_policies_list_the_items_under_the_item_or_lead_in_asked(sample_store, ground_truth, question, doc,
                                                                        expected):
    """Over the bundled samples (nine policies and a report in one store): every item of the list the
    question names, in order, each cited to its line, and no section title or sibling list in place."""
    kind, index, child = expected
    truth = ground_truth[doc]["outlines" if kind == "outline" else "lists"][index]
    if kind == "outline":
        wanted = [c["text"] for c in truth["items"][child]["children"]] if child is not None \
            else [i["text"] for i in truth["items"]]
    else:
        wanted = truth["items"]
    answer = QueryEngine(sample_store, llm=None).answer(question, docs=[doc], mode="deterministic")
    assert [i.text for i in answer.items] == wanted
    quotes = {c.n: c.quote for c in answer.citations}
    assert all(i.text in quotes[i.citations[0]] for i in answer.items)
