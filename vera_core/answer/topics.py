"""What a document-coverage question asks about, and which passages of a document address it.

"Which policies address encryption of data at rest? Provide the specific policy sections." asks about
the topic "encryption of data at rest", read as concepts (`retrieve.synonyms`): {encryption, ...} and
{data at rest, persistent data, full disk, ...}. A passage is a sentence, a list or outline item (with
the item it sits under and its lead-in as context) or a table row; its `coverage` is the share of the
topic's concepts it holds, a concept named only by its context (the section title, the outline item
above it) counting half."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from vera_core.answer.outlines import read_outline
from vera_core.answer.units import split_units
from vera_core.documents.kinds import KIND_NOUNS
from vera_core.records import ChunkRecord
from vera_core.retrieve.router import IN_THE_SET, OUR_DOCUMENTS, OWNER, SET_NAMED_WORDS
from vera_core.retrieve.synonyms import Concept, holds, read_concepts
from vera_core.text import phrase_tokens

__all__ = ["CONTEXT_WEIGHT", "Passage", "Topic", "coverage", "passages", "read_topic"]

CONTEXT_WEIGHT = 0.5
"""A concept held only by a passage's section title or parent item counts this much."""

_KINDS = f"(?:{'|'.join(KIND_NOUNS.values())}|documents?|docs|files)"
_ASK_WHICH = (r"(?:(?:which|what)\s+(?:(?:ones?\s+)?of\s+(?:(?:the|our|your|these|those|my|all\s+(?:the|our|your))\s+)?"
              rf"(?:{OWNER}\s+)?)?"
              rf"(?:[\w-]+\s+){{0,2}}?{_KINDS}(?:\s*,\s*{_KINDS})*(?:,?\s+(?:or|and)\s+{_KINDS})?\b|{OUR_DOCUMENTS})")
_ASK_ANY = rf"(?:do|does|did)\s+any\s+(?:of\s+)?(?:the\s+|our\s+|these\s+)?(?:[\w-]+\s+)?{_KINDS}\b"
_ASK_LIST = rf"list\s+(?:all\s+)?(?:of\s+)?(?:the\s+)?(?:[\w-]+\s+)?{_KINDS}"
"""The words that ask for documents: "which (of our) policies", "do any of the documents", "list the policies"."""
_CUE = re.compile(rf"^.*?\b{_ASK_WHICH}(?:\s+(?:do|does|also|specifically|explicitly|actually))?"
                  rf"|^.*?\b{_ASK_ANY}|^.*?\b{_ASK_LIST}\s+(?:that|which)\b", re.I)
_ACROSS = re.compile(r"[,;]?\s*\b(?:across|throughout|in|for|from)\s+(?:(?:all|the|our|these|every|each|of)\s+)+"
                     rf"(?:[\w-]+\s+)?{_KINDS}\b[,;]?", re.I)
_LEADING_VERB = re.compile(r"^\s*(?:should\s+(?:i|we)\s+(?:read|check|consult)\s+(?:on|about|for)?|"
                           r"(?:say|says|explain|explains|tell|tells)\s+(?:(?:me|us|you)\s+)?"
                           r"(?:anything\s+)?(?:about\s+|that\s+|how\s+(?:to\s+)?|what\s+to\s+do\s+(?:about\s+|with\s+)?)?|"
                           r"make\s+sure|calls?\s+for|set(?:s)?(?:\s+out)?|address(?:es)?|covers?|mentions?|discuss(?:es)?|describes?|deals?\s+with|"
                           r"talks?\s+about|refers?\s+to|speaks?\s+(?:to|of|about)|touch(?:es)?\s+on|"
                           r"says?\s+(?:anything\s+)?about|contains?|includes?|sets?\s+out|requires?|"
                           r"specif(?:y|ies)|states?|has|have|apply|applies|permits?|allows?|prohibits?|"
                           r"forbids?|mandates?|imposes?)\b\s*(?:to\s+|on\s+|about\s+|for\s+)?", re.I)


@dataclass(frozen=True)
class Topic:
    """What the question asks the documents about."""

    text: str
    """The question's words for it ('encryption of data at rest')."""
    concepts: tuple[Concept, ...]


@dataclass(frozen=True)
class Passage:
    """A citable passage of a chunk, with what surrounds it."""

    chunk: ChunkRecord
    text: str
    """The sentence, item or row as the answer quotes it."""
    quote: str
    """What the citation highlights (the line as printed)."""
    context: str
    """The section title, and for an outline item the item above it and the list's lead-in."""
    parent: str = ""
    """For an outline item: the item it sits under, with its marker ('b. Removable media')."""


