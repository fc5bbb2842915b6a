"""Issue 26, calls: who spoke and what was said, asked in words VERA's frames were not written from.

data/blind/p1-call-phrasings.jsonl holds 240 questions a helper wrote blind (it saw none of VERA's code or question
sets), each labelled with what it asks: who held a role, a named person's title or firm, every analyst, every company
speaker, the operator's hand-off (or who opened or closed the call), what a person, a role or the Q&A said. Its names
are invented: the call they are routed over prints them as its participants. Each question is routed as the call's
question it is; a label's questions are routed right at least at its floor (typing slips VERA's respelling reads
against the documents, not here, and notes without a subject, are the misses left)."""

from __future__ import annotations

import collections
import json

import pytest

from tests.conftest import ROOT
from vera_core.records import DocumentRecord
from vera_core.retrieve.router import read_question

PHRASINGS = [json.loads(line) for line in (ROOT / "data" / "blind" / "p1-call-phrasings.jsonl").read_text().splitlines()]
_NAMES = ["Priya Castellanos", "Tom Beresford", "Kwame Asante", "Renata Ilić", "Erik Lindqvist", "Aiden Whitcombe",
          "Harold Pemberton-Fisk", "Kenji Nakamura", "Bridget Shaw", "Raj Mehta", "Conor Mulcahy", "Stefan Albrecht",
          "Tunde Oyelaran", "Chen Wei-Lin", "Sean Fitzgerald", "Sandra Vukovic", "Jim Castellano", "Elena Sorokina",
          "Patricia Nwosu", "Dana Whitfield", "Lorraine Beck", "Ingrid Solberg", "Chidi Okafor", "Vikram Raman",
          "Barbara Hooper"]
CALL = DocumentRecord(doc_id="c1", name="NWND_2024Q2_CALL.pdf", format="pdf", sha256="0", pages=12, size_bytes=1, status="ready",
                      metadata={"transcript": {"participants": [{"name": n, "role": "analyst", "firm": "Jefferies"}
                                                                for n in _NAMES] + [{"name": "Operator", "role": "operator"}],
                                               "turns": []}},
                      parser_version="pdf-12", chunk_count=1, table_count=0, created_at="", ready_at="", kind="other",
                      identity={"doc_type": "transcript", "company": "Northwind Semiconductor"})
_KINDS = {"role": "role", "title": "role", "role_of": "title_of", "analysts": "analysts", "executives": "executives",
          "handoff": "handoff"}
FLOORS = {"role": 0.95, "title_of": 0.85, "analysts": 0.9, "executives": 0.9, "handoff": 0.9, "remark_person": 0.85,
          "remark_role": 0.95, "remark_qa": 0.8, "not_people": 0.9}
"""The share of each label's questions routed as asked, measured when written: role 39/40, title 22/25, analysts 37/40,
executives 24/25, hand-off 14/15, a person's remark 27/30, a role's 30/30, the Q&A's 21/25, figures 9/10."""


def _routed_as(question: str) -> str:
    routed = read_question(question, [CALL], ["c1"])
    if routed.intent.subtype == "speakers":
        return _KINDS.get(routed.request.kind, routed.request.kind)
    if routed.intent.subtype == "remarks":
        return "remark"
    return "other"


def _right(label: str, routed: str) -> bool:
    return routed == label or (label.startswith("remark") and routed == "remark") or (label == "not_people" and routed == "other")


@pytest.mark.parametrize("label", sorted(FLOORS))
def test_each_kind_of_call_question_is_routed_as_asked(label):
    asked = [p["q"] for p in PHRASINGS if p["label"] == label]
    assert asked, label
    missed = [(q, routed) for q in asked if not _right(label, routed := _routed_as(q))]
    assert 1 - len(missed) / len(asked) >= FLOORS[label], missed


@pytest.mark.parametrize("question, kind", [
    ("CFO on the HLB 3Q23 call?", "role"),  # a note ending on the role
    ("Solvane Systems 1Q25: CEO?", "role"),
    ("Who was the chief executive on their Q2 FY25 call?", "role"),  # not every executive
    ("Which executive served as chief financial officer during the Q1 FY24 call?", "role"),
    ("On Microsoft's FY23 Q3 earnings call, who hosted for the company and moderated the Q&A?", "role"),
    ("analysts on the Crestview June qtr call?", "analysts"),
    ("Who was on the Dunmore Savings Q2 2024 call from the sell side?", "analysts"),
    ("Who were the Silverlode Capital Bank speakers (not the analysts) on the Q1 2024 call?", "executives"),
    ("Vantor Micro March 2024 quarter: full management lineup on the call", "executives"),
    ("Who gave the closing remarks on Pellmark's fourth-quarter 2023 call?", "handoff"),
    ("To whom did the moderator pass the floor to open Brightwater's Q4'22 call?", "handoff"),
    ("Raj Mehta asked about deposit betas on the Ardent Bank call - what firm is he with?", "title_of"),
    ("Which topics did analysts focus on in the Elmsbury third-quarter 2024 Q&A?", "remark"),
    ("What did the Morgan Stanley analyst ask on the Trellis 2Q24 call?", "analysts"),  # the firm's analyst's exchange
    ("Dunmore 4Q23: management commentary on credit", "remark"),
    # round 16's (held back, measured once, dev since)
    ("on the JPM 2Q23 call, after the operator's intro, who actually took the call over to start the presentation?",
     "handoff"),
    ("Barbara Hooper, TD Q2 2024 call -- which part of the bank does she run?", "title_of"),
    ("snowflake CFO on how customers split across AWS / Azure / GCP - Q2 FY23 call", "remark"),
    ("TD Q4 FY2024 call (Dec 2024): every TD speaker, incl. anyone who only took one question, w/ titles", "executives"),
])
def test_a_phrasing_is_routed_as_asked(question, kind):
    assert _routed_as(question) == kind


def test_the_floors_are_what_was_measured():
    counts = collections.Counter(p["label"] for p in PHRASINGS)
    assert counts["role"] == 40 and counts["analysts"] == 40 and sum(counts.values()) == 240


def test_a_first_name_alone_names_the_one_participant_who_has_it():
    from vera_core.questions.speakers import read_remark_ask
    people = ["Bharat Masrani", "Kelvin Tran", "Paul Douglas"]
    assert read_remark_ask("Track how Bharat's message on the AML problem changed across the calls", people).names == \
        ("Bharat Masrani",)
    # a first name before a surname names that person, whoever else is called Paul
    assert read_remark_ask("What did Paul Clark say about wealth management flows?", people).names == ()
