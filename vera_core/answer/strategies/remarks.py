"""What someone said on a call ("what did Jamie Dimon say about the consumer?", "what did the CFO say
about expenses?", "did anyone ask about deposit betas in the Q&A?"): the turns of the person, role or
section asked, on each call asked (by company and quarter), and their sentences that best share the
question's topic; one cited answer per call, the speaker and call named. A call where the person spoke
but never of the topic says so rather than quoting something else."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace

from vera_core.answer.compose import Piece
from vera_core.answer.strategies.base import Evidence, Plan, Services
from vera_core.answer.acronyms import as_acronyms, spelt_out
from vera_core.answer.meaning import closeness, topic_vector
from vera_core.answer.units import Unit, rarity_weights, shared_weight, split_units
from vera_core.answer.strategies.speakers import COMPANY_ROLES, PLACES, heading_runs, held_on, transcripts
from vera_core.documents.filters import SPEAKER_ROLES
from vera_core.documents.identity import stored_identity
from vera_core.documents.kinds import KIND_CHUNKS
from vera_core.finance.dates import MONTH_WORD, YEAR_WORD
from vera_core.questions.speakers import (BOTH_SECTIONS, CLOSING, FIELDED, FIELDED_VERBS, PERSONA, ROLE_WORDS, RemarkAsk, analyst_place,
                                         calls_named, firms_named, holds_title, title_asked, who_replied_asked, without_asker)
from vera_core.records import ChunkRecord, DocumentRecord
from vera_core.text import CAPITALISED_NOT_NAMES, term_list, terms
from vera_core.transcripts.speakers import host_of, name_key, participant_names, same_person
from vera_core.transcripts.turns import OPENING, PREPARED, QA

__all__ = ["gather", "speaker_plan"]

MAX_CALLS = 8
CLOSING_SAID = 4
"""Sentences quoted of the last turn a speaker closed the call with."""
_COURTESY = re.compile(r"^\W*(?:[\w\u2019']+,\s*)?(?:(?:and\s+)?(?:thank|thanks|great|good|ok(?:ay)?|well|all\s+right|alright|yeah|"
                       r"yes|sure|right|hi|hey)\b[^.!?]{0,40}[.!?]?\W*$|(?:thank\s+you|thanks)\b(?!\s+to\b))", re.I)
"""A sentence of courtesy ("Thank you very much, operator.", "And great questions.", "Mike, thanks for the question."):
no part of what was said ("Thanks to strong demand, ..." is)."""
MAX_SAID = 2
"""Sentences quoted per call."""
SUBSTANCE_WORDS = 8
"""A sentence this long says something; a shorter one opening a turn is a greeting or a thank-you."""
SKIPPED_TURNS = 3
"""Turns without a chunk of their own passed over when the Q&A's chunks are lined up with its turns."""
MAX_EXCHANGE = 6
"""Turns quoted of the exchanges a firm's analyst had (the question and its answers)."""
SHORT_SAID = 40
"""A sentence shorter than this (characters) says little of a topic on its own."""
ASKED_SHARE = 0.5
"""The share of the weight of the topic's words in an analyst's question that the first sentences of the answer to it
carry: a reply does not repeat the question's words ("buybacks on hold? ... Ray?" - "I think until we go through the
strategic review, ... that would be the right way to look at it.")."""
REPLY_UNITS = 2
"""The sentences of substance (SUBSTANCE_WORDS) of a reply that answer the question before it."""
_LEAD_IN = re.compile(r"\b(?:(?:to|on|for|regarding)\s+(?:the|your|that)\s+(?:(?:other|second|first|last|next|final)\s+)?"
                      r"question\s+(?:on|about|around|of|regarding)|turning\s+to|as\s+(?:for|to)|with\s+(?:respect|regard)\s+to)\b",
                      re.I)
"""A sentence that names the question it turns to ("Tom, to the other question on the revenue guidance."): the sentence
after it says what was answered, and is quoted with it."""
PHRASE_SHARE = 0.5
"""The share of the lighter word's weight two of the topic's words add when a sentence prints them together."""
_QUARTER = re.compile(r"\b(?:Q[1-4]|[1-4]Q)\s*(?:FY\s*)?['\u2019]?\d{0,4}\b|\bFY\s*['\u2019]?\d{2,4}\b"
                      r"|\b(?:first|second|third|fourth)[-\s]+quarter(?:\s+(?:of\s+)?(?:fiscal\s+)?(?:19|20)\d\d)?\b"
                      # NOTE: "on the july 2023 call", "MSFT April 2023 call": the call's month names the call
                      rf"|\b{MONTH_WORD}\s+(?:{YEAR_WORD}\s+)?(?=(?:(?-i:[A-Z])[\w&.'\u2019-]*\s+){{0,2}}"
                      r"(?:(?:earnings|analyst|conference|quarterly|results)\s+)*calls?\b)"
                      # NOTE: "the Snowflake call of May 2022": the month it was held
                      rf"|(?<=\bcall)\s+(?:of|in|from|held\s+in)\s+{MONTH_WORD}(?:\s+{YEAR_WORD})?\b", re.I)
"""A call's quarter as a question names it: not what was said."""
_LABEL = re.compile(r"^\s*(?:[\w-]+\s+){0,2}(?:question|q|note|query|topic)\s*(?::|\s[-\u2013\u2014])\s*", re.I)
"""A note's label before what it asks ("Conduct question: ...", "ESG note - ...")."""
_ANALYST_ASKED = re.compile(r"\b(?:ask(?:ed|s|ing)?|questions?|analysts?|guy|gal)\b", re.I)
"""A question about what an analyst asked: only then does a firm it names pick the analyst's exchange ("the Piper
Sandler guy"), never a topic that happens to be a firm's word ("autonomous driving", Autonomous Research)."""
_ASKED_BY_NAME = re.compile(r"\bwhat\s+(?:did|does|do)\b[^?]{0,50}?\bask(?:\s+about)?\b|\bwhat\s+(?:was|were)\s+"
                            r"(?:[\w'\u2019]+\s+){0,3}questions?\b|\bwhat\s+(?:did|does)\b[^?]{0,50}?\bwant\s+to\s+know\b", re.I)