_WHERE_CUE = re.compile(rf"^.*?\bwhere\s+(?:do|does|in)\s+(?:our\s+|the\s+|any\s+(?:of\s+)?(?:the\s+|our\s+)?)?"
                        rf"(?:{_KINDS}|we|they|you)\b(?:\s+(?:\w+\s+){{0,1}}?(?:talk|say\s+anything|speak|cover|deal)"
                        rf"(?:\s+(?:about|with|on))?)?|^.*?\b(?:every|each|all\s+(?:the\s+)?)\s*{_KINDS[:-1]}|polic(?:y|ies))"
                        rf"{IN_THE_SET}\s+(?:that|which)\b", re.I)
_TAIL = re.compile(r"\s*[-\u2013\u2014,]\s*(?:which|what)\s+ones?\s*\??$|\s*[-\u2013\u2014,]\s*which\s+(?:ones|docs|documents|"
                   r"policies)(?:\s+\w+){0,3}\s*\??$", re.I)
_PERSONA = re.compile(r"^\s*(?:i'?m|i\s+am|we'?re|we\s+are|as)\s+(?:a|an|the|on|in|part\s+of)\b", re.I)
_READ_BY_ME = re.compile(r"^(?:would|should|do|must|might|will)\s+(?:i|we|you)\s+(?:need\s+to\s+|have\s+to\s+)?"
                         r"(?:look\s+at|read|check|consult|follow|use|go\s+to)\s+(?:(?:if|when|whenever|for|about|on)\s+)?", re.I)
"""The reader's part of "which policies would I need to look at if ...": what follows is the topic."""
_PERSONA_CLAUSE = re.compile(r"^\s*(?:as\s+[^,]{2,60},|(?:i'?m|i\s+am|we'?re|we\s+are)\s+[^,.]{2,80}?(?:,|\band\b|$))\s*", re.I)
"""Who is asking, said before the question's matter ("As the parent of a boarder,", "I'm the DSL and")."""
_WANTING = re.compile(r"^\s*(?:i|we)(?:'d|\s+would)?\s+(?:like|want|need)\s+to\s+(?:know|understand|check|see)\s+", re.I)
_PRONOUN = re.compile(r"\b(?:it|its|this|that|they|them|their|these|those)\b", re.I)
_SITUATED = re.compile(r"\b(?:i(?!\.)|i've|i'd|i'll|me|my|we|we've|our|(?-i:us)|before)\b", re.I)
"""A topic told from where the asker stands ("what I've got to sort out before I walk out"): the situation is elsewhere."""
_SENTENCES = re.compile(r"(?<=[?.!])(?<!\bi\.e\.)(?<!\be\.g\.)\s+(?=[A-Za-z])")


def read_topic(question: str) -> Topic:
    """The topic of a document-coverage question: the sentence that asks for the documents, without the
    words that name them ("which policies", "across all filings", "where do our policies talk about")
    and the verb that follows ("address", "say that"); when what is left is a pronoun or leans on one
    ("which docs cover it?", "what happens to their data"), the question's other sentences (not a
    persona's "I'm on the customer success team") are the topic or complete it."""
    sentences = [x for x in _SENTENCES.split(question.strip()) if x.strip()]
    cued = [i for i, x in enumerate(sentences) if _CUE.search(x) or _WHERE_CUE.search(x)]
    at = cued[0] if cued else 0
    text = _strip(sentences[at]) if sentences else ""
    others = [_strip(x) if i in cued else x.strip(" ?.!,;:") for i, x in enumerate(sentences)
              if i != at and not _PERSONA.match(x)]
    if not others:
        # NOTE: "As the parent of a boarder, I'd like to know what stops the children getting onto harmful websites.
        # Which of the school's documents deal with that?": a persona's sentence holds the topic after who is asking
        others = [t for i, x in enumerate(sentences) if i != at and _PERSONA.match(x)
                  and len((t := _WANTING.sub("", _PERSONA_CLAUSE.sub("", x.strip(" ?.!,;:"), count=1), count=1).strip(" ?.!,;:")).split()) >= 3]
    if len(text.split()) < 2 or text.lower() in ("it", "this", "that", "them", "these"):
        text = " ".join(others) or text
    elif others and (_PRONOUN.search(text) and len(text.split()) < 12 or _SITUATED.search(text) and len(text.split()) < 16):
        # NOTE: "A client has offered me Wimbledon tickets. Which policies should I read before saying yes?", "I'm handing
        # in my notice. Which documents say what I've got to sort out before I walk out the door?": the asking sentence
        # leans on the situation the sentence before tells
        text = f"{text} ({' '.join(others)})"
    text = " ".join(text.strip(" ?.!,;:").split())
    return Topic(text, read_concepts(text))


