"""Questions about who spoke on a call: who held a role, every analyst who asked a question with their
firm, every company speaker, what role a named person holds. Read from the turns the transcript was cut
into at ingestion (`transcripts/turns.py`), complete (never from the top passages), each person cited to
their first turn, whose speaker line is highlighted on its page."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from vera_core.answer.compose import Piece
from vera_core.answer.strategies.base import Evidence, Plan, Services
from vera_core.text import JOINING_WORDS
from vera_core.documents.identity import Identity, stored_identity
from vera_core.documents.kinds import KIND_CHUNKS
from vera_core.questions.speakers import (BEFORE_QA, EXAMPLE, HANDED_NEXT, MOST_ASKED, PREVIOUS, PRONOUNS, REQUEUED, SIDE,
                                         PeopleAsk, calls_named, firms_named, months_held, read_people_ask)
from vera_core.records import ChunkRecord, DocumentRecord
from vera_core.tables.periods import dates_in
from vera_core.transcripts.speakers import host_of, name_key, participant_names, same_person

__all__ = ["PLACES", "gather", "heading_runs", "held_on", "transcripts", "turn_runs"]

ROLE_NAMES = {"CFO": "Chief Financial Officer", "CEO": "Chief Executive Officer",
              "investor relations": "head of investor relations", "operator": "operator", "host": "host (who opens the call)"}
COMPANY_ROLES = ("CEO", "CFO", "investor relations", "other executive")


def held_on(question: str, calls: list[DocumentRecord], catalog) -> dict[str, tuple[str, ...]]:
    """The dates each call's first page prints ("April 25, 2023"; "26 April 2023": the call's, its transcript's), by doc
    id, when the question names a call by the month it was held (else none is read)."""
    if not months_held(question):
        return {}
    return {doc.doc_id: tuple(dates_in(" ".join(c.text for c in catalog.first_chunks(doc.doc_id, KIND_CHUNKS)
                                                 if c.page_start <= 1))) for doc in calls}


def transcripts(documents: list[DocumentRecord]) -> list[DocumentRecord]:
    """The documents cut into speaker turns at ingestion."""
    return [d for d in documents if (d.metadata or {}).get("transcript", {}).get("turns")]


def gather(plan: Plan, services: Services) -> Evidence:
    ask = plan.request if isinstance(plan.request, PeopleAsk) else read_people_ask(plan.question)
    catalog = services.ws.catalog
    scope = set(services.doc_ids(plan))
    calls = [d for d in transcripts(catalog.documents()) if d.doc_id in scope]
    identities = [(d.doc_id, stored_identity(d, lambda d=d: catalog.first_chunks(d.doc_id, KIND_CHUNKS))) for d in calls]
    chosen = set(calls_named(plan.question, identities, {d.doc_id: d.name for d in calls}, participant_names(calls),
                             held_on(plan.question, calls, catalog)))
    calls = [d for d in calls if d.doc_id in chosen]
    if ask is None or not calls:
        return Evidence(empty_message="No call transcript in scope is of the company or quarter asked."
                        if ask is not None else "", hops=1)
    named = dict(identities)
    found: list[tuple[str, str, dict, ChunkRecord, PeopleAsk]] = []
    absent: list[str] = []
    with services.clock.stage("synthesize"):
        for doc in calls:
            for one in _each_role(ask):
                one = _pronoun_named(one, plan.question, doc)
                people = _people(one, doc, services.ws.doc_chunks(doc.doc_id))
                found.extend((name, _call_label(doc, named[doc.doc_id]), turn, chunk, one) for name, turn, chunk in people)
                if not people:
                    absent.append(_absent(one, doc))
    if ask.kind == "analysts":
        # NOTE: "Which Morgan Stanley analyst asked the questions?": the analysts of the firm named
        # NOTE: "firm first (e.g. 'Evercore - Glenn Schorr')": a firm in an example is no firm asked
        firms = firms_named(EXAMPLE.sub(" ", plan.question), sorted({turn.get("firm", "") for _, _, turn, _, _ in found} - {""}))
        placed_by_all = found
        found = [f for f in found if f[2].get("firm") in firms] if firms else found
    docs = {_call_label(doc, named[doc.doc_id]): doc for doc in calls}  # NOTE: each call by its label in `found`
    if ask.kind == "handoff" and HANDED_NEXT in ask.also:  # NOTE: "..., and who did he hand over to?": the next speaker
        found = [r for f in found for r in [f, *((name, f[1], turn, chunk, replace(f[4], role="after", name=f[2]["speaker"]))
                                                 for name, turn, chunk in _next_to(
                                                     PeopleAsk("handoff", role="after", name=f[2]["speaker"]), docs[f[1]],
                                                     services.ws.doc_chunks(docs[f[1]].doc_id)))]]
    places = ask.role.split(PLACES_JOINED) if ask.kind == "analysts" else []
    places = places if places and all(p in PLACES for p in places) else []
    if places:
        # NOTE: "who asked the first question?": of each call's analysts in the order they first asked, the one asked;
        # "who asked the first question and who asked the last one?": each place asked
        by_call: dict[str, list] = {}
        for f in found:
            by_call.setdefault(f[1], []).append(f)
        lasts = {label: _askers_from_end(doc) for label, doc in docs.items()} \
            if any(PLACES[p] < 0 for p in places) else {}
        if not any(-len(each) <= PLACES[p] < len(each) for p in places for each in by_call.values()):
            # NOTE: "2nd question came from morgan stanley. was it keith weiss or someone else?": the firm says where the
            # question in that place came from, not which of its analysts are counted
            by_call = {}
            for f in placed_by_all:
                by_call.setdefault(f[1], []).append(f)
        placed = []
        for role in places:
            place = PLACES[role]
            at = [each[place] for each in by_call.values() if -len(each) <= place < len(each)]
            if place < 0:
                # NOTE: "last analyst in the queue": whoever asked the call's last question, back in the queue or not
                # (Citi's Gerard Cassidy, who had asked before); "the second-to-last": the one who asked before them
                at = [next((f for f in by_call[one[1]] if len(lasts[one[1]]) >= -place and f[0] == lasts[one[1]][-place - 1]),
                           one) for one in at]
            placed += [f for f in at if f not in placed]
        found = placed
        if REPLIED in ask.also:  # NOTE: "..., and which executive answered him?": those who replied in their exchange
            found = [r for f in found for r in [f, *_replies(f, docs[f[1]], services.ws.doc_chunks(docs[f[1]].doc_id))]]
    pieces = _pieces(ask, found)
    if ask.kind == "role_of" and pieces:
        absent = []  # NOTE: a person is on some calls only; the calls they are on answer
    lead = {"analysts": "Analysts who asked questions", "executives": "Company speakers"}.get(ask.kind, "")
    lead = "Analysts who came back to the queue (asked in two exchanges or more)" if ask.role == REQUEUED else lead
    lead = "The analyst who put the most turns to the company in the Q&A" if ask.role == MOST_ASKED else lead
    lead = f"The {ask.role} analyst{'s' if len(places) > 1 else ''} to ask a question" if places else lead
    lead = f"{lead}, and who replied" if ask.kind == "analysts" and REPLIED in ask.also and lead else lead
    return Evidence(pieces=tuple(pieces), is_list=ask.kind in ("analysts", "executives"),
                    lead=f"{lead}:" if lead and pieces else "", hops=1, notices=tuple(absent),
                    sections=tuple(f"{d.stem}: participant lists and every speaker line" for d in calls),
                    empty_message=" ".join(absent) if absent and not pieces else "")


PLACES = {"first": 0, "second": 1, "third": 2, "fourth": 3, "fifth": 4, "sixth": 5, "seventh": 6, "eighth": 7, "last": -1,
          "second-to-last": -2, "third-to-last": -3, "fourth-to-last": -4}
"""An analyst's place in the Q&A, as an index of the analysts in the order they first asked (a place from the end, the
order of their last questions: `_askers_from_end`)."""
PLACES_JOINED = " and "
"""Two places asked at once ("first and last")."""


REPLIED = "replied"
"""An analyst asked by place with those who replied to them (`PeopleAsk.also`)."""


def _askers_from_end(doc: DocumentRecord) -> list[str]:
    """The name keys of the Q&A's analysts from its last question back, each once (where they last asked)."""
    return list(dict.fromkeys(name_key(t["speaker"]) for t in reversed(doc.metadata["transcript"]["turns"])
                              if t["section"] == "qa" and t["role"] == "analyst"))


