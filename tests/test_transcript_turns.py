"""Earnings calls as speaker turns (issue 26): each turn a section of its own, so no chunk holds two
speakers' words; who held a role, every analyst who asked with their firm and every company speaker
answered from the turns, complete and cited to the speaker's line; golds from the blind writer w29."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pymupdf
import pytest

from tests.conftest import ROOT, settings_for
from tests.made_pdfs import CALL_NAME, falcon_call_pdf
from vera_core.chunking.node_parser import StructureNodeParser, StructuredDocument
from vera_core.documents.identity import parsed_identity
from vera_core.documents.kinds import parsed_kind
from vera_core.ingest.pdf import parse_pdf
from vera_core.ingest.service import Ingestor
from vera_core.ingest.source import load_source
from vera_core.query import QueryEngine
from vera_core.retrieve.router import route
from vera_core.transcripts.speakers import name_key, role_of
from vera_core.transcripts.turns import as_turns
from vera_core.workspace import Workspace

IR = ROOT.parent / "shared" / "corpus" / "ir-dev"
DEV_CALLS = sorted(IR.glob("*/*_CALL.pdf")) if IR.exists() else []
"""Every call of ir-dev (TD's and Microsoft's were held back until measured once; dev since)."""
GOLDS = ROOT / "data" / "blind" / "r12-ir-calls-dev.jsonl"
STORE_CALLS = ("C_2023Q1_CALL", "C_2023Q4_CALL", "JPM_2023Q2_CALL", "META_2024Q3_CALL", "SNOW_2023Q3_CALL", "DB_2023Q4_CALL")
"""The calls of the module's store: one of each publisher's layouts the golds ask most about."""
needs_ir = pytest.mark.skipif(not DEV_CALLS, reason="../shared/corpus/ir-dev is not here")


def _turned(path: Path):
    """A call parsed and cut into turns (a fresh copy each time; the parse is read once a module)."""
    import copy
    return copy.deepcopy(_turned_once(path))


@functools.lru_cache(maxsize=None)
def _turned_once(path: Path):
    parsed = parse_pdf(load_source(path, max_file_mb=50))
    identity = parsed_identity(parsed, parsed_kind(parsed))
    assert identity.doc_type == "transcript", path.name
    return as_turns(parsed, identity.company)


def _chunks(parsed):
    return StructureNodeParser().chunk(parsed, StructuredDocument.from_parsed(parsed))


def test_a_small_call_is_cut_at_every_speaker(tmp_path):
    path = tmp_path / CALL_NAME
    path.write_bytes(falcon_call_pdf())
    parsed = _turned(path)
    turns = parsed.metadata["transcript"]["turns"]
    assert [(t["speaker"].title(), t["section"]) for t in turns] == [
        ("Operator", "prepared"), ("Anna Peeters", "prepared"), ("Tom Wouters", "prepared"),
        ("Operator", "qa"), ("Lisa Marin", "qa"), ("Anna Peeters", "qa")]
    lisa = next(t for t in turns if t["speaker"] == "LISA MARIN")
    assert (lisa["role"], lisa["firm"], lisa["exchange"]) == ("analyst", "Northgate Securities", 1)
    roles = {p["name"]: p["role"] for p in parsed.metadata["transcript"]["participants"]}
    assert roles["Anna Peeters"] == "CEO" and roles["Tom Wouters"] == "CFO"
    nodes = _chunks(parsed)
    assert nodes
    for node in nodes:
        path_speaker = node.metadata["heading_path"].split("/")[-1]
        others = {"ANNA PEETERS", "TOM WOUTERS", "LISA MARIN"} - {path_speaker.split(" (")[0].upper()}
        assert not any(f"{o}:" in node.text for o in others), node.text


@needs_ir
def test_no_chunk_of_any_dev_call_holds_two_speakers():
    assert len(DEV_CALLS) == 22
    for path in DEV_CALLS:
        parsed = _turned(path)
        transcript = parsed.metadata["transcript"]
        assert len({name_key(t["speaker"]) for t in transcript["turns"]}) >= 4, path.name
        names = [p["name"] for p in transcript["participants"] if p["role"] != "operator"]
        # NOTE: a list's firm line ("CIBC World Markets – Analyst") or title line ("Research Analyst") names no one
        firms = {p["firm"] for p in transcript["participants"]} - {""}
        assert not [n for n in names if role_of(n) or any(f != n and f.startswith(n) for f in firms)], (path.name, names)
        nodes = _chunks(parsed)
        assert nodes, path.name
        for node in nodes:
            own = name_key(node.metadata["heading_path"].split("/")[-1].split(" (")[0])
            for name in names:
                if name_key(name) == own:
                    continue
                # another speaker's line inside the chunk: "NAME:", "Title, Firm NAME Q", "NAME Firm - Title"
                line = re.compile(rf"(?m)^\s*{re.escape(name)}\s*(?::|\s[QA]\s*$)|{re.escape(name)} [QA]\s*$", re.I)
                assert not line.search(node.text), (path.name, name, node.text[:300])


@needs_ir
def test_blind_remark_quotes_sit_under_their_speaker():
    norm = lambda text: re.sub(r"[^a-z0-9]", "", text.lower())  # noqa: E731
    parsed = {p.stem: _turned(p) for p in DEV_CALLS}
    chunks = {stem: _chunks(doc) for stem, doc in parsed.items()}
    on, off = 0, []
    for line in GOLDS.read_text().splitlines():
        q = json.loads(line)
        if q["kind"] != "remark" or q.get("expect") == "abstain":
            continue
        for turn in q["turns"]:
            quote = norm(turn["quote"])[:60]
            holding = [n for n in chunks[turn.get("doc_name") or q["doc_name"]] if quote in norm(n.text)]
            if holding and name_key(holding[0].metadata["heading_path"].split("/")[-1].split(" (")[0]) == name_key(
                    turn["speaker"]):
                on += 1
            else:
                off.append((q["id"], turn["speaker"]))
    # NOTE: 48 on and Deutsche Bank's five prepared quotes off until its speakers' names in capitals overleaf opened
    # their turns; Meta's one left is a quote the writer gave to the analyst whose question it answers
    assert on >= 53 and len(off) <= 1, (on, off)


@pytest.fixture(scope="module")
def calls_store(tmp_path_factory):
    if not DEV_CALLS:
        pytest.skip("../shared/corpus/ir-dev is not here")
    ws = Workspace(settings_for(tmp_path_factory.mktemp("calls")))
    ingestor = Ingestor(ws)
    for stem in STORE_CALLS:
        path = next(p for p in DEV_CALLS if p.stem == stem)
        source = load_source(path, max_file_mb=50)
        assert ingestor.make_searchable(source, parse_pdf(source)).status == "ingested"
    return ws


def _golds(kind: str) -> list[dict]:
    stems = set(STORE_CALLS)
    return [q for line in GOLDS.read_text().splitlines() if (q := json.loads(line))["kind"] == kind
            and q.get("expect") != "abstain" and q["doc_name"] in stems]


def test_every_analyst_with_their_firm_as_the_blind_golds_list_them(calls_store):
    engine = QueryEngine(calls_store)
    golds = [q for q in _golds("people") if q["template"] == "people:analysts"]
    assert len(golds) >= 3
    for q in golds:
        answer = engine.answer(q["question"], mode="deterministic")
        assert answer.intent.rule == "coverage:speakers:analysts", q["question"]
        listed = {name_key(line.split(" (")[0].lstrip("- ")): line for line in answer.answer.splitlines()
                  if line.startswith("- ")}
        for person in q["required_people"]:
            assert name_key(person["name"]) in listed, (q["id"], person["name"], answer.answer)
            firm = re.sub(r"[^a-z]", "", person["firm"].lower())[:6]
            assert firm in re.sub(r"[^a-z]", "", listed[name_key(person["name"])].lower()), (q["id"], person)
        assert len(listed) == len(q["required_people"]), (q["id"], "an analyst listed twice or one who did not ask")
        assert all(c.quote.split(" (")[0] in c.heading_path for c in answer.citations), "cited on their own line"


def test_who_held_a_role(calls_store):
    engine = QueryEngine(calls_store)
    golds = [q for q in _golds("people") if q["template"] in ("people:role", "people:executives")]
    assert golds
    for q in golds:
        answer = engine.answer(q["question"], mode="deterministic")
        assert answer.intent.rule.startswith("coverage:speakers"), (q["question"], answer.intent.rule)
        for person in q["required_people"]:
            assert name_key(person["name"]) in {name_key(m) for m in re.findall(r"[A-Z][\w.'-]+(?: [A-Z][\w.'-]+)+",
                                                                                 answer.answer)}, (q["id"], answer.answer)
    cfo = engine.answer("Who's the CFO on Citi's first quarter 2023 call?", mode="deterministic")
    assert cfo.answer.startswith("Mark Mason") and cfo.citations[0].page == 4  # his first turn: "MARK MASON:" on page 4


@pytest.mark.parametrize("qid, cls", [
    ("w29-003", "the sentences that share the topic's rarest words (NII guide), not the turn's first ('Yeah, it's a good question.')"),
    ("w29-013", "the CEO's prepared remarks, though she also speaks in the Q&A under the same heading"),
    ("w29-030", "what a named person told analysts is a remark, not the list of analysts"),
    ("w29-059", "'Does Susan Li expect ...' asks what she said"),
    ("w29-020", "'what did the Piper Sandler guy ask ... and what were the answers': that analyst's exchange, question first"),
])
def test_a_remark_is_quoted_from_the_turn_asked(calls_store, qid, cls):
    from vera_core.cli.eval_judge import judge
    gold = next(q for line in GOLDS.read_text().splitlines() if (q := json.loads(line))["id"] == qid)
    answer = QueryEngine(calls_store).answer(gold["question"], docs=[f"{gold['doc_name']}.pdf"], mode="deterministic")
    assert judge(gold, answer) == "correct", f"{cls}: {answer.answer[:300]}"


def test_who_questions_route_to_speakers_only_over_calls():
    assert route("Who is the CFO?").type != "coverage" or route("Who is the CFO?").subtype != "speakers"


def test_a_citation_carries_type_quarter_and_speaker(calls_store):
    from vera_core.answer.evidence_rows import evidence_rows
    answer = QueryEngine(calls_store).answer("Which analysts asked questions on JPMorgan's 2Q23 call?",
                                             mode="deterministic")
    first = answer.citations[0]
    assert (first.doc_type, first.quarter) == ("transcript", "2023-Q2")
    assert first.speaker and first.speaker in answer.answer.splitlines()[1]
    row = evidence_rows(answer)[0]
    assert (row["doc_type"], row["quarter"], row["speaker"]) == ("transcript", "2023-Q2", first.speaker)


def _doc(doc_id: str, metadata: dict):
    from vera_core.records import DocumentRecord
    return DocumentRecord(doc_id=doc_id, name=f"{doc_id}.pdf", format="pdf", sha256="", pages=1, size_bytes=1,
                          status="ready", metadata=metadata, parser_version="", chunk_count=1, table_count=0,
                          created_at="", ready_at="", kind="filing")


def test_a_10k_beside_a_call_keeps_its_own_questions():
    call = {"transcript": {"turns": [{"speaker": "Tom Banks"}],
                           "participants": [{"name": "Tom Banks", "role": "analyst"}, {"name": "Jane Fraser", "role": "CEO"}]}}
    docs = [_doc("tenk", {}), _doc("call", call)]
    for question in ("Did the company raise its dividend?", "What was the analyst consensus for EPS?",
                     "Who is the operator of the Permian pipeline?", "How exposed are regional banks, as discussed?"):
        assert route(question, docs).subtype not in ("speakers", "remarks"), question
    assert route("Who is the CFO on the call?", docs).rule == "coverage:speakers:role"
    assert route("What did Jane Fraser say about expenses?", docs).rule == "semantic:remarks"


def test_calls_named_by_company_quarter_or_file_name_and_none_for_another_company():
    from vera_core.documents.identity import Identity
    from vera_core.questions.speakers import calls_named
    calls = [("a", Identity("transcript", "JPMorgan Chase", 2023, 4)), ("b", Identity("transcript", "Wells Fargo & Company", 2023, 4))]
    names = {"a": "JPM_2023Q4_CALL.pdf", "b": "WFC_2023Q4_CALL.pdf"}
    assert calls_named("Which executives from the company spoke on the JPMorgan call?", calls, names) == ["a"]
    assert calls_named("Coverage map for JPM: who asked on the 4Q23 call?", calls, names) == ["a"]
    assert calls_named("Who is Citi's CFO?", calls, names) == []  # never another bank's CFO
    assert calls_named("Who is the CFO?", calls, names) == ["a", "b"]
    assert calls_named("Who asked questions on JPMorgn's 4Q23 call?", calls, names) == ["a"]  # a long name a letter off
    assert calls_named("Who is Chsae's CFO?", calls, names) == []  # "Chase" is too short to read a letter off


def test_a_person_named_as_an_owner_is_no_company():
    from vera_core.documents.identity import Identity
    from vera_core.questions.speakers import calls_named
    calls = [("a", Identity("transcript", "JPMorgan Chase", 2023, 4)), ("b", Identity("transcript", "Citi", 2023, 4))]
    people = ["Jamie Dimon", "Jeremy Barnum", "Jane Fraser"]
    assert calls_named("What is Jamie Dimon's title?", calls, None, people) == ["a", "b"]
    assert calls_named("What is Jamie Diamon's role?", calls, None, people) == ["a", "b"]  # a letter off
    assert calls_named("Who is Wells Fargo's CFO?", calls, None, people) == []


@pytest.mark.parametrize(("asked", "printed", "same"), [
    ("Scarpeli", "Scarpelli", True), ("diamon", "dimon", True), ("barnam", "barnum", True), ("dimno", "dimon", True),
    ("margin", "martin", True),  # a letter off: only a name capitalised or after the first name is taken for it
    ("hood", "wood", False), ("kimon", "dimon", False), ("scarpellini", "scarpelli", False),
])
def test_a_surname_a_letter_off_is_near(asked, printed, same):
    from vera_core.transcripts.speakers import near_spelling
    assert near_spelling(asked.lower(), printed.lower()) is same


def test_a_person_misspelt_by_a_letter_is_still_the_person_asked():
    from vera_core.questions.speakers import names_person, read_remark_ask
    from vera_core.transcripts.speakers import same_person
    people = ["Michael P. Scarpelli", "Jamie Dimon", "Jeremy Martin"]
    assert read_remark_ask("What did Scarpeli say about consumption?", people).names == ("Michael P. Scarpelli",)
    assert read_remark_ask("what did jamie diamon say about the consumer?", people).names == ("Jamie Dimon",)
    assert read_remark_ask("what did the CFO say about the margin?", people).names == ()  # "margin" is no Martin
    assert same_person("Jamie Diamon", "Jamie Dimon") and not same_person("Jamie Dimon", "Jeremy Barnum")
    assert names_person("who is Jamie Diamon?", "Jamie Dimon") and not names_person("who is Dimon?", "Jamie Dimon")


def test_a_role_asked_of_a_company_whose_calls_are_in_scope_is_asked_of_its_calls():
    from dataclasses import replace
    call = replace(_doc("call", {"transcript": {"turns": [{"speaker": "Michael P. Scarpelli"}],
                                                "participants": [{"name": "Michael P. Scarpelli", "role": "CFO"}]}}),
                   identity={"doc_type": "transcript", "company": "Snowflake Inc.", "fiscal_year": 2023, "fiscal_quarter": 3})
    filing = replace(_doc("tenk", {}), identity={"doc_type": "10-K", "company": "PepsiCo, Inc."})
    assert route("who is the CFO of Snowflake?", [call, filing]).rule == "coverage:speakers:role"
    assert route("who is the CFO of PepsiCo?", [call, filing]).rule != "coverage:speakers:role"


def test_calls_named_as_the_ends_of_a_span_take_every_call_between():
    """"from the Q4 FY22 call through the Q3 FY23 call": the four calls, not the two named; two quarters named
    without a span are those two."""
    from vera_core.documents.identity import Identity
    from vera_core.questions.speakers import calls_named
    quarters = [(2022, 3), (2022, 4), (2023, 1), (2023, 2), (2023, 3), (2023, 4)]
    calls = [(f"{y}q{q}", Identity("transcript", "Snowflake Inc.", y, q)) for y, q in quarters]
    assert calls_named("How did Snowflake's FY2023 product revenue guidance move from the Q4 FY22 call through the "
                       "Q3 FY23 call?", calls) == ["2022q4", "2023q1", "2023q2", "2023q3"]
    assert calls_named("What did Snowflake say on each 2023 call (Q1 through Q3) about consumption?", calls) == [
        "2023q1", "2023q2", "2023q3"]
    assert calls_named("Compare Snowflake's Q4 FY22 call and its Q3 FY23 call on guidance.", calls) == [
        "2022q4", "2023q3"]


def test_speaker_filters_read_roles_and_quarters_as_analysts_write_them():
    from vera_core.documents.filters import LibraryFilters, normal_quarter
    assert [normal_quarter(q) for q in ("FY25 Q2", "FY2025-Q2", "2Q25", "Q2 2025", "2025")] == [
        "2025-Q2", "2025-Q2", "2025-Q2", "2025-Q2", "FY2025"]
    assert LibraryFilters(speaker=("ceo", "Jamie Dimon", "Management")).speaker == ("CEO", "Jamie Dimon", "management")


@needs_ir
def test_a_name_line_opening_a_paragraph_is_a_turn_of_its_own():
    """TD prints "Ebrahim Huseini Poonawala – Bank of America Securities – Analyst" over his question's first lines,
    and its list names him "Ebrahim Poonawala": the name line still opens his turn."""
    path = IR / "TD" / "TD_2024Q1_CALL.pdf"
    turns = _turned(path).metadata["transcript"]["turns"]
    analysts = [(t["speaker"], t["firm"]) for t in turns if t["role"] == "analyst"]
    assert analysts[0] == ("Ebrahim Huseini Poonawala", "Bank of America Securities"), analysts[:3]


@needs_ir
@pytest.mark.parametrize("quarter", ["Q1", "Q2", "Q3", "Q4"])
def test_a_name_in_capitals_overleaf_opens_the_prepared_remarks(quarter):
    """Deutsche Bank prints "Speakers:" and its list at the foot of the cover, then "CHRISTIAN SEWING" over his remarks
    on the next page, and its remarks as short lines with no full stop, which read like more of the list: the name
    opens his turn, the list ends there, and the CFO's turn opens where his name is printed."""
    parsed = _turned(IR / "DB" / f"DB_2023{quarter}_CALL.pdf")
    transcript = parsed.metadata["transcript"]
    prepared = [(t["speaker"], t["role"], t["page"]) for t in transcript["turns"] if t["section"] == "prepared"]
    assert [(name, role) for name, role, _ in prepared] == [("Christian Sewing", "CEO"), ("James von Moltke", "CFO")]
    assert prepared[0][2] == 2 and prepared[1][2] > 5
    listed = {p["name"]: (p["title"], p["firm"]) for p in transcript["participants"]}
    assert listed["James von Moltke"] == ("Chief Financial Officer", "")
    assert not any("SEWING" in title for title, _ in listed.values()), listed


