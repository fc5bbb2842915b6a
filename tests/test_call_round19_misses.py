"""Issue 26, calls: round 19's misses, after its measurement (dev since), each a class of question:

- a person asked by the first name people call them ("ken dorell" for Kenneth Dorell; "mike" for Michael), in lower case;
  a first name alone in lower case where a person is plainly meant ("what did jane say about ...", "jane on banamex"),
  and a note headed by a person ("mark mason on capital - q3 23 call") asks what they said;
- "which jpm execs said anything - just barnum, or dimon too?" asks who spoke, whoever it names;
- a vowel dropped beside another in a long word ("monetizaton") is a typing slip;
- "How did TD's CEO wrap up the call?" asks the CEO's last turn, past its courtesies;
- "who was the call handed to first?" is whoever speaks first of those the operator hands to; "who hosted the Q3 2023
  one?" asks the host without saying "call" after it, and "my boss" is no CEO;
- "one executive besides the CEO and CFO joined just for the Q&A session. Who was that?" asks the company speakers with
  no prepared turn, the roles set aside;
- a quarter said twice beside a span ("on the Q4 FY22 call ... from Q4 FY22 through Q3 FY23") is one, and the span runs
  across the fiscal years;
- one analyst asked by their place in the Q&A ("who asked the first question?", "which analyst closed out the Q&A?") is
  that analyst, and "what was the last question on the call about?" is that analyst's exchange (read from the Q&A's runs
  of chunks, whatever the turn records say);
- "Did any analyst ask about crypto or bitcoin in the Q&A?" asks what was asked (no one did: the answer says so),
  "ask" and "any" no words of its topic;
- who answered a named analyst ("Who answered Mike Mayo's question?", "mayo asked dimon about tech spend - who actually
  answered?") is each company speaker's reply in the exchanges that analyst opened, past its courtesies.

Corpus golds are the blind writers' own, judged as `vera eval` judges them (skipped when ../shared/corpus is absent)."""

from __future__ import annotations

import pytest

from tests.conftest import blind_golds, corpus_engine, judged_blind
from tests.test_call_phrasings import CALL
from tests.test_release_rows_named import IR
from vera_core.documents.identity import quarter_labels
from vera_core.query import QueryEngine
from vera_core.questions.speakers import _spanned, analyst_place, names_person, read_people_ask, read_remark_ask
from vera_core.retrieve.router import read_question
from vera_core.transcripts.speakers import same_first_name

CALLS = [IR / "META" / "META_2024Q3_CALL.pdf", IR / "JPM" / "JPM_2023Q4_CALL.pdf", IR / "JPM" / "JPM_2023Q3_CALL.pdf",
         IR / "TD" / "TD_2024Q4_CALL.pdf", IR / "C" / "C_2023Q3_CALL.pdf", IR / "SNOW" / "SNOW_2023Q3_CALL.pdf"]
GOLDS = blind_golds("r19-ir-calls-holdout")


def test_a_first_name_as_people_say_it():
    assert same_first_name("ken", "kenneth") and same_first_name("mike", "michael") and same_first_name("jim", "james")
    assert not same_first_name("ke", "kenneth") and not same_first_name("mark", "michael")
    assert names_person("who's ken dorell on the meta Q3 24 call, what does he do?", "Kenneth Dorell")
    assert not names_person("who's ken dorell?", "Kenneth Dimon")


def test_who_spoke_whoever_is_named_and_a_closing_asked():
    routed = read_question("which jpm execs said anything on the 4Q23 call - just barnum, or dimon too?", [CALL], ["c1"])
    assert routed.intent.subtype == "speakers" and routed.request.kind == "executives" and routed.request.role == "spoke"
    ask = read_remark_ask("How did TD's CEO wrap up the Q4 FY24 call?", ["Bharat Masrani"])
    assert ask is not None and ask.closing and ask.roles == ("CEO",)
    assert read_people_ask("Who gave the closing remarks on the call?").kind == "handoff"  # who, not what was said


def test_a_hand_off_first_a_host_and_the_q_and_a_only():
    assert read_people_ask("When the operator opened the call, who was the call handed to first?").role == "first"
    assert read_people_ask("who did the operator hand the call over to?").role == "start"
    host = read_people_ask("My boss wants to know who fronts Citi's earnings calls. Who hosted the Q3 2023 one?")
    assert (host.kind, host.role) == ("role", "host")
    assert read_people_ask("Who is the boss at Citi?").role == "CEO"
    ask = read_people_ask("On Snowflake's Q3 fiscal 2023 call, one executive besides the CEO and CFO joined just for the "
                          "Q&A session. Who was that, and what is his title?")
    assert (ask.kind, ask.role, ask.besides) == ("executives", "qa_only", ("CEO", "CFO"))


def test_a_quarter_said_twice_beside_a_span():
    question = ("Scarpelli said on the Q4 FY22 call that net revenue retention would stay above 150%. What NRR did "
                "Snowflake report on each call from Q4 FY22 through Q3 FY23?")
    assert _spanned(quarter_labels(question), question) == [(2022, 4), (2023, 1), (2023, 2), (2023, 3)]