def _each_role(ask: PeopleAsk) -> list[PeopleAsk]:
    """The asks of a question about people: one per role asked."""
    return [ask] + [replace(ask, kind="role", role=role, also=()) for role in ask.also if role not in (REPLIED, HANDED_NEXT)]


def _replies(found: tuple[str, str, dict, ChunkRecord, PeopleAsk], doc: DocumentRecord, chunks: list[ChunkRecord]
             ) -> list[tuple[str, str, dict, ChunkRecord, PeopleAsk]]:
    """The company speakers who replied in the exchange of an analyst's first question, each with the opening of their
    reply."""
    key, label, turn, _, one = found
    exchange = turn.get("exchange")
    out, seen = [], set()
    turns = doc.metadata["transcript"]["turns"]
    for t, run in zip(turns, turn_runs(turns, chunks)):
        if exchange and t.get("exchange") == exchange and t["role"] in COMPANY_ROLES and name_key(t["speaker"]) not in seen:
            chunk = _turn_opening(t, run, chunks)  # NOTE: the reply itself, not the speaker's first turn
            if chunk is not None:
                seen.add(name_key(t["speaker"]))
                out.append((name_key(t["speaker"]), label, t, chunk, one))
    return out


def _call_label(doc: DocumentRecord, identity: Identity) -> str:
    when = identity.quarter.replace("-", " ") if identity.quarter else doc.stem
    return f"{identity.company or doc.stem} {when} call"