def test_what_the_ceo_said_in_his_prepared_remarks_is_quoted_from_his_turn(calls_store):
    answer = QueryEngine(calls_store).answer("What did Deutsche Bank say about share buybacks in the prepared remarks "
                                             "of its Q4 2023 call?", mode="deterministic")
    assert answer.intent.rule == "semantic:remarks"
    cited = [c for c in answer.citations if "675 million" in c.quote]
    assert cited and cited[0].speaker == "Christian Sewing", answer.answer[:400]
    assert {p.page for p in cited[0].polygons} >= {3}, "the highlight runs onto the page the sentence ends on"


def test_the_topic_of_a_remark_leaves_out_the_company_and_the_calls_it_spans():
    """"Citi" for Citigroup and "its four 2023 earnings calls" say which calls; what was said of is the rest. A year
    the question asks about ("2024 capital expenditures") and a word that only starts like the company's stay."""
    from vera_core.answer.strategies.remarks import _same_word, _topic
    from vera_core.questions.speakers import RemarkAsk
    from vera_core.text import terms
    ask = RemarkAsk(roles=("management",))
    assert terms(_topic("How did Citi's full-year expense guidance evolve over its four 2023 earnings calls?", ask,
                        ["Citigroup"], ["2023"])) == {"full", "year", "expens", "guidanc"}
    assert terms(_topic("Walk me through what Deutsche Bank said about share buybacks on each of its 2023 quarterly "
                        "calls", ask, ["Deutsche Bank"], ["2023"])) == {"shar", "buyback"}
    assert terms(_topic("What did Meta say about the metaverse and 2024 capital expenditures on its 2024 call?", ask,
                        ["Meta Platforms"], ["2024"])) == {"metavers", "2024", "capit", "expenditur"}
    assert terms(_topic("How did Bharat Masrani's message on the US AML problem change across TD's four fiscal 2024 "
                        "calls (Q1 to Q4)?", RemarkAsk(names=("Bharat Masrani",)), ["TD Bank Group"], ["2024"])) == {
        "aml", "problem"}
    assert terms(_topic("What did management say about climate change on the call?", ask, ["TD Bank Group"])) == {
        "climat", "chang"}
    assert _same_word("confident", "confidenc") and not _same_word("international", "internal")
    assert not _same_word("expect", "expectation") and not _same_word("rate", "rated")