_SET_NAMED = re.compile(rf"^\s*{SET_NAMED_WORDS}\b", re.I)
"""The set named after the documents ("which policies in the Corvid Pay set require ...")."""
_BEFORE_CUE = re.compile(rf"^(?P<before>.*?)[,;]?\s*\b(?:{_ASK_WHICH}|{_ASK_ANY}|{_ASK_LIST}\b|where\s+do\b)", re.I)
"""What comes before the words that ask for the documents ("if a contractor does not return equipment, | which
policies ...")."""
_CONDITION = re.compile(r"^\s*(?:if|when|whenever|once|in\s+case|suppose|say)\b\s*", re.I)
_NO_TOPIC = re.compile(r"^(?:(?:me|us|you|i|we|i'm|im|we're|i['\u2019]m|what|how|to|do|should|must|supposed|need|needs|have|"
                       r"got|happens?|next|then|now|about|the|steps?|"
                       r"anything|apply|applies|say|says|one|ones|with|that|this|it)\s*)*$", re.I)
"""What is left of "which policies tell me what to do" once its verb goes: no topic at all."""


def _strip(sentence: str) -> str:
    text = _TAIL.sub("", sentence.strip())
    text = _CUE.sub("", text, count=1) if _CUE.search(text) else _WHERE_CUE.sub("", text, count=1)
    text = _SET_NAMED.sub("", text, count=1)
    text = _ACROSS.sub(" ", text)
    text = _LEADING_VERB.sub("", _READ_BY_ME.sub("", text.strip(), count=1), count=1)
    text = re.sub(r"^\s*(?:that|on|about|whether|and)\s+", "", text.strip(), flags=re.I).strip(" ?.!,;:")
    before = _BEFORE_CUE.match(sentence.strip())
    condition = before.group("before").strip() if before and _CONDITION.match(before.group("before")) else ""
    lead = _CONDITION.sub("", before.group("before")).strip(" ?.!,;:-\u2013\u2014") if before else ""
    if _NO_TOPIC.match(text):
        # NOTE: the topic was said before the documents were asked for ("if an API token or encryption key
        # gets leaked, which policies tell me what to do?")
        if len(lead.split()) >= 2:
            return lead
    elif _PRONOUN.search(text) and len(lead.split()) >= 2 and len(text.split()) <= 6:
        # NOTE: "CCTV on buses, trams and stations - which policies have requirements on it?": "it" is what was said
        # before the documents were asked for
        return lead
    elif condition and len(lead.split()) >= 2:
        # NOTE: "If the lab computer system crashes, which documents tell us how to keep working?": the condition is
        # half the topic
        return f"{lead}: {text}"
    return text


def passages(chunks: Sequence[ChunkRecord]) -> list[Passage]:
    """Every passage of the chunks, in order: outline and list items with their parent and lead-in,
    the other sentences of text chunks, and table rows."""
    out: list[Passage] = []
    for chunk in chunks:
        title = chunk.heading_titles[-1] if chunk.heading_titles else ""
        if chunk.kind == "table":
            out += [Passage(chunk, u.text, u.quote, f"{title} {chunk.caption}") for u in split_units(chunk)]
            continue
        if chunk.kind != "text":
            continue
        outline = read_outline([chunk])
        listed = set()
        for item in outline:
            above = outline[item.parent] if item.parent is not None else None
            parent = f"{above.marker} {above.text}".strip() if above else ""
            out.append(Passage(chunk, item.text, item.line, f"{title} {parent} {item.lead_in}", parent))
            listed.add(" ".join(phrase_tokens(item.text)))
        for unit in split_units(chunk):
            lines = [ln for ln in unit.text.splitlines() if ln.strip()]
            if not lines or all(" ".join(phrase_tokens(_unbullet(ln))) in listed for ln in lines):
                continue
            out.append(Passage(chunk, " ".join(unit.text.split()), unit.quote, title))
    return out


def _unbullet(line: str) -> str:
    return re.sub(r"^\s*(?:[-*+•]\s+)?(?:\(?[a-z]{1,4}[.)]\s+|\(?\d{1,2}[.)]\s+)?", "", line)


def coverage(passage: Passage, topic: Topic) -> float:
    """Share of the topic's concepts the passage holds, in [0, 1]; one its context alone holds
    counts `CONTEXT_WEIGHT`."""
    if not topic.concepts:
        return 0.0
    own, near = phrase_tokens(passage.text), phrase_tokens(passage.context)
    got = sum(1.0 if holds(own, c) else CONTEXT_WEIGHT if holds(near, c) else 0.0 for c in topic.concepts)
    return got / len(topic.concepts)