def _people(ask: PeopleAsk, doc: DocumentRecord, chunks: list[ChunkRecord]) -> list[tuple[str, dict, ChunkRecord]]:
    """Each person the question asks for on one call with their first turn (of the Q&A, for analysts) and
    the chunk that turn opens."""
    if ask.kind == "handoff" and ask.role == "first":  # NOTE: whoever speaks first after the operator's welcome
        turn = next((t for t in doc.metadata["transcript"]["turns"] if t["role"] != "operator"), None)
        chunk = _opening_chunk(turn, chunks) if turn else None
        return [(name_key(turn["speaker"]), turn, chunk)] if turn and chunk else []
    if ask.kind == "welcomed":
        return _welcomed(doc, chunks)
    if ask.kind == "handoff" and ask.role in ("before", "after", PREVIOUS):
        return _next_to(ask, doc, chunks)
    if ask.kind == "handoff" and ask.role == BEFORE_QA:
        return _before_qa(doc, chunks)
    if ask.kind == "handoff":
        return _handed_to(ask, doc, chunks)
    first: dict[str, dict] = {}
    for turn in doc.metadata["transcript"]["turns"]:
        if ask.kind == "analysts" and not (turn["section"] == "qa" and turn["role"] == "analyst"):
            continue
        first.setdefault(name_key(turn["speaker"]), turn)
    out = []
    host = host_of(doc.metadata["transcript"]["turns"]) if ask.kind in ("role", "executives") else ""
    asked_turns = Counter(name_key(t["speaker"]) for t in doc.metadata["transcript"]["turns"]
                          if t["section"] == "qa" and t["role"] == "analyst") if ask.role == MOST_ASKED else Counter()
    for key, turn in first.items():
        role = turn["role"]
        if host and key == host and (ask.kind == "role" and ask.role == "host" or ask.kind == "executives" and not role):
            # NOTE: the call's host is a company speaker even when no title is printed for them (Microsoft's Brett
            # Iversen opens the call and hands over to the CEO)
            role = "host" if ask.kind == "role" else "other executive"
        if not _asked(ask, key, role, turn["title"] if "title" in turn else "", turn["speaker"]):
            continue
        if ask.kind == "executives" and (ask.introduced and key == host or _set_aside(ask, turn["speaker"], role)):
            continue  # NOTE: "Besides Satya Nadella and Amy Hood, which other executives did the host say were on the call"
        if ask.kind == "analysts" and ask.role == REQUEUED and len({
                t.get("exchange") for t in doc.metadata["transcript"]["turns"]
                if t["section"] == "qa" and name_key(t["speaker"]) == key}) < 2:
            continue  # NOTE: "which analysts came back in the queue?": those who asked in two exchanges or more
        if ask.kind == "analysts" and ask.role == MOST_ASKED \
                and asked_turns.get(key, 0) < max(asked_turns.values(), default=0):
            continue  # NOTE: "which analyst asked the most?": the one (or those tied) with the most turns of the Q&A
        if ask.role == "qa_only" and any(t["section"] != "qa" for t in doc.metadata["transcript"]["turns"]
                                         if name_key(t["speaker"]) == key):
            continue  # NOTE: "joined just for the Q&A": no turn of theirs in the prepared remarks
        chunk = _opening_chunk(turn, chunks)
        if chunk is not None:
            out.append((key, turn, chunk))
    if ask.kind in ("role", "title", "role_of") or ask.kind == "executives" and ask.role not in ("spoke", "qa_only"):
        out += _listed_only(ask, doc, chunks, set(first))
    if ask.kind == "role" and ask.role == "operator":
        named = _operator_named(doc.metadata["transcript"]["turns"], chunks) or _operator_addressed(chunks)
        if named is not None:  # NOTE: "what's the operator's name": the name the call gives them, where it gives it
            name, quote, chunk = named
            # NOTE: a call that prints no operator turn ("(Operator Direction.)") names its operator in the host's words
            base = out[:1] or [(name_key(name), {"speaker": name, "role": "operator", "title": "", "firm": "",
                                                 "heading": ""}, chunk)]
            out = [(key, {**turn, "speaker": name, "said": quote}, chunk) for key, turn, _ in base]
    return out