def test_the_host_is_whoever_opens_the_call(calls_store):
    """"Who hosted the call?": the first speaker of the prepared remarks who is not the operator, cited on their line
    (Citi's head of investor relations); "hosting costs" names no host."""
    from vera_core.questions.speakers import read_people_ask, read_remark_ask
    answer = QueryEngine(calls_store).answer("Who hosted Citi's fourth quarter 2023 earnings call?", mode="deterministic")
    assert answer.intent.rule == "coverage:speakers:role", answer.intent.rule
    assert answer.answer.startswith("Jennifer Landis (Head of Citi Investor Relations) is the host")
    assert answer.citations[0].page == 1 and answer.citations[0].speaker == "Jennifer Landis"
    assert read_people_ask("Who was the host of the call?").role == "host"
    assert "host" not in read_remark_ask("What did Microsoft say about hosting costs on the call?", []).roles


def test_a_span_of_quarters_names_every_quarter_between():
    """"across TD's four fiscal 2024 calls (Q1 to Q4)": the router scopes the question to the four calls, not the two
    named; two quarters named without a span's words are those two."""
    from vera_core.questions.speakers import read_remark_ask, spanned_quarters
    assert spanned_quarters("How did his message on AML change across TD's four fiscal 2024 calls (Q1 to Q4)?") == {
        1, 2, 3, 4}
    assert spanned_quarters("What did JPMorgan say on its calls from Q2 2023 through Q4 2023?") == {2, 3, 4}
    assert spanned_quarters("What did JPMorgan say on its calls from Q2 through Q4 2023?") == {2, 3, 4}
    assert spanned_quarters("Compare the Q1 and Q4 calls on deposits.") == set()
    assert read_remark_ask("How did Bharat Masrani's message on AML change over the year?", ["Bharat Masrani"]).names == (
        "Bharat Masrani",)