"""What a named analyst asked ("What did Giulia Miotto ask about ...?", "what was Mike Mayo's question?")."""
SECTION_SAID = 2
"""Sentences said in each section when the prepared remarks are asked against the Q&A."""
_EXCHANGE_ROLES = {"analyst", "management"}
"""The roles a question about an analyst's exchange may name (management's answers are part of it)."""
_SECTIONS = {PREPARED: "prepared", OPENING: "prepared", QA: "qa"}
"""A turn's section by the heading its chunks sit under."""
_ASKING_WORDS = re.compile(r"\b(?:(?:i['\u2019]m|i\s+am|we['\u2019]re|we\s+are)\s+(?:tracking|following|watching|monitoring|"
                           r"looking\s+(?:at|into)|curious|interested|trying\s+to\s+\w+|catching\s+up(?:\s+on)?)|"
                           r"after\s+the\s+(?:(?:19|20)\d\d\s+)?(?:earnings|reporting)\s+season|(?:i\s+|we\s+)?want\s+to|track(?:ing|s)?|"
                           r"(?:one\s+|a\s+|the\s+)?(?:key\s+)?(?:lines?|sentences?|quotes?)\s+(?:per|for\s+each|from\s+each|each)\s+(?:quarter|call)|"
                           r"told\s+(?:investors|analysts|the\s+market)|^\s*(?:according\s+to|per)\b|(?:according\s+to|per)(?=\s*(?:[,;:?.!-]|$))|"
                           r"how\s+(?:big|large|much)\s+(?:of\s+)?(?:a\s+)?(?:slice|share|portion|piece|part|chunk|proportion)\s+of|(?:comes?|came)\s+from|"
                           r"(?:through(?:out)?|during|over)\s+(?:fiscal\s+|FY\s*)?(?:19|20)\d\d|what|did|does|do|say|said|says|talk\w*|comment\w*|mention\w*|discuss\w*|about|on|"
                           r"calls?|earnings|remarks?|anyone|anybody|anything|any|someone|they|he|she|the|q\s?&\s?a|prepared|analysts?|"
                           r"management|ask(?:ed|s|ing)?|"
                           r"walk\s+me\s+through|(?:come|comes|came|coming|bring|brought)\s+up|push(?:ed|es)?\s+back|pushback|"
                           r"respond(?:ed|s)?|react(?:ed|s)?|accept(?:ed|s)?|(?:dis)?agree(?:d|s)?|(?:take|thoughts|views?)(?=\s+(?:on|about)\b)|through|evolv\w*|over|across|each|every|its|their|quarterly|quarters?|"
                           r"fiscal|messag(?:e|es|ing)|tone|stance|narrative|fram(?:e|ed|es|ing)|characteri[sz]\w*|opening|his|her|him|my|i|mak(?:e|es|ing)|(?:next|this|last|coming|following|prior|previous)\s+(?:fiscal\s+)?(?:years?|quarters?)|one|two|three|four|five|six|seven|eight|"
                           r"(?:(?<=what\s)|(?<=which\s))(?:numbers?|figures?)|"
                           # NOTE: "what exactly did he say", "say re buybacks": how it asks, not what of
                           r"exactly|precisely|specifically|re(?=\s*:?\s+\w)|regarding|concerning|with\s+respect\s+to|"
                           r"going\s+forward|from\s+here|"
                           # NOTE: "Is Threads going to make Meta real money next year?": the future asked, and its
                           # emphasis, are no words of the topic
                           r"(?:is|are|was|were)\s+(?=[^?]{0,40}\bgoing\s+to\b)|going\s+to|gonna|"
                           r"real(?=\s+(?:money|revenue|profits?|cash)\b))\b",
                           re.I)
"""The words that ask, and the words that count or span the calls asked ("over its four 2023 calls"); "what number"
asks for a figure, not of numbers."""
_FIELDED_WORDS = re.compile(rf"\bwho\b|\b(?:{FIELDED_VERBS})\b|"
                            r"\bquestions?\b|,?\s*\band\s+what['\u2019]?s?\s+(?:is\s+)?(?:his|her|their)\s+(?:title|role|job)\b", re.I)
"""The words of "who fielded the X question, and what's his title?" that are not its topic."""
_CHANGED = re.compile(r"\b(?:chang(?:e|ed|es|ing)|shift(?:ed|s)?|mov(?:e|ed|es|ing)|trend(?:ed|s)?)\b(?=\s+(?:across|over|between|from|through|during|since)\b"
                      r"|\s*[?.!]?\s*$)", re.I)
""""How did her message on X change across the calls?": how it changed is the question, X the topic ("climate change"
stays: the word is not followed by the calls' span)."""
MEANING_GATE = 0.5
"""Below this share of the topic's weight held by the best sentence, the topic is read in other words than the call's."""
MEANING_WEIGHT = 2.0
"""The topic's weight a passage as close in meaning as it can be adds to its sentences, per unit of cosine over the floor."""
MEANING_FLOOR = 0.3
"""A passage's cosine to the topic below this says nothing of it (MiniLM puts unrelated passages of one call near 0.2)."""
_COMPOUND = re.compile(r"\b[A-Za-z]+(?:-[A-Za-z]+)+\b")
"""A compound the topic hyphenates ("full-year", "anti-money-laundering")."""
_FIGURE_ASKED = re.compile(r"\b(?:what|which)\s+(?:[\w-]+\s+){0,4}?(?:numbers?|figures?|range|level|percentage|rate|ratio|margin)\b|"
                           r"\bhow\s+(?:much|many|big|large)\b|\b(?:share|slice|portion|percentage|proportion)\s+of\b|"
                           r"\b(?:rate|ratio|margin|percentage|figure|number)\s+as\s+(?:the\s+)?\w+\s+(?:reported|gave|stated|disclosed)\b",
                           re.I)
"""A question that asks for a figure of what was said ("What number did the CFO give each quarter?", "What net revenue
retention rate did Scarpelli report on each call?", "Track the net revenue retention rate as the CFO reported it")."""
FIGURE_SHARE = 0.5
TOLD_SHARE = 0.5
"""The share of the topic's weight an analyst's question must hold for a reply printing a figure to answer it."""
DENSITY_SHARE = 0.1
_DIGIT = re.compile(r"\d")
_AMPERSAND = re.compile(r"(?<!\w)[A-Za-z]&[A-Za-z](?!\w)")
"""A topic the words reader cuts into letters ("M&A", "R&D", "P&L"): matched as printed."""
_SAME_WORD = 7
"""Two stems of this many letters or more that differ only in their last letter or two are one word to the topic
("confident", "confidence"; never "internal" for "international")."""