_SELF_NAMED = re.compile(r"\b[Mm]y\s+name\s+is\s+(?P<n>[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?),?\s+and\s+I(?:\s+will|['\u2019]ll)\s+be\s+"
                         r"your\s+(?:\w+\s+){0,2}(?:operator|moderator|coordinator)\b")
"""The operator naming themselves ("My name is Brent, and I will be your conference operator today")."""
_ADDRESSED = re.compile(r"\b(?P<n>[A-Z][a-z]{2,}),\s+(?:let['\u2019]s|let\s+us|please|can\s+you|could\s+you|would\s+you|"
                        r"go\s+ahead|you\s+can|we\s+(?:can|will|are)|we['\u2019](?:re|ll))\b[^.?!]{0,80}\b(?:questions?|Q\s?&\s?A|"
                        r"lines?|call|queue)\b[^.?!]*[.?!]?")
"""A company speaker handing over to the operator by name ("With that, Krista, let's open up the call for questions.")."""
_NOT_A_NAME = frozenset("With So And Okay Operator Thanks Thank Now Well Great Yes Sure".split())


def _operator_named(turns: list[dict], chunks: list[ChunkRecord]) -> tuple[str, str, ChunkRecord] | None:
    """The operator's name as the call gives it, the words that give it and the chunk they are in: the operator's own
    introduction ("My name is Brent, and I will be your conference operator today"), else a company speaker's hand-over
    to the operator just before an operator's turn."""
    for chunk in chunks:  # NOTE: the welcome may precede every speaker line ("Call details")
        m = _SELF_NAMED.search(chunk.text)
        if m:
            return m.group("n"), m.group(0), chunk
    runs = turn_runs(turns, chunks)
    for i in range(1, len(turns)):
        if turns[i]["role"] != "operator" or turns[i - 1]["role"] in ("operator", "analyst") or not runs[i - 1]:
            continue
        last = runs[i - 1][-1]
        found = [m for m in _ADDRESSED.finditer(last.text) if m.group("n") not in _NOT_A_NAME]
        if found:
            return found[-1].group("n"), found[-1].group(0), last
    return None


_CALLED_ON = re.compile(r"\b(?P<n>[A-Z][a-z]{2,}),\s+(?:(?:we\s+have\s+)?(?:the\s+)?next\s+question|(?:we\s+have\s+)?time\s+for\s+"
                        r"(?:one|a)\s+(?:more|last|final)\s+question|can\s+you\s+(?:please\s+)?(?:repeat|give)\s+(?:your|the)\s+"
                        r"instructions)\b[^.?!]{0,40}[.?!]?")
"""The host calling on the operator by name between questions ("Joe, next question, please.")."""


def _operator_addressed(chunks: list[ChunkRecord]) -> tuple[str, str, ChunkRecord] | None:
    """The operator's name where a call prints no operator turn: the one name the host calls on between questions at
    least twice ("Joe, can you please repeat your instructions?", "Joe, next question, please.")."""
    found = [(m.group("n"), m.group(0), c) for c in chunks for m in _CALLED_ON.finditer(c.text)
             if m.group("n") not in _NOT_A_NAME]
    names = {n for n, _, _ in found}
    return found[0] if len(names) == 1 and len(found) >= 2 else None


_SENTENCE_END = re.compile(r"(?<!\bMr\.)(?<!\bMs\.)(?<!\bDr\.)(?<!\bMrs\.)(?<=[.!?])\s+")
"""A sentence's end; never after an honorific ("Mr. Barnum, Mr. Dimon, please go ahead.")."""


_HANDS_OVER = re.compile(r"\b(?:go\s+ahead|(?:may|can)\s+(?:now\s+)?(?:begin|proceed|start)|please\s+(?:begin|proceed)|"
                         r"(?:over|back)\s+to|turn\s+(?:the\s+(?:call|meeting|conference)\s+|it\s+)?(?:back\s+)?(?:over\s+)?to|"
                         r"hand(?:ing)?\s+(?:the\s+call|it)\s+(?:back\s+)?(?:over\s+)?to|floor\s+is\s+yours)\b", re.I)
"""The operator's words that hand the call over."""


def _opening_chunk(turn: dict, chunks: list[ChunkRecord]) -> ChunkRecord | None:
    """The first chunk under a turn's speaker heading."""
    return next((c for c in chunks if c.heading_path.endswith("/" + turn["heading"])), None)