def test_a_topic_named_as_a_phrase_and_the_answer_after_the_question_it_names():
    """"How confident was Christian Sewing in Deutsche Bank's 2023 revenue guidance on the Q1 call?" (blind w29-023):
    his answer opens "Tom, to the other question on the revenue guidance. Yes, high confidence in the mid-point of 28 to
    29 billion euros." The sentence printing "revenue guidance" as the topic prints it outweighs sentences holding the
    topic's words apart ("confident ... in the second half of 2023"), and the sentence after a lead-in naming the
    question is quoted with it."""
    from vera_core.answer.strategies.remarks import _best_said, _topic
    from vera_core.questions.speakers import RemarkAsk
    from vera_core.records import ChunkRecord

    def chunk(n: int, text: str) -> ChunkRecord:
        return ChunkRecord(f"c{n}", "db", n, "text", text, text, "DB/Questions and answers/Christian Sewing (CEO)",
                           ("Questions and answers", "Christian Sewing (CEO)"), "s1", 20 + n, 20 + n, (), "", "", 0)

    heard = [chunk(0, "There I used the word optimistic, now I use the words that I'm very confident that this will "
                      "happen in the second half of 2023. We keep our cost discipline in every business."),
             chunk(1, "We are confident that 2023 will be a year of delivery for the bank. Our capital ratio is strong. "
                      "The Corporate Bank had a stellar quarter."),
             chunk(2, "Tom, to the other question on the revenue guidance. Yes, high confidence in the mid-point of 28 "
                      "to 29 billion euros. And why? Because I'm really drawing a lot of comfort from the stable business."),
             chunk(3, "Hence, the guidance stands and I'm confident."),
             chunk(4, "The 10% return in the first quarter is a really good guidance because it is not an outlier quarter. "
                      "Revenues in the Private Bank grew by ten percent. Our guidance on costs is unchanged for the year.")]
    topic = _topic("How confident was Christian Sewing in Deutsche Bank's 2023 revenue guidance on the Q1 call?",
                   RemarkAsk(names=("Christian Sewing",)), ["Deutsche Bank"], ["2023"])
    said = _best_said(heard, topic)
    assert [c.chunk_id for c, _, _ in said] == ["c1", "c2"], said
    assert said[1][1] == ("Tom, to the other question on the revenue guidance. Yes, high confidence in the mid-point of 28 "
                          "to 29 billion euros.")


def test_every_company_speaker_includes_a_host_printed_without_a_title():
    """Microsoft's call is opened by Brett Iversen, whose title the transcript never prints: he is a company speaker;
    "company speaker" in the singular asks the same list."""
    from vera_core.answer.strategies.speakers import _people
    from vera_core.questions.speakers import read_people_ask
    from vera_core.records import ChunkRecord
    ask = read_people_ask("Name every company speaker on Microsoft's Q3 FY23 call.")
    assert ask is not None and ask.kind == "executives"
    turns = [{"speaker": "Operator", "role": "operator", "title": "", "firm": "", "section": "prepared", "heading": "Operator"},
             {"speaker": "BRETT IVERSEN", "role": "", "title": "", "firm": "", "section": "prepared", "heading": "BRETT IVERSEN"},
             {"speaker": "Satya Nadella", "role": "CEO", "title": "chairman and chief executive officer", "firm": "",
              "section": "prepared", "heading": "Satya Nadella"},
             {"speaker": "KEITH WEISS", "role": "analyst", "title": "", "firm": "Morgan Stanley", "section": "qa",
              "heading": "KEITH WEISS"}]
    doc = _doc("msft", {"transcript": {"turns": turns, "participants": []}})
    chunks = [ChunkRecord(f"c{i}", "msft", i, "text", "words", "words", f"MSFT/{t['heading']}", (t["heading"],), "s", 1, 1,
                          (), "", "", 5) for i, t in enumerate(turns)]
    assert [turn["speaker"] for _, turn, _ in _people(ask, doc, chunks)] == ["BRETT IVERSEN", "Satya Nadella"]


@pytest.mark.parametrize(("question", "kind", "role"), [
    ("On Citi's third-quarter 2023 call, after the operator's welcome, who was handed the floor first?", "handoff", "start"),
    ("When the Q&A wrapped up on TD's Q3 2024 call, who did the operator turn the call back over to?", "handoff", "end"),
    ("jpm 3q23 call - operator hands off to who at the start?", "handoff", "start"),
    ("who is the operator?", "role", "operator"),
    ("Compliance review: list every JPMorgan Chase management speaker on the 4Q23 earnings call.", "executives", "spoke"),
    ("I need everyone from the sell side who got a question in, each with their firm.", "analysts", ""),
    ("meta q3 2024 earnings call — analyst lineup w/ firms pls", "analysts", ""),
    ("On Microsoft's FY23 Q3 earnings call, who hosted for the company and moderated the Q&A?", "role", "host"),
    ("jpm 3q23: who actually kicked off the call after the operator? usually it's the CFO going first", "handoff", "first"),
])
def test_people_asked_in_other_hands_words(question, kind, role):
    from vera_core.questions.speakers import read_people_ask
    ask = read_people_ask(question)
    assert ask is not None and (ask.kind, ask.role) == (kind, role)


def test_a_participant_named_with_a_question_about_them_asks_their_role():
    from vera_core.questions.speakers import role_of_named
    people = ["Alice Jolla", "Satya Nadella", "Barbara Hooper", "Kenneth Dorell"]
    assert role_of_named("Alice Jolla was named as being on the call. What's her job there?", people).name == "Alice Jolla"
    assert role_of_named("barbara hooper @ TD -- what does she run? (Q3 2024 call)", people).name == "Barbara Hooper"
    assert role_of_named("Who's Kenneth Dorell on the Meta Q3 2024 call?", people).name == "Kenneth Dorell"
    assert role_of_named("What did Satya Nadella say about his role in AI?", people) is None  # what was said
    # a surname only one participant has
    assert role_of_named("Hooper ran Wealth Management earlier in FY24. What role does she hold by the Q4 call?", people).name \
        == "Barbara Hooper"
    from vera_core.questions.speakers import read_people_ask
    firm = read_people_ask("Which firm is Ebrahim Poonawala listed with on JPMorgan's 1Q23 earnings call transcript?")
    assert firm is not None and (firm.kind, firm.name) == ("role_of", "Ebrahim Poonawala")


def test_a_list_of_company_speakers_asked_beside_names_is_the_list():
    """"Did Jamie say anything at all ... or was it all Barnum? list every company speaker": the list, not what they said;
    "list every comment Jamie Dimon made" is what he said. Who took the first question is an analyst, and who kicked
    off the Q&A after the operator the first analyst, no hand-off; who answered it is no analyst."""
    from vera_core.questions.speakers import FIELDED, read_people_ask
    from vera_core.retrieve.router import _LIST_ASKED
    assert _LIST_ASKED.search("Did Jamie say anything at all on JPM's Q4 2023 call or was it all Barnum? list every company speaker")
    assert not _LIST_ASKED.search("List every comment Jamie Dimon made to analysts about capital")
    assert not FIELDED.search("Who took the first question on JPM's 3Q23 call?")
    assert not FIELDED.search("Who answered the first question on JPM's 3Q23 call?")
    ask = read_people_ask("Who kicked off the Q&A after the operator opened the lines?")
    assert ask is not None and (ask.kind, ask.role) == ("analysts", "first")  # the first analyst, no hand-off
    ask = read_people_ask("Who answered the first question on JPM's 3Q23 call?")
    assert ask is None or ask.kind != "analysts"


@needs_ir
def test_a_name_over_a_title_ending_with_its_firms_abbreviation_opens_a_turn():
    """JPMorgan's 3Q23 call: "Jamie Dimon" over "Chairman & Chief Executive Officer, JPMorgan Chase & Co." after the
    operator's hand-off opens his turn (the "Co." had read as a sentence's end, and his remarks as the operator's)."""
    parsed = _turned(IR / "JPM" / "JPM_2023Q3_CALL.pdf")
    first = [(t["speaker"], t["role"]) for t in parsed.metadata["transcript"]["turns"][:3]]
    assert first[:2] == [("Operator", "operator"), ("Jamie Dimon", "CEO")], first


def test_a_company_named_by_its_longer_name_is_its_calls():
    from vera_core.documents.identity import Identity
    from vera_core.questions.speakers import calls_named
    calls = [("a", Identity("transcript", "Citi", 2023, 4)), ("b", Identity("transcript", "JPMorgan Chase", 2023, 4))]
    assert calls_named("Who asked questions on Citigroup's fourth-quarter 2023 call?", calls) == ["a"]