def gather(plan: Plan, services: Services) -> Evidence:
    ask = plan.request if isinstance(plan.request, RemarkAsk) else None
    catalog = services.ws.catalog
    scope = set(services.doc_ids(plan))
    calls = [d for d in transcripts(catalog.documents()) if d.doc_id in scope]
    identities = {d.doc_id: stored_identity(d, lambda d=d: catalog.first_chunks(d.doc_id, KIND_CHUNKS)) for d in calls}
    chosen = set(calls_named(plan.question, list(identities.items()), {d.doc_id: d.name for d in calls},
                             participant_names(calls), held_on(plan.question, calls, catalog)))
    calls = [d for d in calls if d.doc_id in chosen]
    company = {w.lower() for i in identities.values() for w in re.findall(r"[A-Za-z][\w&'-]*", i.company)}
    if ask is not None and ask.names:
        # NOTE: "Wells Fargo's comments": a name no call prints for a speaker, made of the company's words, is the company
        spoke = [t["speaker"] for d in calls for t in d.metadata["transcript"]["turns"]]
        kept = tuple(n for n in ask.names if any(same_person(n, s) for s in spoke)
                     or not {w.lower() for w in re.findall(r"[A-Za-z][\w&'-]*", n)} <= company)
        ask = replace(ask, names=kept, roles=ask.roles or (("management",) if not kept else ()))
    if ask is not None and not ask.names and not ask.title and set(ask.roles) <= {"management"}:
        # NOTE: "What did Paul Clark say ...": a person the call names (welcomed, put through) but no turn of theirs;
        # never with a role asked ("What did the CEO say about Warren Buffett?")
        known = {n.split()[0].lower() for n in participant_names(transcripts(catalog.documents())) if len(n.split()) >= 2}
        silent = _named_in_calls(plan.question, calls, services.ws.doc_chunks, company, known)
        if silent:
            ask = replace(ask, names=silent, roles=())
    if ask is not None and ask.names:  # NOTE: a person named narrows the calls to those they spoke on
        calls = [d for d in calls if any(same_person(n, t["speaker"]) for n in ask.names
                                         for t in d.metadata["transcript"]["turns"])] or calls
    calls = calls[:MAX_CALLS]
    if ask is None or not calls:
        return Evidence(empty_message="No call transcript in scope is of the company or quarter asked.", hops=1)
    # NOTE: the file's name counts as the user's own name for the company ("DB's Q3 2023 call" of DB_2023Q3_CALL.pdf)
    tickers = sorted({t for d in calls if len(t := re.split(r"[_\W]", d.stem)[0]) >= 2 and t.isupper()})
    topic = _topic(plan.question, ask, [identities[d.doc_id].company for d in calls] + tickers,
                   sorted({str(identities[d.doc_id].fiscal_year) for d in calls if identities[d.doc_id].fiscal_year}))
    # NOTE: "How did TD's CEO wrap up the call?": how they closed it is asked, no topic of it
    topic = " ".join(CLOSING.sub(" ", topic).split()) if ask.closing else topic
    meaning = _closeness(services, topic)
    pieces: list[Piece] = []
    absent: list[str] = []
    scope_chunks: list[ChunkRecord] = []
    with services.clock.stage("synthesize"):
        # NOTE: "I'm an ESG analyst ...": who asks is no analyst asked of
        of_analyst = _ANALYST_ASKED.search(without_asker(plan.question)) and set(ask.roles) <= _EXCHANGE_ROLES
        for doc in calls:
            label = f"{identities[doc.doc_id].company or doc.stem} {identities[doc.doc_id].quarter.replace('-', ' ')} call"
            chunks = services.ws.doc_chunks(doc.doc_id)
            # NOTE: "When Morgan Stanley asked Microsoft how ..., what was the answer?": the replies to it; "What did the
            # Goldman Sachs analyst want to know?" asks that analyst's own question (below)
            if ask.firm and "analyst" not in ask.roles:
                said = _firm_replies(plan.question, topic, doc, chunks)
                if said:
                    scope_chunks.extend(c for c, _, _ in said)
                    pieces.extend(Piece(f"{_speaker(c)}, {label}: {text}", c, quote, checked=quote) for c, text, quote in said)
                    continue
            exchange = _exchange_of_firm(plan.question, doc, chunks) if of_analyst else []
            asking = [n for n in ask.names if _ASKED_BY_NAME.search(plan.question) and any(
                same_person(n, t["speaker"]) and t["role"] == "analyst" for t in doc.metadata["transcript"]["turns"])]
            if not exchange and asking and set(ask.roles) <= _EXCHANGE_ROLES:
                # NOTE: "What did Giulia Miotto ask about ..., and who answered her?": her exchange, her question first
                exchange = _exchange_of_firm(plan.question, doc, chunks, asking)
                if exchange:
                    scope_chunks.extend(c for c, _, _ in exchange)
                    pieces.extend(Piece(f"{_speaker(c)}, {label}: {text}", c, quote, checked=quote)
                                  for c, text, quote in exchange)
                    continue
            asker = _speaker(exchange[0][0]).split(" (")[0] if exchange else ""
            if exchange and ask.names:  # NOTE: "Portales' question ... and what did Barnum say?": the question, his answers
                replies = _best_said(_turn_chunks(replace(ask, names=ask.names + (asker,), to=(asker,), section="qa"), doc,
                                                  chunks), topic, _asked_before(doc, chunks), replies=True) \
                    if terms(topic) else []
                # NOTE: "Ron Josey at Citi asked about Threads monetization ... What did Susan Li say?": her sentences on
                # the topic in his exchange, past the first of her reply ("We are continuing to launch more features")
                exchange = exchange[:1] + (replies or [e for e in exchange[1:]
                                                       if any(same_person(n, _speaker(e[0]).split(" (")[0]) for n in ask.names)])
                if ask.to and set(ask.names) <= set(ask.to) and not _ASKED_BY_NAME.search(plan.question):
                    # NOTE: "Ron Josey aimed his Threads question at Mark. Who actually answered it?": the replies alone
                    exchange = exchange[1:] or exchange
            if exchange and not ask.names and terms(topic):
                # NOTE: "What did the Morgan Stanley analyst ask about 'normalized' NII ..., and what did management say?":
                # the analyst's sentence on the topic, then the replies' ("Hey." opens both turns)
                replies = _firm_replies(plan.question, topic, doc, chunks)
                asked = _best_said(_turn_chunks(RemarkAsk((asker,), section="qa"), doc, chunks), topic)[:1]
                exchange = (asked or exchange[:1]) + replies if replies else exchange
            if exchange:  # NOTE: "what did the Piper Sandler guy ask and what were the answers": that exchange
                scope_chunks.extend(c for c, _, _ in exchange)
                pieces.extend(Piece(f"{_speaker(c)}, {label}: {text}", c, quote, checked=quote)
                              for c, text, quote in exchange)
                continue
            heard = _turn_chunks(ask, doc, chunks)
            scope_chunks.extend(heard)
            wanted = terms(topic)
            unspoken = _never_said(topic, chunks, company)
            if unspoken:
                # NOTE: "Was there any discussion of a possible US TikTok ban ...? What did Zuckerberg say about it?": a
                # name the call never prints is no topic of it ("Ray-Ban" is no ban on TikTok)
                absent.append(f"On the {label}, no one spoke of {unspoken}: the call never names it (every turn read).")
                continue
            if not wanted and ask.closing:  # "How did TD's CEO wrap up the call?": their last turn, past its courtesies
                units = [u for c in heard for u in _units(c)]
                said = [(u.chunk, u.text, u.quote) for u in ([u for u in units if not _COURTESY.match(u.text)] or units)
                        [:CLOSING_SAID]]
            elif not wanted and ask.to:  # "Who answered Mike Mayo's question?": each company speaker's first reply
                said = _first_replies(heard, doc)
            elif not wanted:  # "What did Jamie Dimon say?": the opening of their turns
                said = [(u.chunk, u.text, u.quote) for u in (_units(heard[0])[:MAX_SAID] if heard else [])]
            elif ask.section == BOTH_SECTIONS:  # NOTE: the prepared remarks against the Q&A: the best of each
                said = [s for section in ("prepared", "qa")
                        for s in _best_said(_turn_chunks(replace(ask, section=section), doc, chunks), topic,
                                            _asked_before(doc, chunks), meaning=meaning)[:SECTION_SAID]]
            else:
                said = _best_said(heard, topic, _asked_before(doc, chunks), replies=ask.section == "qa",
                                  # NOTE: guidance followed across calls is its figure each quarter
                                  figure=bool(_FIGURE_ASKED.search(plan.question))
                                  or len(calls) > 1 and _guidance_asked(topic),
                                  meaning=meaning)
            if not said:
                who = " or ".join(ask.names) or " or ".join(ask.roles) or (f"the speaker whose title names {ask.title!r}" if ask.title else "anyone")
                named_on = sorted({c.pages[0] for c in chunks for n in ask.names if c.pages and n in c.text})
                spoke = f"no {who} spoke of" if not ask.names and ask.roles else f"{who} did not speak of"
                absent.append(f"On the {label}, {spoke} {topic or 'the topic asked'} "
                              f"({len(heard)} passages of their turns read)." if heard else
                              f"On the {label}, {who} is named (p. {', '.join(map(str, named_on[:3]))}) but has no turn: "
                              f"every speaker line of its prepared remarks and Q&A was read." if named_on else
                              f"On the {label}, no turn of {who} was found.")
                continue
            pieces.extend(Piece(f"{_speaker(c)}, {label}: {text}", c, quote, checked=quote) for c, text, quote in said)
    return Evidence(pieces=tuple(pieces), scope=tuple(scope_chunks), hops=1, notices=tuple(absent),
                    sections=tuple(f"{d.stem}: the turns asked" for d in calls),
                    empty_message=" ".join(absent) if absent and not pieces else "")