def heading_runs(chunks: Sequence[ChunkRecord]) -> list[list[ChunkRecord]]:
    """A call's chunks (by position) cut into runs under one heading each: a turn's chunks sit under its speaker's
    heading, one run after another."""
    runs: list[list[ChunkRecord]] = []
    for chunk in chunks:
        if runs and runs[-1][0].heading_path == chunk.heading_path:
            runs[-1].append(chunk)
        else:
            runs.append([chunk])
    return runs


RUNS_AHEAD = 3
"""Runs of chunks searched for a turn's, from the run after the previous turn's."""


def turn_runs(turns: list[dict], chunks: list[ChunkRecord]) -> list[list[ChunkRecord]]:
    """Each turn's chunks, in order: the run under its heading that follows the previous turn's."""
    runs = heading_runs(chunks)
    out: list[list[ChunkRecord]] = []
    at = 0
    for turn in turns:
        # NOTE: a turn too short to be a chunk of its own ("Operator: Next question.") has no run: the next few runs are
        # searched, never one far ahead of the same speaker (which would leave every turn between without its run)
        found = next((i for i in range(at, min(len(runs), at + RUNS_AHEAD))
                      if runs[i][0].heading_path.split("/")[-1] == turn["heading"]), None)
        out.append(runs[found] if found is not None else [])
        at = found + 1 if found is not None else at
    return out


def _handed_to(ask: PeopleAsk, doc: DocumentRecord, chunks: list[ChunkRecord]) -> list[tuple[str, dict, ChunkRecord]]:
    """Whom the operator hands the call to: after the welcome (the first operator turn a company speaker follows) or
    after the Q&A (the last). The people the operator's words name, in the order named ("turn the call over to
    JPMorgan Chase's Chief Financial Officer, Jeremy Barnum, and their Chairman and CEO, Jamie Dimon"), else the
    speaker who follows; cited to the operator's words."""
    turns = doc.metadata["transcript"]["turns"]
    texts = turn_runs(turns, chunks)
    handing = [i for i, t in enumerate(turns[:-1]) if t["role"] == "operator" and turns[i + 1]["role"] in COMPANY_ROLES + ("",)]
    asked_last = max((i for i, t in enumerate(turns) if t["role"] == "analyst"), default=-1)
    company_last = max((i for i, t in enumerate(turns) if t["role"] in COMPANY_ROLES), default=-1)
    if ask.role == "end" and company_last > asked_last and not any(i > asked_last for i in handing):
        # NOTE: a call with no operator (Deutsche Bank's), or none that hands over after the Q&A (Meta's, whose investor
        # relations director closes it): whoever speaks last for the company closes it
        chunk = _opening_chunk(turns[company_last], chunks)
        return [(name_key(turns[company_last]["speaker"]), {**turns[company_last], "closes": True}, chunk)] \
            if chunk is not None else []
    if not handing:
        return []
    i = handing[0] if ask.role == "start" else handing[-1]
    said = " ".join(c.text for c in texts[i])
    people = {name_key(t["speaker"]): t for t in turns if t["role"] in COMPANY_ROLES + ("",)}
    listed = {name_key(p["name"]): {"speaker": p["name"], "role": p["role"], "title": p.get("title", ""),
                                     "firm": p.get("firm", ""), "heading": turns[i]["heading"]}
              for p in doc.metadata["transcript"].get("participants", []) if p.get("role") not in ("operator", "analyst")}
    candidates = {**listed, **people}
    named: list[tuple[int, str, dict]] = []
    # NOTE: the first sentence of the operator's words that hands over and names someone ("turn the call over to ...
    # Jeremy Barnum, and ... Jamie Dimon", "Ms. Landis, you may begin."); a sentence before may name everyone on the
    # call ("hosted by Jennifer Landis ... with Jane Fraser and Mark Mason"), and the turn may run on into the next
    # speaker's words when no speaker line parts them
    handing = ""
    for sentence in _SENTENCE_END.split(said):
        if not _HANDS_OVER.search(sentence):
            continue
        named = sorted((m.start(), key, turn) for key, turn in candidates.items()
                       if (m := _surname_in(turn["speaker"], sentence)))
        if named:
            handing = sentence.strip()
            break
    chosen = [(key, turn) for _, key, turn in named] or [(name_key(turns[i + 1]["speaker"]), turns[i + 1])]
    cited = next((c for c in texts[i] if handing and handing in c.text), None) or \
        next((c for c in texts[i] if any(_surname_in(t["speaker"], c.text) for _, t in chosen)),
             texts[i][-1] if texts[i] else None)
    if cited is None:
        return []
    # NOTE: the claim is checked against, and its citation narrowed to, the operator's sentence that hands over
    # (the turn's heading, "Operator", is not in its words)
    said_here = handing if handing and handing in cited.text else ""
    return [(key, {**turn, "heading": turns[i]["heading"], "said": said_here}, cited) for key, turn in chosen]