def test_an_analyst_by_their_place_in_the_q_and_a():
    assert [analyst_place(q) for q in ("who asked the first question on JPM's 4Q23 call?", "the last analyst to ask",
                                       "which analyst closed out the Q&A?", "what was the last question on the call about?",
                                       "who got the final question in?", "who asked the second question?")] == [
        "first", "last", "last", "last", "last", "second"]
    assert analyst_place("what was the first question on credit?") == ""  # a topic, not a place
    ask = read_people_ask("which analyst closed out the Q&A?")
    assert (ask.kind, ask.role) == ("analysts", "last")


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> QueryEngine:
    return corpus_engine(tmp_path_factory, "round19-calls", CALLS, f"ir-dev calls not found under {IR}")


@pytest.mark.corpus
@pytest.mark.parametrize("qid, cls", [
    ("w43-002", "'one executive besides the CEO and CFO joined just for the Q&A session': Christian Kleinerman"),
    ("w43-006", "'who was the call handed to first?': Jamie Dimon, who speaks first"),
    ("w43-007", "'who's ken dorell on the meta Q3 24 call, what does he do?': Kenneth Dorell, investor relations"),
    ("w43-008", "'My boss wants to know who fronts Citi's earnings calls. Who hosted the Q3 2023 one?': Jennifer Landis"),
    ("w43-018", "'which jpm execs said anything on the 4Q23 call - just barnum, or dimon too?': both"),
    ("w43-021", "'susan li on threads monetizaton - what did she say?': her reply on Threads' monetization"),
    ("w43-030", "'How did TD's CEO wrap up the Q4 FY24 call?': Masrani's last turn"),
])
def test_round_19_call_misses_are_answered(engine, qid, cls):
    outcome, answer = judged_blind(engine, GOLDS[qid])
    assert outcome == "correct", f"{cls}: {answer.answer[:300]}"


@pytest.mark.corpus
def test_the_first_and_the_last_analyst_of_a_call(engine):
    first = engine.answer("who asked the first question on the call?", docs=["JPM_2023Q4_CALL.pdf"], mode="deterministic")
    assert first.answer.startswith("The first analyst to ask a question:") and "Matt O’Connor" in first.answer
    assert "John McDonald" not in first.answer
    last = engine.answer("what was the last question on the call about?", docs=["JPM_2023Q4_CALL.pdf"],
                         mode="deterministic")
    assert last.answer.startswith("Charles W. Peabody") and "First Republic" in last.answer, last.answer[:300]


def test_who_answered_a_named_analyst():
    names = ["Mike Mayo", "Jamie Dimon", "Jeremy Barnum", "Glenn Schorr"]
    ask = read_remark_ask("Who answered Mike Mayo's question?", names)
    assert ask is not None and (ask.names, ask.roles, ask.to) == (("Mike Mayo",), ("management",), ("Mike Mayo",))
    ask = read_remark_ask("mayo asked dimon about tech spend - who actually answered?", names)
    assert ask is not None and ask.to == ("Mike Mayo",), ask
    ask = read_remark_ask("which executive responded to Glenn Schorr?", names)
    assert ask is not None and ask.to == ("Glenn Schorr",), ask
    ask = read_remark_ask("What did Jamie Dimon tell Mike Mayo about tech spend?", names)
    assert ask is not None and ask.names == ("Mike Mayo", "Jamie Dimon") and ask.to == ("Mike Mayo",), ask


@pytest.mark.corpus
def test_the_replies_to_a_named_analyst(engine):
    answer = engine.answer("Who answered Mike Mayo's question?", docs=["JPM_2023Q4_CALL.pdf"], mode="deterministic")
    assert answer.answer.startswith("Jeremy Barnum (Chief Financial Officer"), answer.answer[:300]
    assert "thanks for the question" not in answer.answer and "Mike Mayo (Analyst" not in answer.answer


def test_a_person_in_lower_case_and_a_note_headed_by_them():
    people = ["Jane Fraser", "Mark Mason", "Jennifer Landis", "Kenneth Dorell"]
    for question, name in [("what did jane say about the transformation on the 3q23 call", "Jane Fraser"),
                           ("mark mason on capital - q3 23 call", "Mark Mason"), ("jane on banamex", "Jane Fraser"),
                           ("what did mark say about capital?", "Mark Mason")]:
        ask = read_remark_ask(question, people)
        assert ask is not None and ask.names == (name,), (question, ask)
    assert read_remark_ask("revenue on a constant currency basis?", people) is None
    assert read_remark_ask("who's ken dorell on the meta Q3 24 call, what does he do?", people) is None  # who he is


def test_a_yes_or_no_about_what_analysts_asked():
    routed = read_question("Did any analyst ask about crypto or bitcoin in the Q&A?", [CALL], ["c1"])
    assert routed.intent.subtype == "remarks", routed.intent
    from vera_core.answer.strategies.remarks import _topic
    ask = read_remark_ask("Did any analyst ask about crypto or bitcoin in the Q&A?", [])
    assert _topic("Did any analyst ask about crypto or bitcoin in the Q&A?", ask, ["JPMorgan Chase"]) == "crypto or bitcoin"


@pytest.mark.corpus
def test_a_topic_no_analyst_raised_is_declined(engine):
    answer = engine.answer("Did any analyst ask about crypto or bitcoin in the Q&A?", docs=["JPM_2023Q4_CALL.pdf"],
                           mode="deterministic")
    assert not answer.citations and "no analyst spoke of crypto or bitcoin" in answer.answer, answer.answer[:300]