_FULL_NAME = re.compile(r"(?<![\w.])(?<!\bfrom\s)(?<!\bwith\s)(?<!\bat\s)"
                        r"(?=([A-Z][a-z]+(?:-[A-Z][a-z]+)?\s+(?:[A-Z]\.\s+)?[A-Z][a-z]+(?:-[A-Z][a-z]+)?)(?![\w-]))")
"""A first name and surname as a question prints them ("Paul Clark"; every start, so "Did Paul Clark" tries "Paul
Clark" too); never after "from", "with" or "at", where a firm is named ("Brad Zelnick from Deutsche Bank")."""


def _named_in_calls(question: str, calls: list[DocumentRecord], chunks_of, company: set[str],
                    first_names: set[str]) -> tuple[str, ...]:
    """The people a question names by first name and surname whom a call prints (a name no turn of the call has):
    the first name one that participants of the store's calls have ("Paul", "Brad"; "Reality Labs" is no one), none of
    the company's words, none a participant's firm."""
    firms = {w.lower() for d in calls for p in d.metadata["transcript"].get("participants", [])
             for w in re.findall(r"[A-Za-z]+", p.get("firm", ""))}
    out = []
    for m in _FULL_NAME.finditer(question):
        name = m.group(1)
        words = {w.lower() for w in re.findall(r"[A-Za-z]+", name)}
        if words & (company | firms) or name.split()[0].lower() not in first_names:
            continue
        printed = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")
        if any(printed.search(c.text) for d in calls for c in chunks_of(d.doc_id)):
            out.append(name)
    said = _SURNAME_SAID.search(question)
    if not out and said and said.group("s").lower() not in company | firms | first_names:
        # NOTE: "What did Wiggan say about ...?": a surname alone, printed on the call after a participant's first name
        # ("Tim Wiggan", introduced by the host) with no turn of theirs
        printed = re.compile(rf"(?<![\w-])([A-Z][a-z]+)\s+{re.escape(said.group('s'))}(?![\w-])")
        named = {f"{m.group(1)} {said.group('s')}" for d in calls for c in chunks_of(d.doc_id)
                 for m in printed.finditer(c.text) if m.group(1).lower() in first_names}
        out.extend(sorted(named)[:1] if len(named) == 1 else [])
    return tuple(dict.fromkeys(out))


_SURNAME_SAID = re.compile(r"\b(?:did|does|has|had)\s+(?P<s>[A-Z][a-z][\w'\u2019-]+)\s+(?:say|said|mention|note|tell|comment|"
                           r"add|discuss|talk|share|offer)\b")
"""A person asked by surname alone ("What did Wiggan say about ...?")."""


_PROPER = re.compile(r"(?<![.?!]\s)(?<!^)\b(?-i:[A-Z][a-z]+[A-Z][A-Za-z]+|[A-Z][a-z]{3,})\b")
"""A name in a question's topic ("TikTok", "Banamex"): a capitalised word of four letters or more, not a sentence's
first."""
_PREFIX = 5
"""The letters of a name a call must print for the name to be spoken of ("tikto"; "treasur" for "Treasuries")."""


def _never_said(topic: str, chunks: list[ChunkRecord], company: set[str]) -> str:
    """The names the topic holds when no chunk of the call prints any of them (their first _PREFIX letters, in any
    case), else '' ("Banamex/Mexico" is spoken of where the call says "Mexico")."""
    text = " ".join(c.text for c in chunks).lower()
    names = [w for w in dict.fromkeys(m.group(0) for m in _PROPER.finditer(topic))
             if w.lower() not in company and w.lower() not in CAPITALISED_NOT_NAMES]
    return " or ".join(names) if names and all(w.lower()[:_PREFIX] not in text for w in names) else ""



def _substantive(unit: Unit) -> bool:
    """A sentence that says something (SUBSTANCE_WORDS or more), not a greeting or a thank-you."""
    return len(unit.text.split()) >= SUBSTANCE_WORDS


def _units(chunk: ChunkRecord) -> list[Unit]:
    """A turn's sentences, without the pieces of the speaker's heading a full stop cuts ("Michael P.", "Scarpelli (CFO,
    Snowflake Inc.)"), numbered from its first sentence."""
    title = chunk.heading_titles[-1] if chunk.heading_titles else ""
    kept = [u for u in split_units(chunk) if not (title and u.text in title)]
    return [replace(u, order=k) for k, u in enumerate(kept)]


def _speaker(chunk: ChunkRecord) -> str:
    """The speaker of a turn's chunk as its heading prints them ("Mark Mason (Citi Chief Financial Officer)")."""
    return " ".join(chunk.heading_path.split("/")[-1].split())