_WELCOME = re.compile(r"[^.!?]*\bwelcom\w*\b[^.!?]*\b(?:first\s+time|new(?:ly)?\s+(?:to|on|joined)|joining\s+(?:us|the\s+call|"
                      r"this\s+call))\b[^.!?]*[.!?]?", re.I)
"""A sentence that welcomes people new to the call ("I'd like to welcome Tim Wiggan, Group Head, ..., who is joining us
for the first time.")."""


def _welcomed(doc: DocumentRecord, chunks: list[ChunkRecord]) -> list[tuple[str, dict, ChunkRecord]]:
    """The people a company speaker's sentence welcomes as new to the call, in the order named, cited to it: those the
    call's turns or participant lists name, by surname in the sentence."""
    turns = doc.metadata["transcript"]["turns"]
    people = {name_key(t["speaker"]): t for t in turns if t["role"] in COMPANY_ROLES + ("",)}
    for p in doc.metadata["transcript"].get("participants", []):
        if p.get("role") not in ("operator", "analyst"):
            people.setdefault(name_key(p["name"]), {"speaker": p["name"], "role": p["role"], "title": p.get("title", ""),
                                                    "firm": p.get("firm", ""), "heading": p["name"]})
    for chunk in chunks:
        for m in _WELCOME.finditer(" ".join(chunk.text.split())):
            sentence = m.group(0).strip()
            named = sorted((found.start(), key, turn) for key, turn in people.items()
                           if (found := re.search(rf"\b{re.escape(turn['speaker'])}\b", sentence)))
            # NOTE: "... welcome Sona Mehta, ..., and Paul Clark, ...": a person the call names nowhere else, as printed
            known = {turn["speaker"].split()[-1] for _, _, turn in named}
            named = sorted(named + [(f.start("n"), name_key(f.group("n")), {
                "speaker": f.group("n"), "role": "other executive", "firm": "", "heading": "",
                "title": (t.group("t") if (t := _TITLE_AFTER.match(sentence, f.end("n"))) else "")})
                for f in _WELCOMED_NAME.finditer(sentence) if f.group("n").split()[-1] not in known], key=lambda x: x[0])
            if named:
                return [(key, {**turn, "said": sentence}, chunk) for _, key, turn in named]
    return []


_TITLE_AFTER = re.compile(r",\s*(?P<t>[A-Z][^,\u2013\u2014]{2,60}(?:,\s*[A-Z][^,\u2013\u2014]{2,40})?)"
                          r"(?=\s*(?:,?\s+and\s+[A-Z]|[\u2013\u2014-]\s*who\b|,?\s+who\b))")
"""The title printed after a name in a welcome (", Senior Executive Vice President, Wealth Management – who ...")."""
_WELCOMED_NAME = re.compile(r"(?:\bwelcome\s+|,?\s+and\s+)(?P<n>[A-Z][a-z]+(?:\s+[A-Z]\.)?\s+[A-Z][a-z]+(?:-[A-Z][a-z]+)?)\b")
"""A person named in a welcome, first name and surname ("welcome Sona Mehta, ..., and Paul Clark, ...")."""