def test_the_operator_hands_the_call_to_the_people_its_hand_off_sentence_names():
    """The welcome may name everyone on the call; the sentence that hands over names whom ("Ms. Landis, you may
    begin"; "turn the call over to ... Jeremy Barnum, and ... Jamie Dimon"); after the Q&A, the last hand-off."""
    from vera_core.answer.strategies.speakers import _handed_to
    from vera_core.questions.speakers import PeopleAsk
    from vera_core.records import ChunkRecord

    def turn(speaker, role, section="prepared", title=""):
        return {"speaker": speaker, "role": role, "title": title, "firm": "", "section": section, "heading": speaker}
    turns = [turn("Operator", "operator"), turn("Jennifer Landis", "investor relations"), turn("Jane Fraser", "CEO"),
             turn("Operator", "operator", "qa"), turn("Mike Mayo", "analyst", "qa"), turn("Operator", "operator", "qa"),
             turn("Jane Fraser", "CEO", "qa")]
    texts = ["Welcome to Citi's call, hosted by Jennifer Landis, with Jane Fraser and Mark Mason. Ms. Landis, you may begin.",
             "Thank you. Jane?", "Good morning.", "Our first question comes from Mike Mayo.", "Hi.",
             "There are no further questions. I will now turn the call back over to Jane Fraser for closing remarks.",
             "Thank you all."]
    doc = _doc("c", {"transcript": {"turns": turns, "participants": [{"name": "Mark Mason", "role": "CFO"}]}})
    chunks = [ChunkRecord(f"k{i}", "c", i, "text", t, t, f"C/{turns[i]['heading']}", (turns[i]["heading"],), "s", 1, 1,
                          (), "", "", 5) for i, t in enumerate(texts)]
    assert [t["speaker"] for _, t, _ in _handed_to(PeopleAsk("handoff", role="start"), doc, chunks)] == ["Jennifer Landis"]
    assert [t["speaker"] for _, t, _ in _handed_to(PeopleAsk("handoff", role="end"), doc, chunks)] == ["Jane Fraser"]
    # NOTE: each is cited to, and checked against, the operator's sentence that hands over (not the heading "Operator")
    assert {t["said"] for _, t, _ in _handed_to(PeopleAsk("handoff", role="start"), doc, chunks)} == {"Ms. Landis, you may begin."}


@needs_ir
def test_the_hosts_introduction_of_the_people_on_the_call_stays_the_hosts_turn():
    """Microsoft's host introduces "Satya Nadella, chairman and chief executive officer, Amy Hood, chief" on a line of
    its own; that line is not Nadella's turn, so nothing the host said is quoted as his (and Keith Dolliver, named
    there, said nothing)."""
    turns = _turned(IR / "MSFT" / "MSFT_2023Q3_CALL.pdf").metadata["transcript"]["turns"]
    assert [t["speaker"] for t in turns[:3]] == ["BRETT IVERSEN", "Satya Nadella", "Amy Hood"]
    assert turns[1]["page"] == 3 and not any(name_key(t["speaker"]) == name_key("Keith Dolliver") for t in turns)


def test_a_title_asked_of_a_remark_is_the_speaker_whose_printed_title_holds_it():
    from vera_core.questions.speakers import holds_title, read_remark_ask

    asked = read_remark_ask("On the Q1 FY2023 Snowflake call, how did the product head explain customers consuming less "
                            "than planned?", ["Christian Kleinerman", "Michael P. Scarpelli"])
    assert asked is not None and asked.title == "product" and not asked.roles
    assert read_remark_ask("What did the COO say about buybacks?", []).title == "operating"
    assert read_remark_ask("what did the chief risk officer say about credit?", []).title == "risk"
    assert read_remark_ask("What did the CFO say about margins?", []).roles == ("CFO",)
    assert read_remark_ask("Did the IR head mention the timing?", []).title == ""
    assert holds_title("product", "SVP of Product") and holds_title("operating", "Group Head, Chief Operating Officer")
    assert not holds_title("product", "CFO") and not holds_title("risk", "Chief Financial Officer")


@needs_ir
def test_an_analyst_named_only_in_the_left_column_is_a_turn_of_their_own():
    """Deutsche Bank prints a speaker's name in a left column on the row their words begin; Giulia Miotto is named in
    no list and by no operator, so her name opens two paragraphs (or is answered "Thanks, Giulia.")."""
    for quarter, name in (("2023Q3", "Giulia Miotto"), ("2023Q4", "Giulia Aurora Miotto")):
        turns = _turned(IR / "DB" / f"DB_{quarter}_CALL.pdf").metadata["transcript"]["turns"]
        hers = [t for t in turns if t["speaker"] == name]
        assert hers and all(t["role"] == "analyst" and t["section"] == "qa" for t in hers)


def test_who_spoke_is_the_turns_and_who_was_on_the_call_the_lists_too():
    from vera_core.questions.speakers import read_people_ask

    assert read_people_ask("List all the TD people who actually spoke on the Q4 2024 call.").role == "spoke"
    assert read_people_ask("Which Microsoft executives spoke on the Q3 FY23 earnings call?").role == "spoke"
    assert read_people_ask("Which Microsoft executives were on the call?").role == ""


def test_a_participant_asked_by_first_name_only_or_in_lower_case():
    from vera_core.questions.speakers import role_of_named

    people = ["Christian Sewing", "James von Moltke", "Silke-Nicole Szypa"]
    assert role_of_named("Sewing opens with 'Thank you, Silke'. Who is Silke - full name and title?", people).name == \
        "Silke-Nicole Szypa"
    assert role_of_named("snowflake call - what does christian kleinerman do there?",
                         ["Christian Kleinerman", "Frank Slootman"]).name == "Christian Kleinerman"
    assert role_of_named("Who is Mark?", ["Mark Mason", "Mark Moerdler"]) is None


def test_a_person_the_call_names_who_never_spoke_is_declined_with_where_they_are_named(calls_store):
    """The operator announces Brad Zelnick and moves on; asked what he said, VERA says he has no turn and where the call
    names him, and cites nothing. "Reality Labs" in a question is no person (no participant's first name)."""
    engine = QueryEngine(calls_store)
    silent = engine.answer("What did Brad Zelnick from Deutsche Bank ask on Snowflake's Q3 FY23 earnings call?",
                           mode="deterministic")
    assert not silent.citations and "Brad Zelnick is named (p. " in silent.answer and "has no turn" in silent.answer
    losses = engine.answer("What did Meta's CFO say about where Reality Labs losses are heading?", mode="deterministic")
    assert losses.citations and all(c.doc_name == "META_2024Q3_CALL.pdf" for c in losses.citations)
    assert "For Reality Labs, we continue to expect 2024 operating losses" in losses.answer


def test_what_came_up_in_the_qa_is_the_reply_to_the_question_that_raised_it(calls_store):
    """Deutsche Bank's M&A came up in one analyst's question; the answers do not repeat her words ("yes, it is at odds,
    and what you hear from us is a commitment to distribution"), and "M&A" is read as printed, not as the letter m."""
    answer = QueryEngine(calls_store).answer("did M&A come up in the Q&A on Deutsche Bank's Q4 2023 call? what did they "
                                             "say", mode="deterministic")
    assert answer.citations and {c.page for c in answer.citations} == {34}
    assert "it is at odds" in answer.answer and "there is nothing we can do about headlines" in answer.answer


def test_a_title_is_asked_only_after_the_or_a_possessive():
    from vera_core.questions.speakers import read_remark_ask

    assert read_remark_ask("What did management say about lead times on the call?", []).title == ""
    assert read_remark_ask("What did the company say about supply chain head count on the call?", []).title == ""
    assert read_remark_ask("what did Snowflake's product head say about Iceberg?", []).title == "product"