def _best_said(heard: list[ChunkRecord], topic: str, asked: dict[str, tuple[str, int]] | None = None,
               replies: bool = False, figure: bool = False,
               meaning: Callable[[list[Unit]], list[float]] | None = None) -> list[tuple[ChunkRecord, str, str]]:
    """The MAX_SAID sentences of the turns heard that best share the topic's words, a word weighing more the fewer of
    the turns' sentences hold it ("NII" over "guidance"), in reading order; none when no sentence shares a word (or,
    where the Q&A is asked, replies to a question that does). The sentence that names the topic best comes first. A
    sentence shorter than SHORT_SAID ("Yeah, it's a good question.") weighs half (`units.rarity_weights`). Two of the
    topic's words printed together, as the topic prints them ("revenue guidance"), add a share of the lighter one's
    weight: the sentence names the topic, not each word apart. `asked` (`_asked_before`): the question an analyst put
    just before a turn, whose topic words the reply's first sentences carry in part (ASKED_SHARE); `replies`: the
    question asks for the Q&A, where a reply sharing none of the topic's words still answers; `figure`: the question asks
    for a figure ("what number did the CFO give"), which a sentence printing one says (FIGURE_SHARE more); `meaning`: each
    sentence's passage's closeness in meaning to the topic (`_closeness`), read when no sentence holds MEANING_GATE of
    the topic's weight."""
    marks = {m.upper() for m in _AMPERSAND.findall(topic)} - {"Q&A"}
    topic = _AMPERSAND.sub(" ", topic)  # NOTE: its letters are no words of the topic ("M&A": no "m")
    asked = asked or {}
    units = [u for chunk in heard for u in _units(chunk)]
    spelt = spelt_out(topic, [u.text for u in units])  # NOTE: "anti-money-laundering" is the "AML" they speak of
    topic = spoken_numbers(as_acronyms(topic, spelt))
    # NOTE: a letter alone is no word of the topic ("U.S." is "u" and "s"; a possessive's "s")
    topic_order = [w for w in term_list(topic) if len(w) > 1 or w.isdigit()]
    wanted = set(topic_order)
    said = [term_list(spoken_numbers(as_acronyms(u.text, spelt))) for u in units]

    def holds(text: str, own: set[str] | list[str]) -> set[str]:
        return {w for t in set(own) for w in wanted if _same_word(t, w)} | \
            {m for m in marks if re.search(rf"(?<!\w){re.escape(m)}(?!\w)", text, re.I)}
    # NOTE: a word of a compound the topic hyphenates counts only where the sentence prints the compound ("full-year
    # PCL guidance": "full year" or "full-year", never "fully absorbed")
    compounds = [c for c in (tuple(term_list(m.group(0))) for m in _COMPOUND.finditer(topic)) if len(c) >= 2]
    held = [holds(u.text, own) - _apart(own, compounds) for u, own in zip(units, said)]
    put = {chunk_id: (holds(text, terms(as_acronyms(text, spelt))), seen) for chunk_id, (text, seen) in asked.items()}
    weight = rarity_weights(held)
    for own, _ in put.values():  # NOTE: a word only the question holds weighs as a word no reply prints
        weight.update({w: math.log((len(held) + 1) / 0.5) for w in own if w not in weight})
    pairs = _pairs(topic_order)

    substance = {}  # NOTE: each sentence of substance's place among its chunk's ("Yeah." and "Thanks, Rishi." have none)
    for chunk in heard:
        if chunk.chunk_id in put:
            said_of = [u for u in units if u.chunk is chunk and _substantive(u)]
            substance.update({id(u): k for k, u in enumerate(said_of)})

    def replying(u, holds_any: bool) -> float:
        # NOTE: a reply that shares none of the topic's words counts only where the question asks for the Q&A ("when he
        # was asked about"); elsewhere a prepared remark that names the topic comes first
        asked_of, seen = put.get(u.chunk.chunk_id, (set(), 0))
        place = substance.get(id(u))
        # NOTE: a figure asked, a reply that prints one answers the analyst's question on the topic ("what the revenue
        # exposure is from that SMB segment?" "It's less than 10% -- it's right around 10%.")
        told = figure and bool(_DIGIT.search(u.text)) and \
            shared_weight(asked_of, weight) >= TOLD_SHARE * shared_weight(wanted | marks, weight)
        if len(asked_of) < min(2, len(wanted | marks)) or place is None or seen + place >= REPLY_UNITS \
                or not (holds_any or replies or told):
            return 0.0  # NOTE: a question that shares one word of a topic of several is about something else
        return (1.0 if told else ASKED_SHARE) * shared_weight(asked_of, weight)
    # NOTE: a topic of one word ("Numis") sets no sentence that holds it above another: a passage that comes back to it
    # is about it ("On Numis, we're very excited ... the relationship with the Numis leadership"), a list of items that
    # names it once is passing (DENSITY_SHARE a sentence besides, at most two); a topic of more words is told by them
    about = Counter(u.chunk.chunk_id for u, own in zip(units, held) if own and len(wanted | marks) == 1)

    def scaled(u: Unit, holds_any: bool) -> float:
        if figure:
            # NOTE: a figure asked, a sentence printing one weighs FIGURE_SHARE more, however short, and one without a
            # figure half of that less; neither length nor a passage's return to the topic counts then
            return 1 + FIGURE_SHARE if _DIGIT.search(u.text) else 1 - FIGURE_SHARE / 2
        short = 0.5 if len(u.text) < SHORT_SAID else 1.0
        returns = about[u.chunk.chunk_id]
        return short * (1 + DENSITY_SHARE * min(returns - 1, 2) if returns and holds_any else 1)
    scale = [scaled(u, bool(own)) for u, own in zip(units, held)]
    # NOTE: a topic in words the speaker did not use ("governments putting rules on AI": "regulation"): where no sentence
    # holds half the topic's weight, a passage's closeness in meaning to it (MEANING_WEIGHT) adds to its sentences
    total = shared_weight(wanted | marks, weight) or 1.0
    lexical = max((shared_weight(own, weight) for own in held), default=0.0) / total
    near = meaning(units) if meaning is not None and units and lexical < MEANING_GATE else [0.0] * len(units)
    # NOTE: only a sentence that names some of the topic: meaning alone never says a topic was spoken of
    near = [MEANING_WEIGHT * total * max(0.0, c - MEANING_FLOOR) if own else 0.0 for c, own in zip(near, held)]
    named = [((shared_weight(own, weight) + PHRASE_SHARE * _phrase_weight(words, pairs, weight) + near[i]) * s, i, u)
             for i, (u, own, words, s) in enumerate(zip(units, held, said, scale)) if own]
    alone = [(replying(u, False) * scale[i], i, u) for i, u in enumerate(units) if not held[i]]
    scored = [(score + replying(u, bool(held[i])) * scale[i], i, u) for score, i, u in named] + \
        [x for x in alone if x[0] > 0]
    # NOTE: the sentence that names the topic best comes first; the reply to the question asked of it may be the other
    first = sorted(named, key=lambda x: (-x[0], x[1]))[:1] if not replies else []
    rest = [x for x in sorted(scored, key=lambda x: (-x[0], x[1])) if not first or x[1] != first[0][1]]
    best = sorted((first + rest)[:MAX_SAID], key=lambda x: x[1])
    out = []
    for _, i, u in best:
        following = units[i + 1] if i + 1 < len(units) and units[i + 1].chunk is u.chunk else None
        if following is not None and _LEAD_IN.search(u.text) and not re.search(r"\d", u.text):
            # NOTE: "Tom, to the other question on the revenue guidance." names the question; the answer follows it
            # ("Yes, high confidence in the mid-point of 28 to 29 billion euros.")
            out.append((u.chunk, f"{u.text} {following.text}", f"{u.quote} {following.quote}"))
        else:
            out.append((u.chunk, u.text, u.quote))
    return out