def _next_to(ask: PeopleAsk, doc: DocumentRecord, chunks: list[ChunkRecord]) -> list[tuple[str, dict, ChunkRecord]]:
    """Who spoke just before the first turn of the person or role named (`before`: "who handed off to Slootman?"), or
    the next company speaker after it (`after`: "which executive spoke after the CFO?"); [] when the call has no turn of
    theirs."""
    turns = doc.metadata["transcript"]["turns"]
    role = next((r for r in COMPANY_ROLES if ask.name.upper() == r.upper()), "")
    # NOTE: "O'Connor" is the printed "O\u2019CONNOR": one apostrophe
    words = {w.lower() for w in re.findall(r"[A-Za-z][\w'-]+", ask.name.replace("\u2019", "'")) if len(w) > 2}

    def theirs(t: dict) -> bool:
        if role:
            return t["role"] == role
        said = {w.lower() for w in re.findall(r"[A-Za-z][\w'-]+", t["speaker"].replace("\u2019", "'"))}
        # NOTE: "Zuck" is Mark Zuckerberg: one word, four letters or more, that starts a name's word
        return bool(words) and words <= said or bool(words & said) and len(words) == 1 or len(words) == 1 and any(
            len(w) >= 4 and s.startswith(w) for w in words for s in said)
    at = next((i for i, t in enumerate(turns) if theirs(t)), None)
    if at is None:
        return []
    own = name_key(turns[at]["speaker"])
    # NOTE: after an analyst, the next analyst to ask ("which analyst got to ask right after Gerard Cassidy?"); after a
    # company speaker, the next company speaker
    after = ("analyst",) if turns[at]["role"] == "analyst" else COMPANY_ROLES
    if ask.role == "before":
        other = at - 1 if at > 0 else None
    elif ask.role == PREVIOUS:  # NOTE: the analyst who asked just before the one named
        other = next((i for i in range(at - 1, -1, -1)
                      if turns[i]["role"] == "analyst" and name_key(turns[i]["speaker"]) != own), None)
    else:
        other = next((i for i in range(at + 1, len(turns))
                      if name_key(turns[i]["speaker"]) != own and turns[i]["role"] in after), None)
    if other is None:
        return []
    chunk = _turn_opening(turns[other], turn_runs(turns, chunks)[other], chunks)
    other = turns[other]
    return [(name_key(other["speaker"]), other, chunk)] if other and chunk else []


def _pronoun_named(ask: PeopleAsk, question: str, doc: DocumentRecord) -> PeopleAsk:
    """A hand-off's person named by pronoun ("Ari Terjanian ... asked the final question. Which analyst asked right
    before him?"): the speaker of the call whose surname the question prints, an analyst first; else as asked."""
    if ask.kind != "handoff" or ask.name.lower() not in PRONOUNS:
        return ask
    turns = doc.metadata["transcript"]["turns"]
    named = [t for t in turns if t["role"] not in ("operator", "") and _surname_in(t["speaker"], question)]
    named.sort(key=lambda t: t["role"] != "analyst")
    return replace(ask, name=named[0]["speaker"]) if named else ask


def _before_qa(doc: DocumentRecord, chunks: list[ChunkRecord]) -> list[tuple[str, dict, ChunkRecord]]:
    """The company speaker whose turn ends the prepared remarks (the last before the Q&A's first turn), cited to it."""
    turns = doc.metadata["transcript"]["turns"]
    opens = next((i for i, t in enumerate(turns) if t["section"] == "qa"), None)
    last = next((i for i in range(opens - 1, -1, -1) if turns[i]["role"] in COMPANY_ROLES), None) if opens else None
    if last is None:
        return []
    chunk = _turn_opening(turns[last], turn_runs(turns, chunks)[last], chunks)
    return [(name_key(turns[last]["speaker"]), turns[last], chunk)] if chunk is not None else []


def _turn_opening(turn: dict, run: list[ChunkRecord], chunks: list[ChunkRecord]) -> ChunkRecord | None:
    """The first chunk of this very turn (`run`, its chunks from `turn_runs`), else the first under its speaker's heading."""
    return run[0] if run else _opening_chunk(turn, chunks)


def _surname_in(speaker: str, text: str) -> re.Match | None:
    """Where `text` names the speaker by surname, in any case; None when it does not (or no name is printed)."""
    return re.search(rf"\b{re.escape(speaker.split()[-1])}\b", text, re.I) if speaker.split() else None


def _listed_only(ask: PeopleAsk, doc: DocumentRecord, chunks: list[ChunkRecord], spoke: set[str]
                 ) -> list[tuple[str, dict, ChunkRecord]]:
    """People the participant lists name whose turns were not read: cited to the list."""
    out = []
    for person in doc.metadata["transcript"].get("participants", []):
        key, role = name_key(person["name"]), person["role"]
        if key in spoke or role in ("operator", "analyst", ""):
            continue
        if not _asked(ask, key, role, person["title"], person["name"]) or _set_aside(ask, person["name"], role):
            continue
        printed = re.sub(r"[\s-]+", "", person["name"])
        chunk = next((c for c in chunks if printed in re.sub(r"[\s-]+", "", c.text)), None)
        if chunk is not None:
            out.append((key, {"speaker": person["name"], "role": role, "title": person["title"],
                              "firm": person["firm"], "heading": person["name"]}, chunk))
    return out


def _set_aside(ask: PeopleAsk, name: str, role: str = "") -> bool:
    """Whether the question sets the person aside ("Besides Satya Nadella and Amy Hood ...", "besides the CEO and
    CFO": their role)."""
    first = name.split()[0].lower() if name.split() else ""
    # NOTE: "Besides Satya and Amy": a first name alone sets aside the person it begins
    return any(name_key(named) == name_key(name) or same_person(named, name) or (role and named == role)
               or (len(named.split()) == 1 and named.lower() == first) for named in ask.besides)