def test_who_fielded_a_question_is_the_company_speaker_who_answered_it(tmp_path, tmp_path_factory):
    """"Who fielded the wholesale banking question, and what's his title?" (w29-041): the executive whose Q&A reply is
    about the topic, named with their title and cited to the reply; never the host's list of who is on the call."""
    from tests.conftest import searchable_pdfs
    from vera_core.questions.speakers import read_remark_ask
    ask = read_remark_ask("Who fielded the wholesale banking question on TD's Q4 FY24 call, and what's his title?", [])
    assert ask is not None and ask.roles == ("management",) and ask.section == "qa"
    assert read_remark_ask("Who asked the question on wholesale banking?", []) is None or \
        read_remark_ask("Who asked the question on wholesale banking?", []).roles != ("management",)
    path = tmp_path / CALL_NAME
    path.write_bytes(falcon_call_pdf())
    engine = QueryEngine(searchable_pdfs(tmp_path_factory, "falcon-fielded", [path]), llm=None)
    answer = engine.answer("Who answered the Germany question on Falcon's call, and what's her title?", mode="deterministic")
    assert answer.intent.rule == "semantic:remarks", answer.intent.rule
    assert answer.answer.upper().startswith("ANNA PEETERS") and "Twelve of the forty are in Germany" in answer.answer, \
        answer.answer


def test_people_asked_in_round_17_words():
    """Round 17 (dev since its measurement): "Which Microsoft people (not analysts) actually spoke", "..., not the
    analysts?" ask the company's speakers; "kleinerman - title? (snowflake Q2 FY23 call)" asks a named person's title."""
    from vera_core.questions.speakers import read_people_ask
    assert read_people_ask("Which Microsoft people (not analysts) actually spoke on the FY23 Q3 earnings call?").kind == \
        "executives"
    assert read_people_ask("Which company people spoke on the call, not the analysts?").kind == "executives"
    assert read_people_ask("Which analysts spoke on the call?").kind == "analysts"
    titled = read_people_ask("kleinerman - title? (snowflake Q2 FY23 call)")
    assert titled is not None and (titled.kind, titled.name) == ("role_of", "kleinerman")


def _call_of(turns: list[dict], texts: dict[int, str] | None = None, opening: str = ""):
    """A call's document and chunks: one chunk per turn (its text from `texts` by index), and a "Call details" chunk
    before them when `opening` is given."""
    from vera_core.records import ChunkRecord
    texts = texts or {}
    doc = _doc("call", {"transcript": {"turns": turns, "participants": []}})
    chunks = [ChunkRecord("c-open", "call", 0, "text", opening, opening, "CALL/Call details", ("Call details",), "s", 1, 1,
                          (), "", "", 5)] if opening else []
    chunks += [ChunkRecord(f"c{i}", "call", i + 1, "text", texts.get(i, "words"), texts.get(i, "words"),
                           f"CALL/{'Questions and answers' if t['section'] == 'qa' else 'Prepared remarks'}/{t['heading']}",
                           (t["heading"],),
                           "s", 1, 1, (), "", "", 5) for i, t in enumerate(turns)]
    return doc, chunks


def _turn(speaker: str, role: str, section: str = "prepared", exchange: int = 0, title: str = "") -> dict:
    return {"speaker": speaker, "role": role, "title": title, "firm": "Acme" if role == "analyst" else "", "section": section,
            "heading": speaker, "exchange": exchange, "page": 1}


def test_two_roles_asked_at_once_and_the_operator_by_the_name_the_call_gives():
    """Round 17: "meta q3 24 call - who's the IR person and what's the operator's name" asks both roles; the operator is
    named as the call names them: the operator's own introduction ("My name is Brent, and I will be your conference
    operator today", before any speaker line), else a company speaker's hand-over ("With that, Krista, let's open up
    the call for questions.")."""
    from vera_core.answer.strategies.speakers import _operator_named, _people
    from vera_core.questions.speakers import read_people_ask
    ask = read_people_ask("meta q3 24 call - who's the IR person and what's the operator's name")
    assert ask is not None and (ask.kind, ask.role, ask.also) == ("role", "investor relations", ("operator",))
    assert read_people_ask("Who introduced the CFO on the call?").also == ()
    turns = [_turn("Ken Dorell", "investor relations"), _turn("Susan Li", "CFO"), _turn("Operator", "operator", "qa"),
             _turn("Brian Nowak", "analyst", "qa", 1)]
    doc, chunks = _call_of(turns, {1: "That is the outlook. With that, Krista, let's open up the call for questions."})
    assert _operator_named(turns, chunks)[:2] == ("Krista", "Krista, let's open up the call for questions.")
    operator = [turn["speaker"] for _, turn, _ in _people(read_people_ask("who was the operator?"), doc, chunks)]
    assert operator == ["Krista"]
    doc, chunks = _call_of(turns, opening="Thank you for standing by. My name is Brent, and I will be your conference "
                                          "operator today.")
    assert _operator_named(turns, chunks)[0] == "Brent"
    doc, chunks = _call_of(turns)  # no name given: the operator as the transcript prints them
    assert [turn["speaker"] for _, turn, _ in _people(read_people_ask("who was the operator?"), doc, chunks)] == ["Operator"]


def test_people_set_aside_and_those_the_host_introduced():
    """Round 17: "Besides Satya Nadella and Amy Hood, which other Microsoft executives did the host say were on the
    call, and what are their titles?": the other executives, the host not among them (routed as a list of people, not
    as a remark of the people named)."""
    from vera_core.answer.strategies.speakers import _people
    from vera_core.questions.speakers import read_people_ask
    question = ("Besides Satya Nadella and Amy Hood, which other Microsoft executives did the host say were on the FY23 Q3 "
                "earnings call, and what are their titles?")
    ask = read_people_ask(question)
    assert ask is not None and ask.kind == "executives" and ask.besides == ("Satya Nadella", "Amy Hood") and ask.introduced
    turns = [_turn("BRETT IVERSEN", ""), _turn("Satya Nadella", "CEO"), _turn("Amy Hood", "CFO"),
             _turn("Alice Jolla", "other executive"), _turn("KEITH WEISS", "analyst", "qa", 1)]
    doc, chunks = _call_of(turns)
    assert [turn["speaker"] for _, turn, _ in _people(ask, doc, chunks)] == ["Alice Jolla"]
    from vera_core.records import DocumentRecord
    from vera_core.retrieve.router import read_question
    call = DocumentRecord(doc_id="m1", name="MSFT_2023Q3_CALL.pdf", format="pdf", sha256="0", pages=12, size_bytes=1,
                          status="ready", parser_version="pdf-13", chunk_count=1, table_count=0, created_at="", ready_at="",
                          metadata={"transcript": {"turns": [], "participants": [
                              {"name": n, "role": r, "firm": "", "title": ""} for n, r in
                              (("Satya Nadella", "CEO"), ("Amy Hood", "CFO"), ("Alice Jolla", "other executive"))]}},
                          kind="other", identity={"doc_type": "transcript", "company": "Microsoft"})
    routed = read_question(question, [call], ["m1"])
    assert routed.intent.subtype == "speakers" and routed.request.besides == ("Satya Nadella", "Amy Hood"), routed.intent


def test_what_a_person_told_an_analyst_is_read_in_the_analyst_s_exchange():
    """Round 17: "What did von Moltke tell Giulia Miotto about Numis?": his turns in the exchange she opened, not his
    prepared remarks' mention of Numis."""
    from vera_core.answer.strategies.remarks import _turn_chunks
    from vera_core.questions.speakers import read_remark_ask
    people = ["James von Moltke", "Giulia Miotto", "Christian Sewing"]
    ask = read_remark_ask("What did von Moltke tell Giulia Miotto about Numis on the DB Q3 2023 call?", people)
    assert ask is not None and ask.to == ("Giulia Miotto",) and ask.section == "qa"
    turns = [_turn("James von Moltke", "CFO"), _turn("Kian Abouhossein", "analyst", "qa", 1),
             _turn("James von Moltke", "CFO", "qa", 1), _turn("Giulia Miotto", "analyst", "qa", 2),
             _turn("James von Moltke", "CFO", "qa", 2)]
    doc, chunks = _call_of(turns, {0: "The Numis acquisition closed.", 4: "On Numis, we're very excited."})
    assert [c.text for c in _turn_chunks(ask, doc, chunks)] == ["On Numis, we're very excited."]
    plain = read_remark_ask("What did von Moltke say about Numis?", people)
    assert plain is not None and plain.to == ()