_THOUSANDS = re.compile(r"\b(\d{1,3}),000\b(?!,\d)|\b(\d+(?:\.\d+)?)\s?[kK]\b")
_MILLIONS = re.compile(r"\b(\d{1,3}),000,000\b(?!,\d)|\b(\d+(?:\.\d+)?)\s?(?:mm|mn)\b")


def spoken_numbers(text: str) -> str:
    """Round numbers as a speaker says them ("20,000" and "20k" as "20 thousand"): a topic written one way names the
    sentence that says it the other ("the 20k job cuts" of "a net 20 thousand")."""
    text = _MILLIONS.sub(lambda m: f"{m.group(1) or m.group(2)} million", text)
    return _THOUSANDS.sub(lambda m: f"{m.group(1) or m.group(2)} thousand", text)


def _asked_before(doc: DocumentRecord, chunks: list[ChunkRecord]) -> dict[str, tuple[str, int]]:
    """The question an analyst put just before a Q&A turn (the words of the analyst's turn: a question and its lead-in,
    two questions often), for each chunk of the turn that holds one of its first REPLY_UNITS sentences of substance (by
    chunk id), with the number of the turn's sentences of substance before that chunk."""
    analysts = {t["heading"] for t in doc.metadata["transcript"]["turns"] if t["role"] == "analyst"}
    out: dict[str, tuple[str, int]] = {}
    runs = heading_runs(chunks)  # NOTE: each turn's chunks, one run under its heading
    for before, run in zip(runs, runs[1:]):
        parts, previous = run[0].heading_path.split("/"), before[0].heading_path.split("/")
        if len(parts) < 3 or len(previous) < 3 or _SECTIONS.get(parts[1]) != "qa" \
                or previous[-1] not in analysts or parts[-1] in analysts:
            continue
        question, seen = " ".join(c.text for c in before), 0
        for chunk in run:
            if seen >= REPLY_UNITS:
                break
            out[chunk.chunk_id] = (question, seen)
            seen += sum(map(_substantive, _units(chunk)))
    return out


def _apart(said: list[str], compounds: list[tuple[str, ...]]) -> set[str]:
    """The words of each compound that a sentence (`said`: its terms in order) does not print together, one word
    at most between two of them ("the full fiscal year" holds "full-year")."""
    out: set[str] = set()
    for compound in compounds:
        if not any(_together(said, start, compound) for start in range(len(said))):
            out |= set(compound)
    return out


def _together(said: list[str], start: int, compound: tuple[str, ...]) -> bool:
    """Whether the compound's words stand from `start` on, in order, one word at most between two of them."""
    at = start
    for k, word in enumerate(compound):
        found = next((i for i in range(at, min(at + (1 if k == 0 else 2), len(said))) if _same_word(said[i], word)), None)
        if found is None:
            return False
        at = found + 1
    return True


def _pairs(order: list[str]) -> list[tuple[str, str]]:
    """The topic's neighbouring words, in the topic's order ("revenue guidance": (revenu, guidanc))."""
    return [(a, b) for a, b in zip(order, order[1:]) if a != b]


def _phrase_weight(said: list[str], pairs: list[tuple[str, str]], weight: dict[str, float]) -> float:
    """The weight the topic's word pairs add to a sentence (`said`: its terms in order) that prints them next to each
    other."""
    together = {(a, b) for a, b in zip(said, said[1:])}
    return math.fsum(min(weight.get(a, 0.0), weight.get(b, 0.0)) for a, b in pairs
                     if any(_same_word(x, a) and _same_word(y, b) for x, y in together))


_GUIDING = frozenset({"expect", "outlook", "forecast", "guid", "guidanc", "anticip", "project"})
"""The words of guidance, each said for another: "guidance for NII" and "the CRO's PCL outlook" are asked of "We now expect
2023 NII ... to be approximately $81 billion", "I continue to expect PCLs for fiscal 2024 to be ..."."""
_TROUBLE = frozenset({"problem", "issu", "matter"})
""""the US AML problem" is what the CEO calls "the AML issue" or "our AML matters"."""
_MONEY = frozenset({"mone", "monetiz", "monetization", "revenu"})
""""make real money" is what a CFO calls monetization or revenue ("we don't expect Threads to be a meaningful driver of
2025 revenue")."""
_SAID_FOR_ONE_ANOTHER = (_GUIDING, _TROUBLE, _MONEY)


def _same_word(a: str, b: str) -> bool:
    if a == b or any(a in same and b in same for same in _SAID_FOR_ONE_ANOTHER) or a == f"{b}s" or b == f"{a}s":  # (an acronym's plural: "PCLs")
        return True
    shorter = min(len(a), len(b))
    shared = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), shorter)
    return shorter >= _SAME_WORD and abs(len(a) - len(b)) <= 2 and shared >= shorter - 1


def _closeness(services: Services, topic: str) -> Callable[[list[Unit]], list[float]]:
    """Each sentence's passage's closeness in meaning to the topic (`answer.meaning`); the topic is encoded at the first
    read and kept for every call the question asks of."""
    held: list = []

    def read(units: list[Unit]) -> list[float]:
        if not held:
            held.append(topic_vector(services.ws, topic))
        near = closeness(services.ws, topic, {u.chunk.chunk_id: u.chunk for u in units}.values(), query=held[0])
        return [near[u.chunk.chunk_id] for u in units]
    return read


def _guidance_asked(topic: str) -> bool:
    """A topic of guidance ("NII guidance", "the expense outlook"): what was guided is a figure, which a sentence printing
    one says ("We now expect 2023 NII ... to be approximately $81 billion" over "the increase in NII guidance")."""
    return any(w in _GUIDING for w in terms(topic))