def _asked(ask: PeopleAsk, key: str, role: str, title: str, name: str = "") -> bool:
    """Whether a person (name key, role, printed title) is one the question asks for."""
    if ask.kind == "role":
        return role == ask.role
    if ask.kind == "title":
        # NOTE: "head of Wholesale Banking" is the title printed "Group Head, Wholesale Banking"
        return ask.name.lower() in title.lower() or (bool(words := _title_words(ask.name)) and words <= _title_words(title))
    if ask.kind == "executives":
        return role in COMPANY_ROLES
    return ask.kind != "role_of" or any(key == name_key(n) or same_person(n, name) for n in (ask.name, *ask.others))


def _title_words(text: str) -> set[str]:
    """A title's words, in lower case, without the words that join them."""
    return {w for w in re.findall(r"[a-z&]+", text.lower()) if w not in JOINING_WORDS}




def _pieces(ask: PeopleAsk, found: list[tuple[str, str, dict, ChunkRecord, PeopleAsk]]) -> list[Piece]:
    """One claim per person and call; a person asked by role or name is named once with every call they
    are on (cited on the last)."""
    if ask.kind in ("analysts", "executives"):
        return [Piece(f"{_who(turn)}, {label}", chunk, turn["heading"], checked=turn["heading"])
                for _, label, turn, chunk, _ in found]
    by_person: dict[str, list[tuple[str, dict, ChunkRecord]]] = {}
    roles: dict[str, list[str]] = {}
    asked: dict[str, PeopleAsk] = {}
    for key, label, turn, chunk, one in found:
        # NOTE: "who hosted ... and what is their position": one person in two roles is named once, with both
        key = f"{key}|{name_key(turn['speaker'])}"  # (an operator is named by each call's name for them)
        asked.setdefault(key, one)  # NOTE: "who moderated, and who did the moderator hand the call to": each as asked
        if one.role not in roles.setdefault(key, []):
            roles[key].append(one.role)
        if (label, turn["speaker"]) not in {(c[0], c[1]["speaker"]) for c in by_person.get(key, [])}:
            by_person.setdefault(key, []).append((label, turn, chunk))
    pieces = []
    for key, calls in by_person.items():
        label, turn, chunk = calls[-1]
        where = calls[0][0] if len(calls) == 1 else "calls: " + "; ".join(c[0] for c in calls)
        one = asked[key]
        held = " and the ".join(ROLE_NAMES.get(r, r) for r in roles[key])
        titled = f"answers for the {one.name} side (their title names it)" if one.role == SIDE else f"is the {one.name}"
        verb = {"role": f"is the {held}", "title": titled, "welcomed": "is welcomed as new to the call",
                "handoff": "speaks first after the operator" if one.role == "first" else
                f"speaks just before {one.name}" if one.role == "before" else
                f"asks just before {one.name}" if one.role == PREVIOUS else
                "speaks last in the prepared remarks, just before the Q&A" if one.role == BEFORE_QA else
                f"speaks next after the {one.name}" if one.role == "after" and one.name.isupper() else
                f"speaks next after {one.name}" if one.role == "after" else
                "is handed the call by the operator " + ("after the Q&A" if one.role == "end" else
                                                         "after the welcome")}.get(one.kind, "speaks")
        if turn.get("closes"):
            verb = "speaks last for the company, closing the call (no operator hands over after the Q&A)"
        quote = turn.get("said") or turn["heading"]
        pieces.append(Piece(f"{_who(turn)} {verb} on the {where}.", chunk, quote, checked=quote))
    return pieces


def _who(turn: dict) -> str:
    """'Jeremy Barnum (Chief Financial Officer, JPMorgan Chase & Co.)'; an analyst with their firm."""
    about = ", ".join(" ".join(p.split()) for p in (turn["title"], turn["firm"]) if p) or \
        ROLE_NAMES.get(turn["role"], turn["role"])
    return f"{turn['speaker']} ({about or 'role not printed'})"


def _absent(ask: PeopleAsk, doc: DocumentRecord) -> str:
    what = {"role": f"as {ROLE_NAMES.get(ask.role, ask.role)}", "title": f"as {ask.name}", "analysts": "as an analyst asking a question",
            "executives": "as a company speaker", "role_of": f"as {' or '.join((ask.name, *ask.others))}",
            "handoff": "as handed the call by the operator", "welcomed": "as welcomed new to the call"}[ask.kind]
    return (f"No speaker on {doc.stem} is named {what}: read its participant lists and every speaker line "
            f"of its prepared remarks and Q&A.")