def test_guidance_is_read_in_the_words_it_is_given_in_and_ex_does_not_end_a_sentence():
    """Round 17: "How did JPM's guidance for NII ex-Markets move across the four 2023 earnings calls?" is answered by "We
    now expect 2023 NII and NII ex. Markets to be approximately $81 billion." on each call: "ex." ends no sentence (the
    sentence had been cut after it and its figure lost), and guidance, outlook and an expectation are said for one
    another, as is an acronym and its plural ("PCL outlook": "I continue to expect PCLs for fiscal 2024 to be ...")."""
    from vera_core.answer.strategies.remarks import _best_said
    from vera_core.answer.units import split_units
    from vera_core.records import ChunkRecord
    text = ("NII ex. Markets was up 57%. We now expect 2023 NII and NII ex. Markets to be approximately $81 billion. "
            "On expenses, we still expect about $81 billion. Mr. Dimon will take questions.")
    chunk = ChunkRecord("c1", "jpm", 1, "text", text, text, "JPM/Prepared remarks/Jeremy Barnum", ("Jeremy Barnum",), "s", 3,
                        3, (), "", "", 40)
    assert [u.text for u in split_units(chunk)] == [
        "NII ex. Markets was up 57%.", "We now expect 2023 NII and NII ex. Markets to be approximately $81 billion.",
        "On expenses, we still expect about $81 billion.", "Mr. Dimon will take questions."]
    said = _best_said([chunk], "guidance for NII ex-Markets")
    assert any(text.startswith("We now expect 2023 NII and NII ex. Markets") for _, text, _ in said), said
    pcl = ChunkRecord("c2", "td", 1, "text", "Card PCLs are absorbed by our partners. Commercial PCLs rose from low levels. "
                      "I continue to expect PCLs for fiscal 2024 to be in a range of 40 to 50 basis points. Our outlook for "
                      "expenses is unchanged.", "", "TD/Prepared remarks/Ajai Bambawale", ("Ajai Bambawale",), "s", 8, 8, (),
                      "", "", 30)
    assert any(text.startswith("I continue to expect PCLs") for _, text, _ in _best_said([pcl], "PCL outlook"))


def test_people_asked_in_round_18_words():
    """Round 18 (dev since its measurement): "who did the operator turn things over to?" asks the hand-off; "who from
    microsoft actually talked on the april 2023 earnings call?" the company speakers; "Besides Satya and Amy, Brett names
    two other company officers as being on the call. Who are they": the others, set aside by first name, the host (who
    names them) not among them."""
    from vera_core.answer.strategies.speakers import _people
    from vera_core.questions.speakers import read_people_ask
    assert read_people_ask("At the start of JPMorgan's 1Q23 call, who did the operator turn things over to?").kind == "handoff"
    talked = read_people_ask("who from microsoft actually talked on the april 2023 earnings call?")
    assert talked is not None and (talked.kind, talked.role) == ("executives", "spoke")
    ask = read_people_ask("Besides Satya and Amy, Brett names two other company officers as being on the call. Who are they "
                          "and what are their titles?")
    assert ask is not None and ask.kind == "executives" and ask.besides == ("Satya", "Amy") and ask.introduced
    turns = [_turn("BRETT IVERSEN", ""), _turn("Satya Nadella", "CEO"), _turn("Amy Hood", "CFO"),
             _turn("Alice Jolla", "other executive"), _turn("KEITH WEISS", "analyst", "qa", 1)]
    doc, chunks = _call_of(turns)
    assert [turn["speaker"] for _, turn, _ in _people(ask, doc, chunks)] == ["Alice Jolla"]


def test_a_topic_across_quarters_read_past_its_persona_acronyms_and_asking_words():
    """Round 18 (w41-039, w41-040; r17 w39-038): "Walk me through how JPMorgan's net interest income guidance moved over
    its four 2023 earnings calls. What number did the CFO give each quarter?" is answered on each call by "We now expect
    2023 NII ... approximately $81 billion": the topic's words are the acronym the CFO says, "moved" and "what number" are
    how it is asked (a figure is asked, so the sentence printing one comes first); "I cover Canadian banks:" is who asks;
    "full-year" counts only where a sentence prints it ("fully absorbed" does not); "the Q1-Q4 FY24 calls" are four."""
    from vera_core.answer.strategies.remarks import _best_said, _topic
    from vera_core.questions.speakers import RemarkAsk, _spanned, quarter_labels
    from vera_core.records import ChunkRecord

    def chunk(n: int, text: str, who: str = "Jeremy Barnum") -> ChunkRecord:
        return ChunkRecord(f"c{n}", "jpm", n, "text", text, text, f"JPM/Prepared remarks/{who}", (who,), "s", 2 + n,
                           2 + n, (), "", "", 40)

    question = ("Walk me through how JPMorgan's net interest income guidance moved over its four 2023 earnings calls. "
                "What number did the CFO give each quarter?")
    topic = _topic(question, RemarkAsk(roles=("CFO",)), ["JPMorgan Chase"], ["2023"])
    assert "moved" not in topic and "number" not in topic, topic
    heard = [chunk(0, "Moving to financial results, CCB reported net income of $5.2 billion, on revenue of $16.5 billion. "
                      "The full year NII outlook, which I will address at the end, still assumes modest deposit outflows."),
             chunk(1, "In Home Lending, revenue was down, driven by lower net interest income from tighter loan spreads."),
             chunk(2, "We now expect 2023 NII and NII ex. Markets to be approximately $81 billion.")]
    said = _best_said(heard, topic, figure=True)
    assert said[0][1].startswith("We now expect 2023 NII") or said[1][1].startswith("We now expect 2023 NII"), said
    assert not any(text.startswith("Moving to financial results") for _, text, _ in said), said

    td = _topic("I cover Canadian banks: how did TD's Chief Risk Officer frame the full-year PCL guidance on each of the "
                "four fiscal 2024 earnings calls (Q1 through Q4)?", RemarkAsk(roles=("CRO",)), ["TD Bank Group"], ["2024"])
    assert not {"cover", "canadian", "banks", "frame"} & set(td.lower().split()), td
    risk = [chunk(0, "Card PCLs recorded in the Corporate segment are fully absorbed by our partners and do not impact the "
                     "Bank's net income.", "Ajai Bambawale"),
            chunk(1, "To conclude, PCLs this quarter were in line with our prior guidance.", "Ajai Bambawale"),
            chunk(2, "To conclude, the Bank exhibited good credit performance this quarter. I continue to expect PCLs for "
                     "fiscal 2024 to be in a range of 40 to 50 basis points, although results may vary.", "Ajai Bambawale")]
    said = _best_said(risk, td)
    assert "c2" in [c.chunk_id for c, _, _ in said] and not any("fully absorbed" in text for _, text, _ in said), said

    aml = _topic("I'm tracking TD's US anti-money-laundering problem through fiscal 2024. For each of the Q1-Q4 FY24 "
                 "calls, what did Masrani say about it in his opening remarks?", RemarkAsk(names=("Masrani",)),
                 ["TD Bank Group"], ["2024"])
    assert not {"tracking", "his", "2024"} & set(aml.lower().split()), aml
    masrani = [chunk(0, "TD Cowen's integration is tracking ahead of schedule in 2024, his team says.", "Bharat Masrani"),
               chunk(1, "In short, we know what the AML issue is and we're making progress in fixing it.", "Bharat Masrani")]
    assert _best_said(masrani, aml)[0][0].chunk_id == "c1"
    q = "For each of the Q1-Q4 FY24 calls, what did Masrani say?"
    assert _spanned(quarter_labels(q), q) == [(2024, 1), (2024, 2), (2024, 3), (2024, 4)]