def _exchange_of_firm(question: str, doc: DocumentRecord, chunks: list[ChunkRecord],
                      people: Sequence[str] = ()) -> list[tuple[ChunkRecord, str, str]]:
    """The Q&A exchanges of the analysts of a firm the question names ("the Piper Sandler guy"), of the analysts named
    (`people`), or of the analyst in the place of the Q&A it names ("the first analyst"): the opening sentence of each
    turn in them, the question first; [] when the question names none."""
    turns = doc.metadata["transcript"]["turns"]
    firms = _firms_asked(question, turns) if not people else set()
    asked = {t["exchange"] for t in turns if t["role"] == "analyst" and t.get("exchange")
             and (t.get("firm") in firms or any(same_person(n, t["speaker"]) for n in people))}
    place = analyst_place(question) if not asked and not people else ""
    if place:  # NOTE: "What did the first analyst ask about?": the exchange of the analyst in that place of the Q&A
        return _exchange_in_place(place, turns, chunks)
    if not asked:
        return []
    # NOTE: the Q&A's chunks in order, a new turn where the speaker's heading changes, are the Q&A's turns in order
    qa_turns = [t for t in turns if t["section"] == "qa"]
    out: list[tuple[ChunkRecord, str, str]] = []
    index, previous = -1, ""
    for chunk in chunks:
        parts = chunk.heading_path.split("/")
        if len(parts) < 3 or _SECTIONS.get(parts[1]) != "qa":
            continue
        if chunk.heading_path != previous:
            # NOTE: a turn too short to be a chunk of its own (a "Thanks.") has none: the next turn of this speaker
            step = next((k for k in range(1, SKIPPED_TURNS + 2) if index + k < len(qa_turns)
                         and qa_turns[index + k]["heading"] == parts[2]), None)
            if step is None:
                return []  # NOTE: the chunks do not line up with the turns read at ingestion: no exchange is guessed
            index, previous = index + step, chunk.heading_path
            units = _units(chunk)
            if qa_turns[index].get("exchange") in asked and units:
                # NOTE: a turn's first sentence of substance, past "Good afternoon, everybody." and "Sorry, Scott"
                unit = next((u for u in units if _substantive(u)), units[0])
                out.append((chunk, unit.text, unit.quote))
    return out[:MAX_EXCHANGE]


def _firms_asked(question: str, turns: list[dict]) -> set[str]:
    """The firms of the call's analysts the question names (`questions.speakers.firms_named`)."""
    return firms_named(question, sorted({t.get("firm", "") for t in turns if t["role"] == "analyst"} - {""}))


def _firm_replies(question: str, topic: str, doc: DocumentRecord, chunks: list[ChunkRecord]) -> list[tuple[ChunkRecord, str, str]]:
    """The company's sentences that best answer, on the topic asked, the questions the analysts of a firm the question
    names put on the call (their Q&A exchanges; `_best_said` over the replies); [] when no analyst of it asked."""
    turns = doc.metadata["transcript"]["turns"]
    firms = _firms_asked(question, turns)
    askers = tuple(dict.fromkeys(t["speaker"] for t in turns if t["role"] == "analyst" and t.get("firm") in firms))
    if not askers:
        return []
    heard = _turn_chunks(RemarkAsk(askers, ("management",), "qa", to=askers), doc, chunks)
    for firm in firms:  # NOTE: the firm's words say whose question, not what of
        for word in re.findall(r"[A-Za-z][\w&'-]+", firm):
            topic = re.sub(rf"\b{re.escape(word)}(?:['\u2019]s)?\b", " ", topic, flags=re.I)
    said = _best_said(heard, " ".join(topic.split()), _asked_before(doc, chunks), replies=True)
    if not said and who_replied_asked(question):
        # NOTE: "who took the Truist guy's questions?": whoever replied, on whatever topic
        said = _first_replies(heard, doc)
    return said


def _first_replies(heard: list[ChunkRecord], doc: DocumentRecord) -> list[tuple[ChunkRecord, str, str]]:
    """Each speaker's first sentence of substance in the turns heard ("Who answered Mike Mayo's question?"); investor
    relations' lines there ("we have time for one last question") are no reply when another speaker's are."""
    roles = {t["heading"]: t["role"] for t in doc.metadata["transcript"]["turns"]}
    heard = [c for c in heard if roles.get(c.heading_path.split("/")[-1]) != "investor relations"] or heard
    firsts: dict[str, list] = {}
    for c in heard:
        firsts.setdefault(c.heading_path, []).extend(u for u in _units(c) if not _COURTESY.match(u.text))
    return [(u.chunk, u.text, u.quote) for units in firsts.values() for u in units[:1]][:MAX_EXCHANGE]


def _exchange_in_place(place: str, turns: list[dict], chunks: list[ChunkRecord]) -> list[tuple[ChunkRecord, str, str]]:
    """The opening sentence of substance of each turn of the Q&A exchange opened by the analyst in `place` (`first`,
    `second`, `third`, `last`), the question first (`_qa_exchanges`: the analyst's first)."""
    exchanges = _qa_exchanges(turns, chunks)
    order = list(dict.fromkeys(heading for heading, _ in exchanges))
    at = PLACES[place]
    if not -len(order) <= at < len(order):
        return []
    runs = next(runs for heading, runs in exchanges if heading == order[at])
    out: list[tuple[ChunkRecord, str, str]] = []
    for run in runs:
        units = [u for c in run for u in _units(c)]
        unit = next((u for u in units if _substantive(u)), units[0] if units else None)
        if unit is not None:
            out.append((unit.chunk, unit.text, unit.quote))
    return out[:MAX_EXCHANGE]


def _qa_exchanges(turns: list[dict], chunks: list[ChunkRecord]) -> list[tuple[str, list[list[ChunkRecord]]]]:
    """The Q&A's exchanges as its runs of chunks under one speaker's heading, in order: each from a run under an
    analyst's heading to the next run of the operator or another analyst, with the analyst's heading. Read from the
    chunks, whatever the turn records say."""
    roles = {t["heading"]: t["role"] for t in turns}
    out: list[tuple[str, list[list[ChunkRecord]]]] = []
    asker = ""
    for run in heading_runs(chunks):
        parts = run[0].heading_path.split("/")
        if len(parts) < 3 or _SECTIONS.get(parts[1]) != "qa":
            continue
        heading = parts[-1]
        if roles.get(heading) in ("analyst", "operator") and heading != asker:
            asker = heading if roles.get(heading) == "analyst" else ""
            if asker:
                out.append((asker, []))
        if asker:
            out[-1][1].append(run)
    return out


def speaker_plan(plan: Plan, speakers: Sequence[str]) -> Plan:
    """A plan whose question is answered from the turns of the speakers a filter names (names, or roles
    such as CFO and analyst), unless it already asks who spoke."""
    if plan.intent.subtype == "speakers":
        return plan
    roles = tuple(s for s in speakers if s in ROLE_WORDS or s in SPEAKER_ROLES)
    names = tuple(s for s in speakers if s not in roles)
    asked = plan.request if isinstance(plan.request, RemarkAsk) else RemarkAsk()
    request = RemarkAsk(names=names, roles=roles, section=asked.section, closing=asked.closing)
    intent = plan.intent.model_copy(update={"type": "semantic", "subtype": "remarks", "rule": "semantic:remarks:speaker-filter"})
    return replace(plan, intent=intent, request=request)