def test_a_span_written_with_years_a_persona_here_and_a_line_per_quarter():
    """Round 13-15 across-quarter remarks (w31-039, w33-039, w35-038): "from the 1Q23 call through the 4Q23 call" spans
    four calls; "Risk officer here. I want to track what Bharat Masrani told investors about the U.S. AML problem ... -
    one line per quarter" is about the AML problem ("U.S." is no pair of words "u" and "s"); "the head of TD's US retail
    bank" asks the title that holds "retail"."""
    from vera_core.answer.strategies.remarks import _topic
    from vera_core.questions.speakers import RemarkAsk, _spanned, quarter_labels, title_asked
    q = "Walk me through how the CFO's guidance changed from call to call, from the 1Q23 call through the 4Q23 call."
    assert _spanned(quarter_labels(q), q) == [(2023, 1), (2023, 2), (2023, 3), (2023, 4)]
    topic = _topic("Risk officer here. I want to track what Bharat Masrani told investors about the U.S. AML problem on "
                   "each of TD's four fiscal 2024 earnings calls - one line per quarter.",
                   RemarkAsk(names=("Bharat Masrani",)), ["TD Bank Group"], ["2024"])
    assert not {"risk", "officer", "here", "want", "track", "told", "investors", "line"} & set(topic.lower().split()), topic
    assert "AML" in topic
    assert title_asked("what did the head of TD's US retail bank say about returns")[0] == "retail"


def test_what_a_named_person_reported_is_a_remark_and_a_company_s_report_is_not():
    """Round 16 (w37-039): "What net revenue retention rate did Scarpelli report on each Snowflake call from Q4 FY22
    through Q3 FY23?" asks his words on each call, a figure among them (the sentence printing one first); "What revenue
    did Snowflake report on its Q3 call?" names no one and asks the figure."""
    from vera_core.answer.strategies.remarks import _FIGURE_ASKED
    from vera_core.questions.speakers import read_remark_ask
    people = ["Michael P. Scarpelli", "Frank Slootman"]
    ask = read_remark_ask("What net revenue retention rate did Scarpelli report on each Snowflake call from Q4 FY22 "
                          "through Q3 FY23?", people)
    assert ask is not None and ask.names == ("Michael P. Scarpelli",)
    assert read_remark_ask("What revenue did Snowflake report on its Q3 call?", people) is None
    per = read_remark_ask("Per the CFO on Snowflake's Q3 FY23 call, how big a slice of revenue comes from the "
                          "small-business segment?", people)  # round 17, w39-028: the CFO's words
    assert per is not None and per.roles == ("CFO",)
    assert _FIGURE_ASKED.search("What net revenue retention rate did Scarpelli report")


def test_a_passage_that_comes_back_to_the_topic_outweighs_a_passing_mention():
    """Round 14 (w33-027): "What did von Moltke say about Numis on DB's Q3 2023 call?" is his Q&A answer "On Numis, we're
    very excited about the transaction. ... the relationship with the Numis leadership ...", not the prepared remarks'
    list of one-off items that names the Numis goodwill once; "DB's", the file's name for the company, is no topic."""
    from vera_core.answer.strategies.remarks import _best_said, _topic
    from vera_core.questions.speakers import RemarkAsk
    from vera_core.records import ChunkRecord

    def chunk(n: int, text: str) -> ChunkRecord:
        return ChunkRecord(f"c{n}", "db", n, "text", text, text, "DB/Questions and answers/James von Moltke (CFO)",
                           ("James von Moltke (CFO)",), "s", 15 + 10 * n, 15 + 10 * n, (), "", "", 40)

    heard = [chunk(0, "Fourth quarter earnings are expected to be impacted by one-off items, including an impairment of the "
                      "goodwill from the Numis acquisition and a restructuring charge. Revenues were up in every business."),
             chunk(1, "Getting the Postbank portfolio onto the same systems as DB is helpful to us in many ways."),
             chunk(2, "On Numis, we're very excited about the transaction. The first few days with the Deutsche Numis "
                      "organisation have been very successful. The relationship with the Numis leadership is off to a "
                      "great start.")]
    topic = _topic("What did von Moltke say about Numis on DB's Q3 2023 call?", RemarkAsk(names=("James von Moltke",)),
                   ["Deutsche Bank", "DB"], ["2023"])
    assert topic == "Numis", topic
    assert [c.chunk_id for c, _, _ in _best_said(heard, topic)] == ["c2", "c2"]


def test_the_operator_asked_beside_the_hand_off_is_asked_as_the_operator():
    """Round 18 (w41-007): "who moderated, and who did the moderator hand the call to before the prepared remarks?" asks
    the hand-off and the operator, each named as what they were asked for."""
    from vera_core.answer.strategies.speakers import _each_role
    from vera_core.questions.speakers import read_people_ask
    ask = read_people_ask("On the Snowflake Q1 FY23 call, who moderated, and who did the moderator hand the call to "
                          "before the prepared remarks?")
    assert ask is not None and ask.kind == "handoff" and ask.also == ("operator",)
    assert [(a.kind, a.role) for a in _each_role(ask)] == [("handoff", "start"), ("role", "operator")]
    alone = read_people_ask("Who did the operator hand the call to after the welcome?")
    assert alone is not None and alone.also == ()


def test_real_money_next_year_is_monetization_and_revenue_not_the_year():
    """Rounds 14 and 18 (w33-030, w41-028): "did meta's cfo say threads will make real money next year?" is answered by
    "... we don't expect Threads to be a meaningful driver of 2025 revenue": money is said as monetization or revenue,
    and "next year" (like "this quarter") says when, not what of."""
    from vera_core.answer.strategies.remarks import _best_said, _topic
    from vera_core.questions.speakers import RemarkAsk
    from vera_core.records import ChunkRecord

    def chunk(n: int, text: str) -> ChunkRecord:
        return ChunkRecord(f"c{n}", "meta", n, "text", text, text, "META/Prepared remarks/Susan Li (CFO)",
                           ("Susan Li (CFO)",), "s", 6 + n, 6 + n, (), "", "", 40)

    topic = _topic("did meta's cfo say threads will make real money next year?", RemarkAsk(roles=("CFO",)),
                   ["Meta Platforms"], ["2024"])
    assert not {"next", "year", "make"} & set(topic.lower().split()), topic
    heard = [chunk(0, "We expect to make these tools more broadly available by early next year."),
             chunk(1, "Our ad business grew across every region this year."),
             chunk(2, "Specifically, as it pertains to monetization, we don't expect Threads to be a meaningful driver of "
                      "2025 revenue at this time.")]
    assert [c.chunk_id for c, _, _ in _best_said(heard, topic)][:1] == ["c2"]


def test_a_figure_asked_is_answered_by_the_reply_that_prints_one():
    """Rounds 17 and 18 (w39-028, w41-033): "SNOW Q3 FY23 - SMB share of revenue per CFO?" is the CFO's reply "It's less
    than 10% -- it's right around 10%." to the analyst who asked "what the revenue exposure is ... from that SMB
    segment", not a sentence that names the segment and revenue without a figure; a reply printing a figure answers
    only a question that holds half the topic's weight."""
    from vera_core.answer.strategies.remarks import _best_said, _topic
    from vera_core.questions.speakers import RemarkAsk
    from vera_core.records import ChunkRecord

    def chunk(n: int, text: str) -> ChunkRecord:
        return ChunkRecord(f"c{n}", "snow", n, "text", text, text,
                           "SNOW/Questions and answers/Michael P. Scarpelli (CFO, Snowflake Inc.)",
                           ("Michael P. Scarpelli (CFO, Snowflake Inc.)",), "s", 9 + n, 9 + n, (), "", "", 40)

    topic = _topic("SNOW Q3 FY23 - SMB share of revenue per CFO?", RemarkAsk(roles=("CFO",)), ["Snowflake Inc.", "SNOW"],
                   ["2023"])
    heard = [chunk(0, "The only thing that has really changed this quarter, and it's a very small piece of our overall "
                      "revenue, is the SMB segment."),
             chunk(1, "Well, let me clarify something on the top 10 customers and their revenue."),
             chunk(2, "It's less than 10% -- it's right around 10%.")]
    asked = {"c1": ("Can you talk about revenue from your largest customers?", 0),
             "c2": ("Can you remind us what the revenue exposure is from that SMB segment?", 0)}
    said = _best_said(heard, topic, asked, figure=True)
    assert "c2" in [c.chunk_id for c, _, _ in said] and "c1" not in [c.chunk_id for c, _, _ in said], said