def _topic(question: str, ask: RemarkAsk, companies: list[str], years: Sequence[str] = ()) -> str:
    """The question without the people, roles, companies, quarters and asking words: what they spoke about."""
    text = _QUARTER.sub(" ", PERSONA.sub("", question))
    for year in years:  # NOTE: "its four 2023 calls": the year of the calls says which, not what of ("2024 capex" stays)
        text = re.sub(rf"\b(?:fy\s*)?{year}(?=(?:\s+(?:quarterly|earnings|analyst|conference))*\s+calls?\b)", " ", text,
                      flags=re.I)
    for company in companies:
        # NOTE: the company's name whole first ("Deutsche Bank's"), then its own words ("Citi" of "Citigroup")
        text = re.sub(rf"\b{re.escape(company)}(?:['\u2019]s)?(?!\w)", " ", text, flags=re.I) if company else text
        for token in re.findall(r"[A-Za-z][\w&'-]{2,}|\b[A-Z]{2}\b", company):  # NOTE: "TD" of "TD Bank Group" too
            if token.lower() not in ("inc", "corp", "corporation", "group", "holdings", "platforms", "bank"):
                # NOTE: the token, or a word of four letters or more it begins with ("Citi" for "Citigroup")
                text = re.sub(r"\b([A-Za-z][\w&-]{3,})(?:['\u2019]s)?\b",
                              lambda m, t=token.lower(): " " if t.startswith(m.group(1).lower()) else m.group(0), text)
                text = re.sub(rf"\b{re.escape(token)}(?:['\u2019]s)?\b", " ", text, flags=re.I)
    for name in ask.names:
        for token in re.findall(r"[\w'\u2019-]+", name):
            text = re.sub(rf"\b{re.escape(token)}(?:['\u2019]s)?\b", " ", text, flags=re.I)
    for pattern in ROLE_WORDS.values():
        text = re.sub(pattern, " ", text, flags=re.I)
    if FIELDED.search(question):  # NOTE: "who fielded the wholesale banking question, and what's his title?"
        text = _FIELDED_WORDS.sub(" ", text)
    titled = title_asked(text) if ask.title else None
    if titled:  # NOTE: "the product head" says whose words, not what of
        text = text[:titled[1][0]] + " " + text[titled[1][1]:]
    text = _LABEL.sub(" ", text)  # NOTE: "Conduct question: on TD's ... call, did Masrani say ...": the note's label
    topic = " ".join(_ASKING_WORDS.sub(" ", _CHANGED.sub(" ", text)).split()).strip(" ?.!,;:()")
    # NOTE: "crypto or bitcoin in the Q&A": the section's words gone, no preposition is left at either end
    return re.sub(r"^(?:(?:in|on|at|of|for|from|to|by|with|and|or)\s+)+|(?:\s+(?:in|on|at|of|for|from|to|by|with|and|or))+$", "",
                  topic, flags=re.I)


def _turn_chunks(ask: RemarkAsk, doc: DocumentRecord, chunks: list[ChunkRecord]) -> list[ChunkRecord]:
    """The chunks of the turns of the people, roles and section asked."""
    # NOTE: one speaker's turns share a heading in both sections: a turn is its section's and its heading's
    every = doc.metadata["transcript"]["turns"]
    turns = {(t["section"], t["heading"]): t for t in every}
    host = host_of(every)
    # NOTE: "What did von Moltke tell Giulia Miotto about Numis?": his turns in the exchanges she opened
    in_told = _exchange_chunks(ask.to, every, chunks) if ask.to else set()
    if ask.to and set(ask.names) <= set(ask.to):  # NOTE: "Who answered Mike Mayo's question?": the company's replies
        ask = replace(ask, names=(), roles=ask.roles or ("management",))
    unit_heads = _unit_heads(every)
    out = []
    for chunk in chunks:
        parts = chunk.heading_path.split("/")
        section = _SECTIONS.get(parts[1], "") if len(parts) >= 3 else ""
        # NOTE: a heading the call prints inside a turn ("Slide 4") sits below the speaker's
        turn = next((turns[(section, p)] for p in reversed(parts[2:]) if (section, p) in turns), None)
        if turn is None or (ask.section and turn["section"] != ask.section):
            continue
        if ask.names:
            speakers = [n for n in ask.names if n not in ask.to]
            if any(same_person(n, turn["speaker"]) for n in speakers) and (not ask.to or chunk.chunk_id in in_told):
                out.append(chunk)
            continue
        if ask.title:
            if turn["role"] not in ("operator", "analyst") and holds_title(ask.title, turn.get("title", "")):
                out.append(chunk)
            continue
        roles = set(ask.roles)
        if "management" in roles:
            roles |= set(COMPANY_ROLES)
        hosting = "host" in roles and name_key(turn["speaker"]) == host
        if "CEO" in ask.roles and turn["role"] == "CEO" and name_key(turn["speaker"]) in unit_heads:
            continue  # NOTE: "the CEO's message": the group's CEO, not a subsidiary's (TD's Leo Salom, CEO of TD Bank, N.A.)
        if ((not roles and turn["role"] != "operator") or turn["role"] in roles or hosting) \
                and (not ask.to or chunk.chunk_id in in_told):
            out.append(chunk)
    return _last_turn(out, chunks) if ask.closing else out


_UNIT_HEAD = re.compile(r"(?:\bCEO|\bchief\s+executive\s+officer)\s*,\s*\S", re.I)
"""A chief executive's title that names the unit they run after it ("President and CEO, TD Bank America's Most
Convenient Bank")."""


def _unit_heads(turns: list[dict]) -> set[str]:
    """The name keys of the speakers titled CEO of a unit, on a call where another speaker is CEO with no unit named: the
    company's CEO is the other."""
    ceos = {name_key(t["speaker"]): t.get("title", "") for t in turns if t["role"] == "CEO"}
    heads = {key for key, title in ceos.items() if _UNIT_HEAD.search(title)}
    return heads if heads and len(heads) < len(ceos) else set()


def _exchange_chunks(askers: Sequence[str], turns: list[dict], chunks: list[ChunkRecord]) -> set[str]:
    """The chunk ids of the Q&A exchanges the analysts `askers` opened (`_qa_exchanges`)."""
    speakers = {t["heading"]: t["speaker"] for t in turns}
    return {c.chunk_id for heading, runs in _qa_exchanges(turns, chunks)
            if any(same_person(a, speakers[heading]) for a in askers) for run in runs for c in run}


def _last_turn(heard: list[ChunkRecord], chunks: list[ChunkRecord]) -> list[ChunkRecord]:
    """Of the chunks of the turns asked, those of the last of them on the call (the last run of chunks under one
    speaker's heading): how the speaker closed it."""
    kept = {c.chunk_id for c in heard}
    runs = [run for run in heading_runs(chunks) if any(c.chunk_id in kept for c in run)]
    return [c for c in runs[-1] if c.chunk_id in kept] if runs else heard
