"""Questions about who spoke on an earnings call: who held a role ("who's the CFO at Snowflake?"), every
analyst who asked a question (with their firm), every company speaker, and what role a named person
holds; and which calls a question names (by company and quarter as the company labels it)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from vera_core.documents.identity import Identity, quarter_labels
from vera_core.finance.dates import _ORDINALS, MONTH_WORD, month_number
from vera_core.text import NOT_COMPANY_WORDS
from vera_core.transcripts.speakers import near_spelling, same_first_name

__all__ = ["PERSONA", "PeopleAsk", "ROLE_WORDS", "RemarkAsk", "TITLE_LETTERS", "calls_named", "holds_title", "months_held",
           "read_people_ask", "read_remark_ask", "spanned_quarters", "title_asked"]

ROLE_WORDS: dict[str, str] = {
    "CFO": r"\bCFOs?\b|\bchief\s+financial\s+officers?\b|\bfinance\s+(?:chief|director|head)\b|\bhead\s+of\s+finance\b",
    "CEO": r"\bCEOs?\b|\bchief\s+executive(?:\s+officers?)?\b|\bchief\s+exec\b|(?<!\bmy\s)(?<!\bour\s)(?<!\byour\s)\bboss\b",
    "investor relations": r"\binvestor\s+relations\b|\bIR\b(?:\s+(?:person|head|lead|director|officer|contact))?",
    "operator": r"\b(?:the\s+)?(?:call\s+)?operator\b|\bmoderat(?:or|ed|ing)\b",
    # NOTE: "who hosted investor relations on the call?" asks the IR head, no host besides
    "host": r"\bhost(?:ed|s)?\b(?!\s+(?:investor\s+relations|IR)\b)(?=[^?.]{0,60}\b(?:call|review|conference|webcast|company|"
            r"q\s?&\s?a)\b)|\b(?:the|call['\u2019]?s?)\s+host\b|"
            r"\bwho\s+(?:hosted|hosts|fronts|fronted|emceed|emcees)\b(?!\s+(?:investor\s+relations|IR)\b)",
}
"""How a question names a role on a call. The host is whoever opens the call (`transcripts.speakers.host_of`): an
investor relations head, most often, whose title some transcripts do not print."""
_ROLE_ASK = re.compile(r"\bwho\b|\bname\s+(?:of\s+)?the\b|\bname\s+of\b|\bwhich\s+(?:person|exec(?:utive)?s?|people)\b|\bwhat\s+(?:is|was)\s+the\s+name\b|"
                       # NOTE: "identify by full name and title the investor relations representative"
                       r"\bidentify\b|\b(?:give|state|provide)\s+(?:me\s+)?(?:the\s+)?(?:full\s+)?names?\b", re.I)
_ANALYSTS = re.compile(
    r"\b(?:which|what|list|name|every|everyone|everybody|all|each|who\s+(?:were|are)\s+the)\b[^?.]{0,60}?\b(?:analysts?|sell[-\s]?side|"
    r"questioners|participants\s+(?:who|that)\s+asked)\b(?!\s+(?:conference\s+)?(?:call|day|meeting|presentation))|\bwho\s+(?:asked|had)\s+(?:a\s+)?questions?\b"
    r"|\bwho\s+(?:all\s+)?(?:asked|questioned)\b|\banalysts?\b[^?.]{0,40}\b(?:asked|questions?|q\s?&\s?a)\b"
    r"|\banalysts?\s*(?:\+|&|and|with)\s*(?:their\s+)?(?:firms?|banks?|shops?)\b|\banalysts?\s+(?:list|names?|roster|line[-\s]?up)\b"
    r"|^\s*(?:the\s+)?analysts?\b(?!\s+(?:said|say|asked\s+about|comment\w*|questions?\s+(?:on|about)))"
    r"|\bquestion\s+queue\b|\banalyst\s+(?:side|participants?)\b|\bshow\s+(?:me\s+)?(?:the\s+|all\s+)?analysts?\b"
    r"|\bwho\b[^?.]{0,60}?\b(?:from|on)\s+the\s+(?:sell[-\s]?side|street)\b"
    r"|\bwho\s+(?:put|posed|directed|addressed|sent)\s+(?:a\s+|any\s+)?questions?\b"
    r"|\bwho\b[^?.]{0,40}?\basked\s+(?:a\s+|any\s+)?questions\b|\bsell[-\s]?side\s+(?:participants?|analysts?|people|names)\b"
    # NOTE: "who got questions in on meta's Q3 2024 call? names and firms pls"
    r"|\bwho\s+(?:got|managed\s+to\s+get|had)\s+(?:a\s+|their\s+)?questions?\s+in\b", re.I)
_EXECUTIVES = re.compile(
    r"\b(?:which|what|list|names?|every|all|who|identify|show)\b[^?.]{0,50}?\b(?:(?<!chief\s)executives?|(?<!chief\s)execs|"
    r"management\s+(?:team\s+)?(?:members?|speakers?|people)|company\s+(?:speakers?|participants?|representatives?|presenters?|"
    r"officials|officers)|(?:corporate|company)\s+participants|officers|officials|speakers?\s+from\s+(?:the\s+)?company|"
    r"members?\s+of\s+(?:[\w&.'\u2019]+\s+){0,3}management)\b|"
    r"\bmanagement\s+(?:team|line[-\s]?up)\b|\bexecs?\s+on\s+the\s+call\b|\b(?:from|on)\s+the\s+company\s+side\b|"
    r"\bwho\s+represented\b(?![^?]{0,12}\b(?:investor\s+relations|IR|finance)\b)|\b(?:every|all)\s+(?:the\s+)?[A-Z][\w&.]*(?:\s+[A-Z][\w&.]*)?\s+speakers?\b|\bspeakers\s*\(\s*(?:not|excluding|other\s+than)\s+(?:the\s+)?analysts\b|\bwho\s+(?:spoke|presented|was\s+on\s+the\s+call)\s+(?:for|from|on\s+behalf\s+of)\b"
    r"|\bwho\s+(?:from|at)\s+[\w&.' ]{2,30}?\s+(?:actually\s+)?(?:spoke|talked|presented|was\s+on)\b"
    r"|\b(?:everyone|everybody|all|each|anyone|people)\s+(?:from|at|of)\s+[\w&.'\u2019 ]{2,30}?\s+(?:who|that)\s+(?:actually\s+)?"
    r"(?:spoke|talked|presented|was\s+on|were\s+on)\b"
    r"|\b(?:which|what|who|list|name|all|every)\b[^?.]{0,40}\bpeople\b[^?.]{0,40}\b(?:spoke|speak|presented|were\s+on|"
    r"said\s+(?:something|anything))\b", re.I)
_SPOKE = re.compile(r"\b(?:spoke|speak(?:s|ing)?|speakers?|presented|talked|took\s+questions|answered|"
                    r"(?:said|says)\s+(?:anything|something)|had\s+anything\s+to\s+say)\b", re.I)
_PERSON = r"[A-Z][\w.\u2019'-]+(?:\s+[A-Z][\w.\u2019'-]+){0,3}?"
_ROLE_OF = re.compile(rf"\b(?i:what)(?:\s+(?i:is|was)|['\u2019]s)\s+(?P<name>{_PERSON})(?:['\u2019]s)?\s+(?i:role|title|position|job)\b"
                      rf"|\b(?i:what)\s+(?i:role|title|position|job)\s+(?i:does|did)\s+(?P<name2>{_PERSON})\s+(?i:have|hold)\b"
                      rf"|\b(?i:what)\s+(?i:does|did)\s+(?P<name8>{_PERSON})(?<!['\u2019]s)\s+(?i:run|head|lead|oversee|manage)\b(?!\s+(?i:of)\b)"
                      rf"|^\s*(?P<name4>{_PERSON})\s*[-\u2013\u2014:,]\s*(?i:what)(?:['\u2019]s|\s+is|\s+was)\s+"
                      rf"(?i:his|her|their)\s+(?i:role|title|position|job)\b"
                      rf"|\b(?i:who\s+is)\s+(?P<name3>[A-Z][\w.\u2019'-]+\s+[A-Z][\w.\u2019'-]+)\s*\??\s*$"
                      rf"|\b(?i:which|what)\s+(?i:firm|bank|company|broker|shop|house)\s+(?i:is|was|does|did)\s+(?P<name5>{_PERSON})\s+"
                      rf"(?i:listed\s+(?:with|under|as)|with|from|at|work\s+for|represent)\b"
                      rf"|^\s*(?P<name6>[A-Za-z][\w.\u2019'-]+(?:\s+[A-Za-z][\w.\u2019'-]+)?)\s*[-\u2013\u2014:,]\s*"
                      rf"(?i:title|role|position|job)\s*\?"
                      # NOTE: "The host say someone will join only for questions, Christian Kleinerman. What is his job?"
                      rf"|(?P<name7>[A-Z][\w\u2019'-]+\s+(?:[A-Z]\.\s+)?[A-Z][\w\u2019'-]+)\s*[.!]\s+(?i:and\s+)?(?i:what)(?:['\u2019]s|\s+is|\s+was)\s+"
                      rf"(?i:his|her|their)\s+(?i:role|title|position|job)\b")
"""A named person's role asked: "what is X's title", "what role does X hold", "X - what is her role?", "which firm is X
with", and a note "kleinerman - title? (snowflake Q2 FY23 call)"."""


_TITLE_ASKED = re.compile(r"\bchief\s+(?!executive|financial)\w+(?:\s+\w+)?\s+officer\b|\bhead\s+of\s+(?!investor)[a-z][\w&\s]{2,30}?(?=[?.,]|\s+(?:at|on|for|of\s+the|in)\b|$)"
                          r"|\b(?:general\s+counsel|treasurer|controller|chief\s+accounting\s+officer)\b", re.I)
"""A title other than the roles ROLE_WORDS names ("chief risk officer", "head of wholesale banking")."""


@dataclass(frozen=True)
class PeopleAsk:
    """What a question asks about the people on a call."""

    kind: str
    """`role` (who held a role), `title` (who holds a title printed with the name: `name` holds the title),
    `analysts` (every analyst who asked), `executives` (every company speaker), `role_of` (what role a
    named person holds), `handoff` (whom the operator hands the call to) or `welcomed` (those the call welcomes as new
    to it)."""
    role: str = ""
    """For `role`: one of ROLE_WORDS; for `handoff`: `start` (after the welcome), `end` (after the Q&A), `first` (who
    spoke first after the operator, of those handed the call), `before` or `after` (who spoke just before, or next after,
    the person or role `name`); for
    `executives`: `spoke` when only those who spoke are asked, `qa_only` for those who spoke only in the Q&A; for
    `analysts`: `first`, `second`, `third` or `last` when one analyst is asked by their place in the Q&A."""
    name: str = ""
    """For `role_of`: the person named."""
    others: tuple[str, ...] = ()
    """For `role_of`: further people named in the same question ("what roles were Ray Chun and Tim Wiggan in?")."""
    also: tuple[str, ...] = ()
    """For `role`: further roles asked in the same question ("who's the IR person and what's the operator's name"); for
    `analysts` by place: `replied` when those who replied in the analyst's exchange are asked too."""
    besides: tuple[str, ...] = ()
    """For `executives`: people the question sets aside ("Besides Satya Nadella and Amy Hood, which other ..."), or
    roles (ROLE_WORDS keys: "besides the CEO and CFO")."""
    introduced: bool = False
    """For `executives`: those the host said were on the call, the host not among them."""


_HANDOFF = re.compile(r"\bhand(?:s|ed|ing)?[-\s]+(?:it\s+|the\s+(?:call|floor|line)\s+)?(?:off|over)\b|\bhanded\s+the\s+floor\b|"
                      r"\bhand(?:s|ed|ing)?\s+(?:it|the\s+(?:call|floor|line))\s+(?:back\s+)?(?:over\s+)?to\b|"
                      r"\bhand(?:s|ed|ing)?\s+back\s+to\b|"
                      r"\bturn(?:s|ed|ing)?\s+(?:the\s+call\s+|it\s+|things\s+|the\s+floor\s+)?(?:back\s+)?(?:over|to)\b|\bpass(?:es|ed)?\s+(?:the\s+call|it)\s+"
                      r"(?:back\s+)?(?:over\s+)?to\b|\b(?:gave|give[sn]?|giving|pass(?:ed|es)?)\s+the\s+floor\b|"
                      r"\b(?:was|is)\s+(?:the\s+)?(?:call|floor|line|it)\s+(?:first\s+)?(?:handed|turned|passed|given)\s+(?:over\s+)?to\b",
                      re.I)
"""The operator's hand-off asked ("who did the operator turn the call back over to?", "operator hands off to who", "who was
the call handed to first?")."""
_FROM_END = r"(?:second|2nd)[-\s]+(?:to[-\s]+)?last|next[-\s]+to[-\s]+last|penultimate|(?:third|3rd)[-\s]+(?:to[-\s]+)?last"
"""A place counted from the end of the Q&A ("second-to-last", "penultimate", "third to last")."""
_PLACE = rf"{_FROM_END}|first|second|third|fourth|fifth|sixth|seventh|eighth|1st|2nd|3rd|4th|5th|6th|7th|8th|last|final|opening|closing"
_NTH_ANALYST = re.compile(r"(?:(?<=\bthe\s)|(?<=^)|(?<=,\s)|(?<=[-:\u2013\u2014]\s))(?:very\s+)?"
                          rf"(?P<nth>{_PLACE})(?:\s+(?:and|&)\s+(?:the\s+)?(?P<nthb>{_PLACE}))?"
                          r"\s+(?:question(?:er)?s?|analysts?|callers?|one\s+to\s+ask|person\s+to\s+ask|q(?=\s*[?.,;]|$))\b"
                          r"(?!\s+(?:on|about|of)\s+(?!(?:the\s+|this\s+|that\s+|their\s+|its\s+)?(?:[\w'\u2019-]+\s+){0,5}?"
                          r"(?:call|q\s?&\s?a|session|conference)\b))|"
                          r"\b(?:asked|got|had|took)\s+the\s+(?:very\s+)?(?P<nth2>first|second|third|last|final)\s+(?:question|one|q)\b|"
                          r"\b(?P<end>kicked|led|closed)\s+(?:off|out)\s+the\s+(?:q\s?&\s?a|questions|question[-\s]and[-\s]answer)\b|"
                          # NOTE: "Which analyst was third in the Q&A queue"
                          r"\b(?P<nth3>first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th|last)\s+in\s+(?:the\s+)?"
                          r"(?:q\s?&\s?a\s+)?(?:queue|line)\b",
                          re.I)
"""One analyst asked by their place in the Q&A ("who asked the first question?", "the last analyst", "which analyst
closed out the Q&A?"), always after "the" ("came back for a second question" is a follow-up); never a question about a
topic ("the first question on credit")."""
_PLACE_SAID = {"final": "last", "closed": "last", "closing": "last", "opening": "first", "kicked": "first", "led": "first",
               "1st": "first", "2nd": "second", "3rd": "third", "4th": "fourth", "5th": "fifth", "6th": "sixth",
               "7th": "seventh", "8th": "eighth", "penultimate": "second-to-last"}
_COUNTED_PLACES = re.compile(r"\b(?P<edge>first|last|final)\s+(?P<n>two|three|four|2|3|4)\s+(?:analysts|questioners|callers|"
                             r"people\s+to\s+ask|names|to\s+ask|(?:in|of)\s+(?:the\s+)?(?:q\s?&\s?a|queue|line))\b", re.I)
"""Places asked by count ("last two analysts in the Q&A", "the first three questioners")."""
_COUNT = {"two": 2, "three": 3, "four": 4, "2": 2, "3": 3, "4": 4}
_ORDER = ("first", "second", "third", "fourth")
_FROM_LAST = ("last", "second-to-last", "third-to-last", "fourth-to-last")


def _place_said(said: str) -> str:
    said = " ".join(said.lower().replace("-", " ").split())
    if said.endswith("last") and said != "last":  # "second to last", "next to last", "3rd-to-last"
        return "third-to-last" if said.startswith(("third", "3rd")) else "second-to-last"
    return _PLACE_SAID.get(said, said)


def analyst_place(question: str) -> str:
    """The place in the Q&A of the analyst a question asks about (`first` to `eighth`, `last`, `second-to-last`,
    `third-to-last`), or several joined by " and " ("the second-to-last and the last analysts", "last two analysts"),
    else ''."""
    counted = _COUNTED_PLACES.search(question)
    if counted:
        n = _COUNT[counted.group("n").lower()]
        if counted.group("edge").lower() == "first":
            return " and ".join(_ORDER[:n])
        return " and ".join(reversed(_FROM_LAST[:n]))
    nth = _NTH_ANALYST.search(question)
    if not nth:
        return ""
    said = (nth.group("nth") or nth.group("nth2") or nth.group("end") or nth.group("nth3"))
    place = _place_said(said)
    if nth.groupdict().get("nthb"):  # NOTE: "the second-to-last and the last analysts": both places
        return f"{place} and {_place_said(nth.group('nthb'))}"
    # NOTE: "who asked the first question and who asked the last one?": both places
    return f"{place} and last" if place == "first" and _AND_LAST.search(question, nth.end()) else place


_ANNOUNCED_BUT = re.compile(r"\b(?:operator|moderator)\s+(?:announced|called|introduced|named|said|called\s+on)\b[^?]{0,100}?"
                            r"(?:\bwho\s+(?:actually\s+|really\s+|in\s+fact\s+)?(?:asked|spoke|took\s+it|came\s+on)\b|"
                            # NOTE: "the operator called on SMBC's Steve Koenig, but someone else actually asked. Who?"
                            r"\b(?:someone|somebody|another\s+(?:analyst|person)|a\s+(?:different\s+(?:analyst|person)|colleague)|"
                            r"(?:his|her)\s+colleague)\b[^?]{0,30}?\b(?:asked|spoke|took\s+it|came\s+on)\b)", re.I)
"""The operator named one analyst and another asked ("... announced X - but who actually asked that question?")."""
_FOR_SIDE = re.compile(r"\bwho\b[^?]{0,60}?\b(?:answer\w*|spoke|speak\w*|talk\w*|respond\w*)\s+for\s+the\s+"
                       r"(?P<unit>[a-z][\w&-]*(?:\s+[a-z][\w&-]*)?)\s+(?:side|business|segment|division|unit|arm)\b", re.I)
"""A speaker asked by the part of the company they answer for ("who was answering for the wholesale side?")."""
SIDE = "side"
"""A title asked by the part of the company its holder answers for (`PeopleAsk.role`: "the wholesale side")."""
REQUEUED = "requeued"
"""The analysts who asked in two exchanges or more (`PeopleAsk.role`), back in the queue."""
_REQUEUED = re.compile(r"\b(?:came|come|comes|got|get|went|go|jumped|jump)\s+back\b[^?]{0,40}\b(?:queue|line|second|again|"
                       r"another)\b|\bsecond\s+(?:time|round|turn)\b|\b(?:asked|ask|asking)\s+(?:twice|again|two\s+separate)\b|"
                       r"\bre-?queued?\b|\bback\s+in(?:to)?\s+the\s+(?:queue|line)\b|\brejoined\s+the\s+(?:queue|line)\b", re.I)
"""Analysts asked by coming back to the queue ("which analysts came back in the queue for a second time?"): never a
follow-up inside one exchange."""
MOST_ASKED = "most"
"""The analyst who put the most turns to the company in the Q&A (`PeopleAsk.role`): follow-up after follow-up."""
_MOST_ASKED = re.compile(r"\b(?:the\s+)?most\s+(?:questions|follow[-\s]?ups?|turns)\b|\b(?:asked|had|got|put)\s+(?:in\s+)?the\s+most\b|"
                         r"\bfollow[-\s]?ups?\s+after\s+follow[-\s]?ups?\b|\bkept\s+(?:coming|going)\s+back\b|"
                         r"\b(?:kept|keep|keeps)\s+(?:following\s+up|pressing|pushing|asking)\b|\bmost\s+(?:persistent|active|inquisitive)\b",
                         re.I)
"""An analyst asked by how much they asked ("which analyst asked the most questions", "kept coming back at Scarpelli with
follow-up after follow-up"): the one with the most turns of the Q&A."""
_ONCE_EACH = re.compile(r"\b(?:even\s+if|even\s+though|only\s+once|just\s+once|once\s+(?:only|each)|each\s+(?:person\s+|one\s+)?once|"
                        r"(?:list|count|name)\s+(?:them|him|her|each|anyone|everyone|someone|those)\b[^?.]{0,60}\bonce)\b", re.I)
"""An instruction to list each analyst once, whoever came back to the queue: every analyst is asked."""
_AND_LAST = re.compile(r"\b(?:and|&|plus)\s+(?:who\s+(?:asked\s+|had\s+)?)?(?:the\s+)?(?:last|final)\s+(?:one|question|analyst|q)\b",
                       re.I)


_INTRODUCED_AS = re.compile(r"\b(?:introduced|named|listed|described|presented)\s+as\s+(?:the\s+|its\s+|their\s+)?"
                            r"(?:company['\u2019]s\s+|[A-Z][\w&.-]*['\u2019]s\s+)?(?P<t>[a-z][a-z&\s-]{3,40}?)\s*(?=[?.,;]|$)")
"""A title a question asks the holder of as the call introduced them ("Who was introduced as the company's deputy general
counsel?")."""
_FIRST_HANDED = re.compile(r"\b(?:handed|turned|passed|given)\s+(?:over\s+)?to\s+first\b|"
                           # NOTE: "which executive did the operator hand the call to first"
                           r"\b(?:hand|turn|pass|give)\s+(?:the\s+(?:call|floor|line)\s+|it\s+)?(?:over\s+)?to\s+first\b|\bfirst\s+(?:handed|turned|passed|given)\b|"
                           r"\bwhich\s+(?:one\s+)?of\s+(?:them|the\s+two)\s+(?:actually\s+)?(?:spoke|went|talked|came\s+in)\s+first\b|"
                           r"\bactually\s+(?:give|gave|hand|handed|pass|passed|turn|turned)\b|"
                           r"\bwho\s+(?:actually\s+)?(?:speaks?|spoke|goes|went|talks?|talked)\s+first\b|"
                           # NOTE: "operator hands off to mgmt, who actually starts talking first?"
                           r"\bwho\s+(?:actually\s+)?(?:starts?|started|begins?|began)\s+(?:talking|speaking)\b|"
                           r"\bwho\s+(?:did\s+)?(?:the\s+)?(?:operator\s+)?(?:hand|turn|pass)\w*\s+(?:[\w\s]{0,20}?)\bto\s+first\b", re.I)
"""A hand-off asked of the first to speak ("who was the call handed to first?", "who did the operator actually give the
floor to?")."""
_WHICH_WENT_AHEAD = re.compile(r"\bwhich\s+(?:one\s+)?of\s+(?:them|the\s+two|those\s+two)\b[^?]{0,40}\b(?:go\s+ahead|"
                               r"opening\s+remarks|opened|kicked\s+off|started|began|led\s+off)\b", re.I)
"""'Which of the two was actually told to go ahead and deliver the opening remarks?': the first of them, when the question
asks nothing else of the hand-off ("who did the operator hand the call over to, and which of them was asked to go
ahead first?" asks both)."""
_OPENED_AFTER = re.compile(r"\bwho\b[^?]{0,20}\b(?:kick(?:ed|s)?\s+off|led\s+off|open(?:ed|s)?|start(?:ed|s)?|began|went\s+first|"
                           r"spoke\s+first)\b(?![^?]{0,30}\b(?:q\s?&\s?a|question\w*)\b)[^?]{0,60}\bafter\s+the\s+operator\b"
                           # NOTE: "Who kicked off Meta's Q3 2024 earnings call before Zuckerberg spoke?": the call's opener
                           r"|\bwho\b[^?]{0,20}\b(?:kick(?:ed|s)?\s+off|led\s+off|open(?:ed|s)?|start(?:ed|s)?|began)\s+"
                           r"(?:[\w'\u2019.-]+\s+){0,6}?(?:call|webcast|conference)\b(?![^?]{0,30}\b(?:q\s?&\s?a|question\w*)\b)"
                           r"|\bfirst\s+(?:company|management)\s+speaker\b|\boperator\s+introduce[ds]?\s+first\b"
                           # NOTE: "which executive did the operator ask to go ahead first and spoke first for the firm"
                           r"|\bwhich\s+(?:executive|exec|person|speaker|officer)\b[^?]{0,40}\b(?:go(?:es)?\s+ahead|spoke|speak|went)"
                           r"\s+first\b"
                           r"|\b(?:speaker|who)\b[^?]{0,20}\boperator\b[^?]{0,10}\bintroduce[ds]?\b[^?]{0,30}\bfirst\b"
                           r"|\bafter\s+the\s+operator['\u2019]?s?\s+(?:intro\w*|welcome|opening)\b[^?]{0,30}\bwho\b"
                           r"[^?]{0,30}\b(?:took|take|takes)\s+(?:the\s+call\s+)?over\b"
                           # NOTE: "who actually kicked off management's remarks?", "who did the operator ask to go ahead first?"
                           r"|\bwho\b[^?]{0,30}\b(?:kick(?:ed|s)?\s+off|led\s+off|open(?:ed|s)?|start(?:ed|s)?|began)\s+"
                           r"(?:the\s+|management['\u2019]s\s+|the\s+company['\u2019]s\s+|their\s+|its\s+)?(?:prepared\s+)?"
                           r"(?:remarks|presentation|comments)\b"
                           r"|\bwho\s+did\s+the\s+(?:operator|moderator)\s+(?:ask|invite|call\s+on|tell)\b[^?]{0,20}?\b"
                           r"(?:go\s+ahead|begin|start|kick\s+off)\b", re.I)
"""Who spoke first once the operator had welcomed the callers: the operator's hand-off."""
_CLOSED_BY = re.compile(r"\bwho\b[^?]{0,40}\b(?:gave|delivered|made|had)\s+the\s+(?:closing|final|concluding)\s+(?:remarks|comments|word)\b"
                        r"|\bwho\b[^?]{0,30}\b(?:had\s+the\s+last\s+word|wrapped\s+(?:the\s+call\s+|it\s+|things\s+)?up|"
                        r"closed\s+(?:out\s+)?the\s+call|closed\s+(?:it|things|the\s+call)\s+out)\b|\blast\s+(?:person|one|speaker|executive)\s+to\s+speak\b", re.I)
"""Who closed the call ("who gave the closing remarks", "who had the last word"): whom the operator hands the call to
after the Q&A."""
HANDED_NEXT = "next"
"""The speaker the one asked hands over to, asked too (`PeopleAsk.also` of the opener's hand-off)."""
_HANDED_ON = re.compile(r"\b(?:and|then)\s+(?:who(?:m)?|to\s+whom)\s+(?:did\s+|does\s+)?(?:s?he|they|it|the\s+\w+)\s+(?:then\s+)?"
                        r"(?:hand|turn|pass)\w*\s+(?:it\s+|the\s+call\s+|things\s+)?(?:over|off|on)?(?:\s+to)?\b", re.I)
"""'..., and who did he hand over to?': after the one asked, whom they handed the call to."""
_WELCOMED_ASKED = re.compile(r"\bwelcom\w*\b[^?]{0,100}?\b(?:first\s+time|new(?:ly)?\b|joining|join(?:ed|s)?)|"
                             r"\b(?:joining|joined|on)\s+(?:the\s+|this\s+|an\s+|their\s+)?(?:earnings\s+)?call\s+for\s+the\s+"
                             r"first\s+time\b", re.I)
"""People the call welcomed as new to it ("which executive did Bharat Masrani welcome as joining the call for the first
time?")."""
_TEAM_ASKED = re.compile(r"\bfrom\s+(?:the\s+)?(?:[\w.&'\u2019-]+['\u2019]s?\s+)?(?P<team>legal|accounting|treasury|compliance)\s+"
                         r"(?:team|department|function|side|group|org(?:anization)?)\b", re.I)
"""A company speaker asked by the team they are from ("Who from Microsoft's legal team was on the call?")."""
_TEAM_TITLES = {"legal": "counsel", "accounting": "accounting", "treasury": "treasurer", "compliance": "compliance"}
"""The word of the title a team's officer holds ("deputy general counsel" for the legal team)."""
_HANDED_TO_NAMED = re.compile(
    r"\bwho\b[^?]{0,30}?\b(?:hand(?:ed|s)?|turn(?:ed|s)?|pass(?:ed|es)?)\s+(?:it\s+|the\s+(?:call|floor|line|mic)\s+)?"
    r"(?:off\s+|over\s+|back\s+)?(?:over\s+)?to\s+(?!(?:the\s+)?(?:operator|moderator|q\s?&\s?a|questions|analysts)\b)"
    r"(?P<x>[\w.'\u2019-]+(?:\s+[\w.'\u2019-]+)?)(?=\s+(?:at|on|in|during|for|after|before|when|and|to)\b|\s*[?,.;]|\s*$)"
    r"|\bwho\s+introduced\s+(?!(?:the\s+)?(?:call|q\s?&\s?a|questions)\b)(?P<x2>[\w.'\u2019-]+(?:\s+[\w.'\u2019-]+)?)"
    r"(?=\s+(?:at|on|in|during|for|after|before|when|and|to)\b|\s*[?,.;]|\s*$)", re.I)
"""Who spoke just before a person named ("who handed off to slootman at the start of the call?", "who introduced Frank
Slootman?"): the turn before theirs."""
_SPOKE_AFTER = re.compile(
    r"\b(?i:who|which\s+(?:executive|exec|person|speaker|officer|analyst))\b[^?]{0,80}?\b(?i:after|following|next\s+after)\s+"
    r"(?P<x>(?i:the\s+)?(?:CEO|CFO|COO|CRO|(?i:chief\s+\w+\s+officer))|(?!(?i:the\s+operator|the\s+q))[A-Z][\w'\u2019.-]+"
    r"(?:\s+[A-Z][\w'\u2019.-]+)?)")
"""Who spoke next after a person or role named ("which executive gave the credit-quality remarks after the CFO?", "which
analyst got to ask right after Gerard Cassidy?")."""
PREVIOUS = "previous"
"""The analyst who asked just before the one named (`PeopleAsk.role` of a hand-off)."""
BEFORE_QA = "before_qa"
"""The company speaker whose turn ends the prepared remarks, just before the Q&A (`PeopleAsk.role` of a hand-off)."""
PRONOUNS = ("him", "her", "them")
"""A person a hand-off names by pronoun ("which analyst asked right before him?"): the one the question names."""
_ANALYST_NEXT_TO = re.compile(
    r"(?:\b(?i:who|which\s+(?:analyst|person|questioner|caller|one))\b[^?]{0,60}?(?:(?i:right|immediately|just|directly)\s+)?|"
    # NOTE: a note's "analyst immediately after X": at its head or after a label, with the adverb
    r"(?:^|[:;\u2013\u2014-]\s*)(?i:the\s+)?(?i:analyst|questioner|caller)\s+(?i:right|immediately|just|directly)\s+)"
    r"(?P<side>(?i:before|after|ahead\s+of|preceding|following))\s+"
    r"(?:(?:[A-Z][\w&.-]*\s+){0,2}[A-Z][\w&.-]*['\u2019]s\s+)?"
    r"(?P<x>(?i:him|her|them)\b|(?!(?i:the|a|an|Q&A)\b)[A-Z][\w'\u2019.-]+(?:\s+[A-Z][\w'\u2019.-]+)?)")
"""An analyst asked by the one next to them in the Q&A ("which analyst asked the question right before him?", "analyst
immediately after Deutsche Bank's O'Connor?"): a named firm's possessive is no part of the name."""
_BEFORE_QA = re.compile(r"\bwho\b[^?]{0,40}?\b(?:spoke|talked|went|was\s+(?:on|speaking)|had\s+the\s+floor)\s+"
                        r"(?:(?:right|just|immediately|directly|last)\s+)?before\s+(?:the\s+)?(?:operator\s+"
                        r"(?:opened|started|began|kicked\s+off|moved\s+to|turned\s+to)\s+(?:up\s+)?(?:the\s+)?)?(?:call\s+for\s+)?"
                        r"(?:q\s?&\s?a|questions|question[-\s]and[-\s]answer)\b|"
                        r"\b(?:last|final)\s+(?:speaker|person\s+to\s+speak|one\s+to\s+speak)\s+(?:in|of)\s+(?:the\s+)?"
                        r"prepared\s+(?:remarks|comments|portion)\b|"
                        r"\bwho\b[^?]{0,30}\b(?:spoke|talked|went)\s+last\s+(?:in|during)\s+(?:the\s+)?prepared\s+(?:remarks|comments)\b",
                        re.I)
"""Who ended the prepared remarks ("who spoke right before the operator opened Q&A?")."""
_ONE_IN_ROLE = re.compile(r"\b(?:which|what)\s+(?:executive|exec|person|officer)\s+(?:served|was|acted|is)\s+(?:as\s+)?(?:the\s+)?"
                          r"(?:CEO|CFO|COO|chief|head|investor)", re.I)
"""'Which executive served as chief financial officer?': the one holding a role, not every executive."""
_NOT_ANALYSTS = re.compile(r"(?:\(|[,;-])\s*(?:not|excluding|other\s+than)\s+(?:the\s+)?analysts\b", re.I)
"""'the speakers (not the analysts)', 'who spoke on the call, not the analysts?': the company's."""
_REPLY_TOO = re.compile(r"\b(?:and|&|plus)\s+(?:who|which\s+(?:[\w.&'\u2019-]+\s+){0,2}(?:executive|exec|person|speaker|officer))"
                        r"\s+(?:\w+\s+){0,2}(?:answer|respond|repl(?:y|ied)|field|handl)\w*", re.I)
"""A reply asked after an analyst by place ("..., and which Snowflake executive answered him?")."""
_HANDOFF_END = re.compile(r"\b(?:wrap\w*|end(?:ed|s)?|clos\w+|conclu\w+|after\s+the\s+(?:q\s?&\s?a|questions)|"
                          r"final|last|back)\b", re.I)


_PERSONA = re.compile(r"^\s*(?:I['\u2019]m\s+an?|I\s+am\s+an?|I\s+(?:run|work|cover|manage|lead|head|sit)|We['\u2019]re\s+an?|"
                      r"We\s+are\s+an?|We\s+(?:run|cover|manage)|My\s+(?:job|role|team|firm|desk)|Our\s+(?:team|firm|desk|fund))\b"
                      r"[^.!?]*[.!]\s+(?=[A-Z])")
"""A sentence that says who asks ("I run investor relations at a mid-cap tech company.", "I'm an ESG analyst following TD's
AML problems."): no role on the call."""



_ROLE_NOTE = re.compile(r"(?:^|[:,\u2013\u2014-]\s*)(?:the\s+|their\s+|its\s+)?(?:CEO|CFO|COO|head\s+of\s+(?:IR|investor\s+relations)|IR\s+(?:head|lead|contact|host)|"
                        r"operator|moderator|host)(?:\s+(?:name|(?:on|of|for)\s+(?:the\s+)?[^?:]{0,60}?\bcall))?"
                        r"(?:\s*(?:\+|&|and|,)\s*(?:(?:their|his|her|the)\s+)?(?:title|role|firm|job)s?)?\s*\??\s*$", re.I)
"""A note that ends on the role it asks ("Solvane Systems 1Q25: CEO?", "CFO on the HLB 3Q23 call?")."""


_TWO_ASKS = re.compile(r"\b(?:and|&|plus|also)\s+(?:who(?:['\u2019]s|\s+is|\s+was)?|what(?:['\u2019]s|\s+is|\s+was)|the)\b|"
                       r"\?\s*(?:and\s+)?(?:who|what)\b", re.I)
"""A second ask in one question ("who's the IR person and what's the operator's name"): every role it names is asked;
without one, the role named first ("who is the CFO of the company whose CEO ...")."""


_FULL_NAME = r"[A-Z][\w.\u2019'-]+(?:\s+(?:(?:von|van|de|der)\s+)?[A-Z][\w.\u2019'-]+){0,3}"
_SET_ASIDE = r"besides|other\s+than|apart\s+from|aside\s+from|except(?:\s+for)?|excluding|not\s+counting"
"""The words that set people or roles aside."""
_BESIDES = re.compile(rf"\b(?i:{_SET_ASIDE})\s+"
                      rf"(?P<names>{_FULL_NAME}(?:\s*,\s*{_FULL_NAME})*(?:\s*,?\s+(?:and|&)\s+{_FULL_NAME})?)")
"""People a question sets aside ("Besides Satya Nadella and Amy Hood, which other Microsoft executives ...")."""
_ROLES_BESIDES = re.compile(rf"\b(?:{_SET_ASIDE})\s+"
                            r"(?P<roles>(?:the\s+)?(?:CEO|CFO|COO)(?:\s*(?:,|and|&)\s*(?:the\s+)?(?:CEO|CFO|COO))*)\b", re.I)
"""Roles a question sets aside ("one executive besides the CEO and CFO")."""
_QA_ONLY = re.compile(r"\b(?:joined|join(?:s|ing)?|came\s+on|(?:was|were)\s+(?:there|added|on\s+hand|available))\s+"
                      r"(?:just\s+|only\s+|solely\s+)?for\s+(?:the\s+)?(?:q\s?&\s?a|questions|question[-\s]and[-\s]answer)\b|"
                      r"\b(?:only\s+(?:spoke|appeared|answered|came\s+in|showed\s+up|turned\s+up|popped\s+up|chimed\s+in|heard)|"
                      r"(?:spoke|appeared|answered|came\s+in|showed\s+up|turned\s+up|popped\s+up|chimed\s+in|heard)\s+only)\s+"
                      r"(?:in|during|for)\s+(?:the\s+)?(?:q\s?&\s?a|questions|question[-\s]and[-\s]answer)\b|"
                      # NOTE: "which execs ... in the Q&A (no prepared remarks)?"
                      r"\b(?:q\s?&\s?a|questions)\b[^?]{0,20}\(\s*(?:no|not\s+in\s+the|without(?:\s+any)?)\s+prepared\s+remarks\s*\)",
                      re.I)
"""Company speakers asked by speaking only in the Q&A ("one executive ... joined just for the Q&A session. Who was that?")."""
_ALSO_BEFORE = re.compile(r"\b(?:including|incl\.?|plus|as\s+well\s+as|along\s+with|together\s+with|and\s+also)\s+"
                          r"(?:anyone|anybody|any\s+(?:one|executives?)|those|people|the\s+ones?)\s+(?:who|that)\s+$", re.I)
"""Words that add the Q&A-only speakers to everyone asked ("which executives spoke, including anyone who only came in
during the Q&A?"), not ask them alone."""
_HOST_SAID = re.compile(r"\bhost\s+(?:say|said|says|mention\w*|introduc\w*|name[sd]?|list\w*)\b|"
                        r"\b(?:introduced|named|listed)\s+by\s+the\s+host\b|"
                        r"(?-i:\b[A-Z][a-z]+)\s+(?:names|named|introduces|introduced|lists|listed|mentions|mentioned)\b|"
                        r"\bdid\s+(?-i:[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\s+say\s+(?:were|was)\s+(?:on|joining|present)\b", re.I)
"""The executives the host (or the person named: "Brett names two other company officers") said were on the call: the
host is not one of them."""


_OPERATOR_ASKED = re.compile(r"\bwho\s+(?:moderated|was\s+the\s+(?:operator|moderator))\b|\b(?:operator|moderator)['\u2019]s\s+name\b|"
                             r"\bname\s+(?:of\s+)?the\s+(?:operator|moderator)\b", re.I)
"""The operator asked beside the hand-off ("who moderated, and who did the moderator hand the call to?")."""


def _roles_set_aside(question: str) -> tuple[str, ...]:
    """The roles a question sets aside ("besides the CEO and CFO"), as the turns name them ('CEO', 'CFO')."""
    roles = _ROLES_BESIDES.search(question)
    return tuple(r.upper() for r in re.findall(r"CEO|CFO|COO", roles.group("roles"), re.I)) if roles else ()


def read_people_ask(question: str) -> PeopleAsk | None:
    """The people a question asks about, or None when it asks something else."""
    asked = without_asker(question)  # NOTE: "I run investor relations at a mid-cap tech company. ... who hosted?"
    question = asked if re.search(r"\b(?:who|which|whom|name)\b", asked, re.I) else question
    if _ANNOUNCED_BUT.search(question):
        # NOTE: "the operator announced Steve Koenig from SMBC - but who actually asked that question?": the analyst of
        # that firm whose turn it is (the firm named sets the others aside)
        return PeopleAsk("analysts")
    if _HANDOFF.search(question) and re.search(r"\b(?:operator|moderator)\b", question, re.I) \
            and re.search(r"\bwho(?:m)?\b|\bwhich\s+(?:one\s+)?of\s+(?:them|the\s+two)\b|"
                          r"\bwhich\s+(?:exec(?:utive)?|person|speaker|officer)\s+did\b", question, re.I):
        # NOTE: "who moderated, and who did the moderator hand the call to?": the operator too
        # NOTE: "who was the call handed to first?": whoever speaks first after the operator, of those it names
        return PeopleAsk("handoff", role="end" if _HANDOFF_END.search(question) else
                         "first" if _FIRST_HANDED.search(question) or (
                             _WHICH_WENT_AHEAD.search(question) and not re.search(r"\bwho(?:m)?\b", question, re.I)) else "start",
                         also=("operator",) if _OPERATOR_ASKED.search(question) else ())
    if _CLOSED_BY.search(question):  # "who gave the closing remarks?"
        return PeopleAsk("handoff", role="end")
    side = _FOR_SIDE.search(question)
    if side:  # NOTE: "who from TD was answering for the wholesale side?": the speaker whose title names it
        return PeopleAsk("title", role=SIDE, name=side.group("unit").lower())
    team = _TEAM_ASKED.search(question)
    if team and _ROLE_ASK.search(question):  # NOTE: "Who from Microsoft's legal team was on the call?": its title's word
        return PeopleAsk("title", name=_TEAM_TITLES[team.group("team").lower()])
    if _NOT_ANALYSTS.search(question) and _EXECUTIVES.search(question):
        return PeopleAsk("executives", role="spoke" if _SPOKE.search(question) else "")
    if _OPENED_AFTER.search(question):  # "who actually kicked off the call after the operator?"
        # NOTE: "Who kicked off Meta's Q3 2024 earnings call, and who did he hand over to?": the next speaker too
        return PeopleAsk("handoff", role="first", also=(HANDED_NEXT,) if _HANDED_ON.search(question) else ())
    if _WELCOMED_ASKED.search(question) and re.search(r"\bwho\b|\bwhich\b|\bname", question, re.I):
        return PeopleAsk("welcomed")  # NOTE: "which executive did Bharat welcome as joining the call for the first time?"
    handed = _HANDED_TO_NAMED.search(question)
    if handed:  # NOTE: "who handed off to slootman?": whoever spoke just before them
        return PeopleAsk("handoff", role="before", name=handed.group("x") or handed.group("x2"))
    if _BEFORE_QA.search(question):  # NOTE: "who spoke right before the operator opened Q&A?"
        return PeopleAsk("handoff", role=BEFORE_QA)
    next_to = _ANALYST_NEXT_TO.search(asked)
    if next_to and (next_to.group("x").lower() in PRONOUNS or not re.match(
            r"(?i:CEO|CFO|COO|CRO|chief)\b", next_to.group("x"))) and (
            re.search(r"\banalyst|\bquestion|\bcaller|\basked\b", question, re.I)):
        # NOTE: "Which analyst asked the question right before him?": the analyst before (or after) the one named
        side = next_to.group("side").lower()
        return PeopleAsk("handoff", role="after" if side in ("after", "following") else PREVIOUS,
                         name=next_to.group("x"))
    after = _SPOKE_AFTER.search(question)
    if after:  # NOTE: "which executive gave the credit-quality remarks after the CFO?": the next company speaker
        return PeopleAsk("handoff", role="after", name=re.sub(r"^the\s+", "", after.group("x"), flags=re.I))
    place = analyst_place(question)
    replied = re.search(r"\b(?:answer|respond|repl(?:y|ied)|field|handl)\w*", question, re.I)
    if place and replied and _REPLY_TOO.search(question):
        # NOTE: "Who was the last analyst to ask a question, and which executive answered him?": the analyst, then those
        # who replied in their exchange
        return PeopleAsk("analysts", role=place, also=("replied",))
    # NOTE: "who answered the first question?" asks who replied, not the analyst
    if place and not replied and (_ANALYSTS.search(question) or re.search(r"\b(?:who|name)\b", question, re.I)
                                  # NOTE: "Citi 3Q23 call - last analyst in the queue + firm?": a note asking who
                                  or re.search(r"(?:\+|&|\bwith\b)\s*(?:their\s+|his\s+|her\s+)?(?:firms?|banks?|shops?)\b",
                                               question, re.I)
                                  or re.search(r"\b(?:analyst|questioner|caller)\s+to\s+ask\b", question, re.I)
                                  # NOTE: "2nd question came from morgan stanley. was it keith weiss himself or someone
                                  # else asking?": who asked in that place
                                  or re.search(r"\bsomeone\s+else\b|\b(?:him|her)self\b", question, re.I)):
        return PeopleAsk("analysts", role=place)  # NOTE: "who asked the first question?": one analyst, by their place
    if _MOST_ASKED.search(question) and re.search(r"\b(?:analyst|questioner|caller|who)\b", question, re.I) \
            and not _ONCE_EACH.search(question):
        return PeopleAsk("analysts", role=MOST_ASKED)  # NOTE: "which analyst kept coming back with follow-up after follow-up?"
    if _ANALYSTS.search(question) and _REQUEUED.search(question) and not _ONCE_EACH.search(question):
        return PeopleAsk("analysts", role=REQUEUED)  # NOTE: "which analysts came back in the queue for a second time?"
    if _ANALYSTS.search(question):
        return PeopleAsk("analysts")
    qa_only = _QA_ONLY.search(question)
    if qa_only and re.search(r"\bwho\b|\bwhich\b|\bname\b", question, re.I) \
            and not _ALSO_BEFORE.search(question, 0, qa_only.start()):
        # NOTE: "one executive besides the CEO and CFO joined just for the Q&A session. Who was that?"
        return PeopleAsk("executives", role="qa_only", besides=_roles_set_aside(question))
    if _EXECUTIVES.search(question) and not _ONE_IN_ROLE.search(question):
        # NOTE: "who spoke" asks for the turns; "who was on the call" for the participant lists too
        besides = _BESIDES.search(question)
        names = tuple(n.strip() for n in re.split(r",\s*(?:and\s+)?|\s+and\s+|\s*&\s*", besides.group("names")) if n.strip()) \
            if besides else ()
        # NOTE: "Apart from the CEO and the CFO, who were the other two?": their roles set aside
        return PeopleAsk("executives", role="spoke" if _SPOKE.search(question) else "", besides=names + _roles_set_aside(question),
                         introduced=bool(_HOST_SAID.search(question)))
    introduced = _INTRODUCED_AS.search(question)
    if introduced and _ROLE_ASK.search(question):  # NOTE: "Who was introduced as the company's deputy general counsel?"
        return PeopleAsk("title", name=" ".join(introduced.group("t").split()))
    if _ROLE_ASK.search(question) or _ROLE_NOTE.search(question):
        roles = []
        for role, pattern in ROLE_WORDS.items():
            if role == "operator" and re.search(ROLE_WORDS["host"], question, re.I) and not _OPERATOR_ASKED.search(question):
                # NOTE: "who hosted for the company and moderated the Q&A?": the host ("..., and what was the operator's
                # name?" asks the operator too)
                continue
            found = re.search(pattern, question, re.I if role != "investor relations" else 0) or (
                role == "investor relations" and re.search(r"\binvestor\s+relations\b", question, re.I))
            if found:
                roles.append((found.start(), role))
        if roles:
            # NOTE: "who's the IR person and what's the operator's name": each role asked, in the question's order
            ordered = [r for _, r in sorted(roles)]
            also = tuple(ordered[1:]) if _TWO_ASKS.search(question) else ()
            return PeopleAsk("role", role=ordered[0], also=also)
    titled = _TITLE_ASKED.search(question) if _ROLE_ASK.search(question) or re.search(r"\bname\b", question, re.I) else None
    if titled:  # "TD chief risk officer - name?"
        return PeopleAsk("title", name=" ".join(titled.group(0).split()))
    named = _ROLE_OF.search(question)
    if named:
        name = named.group("name") or named.group("name2") or named.group("name3") or named.group("name4") \
            or named.group("name5") or named.group("name6") or named.group("name7") or named.group("name8")
        return PeopleAsk("role_of", name=re.sub(r"['\u2019]s$", "", name))
    return None


COMPANY_NEAR_LETTERS = 7
"""A company's name word this long is read a letter off ("Microsft"); a shorter one only as printed ("Citi", "Meta")."""


def calls_named(question: str, calls: Sequence[tuple[str, Identity]], names: Mapping[str, str] | None = None,
                people: Sequence[str] = (), dates: Mapping[str, Sequence[str]] | None = None) -> list[str]:
    """The calls (doc ids) a question names by company and quarter; every call when it names neither.
    A company is named by a word of its name ("Citi", "Snowflake"); a quarter as the company labels it, or the month the
    call was held ("the April 2023 call"; `dates`: the dates each call's first page prints). `people`: the names the
    calls print for their participants, whose words never name a company ("What is Jamie Dimon's title?")."""
    words = _asked_words(question)

    def company_words(doc_id: str, identity: Identity) -> set[str]:
        # NOTE: the file's name counts as the user's own name for it ("JPM" of JPM_2023Q4_CALL.pdf)
        printed = identity.company + " " + _FILE_PARTS.sub(" ", (names or {}).get(doc_id, ""))
        return _name_words(printed, 2, _GENERIC_NAME_WORDS | _FILE_WORDS)

    def said(company: set[str]) -> bool:
        # NOTE: a company's longer name starts with its short one ("Citigroup's" call is Citi's); a long name typed a
        # letter off is the name ("Microsft's FY23 Q3 call")
        return bool(company & words) or any(len(c) >= 4 and w.startswith(c) for c in company for w in words) \
            or any(len(c) >= COMPANY_NEAR_LETTERS and near_spelling(w, c) for c in company for w in words)

    chosen = [(doc_id, identity) for doc_id, identity in calls if said(company_words(doc_id, identity))]
    company_named = bool(chosen)
    if not chosen:
        known = set().union(*(company_words(d, i) for d, i in calls)) if calls else set()
        # NOTE: a company named that no call is of ("Who is Citi's CFO?" over other banks' calls) is answered by none
        person_words = {w.lower() for p in people for w in re.findall(r"[A-Za-z][\w'-]+", p)}
        named = {w for w in ({re.sub(r"['\u2019]s$", "", w).lower() for w in _PROPER.findall(question)} - NOT_COMPANY_WORDS)
                 if not any(near_spelling(w, p) for p in person_words)}
        # NOTE: the owner must be the unknown name ("Brent Thill's question on how Copilot will be monetized" names a
        # person's question and a product, no other company)
        owners = {re.sub(r"^(?:.*\s)?(?:at|from|for)\s+|['\u2019]s$", "", m.group(0), flags=re.I).lower()
                  for m in _NAMED_OWNER.finditer(question)}
        if named - known and owners & (named - known):
            return []
        chosen = list(calls)
    labels = _spanned(quarter_labels(question), question)
    held = months_held(question)
    if held and not labels:
        # NOTE: "(April 2023 call)": the call held that month reports the quarter that ended one or two months before
        return [doc_id for doc_id, identity in chosen
                if any(_held_in(identity, (dates or {}).get(doc_id, ()), year, month) for year, month in held)]
    if labels:
        quarters = [(doc_id, identity) for doc_id, identity in chosen
                    if any(identity.fiscal_quarter == q and (y is None or identity.fiscal_year == y) for y, q in labels)]
        if quarters or _CALL_OF_QUARTER.search(question) or not company_named:
            return [doc_id for doc_id, _ in quarters]
        # NOTE: "What Azure growth did Microsoft's CFO guide for Q4 FY23?": a quarter the company's call speaks of, not
        # the call's own; the company's calls answer (a quarter tied to a call, "on JPMorgan's 1Q24 call", is the call's)
    return [doc_id for doc_id, _ in chosen]


_MONTH_HELD = re.compile(rf"\b(?P<m>{MONTH_WORD})\s+(?:(?P<y>(?:19|20)\d\d)\s+)?(?:earnings\s+|quarterly\s+|conference\s+)?"
                         rf"(?:call|one)\b|\bcall\s+(?:held\s+)?in\s+(?P<m2>{MONTH_WORD})(?:\s+(?P<y2>(?:19|20)\d\d))?\b", re.I)
"""A call named by the month it was held ("the April 2023 call", "the august one", "the call in October 2023")."""


def months_held(question: str) -> list[tuple[int | None, int]]:
    """(year or None, month) of each call the question names by the month it was held."""
    out = []
    for m in _MONTH_HELD.finditer(question):
        month = month_number(m.group("m") or m.group("m2"))
        year = m.group("y") or m.group("y2")
        if month:
            out.append((int(year) if year else None, month))
    return out


def _held_in(identity: Identity, dates: Sequence[str], year: int | None, month: int) -> bool:
    """Whether a call may have been held in that month (and year): a date its first page prints (`dates`: the call's,
    its transcript's), else its period ended one or two months before; a call that shows neither is not set aside."""
    if dates:
        return any(int(d[5:7]) == month and (year is None or int(d[:4]) == year) for d in dates if len(d) >= 7)
    if len(identity.period_end or "") < 7:
        return True
    end_year, end_month = int(identity.period_end[:4]), int(identity.period_end[5:7])
    gap = (month - end_month) % 12
    held_year = end_year + (1 if end_month + gap > 12 else 0)
    return gap in (1, 2) and (year is None or held_year == year)


_QUARTER_WORD = r"(?:Q[1-4]|[1-4]Q(?:['\u2019]?\d{2}(?:\d{2})?)?|first|second|third|fourth)\b"
_SPAN = re.compile(rf"\bfrom\s+(?:the\s+|its\s+)?{_QUARTER_WORD}[^?.;]{{0,40}}?\s(?:through|thru|to|until|till)\s+"
                   rf"(?:the\s+|its\s+)?{_QUARTER_WORD}|\bbetween\s+(?:the\s+|its\s+)?{_QUARTER_WORD}[^?.;]{{0,40}}?"
                   rf"\sand\s+(?:the\s+|its\s+)?{_QUARTER_WORD}|\b(?:Q[1-4]|[1-4]Q)\s*(?:[-\u2013]|through|thru|to)\s*"
                   rf"(?:Q[1-4]|[1-4]Q)\b|\b(?:Q[1-4]|[1-4]Q)['\u2019]?\d{{2}}\s+(?:through|thru|until|till)\s+(?:the\s+)?{_QUARTER_WORD}|"
                   # NOTE: "Q4 FY22 thru Q3 FY23"
                   rf"\b(?:Q[1-4]|[1-4]Q)\s+(?:FY\s?['\u2019]?|fiscal\s+)?\d{{2,4}}\s+(?:through|thru|until|till)\s+(?:the\s+)?{_QUARTER_WORD}|"
                   rf"\(\s*(?:Q[1-4]|[1-4]Q)['\u2019]?\d{{2}}\s*(?:to|->|\u2192|[-\u2013])\s*{_QUARTER_WORD}|"
                   # NOTE: "(1Q23 -> 4Q23)", "Q1'23 \u2192 Q4'23": an arrow joins a span's ends
                   rf"\b(?:Q[1-4]|[1-4]Q)['\u2019]?\d{{2}}\s*(?:->|=>|\u2192)\s*{_QUARTER_WORD}|"
                   # NOTE: "(Q4 FY22 through Q3 FY23)": a span in parentheses, fiscal labels at its ends
                   # NOTE: "(q1 23 to q4 23)", "(Q1 2023 to Q4 2023)": a year after each end, written apart
                   rf"\(\s*{_QUARTER_WORD}(?:\s*(?:FY\s?)?['\u2019]?\d{{2}}(?:\d{{2}})?)?\s+(?:through|thru|to|until|till)\s+{_QUARTER_WORD}", re.I)
"""Two quarters named as the ends of a span, the span's words between them ("from the Q4 FY22 call through the Q3
FY23 call", "Q1 through Q4", "(1Q23 to 4Q23)"); "the gap between supply and demand on the Q1 and Q4 calls" is no
span."""
_CALLS_YEAR = re.compile(r"\b(?:FY\s*)?((?:19|20)\d\d)\s+(?:(?:earnings|quarterly|conference|analyst)\s+)?calls?\b|"
                         r"\bcalls?\s+(?:in|of|during|for)\s+(?:fiscal\s+)?(?:FY\s*)?((?:19|20)\d\d)\b", re.I)
"""The year of the calls a question asks about ("each of its 2023 quarterly calls"), not a year spoken of."""
MAX_SPAN = 8
"""Quarters a span may cover, both ends counted."""


def _spanned(labels: list[tuple[int | None, int]], question: str) -> list[tuple[int | None, int]]:
    """The quarters a question names, with every quarter between two it names as a span's ends ("from Q4 FY22
    through Q3 FY23": Q4 FY22, Q1, Q2 and Q3 FY23); the quarters as named otherwise."""
    span = _SPAN.search(question)
    # NOTE: "Scarpelli said on the Q4 FY22 call ... on each call from Q4 FY22 through Q3 FY23": a quarter named twice is
    # one; the span's own ends, beside other quarters named, are its ends
    labels = list(dict.fromkeys(labels))
    if span and len(labels) > 2:
        inside = list(dict.fromkeys(quarter_labels(span.group(0))))
        if len(inside) == 2 and all(i in labels for i in inside):
            return list(dict.fromkeys([*(label for label in labels if label not in inside), *_spanned(inside, question)]))
    if len(labels) == 1 and span and labels[0][0] is not None:
        # NOTE: "the Q1-Q4 FY24 calls": the year printed once, at one end of the span, is both ends'
        ends = [_ORDINALS.get(w.lower(), 0) or int(re.sub(r"\D", "", w))
                for w in re.findall(r"Q[1-4]|[1-4]Q|first|second|third|fourth", span.group(0), re.I)]
        if len(ends) == 2 and ends[0] < ends[1] and labels[0][1] in ends:
            return [(labels[0][0], q) for q in range(ends[0], ends[1] + 1)]
    if len(labels) != 2 or not span:
        return labels
    (y1, q1), (y2, q2) = labels
    if y1 is None and y2 is None:
        # NOTE: "each of its 2023 quarterly calls (Q1 through Q4)": the year of the calls is the span's ("FY2024
        # guidance" is a year spoken of)
        years = {int(m.group(1) or m.group(2)) for m in _CALLS_YEAR.finditer(question)}
        year = years.pop() if len(years) == 1 else None
        return [(year, q) for q in range(q1, q2 + 1)] if q1 < q2 else labels
    y1, y2 = y1 if y1 is not None else y2, y2 if y2 is not None else y1
    start, end = y1 * 4 + q1 - 1, y2 * 4 + q2 - 1
    if not 0 < end - start < MAX_SPAN:
        return labels
    return [(i // 4, i % 4 + 1) for i in range(start, end + 1)]


def spanned_quarters(question: str) -> set[int]:
    """The quarters a question names as the ends of a span and every one between ("Q1 to Q4": 1, 2, 3, 4); empty when
    it names no span."""
    labels = quarter_labels(question)
    spanned = _spanned(labels, question)
    if len(spanned) > len(labels):
        return {q for _, q in spanned}
    span = _SPAN.search(question)
    ends = [_ORDINALS.get(w.lower(), 0) or int(re.sub(r"\D", "", w))
            for w in re.findall(r"Q[1-4]|[1-4]Q|first|second|third|fourth", span.group(0), re.I)] if span else []
    if len(ends) != 2:  # NOTE: "from Q2 through Q4 2023": the year printed once, after the span's last quarter
        return set()
    first, last = ends
    return set(range(first, last + 1)) if first < last else set(range(first, 5)) | set(range(1, last + 1))


_CALL_OF_QUARTER = re.compile(
    r"\b(?:Q[1-4]|[1-4]Q|first|second|third|fourth)[-\s'\u2019]*(?:quarter\s+)?(?:(?:of\s+)?(?:FY|fiscal)?\s*['\u2019]?\d{2,4}\s+)?"
    r"(?:earnings\s+|conference\s+|analyst\s+)?(?:call|transcript|conference)\b|\b(?:call|transcript)\s+(?:for|of)\s+(?:the\s+)?"
    r"(?:Q[1-4]|[1-4]Q|first|second|third|fourth)\b|\b(?:in|on|during)\s+(?:the\s+)?(?:Q[1-4]|[1-4]Q)(?:\s*(?:FY)?\s*['\u2019]?\d{2,4})?\b",
    re.I)
"""A quarter that names the call ("JPMorgan's 1Q24 earnings call", "the call for Q3"), not a quarter spoken of."""


REPLY_ASKED = re.compile(r"\b(?:what|how)\b[^?]{0,60}?\b(?:answer(?:ed|s)?|respon(?:d|ded|se)|repl(?:y|ied)|say|said|tell|told|"
                         r"explain(?:ed)?)\b|\b(?:management|mgmt)['\u2019]?s?\s+(?:answer|response|reply)\b|"
                         r"\bwho\b[^?]{0,30}?\b(?:answer(?:ed)?|respond(?:ed)?|repl(?:ied)?|field(?:ed)?|handled|took)\b", re.I)
"""Words that ask the company's answer to a question an analyst put ("what was the answer?", "how did management
answer?", "what did management say?", "who took the Truist guy's questions?")."""
FIRM_ASKED = re.compile(r"\b(?:asked|asks|asking|question(?:ed|s)?|pushed|pressed|probed|quizzed|wanted\s+to\s+know)\b", re.I)
"""Words that say a firm's analyst asked ("When Morgan Stanley asked ...", "the UBS question on ...")."""


_ANALYST_QUESTION_ASKED = re.compile(r"\bwhat\s+(?:did|does|do)\b[^?]{0,50}?\b(?:ask|press|push|probe|grill|quiz|"
                                     r"want\s+to\s+know|dig\s+into|drill\s+into)\b|\bwhat\s+(?:was|were)\s+(?:the|his|her|their)\s+"
                                     r"questions?\b|\bwhat\s+(?:was|were|is|are)\b[^?]{0,50}?\basking\b", re.I)
"""The analyst's own question asked ("what did the Piper Sandler guy ask and what were the answers", "what did the MS
analyst press on"): the exchange."""


def firm_reply_asked(question: str, firms: Sequence[str]) -> set[str]:
    """The analysts' firms (of `firms`) a question says asked, when it asks the company's answer to them ("When Morgan
    Stanley asked Microsoft how ..., what was the answer?"); else none."""
    if not (FIRM_ASKED.search(question) and REPLY_ASKED.search(question)) or _ANALYST_QUESTION_ASKED.search(question):
        return set()
    return firms_named(question, firms)


_ANSWERS_TOO = re.compile(r"\b(?:answers?|responses?|respon(?:d|ded)|repl(?:y|ies|ied)|replies)\b|"
                          r"\b(?:management|mgmt|executives?|the\s+company)\s+(?:say|said|tell|told)\b", re.I)
"""Words that ask the replies beside the analyst's question ("and what answers did he get?")."""


def firm_exchange_asked(question: str, firms: Sequence[str]) -> set[str]:
    """The analysts' firms (of `firms`) whose analyst's question and its answers a question asks ("what did the Needham
    analyst ask, and what answers did he get?"): that exchange, never the list of analysts; else none."""
    if not (_ANALYST_QUESTION_ASKED.search(question) and _ANSWERS_TOO.search(question)):
        return set()
    return firms_named(question, firms)


def firm_question_asked(question: str, firms: Sequence[str]) -> set[str]:
    """The analysts' firms (of `firms`) whose analyst's own question a question asks, without the answers ("What did the
    Morgan Stanley analyst ask about?", "what was the jefferies guy asking?"); else none."""
    if not _ANALYST_QUESTION_ASKED.search(question) or _ANSWERS_TOO.search(question):
        return set()
    return firms_named(question, firms)


def firms_named(question: str, firms: Sequence[str]) -> set[str]:
    """The firms of `firms` the question names by every distinctive word of theirs ("Which Morgan Stanley analyst
    asked ...?": "Morgan Stanley & Co. LLC"); generic words of a firm's name ("Securities", "Inc.") need not be said."""
    # NOTE: a possessive of a name ending in s ("Portales' question") names it too
    words = {re.sub(r"['\u2019]s?$", "", w.lower()) for w in re.findall(r"[A-Za-z][\w&'\u2019-]+", question)}
    tokens = set(re.findall(r"[A-Za-z&]+", question))
    out = set()
    for firm in firms:
        # NOTE: every letter counts: "J.P. Morgan" is not named by "Morgan Stanley"
        printed = [w for w in re.findall(r"[A-Za-z][\w&'-]*", firm) if w.lower() not in _FIRM_WORDS or w.lower() == "of"]
        own = {w.lower() for w in printed} - _GENERIC_NAME_WORDS - _FIRM_WORDS
        # NOTE: a firm whose every word is generic ("Bank of America Securities") is named by all of them but "of"
        full = {w.lower() for w in printed} - {"of", "the", "and", "inc", "llc", "co", "corp", "ltd", "plc"}
        if any(len(w) >= 3 for w in own) and own <= words or not own and len(full) >= 2 and full <= words:
            out.add(firm)
        elif _initials(printed) in tokens:  # NOTE: "the BofA analyst" (Bank of America), "KBW" (Keefe, Bruyette & Woods)
            out.add(firm)
        elif (two := _initials(printed, least=2)) and re.search(rf"\b{two}\s+(?:analyst|guy|gal|person|rep)s?\b", question):
            out.add(firm)  # NOTE: "what did the MS analyst press on": two letters name a firm only before "analyst"
    if not out:
        # NOTE: "the Goldman analyst": a firm by the first word of its name, capitalised as a name, when no other firm of
        # the call's starts with it ("Morgan" names neither "Morgan Stanley" nor "J.P. Morgan")
        firsts = {firm: first for firm in firms
                  # NOTE: a first word in capitals is an acronym, short or not ("SMBC Nikko Securities")
                  if (first := next(iter(re.findall(r"[A-Za-z][\w&'-]*", firm)), ""))
                  and (len(first) >= SHORT_FIRM_WORD or len(first) >= 3 and first.isupper())
                  and first.lower() not in _GENERIC_NAME_WORDS | _FIRM_WORDS}
        for firm, first in firsts.items():
            if first in tokens and sum(first.lower() in (w.lower() for w in re.findall(r"[A-Za-z][\w&'-]*", f))
                                       for f in firms) == 1:
                out.add(firm)
    return out


SHORT_FIRM_WORD = 5
"""A firm's first word this long names it alone ("Goldman"); a shorter one ("Bank", "Citi") does not."""


def _initials(printed: list[str], least: int = 3) -> str:
    """A firm's short name by its words' initials, "of" kept ("Bank of America": BofA; "Keefe, Bruyette & Woods": KBW);
    '' for fewer than `least` letters (three: two are a ticker's, a company's own)."""
    skipped = _GENERIC_NAME_WORDS - _NAMING_WORDS
    letters = "".join("of" if w.lower() == "of" else w[0].upper() for w in printed if w.lower() not in skipped)
    return letters if len(letters) >= least and letters[0].isupper() else ""


_NAMING_WORDS = frozenset({"bank", "america", "american", "national", "of"})
"""Generic words a firm's initials keep ("Bank of America": BofA)."""


_FIRM_WORDS = frozenset("securities capital research partners markets advisors associates isi equities investment "
                        "investments asset management brokerage of division institutional incorporated".split())
"""Words of a broker's name an analyst's firm is not named by ("Evercore ISI" is named "Evercore")."""
_GENERIC_NAME_WORDS = {"inc", "corp", "corporation", "co", "ag", "plc", "ltd", "group", "holdings", "platforms", "company",
                       "companies", "bank", "banks", "the", "and", "america", "american", "financial", "international",
                       "national", "global", "technologies", "technology", "systems", "services", "limited", "llc"}
"""Words of a company's name that name no company on their own."""
_FILE_PARTS = re.compile(r"[_.]|\d+Q\d|\d{4}")
_FILE_WORDS = {"call", "calls", "release", "slides", "transcript", "pdf", "md", "earnings", "deck", "q"}
_PROPER = re.compile(r"\b[A-Z][\w&\u2019'-]+")
_NAMED_OWNER = re.compile(r"\b[A-Z][\w&-]+['\u2019]s\b|(?<!\bshowed\s)(?<!\bshown\s)(?<!\bunveiled\s)(?<!\bannounced\s)"
                          r"(?<!\bpresented\s)(?<!\blaunched\s)(?<!\bdemoed\s)\b(?:at|from)\s+[A-Z][\w&-]+\b|"
                          r"\b(?:CEO|CFO|COO|IR|calls?|executives?|officers?|head|analysts?|president|team|management)\s+"
                          r"for\s+[A-Z][\w&-]+\b")
"""A company named as an owner ("Citi's CFO", "the CFO at Snowflake", "the call for Citi"; not what is charged for:
"how they'd charge for Copilot", nor an event something was shown at: "the glasses they showed at Connect")."""


_SAID = re.compile(
    r"\b(?:say|said|says|saying|talk(?:ed|s)?|comment(?:ed|s)?|mention(?:ed|s)?|discuss(?:ed|es)?|note[ds]?|remark(?:ed|s)?"
    r"|updates?(?=\s+on\b)|la(?:y|id|ys)\s+out|set\s+out|outlin(?:e|ed|es)|walk(?:ed)?\s+through"
    r"|highlight(?:ed|s)?|explain(?:ed|s)?|describe[ds]?|guid(?:e|ed|ance)|outlook|view|take|thoughts?|think|thinks|"
    r"ask(?:ed|s|ing)?|question(?:ed|s)?|raised?|flag(?:ged|s)?|address(?:ed|es)?|tell|told|give|gave|open(?:ed)?\s+(?:with|on)|"
    r"point(?:ed)?\s+out|spoke|speak|come\s+up|came\s+up|bring\s+up|brought\s+up|expect(?:s|ed|ing)?|believe[sd]?|answer(?:ed|s)?|respon(?:se|ded|ds|d)|push(?:ed|es)?\s+back|pushback|react(?:ed|s)?|"
    r"argu(?:e|ed|es)|disput(?:e|ed|es)|reject(?:ed|s)?|(?:dis)?agree(?:d|s)?|accept(?:ed|s)?|den(?:y|ied|ies)|defend(?:ed|s)?|"
    r"warn(?:ed|s)?|acknowledg(?:e|ed|es)|admit(?:ted|s)?|reassur(?:e|ed|es)|messag(?:e|es|ing)|tone|stance|narrative|"
    r"commentary|characteri[sz](?:e|ed|es|ing)|read\s+on|colou?r\s+(?:on|from)|quotes?|key\s+points|summar(?:y|i[sz]e)|"
    r"press(?:ed)?|back[-\s]and[-\s]forth|focus(?:ed)?\s+on|topics?|want(?:ed)?\s+to\s+know|"
    # NOTE: "did Frank Slootman suggest ...", "did Zuck concede that ...": a claim a person is asked to have made
    r"suggest(?:ed|s)?|conced(?:e|ed|es)|hint(?:ed|s)?|signal(?:l?ed|s)?|impl(?:y|ied|ies)|claim(?:ed|s)?|insist(?:ed|s)?|"
    r"promis(?:e|ed|es)|pledg(?:e|ed|es)|commit(?:ted|s)?\s+to|concern(?:ed)?|worr(?:y|ied|ies))\b"
    r"|\b(?:CEO|CFO|COO|mgmt|management)\s+on\s+(?:how|why|what|whether|the|its|their)\b", re.I)
_QA_WORDS = re.compile(r"\bq\s?&\s?a\b|\bquestion[-\s]+and[-\s]+answer\b|\bduring\s+(?:the\s+)?questions\b|\banalysts?\s+ask"
                       r"|\b(?:was|were|when|got|being)\s+asked\b|\bwhen\s+(?:s?he|they)\s+(?:was|were|got)\s+asked\b"
                       r"|\bwho\s+(?:pushed\s+back|challenged|pressed|grilled|questioned)\b", re.I)
"""The Q&A asked: by name, or as a question put to the speaker ("the CFO was asked why ...", "when he was asked about",
"who pushed back on the sale ..., and how did management respond?")."""
_PREPARED_WORDS = re.compile(r"\bprepared\s+(?:remarks|comments)\b|\bopening\s+(?:remarks|comments)\b|\bscript(?:ed)?\b|"
                             r"\bopen(?:ed|s)?\s+(?:on|with)\b", re.I)
"""The prepared remarks asked: by name, or as how the speaker opened ("how did the CEO open on the bank failures?")."""
_ANALYST_ROLE = re.compile(r"\banalysts?\b|\bsell[-\s]?side\b|\bsomeone\s+from\b|\banyone\b", re.I)
_CALLS = re.compile(r"\b(?:earnings\s+)?calls?\b|\btranscripts?\b|\bconference\s+call\b", re.I)
_MANAGEMENT = re.compile(r"\bmanagement\b|\bmgmt\b|\bexecutives?\b|\bthe\s+company\b", re.I)


@dataclass(frozen=True)
class RemarkAsk:
    """What a question asks someone said on a call."""

    names: tuple[str, ...] = ()
    """Participants the question names (as the transcripts print them)."""
    roles: tuple[str, ...] = ()
    """Roles it names (ROLE_WORDS keys, 'analyst', 'management'); empty with names."""
    section: str = ""
    """'qa', 'prepared' or '' (either)."""
    firm: str = ""
    """'an analyst from Morgan Stanley': the firm named."""
    title: str = ""
    """A title other than the roles ROLE_WORDS names, by the word that sets it apart ("the product head": 'product',
    "the COO": 'operating'); empty with names or roles."""
    to: tuple[str, ...] = ()
    """Of `names`, those the remark was told to ("What did von Moltke tell Giulia Miotto about Numis?"): their
    exchanges hold it, the others' turns there say it."""
    closing: bool = False
    """The question asks how they closed the call ("How did TD's CEO wrap up the Q4 FY24 call?"): their last turn."""


TITLE_LETTERS: dict[str, str] = {"COO": "operating", "CRO": "risk", "CTO": "technology", "CPO": "product",
                                 "CMO": "marketing", "CAO": "accounting", "CIO": "information", "CCO": "compliance"}
"""A title asked by its letters, and the word of the printed title that sets it apart ("Chief Operating Officer")."""
_TITLE_SAID = re.compile(r"\b(?:(?:the|its|their|[\w.&-]+['\u2019]s)\s+(?P<lead>[a-z]{4,})\s+(?:head|chief|boss)\b(?!\s+of\b)"
                         r"|(?:head|chief)\s+of\s+(?:the\s+|[\w.&-]+['\u2019]s\s+)?(?:(?:[A-Za-z]\.){2,}\s*|[A-Za-z]{2,3}\s+)?(?P<of>[a-z]{4,})\b"
                         r"|chief\s+(?P<chief>(?!executive|financial)[a-z]{4,})\s+officer\b|(?-i:\b(?P<letters>C[A-Z]O)s?\b))", re.I)
"""A title asked in a question about what was said ("the product head", "head of wholesale", "the head of TD's US retail
bank": 'retail', "the COO"); a word before
"head" or "chief" only after "the" or a possessive ("lead times", "what did management say about ..." ask no title)."""


def title_asked(question: str) -> tuple[str, tuple[int, int]] | None:
    """The word that sets apart a title the question asks of (TITLE_LETTERS expanded), and where it is asked."""
    for m in _TITLE_SAID.finditer(question):
        word = TITLE_LETTERS.get(m.group("letters") or "", "") or (m.group("lead") or m.group("of") or m.group("chief") or "").lower()
        if word and word not in ("investor", "finance", "financial", "executive", "company", "call", "team", "department"):
            return word, m.span()
    return None


def holds_title(word: str, title: str) -> bool:
    """Whether a printed title holds the word a question set it apart by ("product" in "SVP of Product")."""
    return any(w.lower().startswith(word[:5]) for w in re.findall(r"[A-Za-z]+", title))


_PERSON_SAID = re.compile(r"\b(?P<n>[A-Z][a-z]+(?:\s+[A-Z]\.)?\s+[A-Z][a-z]+(?:-[A-Z][a-z]+)?)['\u2019]s\s+"
                          r"(?:questions?|remarks?|comments?|answers?|response)\b")
"""A person named by first name and surname as the owner of what was said ("Brad Zelnick's question")."""


FIELDED_VERBS = r"fielded|answered|handled|responded\s+to|replied\s+to|addressed"
"""The verbs of who answered an analyst's question ("who fielded the wholesale banking question?")."""
FIELDED = re.compile(rf"\bwho\b[^?]{{0,30}}?\b(?:{FIELDED_VERBS})\b"
                     r"(?![^?]{0,20}\b(?:first|last|next|final|opening)\s+questions?\b)(?=[^?]{0,80}?\bquestions?\b)", re.I)
"""'Who fielded the wholesale banking question?': the company speaker whose Q&A reply is about the topic."""


_TOLD_TO = re.compile(r"\b(?:tell|told|answer(?:ed)?|repl(?:y|ied)\s+to|respond(?:ed)?\s+to|(?:say|said)\s+to|explain(?:ed)?\s+to)"
                      r"\s+(?:the\s+)?(?:analyst\s+)?", re.I)
"""Who a remark was told to ("What did von Moltke tell Giulia Miotto about Numis?")."""
_WHO_ANSWERED = re.compile(r"\bwho\b[^?]{0,30}?\b(?:answer(?:ed|s|ing)?|respond(?:ed|s|ing)?|repl(?:ied|ies)|field(?:ed|s)?|"
                           r"handled|took\s+(?:it|that|the\s+question|(?:[\w.&'\u2019-]+\s+){1,3}?questions?))\b|\bwhich\s+(?:exec(?:utive)?|person|officer|"
                           r"speaker)\s+(?:answer|respond|repl|field|took|handl)\w*", re.I)
"""Who replied is asked ("who actually answered?", "which executive responded to Glenn Schorr?")."""


_SAID_BACK = re.compile(r"\b(?:say|said|says)\s+back\b|\brepl(?:y|ied|ies)\b|\brespon(?:d|ded|ds|se)\b|\bfire[ds]?\s+back\b|"
                        r"\bhit\s+back\b|\bcounter(?:ed|s)?\b|\b(?:tell|told|give|gave)\s+(?:him|her|them)\b|"
                        r"\bwhat\s+was\s+(?:the|their|management['\u2019]s)\s+answer\b|\bhow\s+did\s+(?:\w+\s+){0,3}?answer\b", re.I)
"""A reply asked of the one a question says was asked ("What did Susan Li say back?")."""


def who_replied_asked(question: str) -> bool:
    """Whether a question asks who replied ("who took the Truist guy's questions?"), not what was said."""
    return bool(_WHO_ANSWERED.search(question))


def _asks(person: str, lowered: str) -> bool:
    """Whether the question says the person asked ("mayo asked dimon", "Mike Mayo's question")."""
    person, lowered = person.replace("\u2019", "'"), lowered.replace("\u2019", "'")
    said = {w for w in (person.lower().split()[-1:] + person.lower().split()[:1]) if len(w) > 2} if person.split() else set()
    # NOTE: by surname ("mayo asked dimon") or first name ("Giulia's question"); "o'connor's q": a question, shortened
    # NOTE: "Ron Josey from Citi aimed his Threads question at Mark": the asker, a few words before the verb
    return any(re.search(rf"\b{re.escape(name)}(?:'s)?\s+(?:(?:[\w']+\s+){{0,2}}(?:questions?|qs?)\b|asked\b|"
                         r"(?:was\s+)?asking\b|pushed\b|pressed\b|grilled\b|questioned\b|challenged\b|"
                         r"probed\b|quizzed\b|(?:[\w'.]+\s+){0,4}?(?:aimed|directed|posed|pitched|put|addressed|pointed)\s+"
                         r"(?:his|her|their|a|the)\s+(?:[\w'-]+\s+){0,3}?(?:questions?|qs?)\b)", lowered) for name in said)


_REPORTED = re.compile(r"\b(?:report(?:ed|s)?|cite[ds]?|quote[ds]?|share[ds]?|disclose[ds]?)\b|"
                       r"\b(?:according\s+to|per)\s+(?:the\s+|their\s+|its\s+)?(?:CEO|CFO|COO|CRO|chief|head|management|"
                       r"(?-i:[A-Z][a-z]+\s+[A-Z][a-z]+))\b", re.I)
"""What a person named reported or cited on a call ("What net revenue retention rate did Scarpelli report on each call?"),
or a role said ("Per the CFO on Snowflake's Q3 FY23 call, how big a slice of revenue comes from ...")."""


EXAMPLE = re.compile(r"\(\s*(?:e\.?g\.?|for\s+example|for\s+instance|say|like)\b[^()]*\)", re.I)
"""An example the question gives in parentheses ("(e.g. 'Evercore - Glenn Schorr')")."""
CLOSING = re.compile(r"\b(?:wrap(?:ped|s|ping)?\s+(?:things\s+|it\s+|the\s+call\s+)?up|wrap[-\s]?up|"
                     r"(?:close|closed|closes|closing|end|ended|ends|conclude|concluded|concludes|finish|finished)\s+"
                     r"(?:out\s+)?(?:the|their|his|her|its)\s+(?:[\w'\u2019-]+\s+){0,3}?(?:call|remarks|q\s?&\s?a)|"
                     r"(?:closing|concluding|final|parting|last)\s+(?:remarks|comments|words|thoughts|message)|sign(?:ed|s)?\s+off)\b",
                     re.I)
"""How a question asks how someone closed the call ("wrap up the Q4 FY24 call", "closing remarks", "signed off")."""


PERSONA = re.compile(r"^\s*(?:(?:I|I['\u2019]m|I\s+am|we|we['\u2019]re|as\s+an?)\b[^:?]{0,80}:|(?:[\w-]+\s+){1,4}here\s*[.:,])\s*",
                     re.I)
"""Who is asking, before a colon ("I cover Canadian banks: how did ...", "As a bank analyst I want the sequence: ...") or
as "Risk officer here.": neither the topic nor a speaker asked of."""
def without_asker(question: str) -> str:
    """The question without the words that say who asks ("I cover Canadian banks:", "I'm an ESG analyst following TD's
    AML problems."): their role words ask no speaker (a sentence saying what is tracked stays: "I'm tracking X.")."""
    question = PERSONA.sub("", question)
    while found := _PERSONA.match(question):
        question = question[found.end():]
    return question


def read_remark_ask(question: str, participants: Sequence[str]) -> RemarkAsk | None:
    """A question about what a named person or role said on a call ("what did Jamie Dimon say about the
    consumer?", "what did the CFO say about expenses?", "did anyone ask about deposit betas in the Q&A?", "who
    fielded the question on wholesale banking?"); `participants`: the names the calls in scope print."""
    question = EXAMPLE.sub(" ", question)  # NOTE: "firm first (e.g. 'Evercore - Glenn Schorr')": an example, no one asked
    if FIELDED.search(question) and not any(_named(p, question.lower(), question) for p in participants):
        return RemarkAsk(roles=("management",), section="qa")
    closing = bool(CLOSING.search(question)) and not _CLOSED_BY.search(question)
    head = _NOTE_HEAD.match(question)
    # NOTE: "mark mason on capital - q3 23 call", "jane on banamex": a note headed by a person is what they said
    # NOTE: "td cfo on share repurchases q3 fy24": a note headed by a role ("(the) <company> CFO on ...") too
    noted = bool(head) and (any(_named(p, head.group("who").lower(), head.group("who")) for p in participants)
                            or bool(_first_name_only(question, participants))
                            or bool(re.search(rf"(?:^|\s)(?:{_HEAD_ROLES})$", head.group("who"), re.I)))
    # NOTE: "who fielded matt o'connor's q?": the replies asked are said
    reported = not _SAID.search(question) and not _WHO_ANSWERED.search(question) and not closing and not noted
    if reported and not _REPORTED.search(question):
        return None
    lowered = question.lower()
    names = tuple(dict.fromkeys(p for p in participants if _named(p, lowered, question)))
    per_role = reported and re.search(r"\b(?:according\s+to|per)\s|\bas\s+(?:the\s+|its\s+)?(?:CEO|CFO|COO|chief\s+\w+\s+officer|"
                                      r"management)\s+(?:reported|stated|put|gave|cited|disclosed)\b", question, re.I)
    if reported and not names and not per_role:
        return None  # NOTE: "What revenue did Snowflake report on its call?" asks the figure, not someone's words
    if not names:
        # NOTE: "What was Brad Zelnick's question?" of a call he is not on: the person asked, whose turns are none
        names = tuple(m.group("n") for m in _PERSON_SAID.finditer(question))
    if not names:
        # NOTE: "Track how Bharat's message on the AML problem changed": a first name only one participant has
        names = _first_name_only(question, participants)
    asking = without_asker(question)  # NOTE: "I'm an ESG analyst ...": no role asked of
    roles = tuple(role for role, pattern in ROLE_WORDS.items() if role != "operator"
                  and re.search(pattern, asking, 0 if role == "investor relations" else re.I))
    # NOTE: "how did the product head explain ...": the speaker whose printed title says so
    titled = title_asked(question) if not names and not roles else None
    if not names and not titled and _ANALYST_ROLE.search(asking):
        roles += ("analyst",)
    if not names and not roles and not titled and (_MANAGEMENT.search(question) or _CALLS.search(question)):
        roles = ("management",)  # NOTE: "what did JPMorgan guide ... across its 2023 calls": the company speaking
    section = "qa" if _QA_WORDS.search(question) else "prepared" if _PREPARED_WORDS.search(question) else ""
    if section == "qa" and _PREPARED_WORDS.search(question) and _SET_AGAINST.search(question):
        section = BOTH_SECTIONS  # NOTE: "how did her comments in the prepared remarks compare with what she said in the Q&A?"
    if not (names or roles or section or titled):
        return None
    told = [m.end() for m in _TOLD_TO.finditer(question)]
    to = tuple(n for n in names if any(_named(n, lowered[at:at + 40], question[at:at + 40]) for at in told))
    if _WHO_ANSWERED.search(question):
        # NOTE: "Who answered Mike Mayo's question?", "mayo asked dimon about tech spend - who actually answered?": the
        # company's replies in the exchanges the asker opened, whoever the question says was asked
        askers = tuple(n for n in names if n in to or _asks(n, lowered))
        if askers:
            return RemarkAsk(askers, ("management",), "qa", to=askers)
    if not to and len(names) > 1 and _SAID_BACK.search(question):
        # NOTE: "Youssef Squali pushed Meta on Reality Labs losses ... What did Susan Li say back?": her reply in the
        # exchange the one who asked opened ("what did Dimon say when Mayo asked about X" reads both men's turns)
        to = tuple(n for n in names if _asks(n, lowered))
    if to and len(to) < len(names):
        section = "qa"  # NOTE: told to an analyst: in the Q&A, in the exchanges that analyst opened
    return RemarkAsk(names, roles, section, title=titled[0] if titled else "", to=to if len(to) < len(names) else (),
                     closing=closing)


def _first_name_only(question: str, participants: Sequence[str]) -> tuple[str, ...]:
    """The one participant whose first name the question writes, capitalised and alone ("Bharat's message"), or in
    lower case where a person is plainly meant ("what did jane say about ...", "jane on capital"), else ()."""
    # NOTE: a first name before a surname ("Paul Clark") names that person, whoever else is called Paul
    written = {re.sub(r"['\u2019]s$", "", w) for w in re.findall(r"\b[A-Z][a-z]{2,}(?:['\u2019]s)?\b(?!\s+[A-Z])", question)}
    written |= {(m.group("n") or m.group("n2")).capitalize() for m in _LOWER_FIRST.finditer(question)}
    named = {p for p in participants if len(p.split()) >= 2 and p.split()[0] in written
             and p.split()[0].lower() not in _COMMON_WORDS}
    if not named:
        # NOTE: "Did Zuck concede ...": a surname cut short, capitalised, the start of one participant's long surname only
        named = {p for p in participants if len(p.split()) >= 2 and any(
            len(w) >= CLIPPED_NAME and len(p.split()[-1]) >= len(w) + 3 and p.split()[-1].startswith(w) for w in written)}
        named = named if len(named) == 1 else set()
    # NOTE: "how did James answer Giulia's question ...?": two first names, each one participant's
    firsts = [p.split()[0] for p in named]
    return tuple(sorted(named)) if named and len(firsts) == len(set(firsts)) and len(named) <= 2 else ()


CLIPPED_NAME = 4
"""A surname cut short to this many letters or more names its one holder ("Zuck": Zuckerberg)."""
_NOTE_HEAD = re.compile(r"^\s*(?!(?:who|whom|what|which|how|why|when|where|did|does|do|is|was|are|were|can|could)\b)(?P<who>[A-Za-z][\w.'\u2019-]+(?:\s+[A-Za-z][\w.'\u2019-]+){0,2}?)\s+on\s+(?!the\s+call\b)", re.I)
"""A note headed by who spoke and what of ("mark mason on capital - q3 23 call")."""
BOTH_SECTIONS = "both"
"""A remark asked in the prepared remarks against the Q&A: the best of each (`RemarkAsk.section`)."""
_SET_AGAINST = re.compile(r"\b(?:compar\w*|versus|vs\.?|against|differ\w*|contrast\w*|match\w*|line\s+up|consistent)\b", re.I)
_HEAD_ROLES = r"ceo|cfo|coo|cro|chief\s+\w+\s+officer|head\s+of\s+ir|ir\s+head|chair(?:man|woman)?|president|mgmt|management"
"""The roles a note may be headed by ("td cfo on share repurchases")."""
_LOWER_FIRST = re.compile(r"\b(?:did|does|do)\s+(?P<n>[a-z]{3,})\s+(?:say|said|talk|mention|think|note|comment|tell|explain|"
                          r"describe|discuss)\b|^\s*(?P<n2>[a-z]{3,})\s+on\s+(?!the\s+call\b)")
"""A first name in lower case where a person is plainly meant: the subject of "did ... say", or a note's head ("jane on
capital")."""


def names_person(question: str, person: str) -> bool:
    """Whether a question names a person by first name and surname, the surname as printed or a letter off ("Jamie
    Diamon" for Jamie Dimon), the first name as printed or as people say it ("ken dorell" for Kenneth Dorell)."""
    words = person.split()
    if len(words) < 2:
        return False
    if re.search(rf"\b{re.escape(person)}\b", question, re.I):
        return True
    first, surname = words[0].lower(), words[-1].lower()
    said = [w.lower() for w in re.findall(r"[A-Za-z\u00c0-\u00ff'\u2019-]+", question)]
    return any(same_first_name(a, first) and near_spelling(re.sub(r"['\u2019]s$", "", b), surname) for a, b in zip(said, said[1:]))


_ABOUT_PERSON = re.compile(r"\b(?:jobs?(?!\s+(?:cuts?|losses|reductions?|eliminations?|growth|creation|openings?|market))|"
                           r"roles?|titles?|positions?|responsibilit\w*|in\s+charge)\b|"
                           r"\b(?:which|what)\s+(?:part|division|business(?:es)?|segment|unit|group|side)\b[^?]{0,30}\b(?:run|runs|lead|"
                           r"leads|head|heads|oversee|oversees)\b|\bwhat\s+(?:does|did)\s+"
                           r"(?:s?he|they|\w+(?:\s+\w+){0,2})\s+(?:run|head|lead|oversee|do)\b|\bwho['\u2019]s\b|\bwho\s+(?:is|was)\b", re.I)
"""Words that ask who a person is or what they do ("What's her job there?", "what does she run?", "Who's X?")."""


_AFFILIATION = re.compile(r"\b(?:which|what)\s+(?:firm|broker(?:age)?|bank|shop|house|employer|sell[-\s]side\s+shop)\b|\baffiliation\b|"
                          r"\bwork(?:s|ed)?\s+for\b|\bemploys\b|\b(?:job\s+)?title\b|\bwhat\s+(?:[A-Z]\w+\s+){1,3}does\s+at\b|"
                          r"\b(?:is|was)\s+(?:s?he|they)\s+with\b|\ban?\s+analyst\s+or\s+an?\b|\bthe\s+(?:CEO|CFO|COO)\s+or\s+the\b")
"""Words that ask a named person's firm or title, whatever else the question says of them ("Raj Mehta asked about deposit
betas - what firm is he with?", "Which brokerage employs analyst Conor Mulcahy?", "Is Lindqvist the CFO or the head of
IR?")."""


def affiliation_of_named(question: str, participants: Sequence[str]) -> PeopleAsk | None:
    """The firm or title of the one participant the question names, when it asks for it (`_AFFILIATION`), else None."""
    return _named_role_of(question, participants) if _AFFILIATION.search(question) else None


def role_of_named(question: str, participants: Sequence[str]) -> PeopleAsk | None:
    """What role a participant the question names holds, asked in words `read_people_ask` does not read ("barbara
    hooper @ TD -- what does she run?", "Alice Jolla was named as being on the call. What's her job there?")."""
    if not _ABOUT_PERSON.search(question) or _SAID.search(question):
        return None
    return _named_role_of(question, participants)


_WHO_IS_LEAD = r"\bwho(?:['\u2019]s|\s+is|\s+was)\s+"
"""'who's', 'who is', 'who was' before what is asked of a person or a role."""
_WHO_IS = re.compile(r"\b(?i:who)(?:['\u2019]s|\s+is|\s+was)\s+(?P<n>[A-Z][\w'\u2019-]+(?:\s+[A-Z][\w'\u2019-]+)?|[a-z]{3,}\b)")
"""The one person a question asks about among others it names ("Sewing starts with 'Thank you, Silke'. Who is Silke?"),
or a first name typed in lower case ("who's sona on the td q4 2024 call?": a participant's first name, or none)."""


def who_is_named(question: str, participants: Sequence[str]) -> PeopleAsk | None:
    """The role of the one participant a question asks "who is" of, by full name or first name as people say it, when it
    asks who they are or what they do ("Bharat asks 'Ray and Barb' to comment. Who is Barb and what does she run?"),
    whatever else it says was said; else None."""
    one = _who_is_one(question, participants) if _ABOUT_PERSON.search(question) else ""
    pronoun = _PRONOUN_ROLE.search(question)
    if not one and pronoun:
        # NOTE: "Ray spoke right after Bharat. what's his role now?": the person the sentence before starts with
        subjects = list(_SUBJECT.finditer(question, 0, pronoun.start()))
        one = _who_is_one(f"who is {subjects[-1].group('n')}", participants) if subjects else ""
    return PeopleAsk("role_of", name=one) if one else None


_PRONOUN_ROLE = re.compile(r"\bwhat(?:['\u2019]s|\s+is|\s+was)\s+(?:his|her|their)\s+(?:role|title|job|position)\b", re.I)
"""A role asked of a pronoun ("what's his role now?")."""
_SUBJECT = re.compile(r"(?:^|[.:;!?]\s+)(?P<n>[A-Z][a-z'\u2019-]+(?:\s+[A-Z][a-z'\u2019-]+)?)\s+(?!(?:and|or)\b)[a-z]+")
"""A sentence that starts with a person's name ("Ray spoke right after Bharat.")."""


def _who_is_one(question: str, participants: Sequence[str]) -> str:
    """The one participant named after "who is" ('' when none or several)."""
    asked = _WHO_IS.search(question)
    words = [w[:1].upper() + w[1:] for w in asked.group("n").split()] if asked else []
    one = [p for p in dict.fromkeys(participants) if words and len(p.split()) >= 2 and (
        names_person(asked.group("n"), p) if len(words) > 1 else re.split(r"-", p.split()[0])[0] == words[0]
        or same_first_name(words[0].lower(), p.split()[0].lower()))]
    return one[0] if len(one) == 1 else ""


def _named_role_of(question: str, participants: Sequence[str]) -> PeopleAsk | None:
    # NOTE: the person after "who is", by full name or first name alone, when the call prints one such
    one = _who_is_one(question, participants)
    if one:
        return PeopleAsk("role_of", name=one)
    named = [p for p in dict.fromkeys(participants) if names_person(question, p)]
    if not named:
        # NOTE: "Sewing opens with 'Thank you, Silke'. Who is Silke?": a first name only one participant has
        said = set(re.findall(r"\b[A-Z][a-z]+\b", question))
        named = [p for p in dict.fromkeys(participants)
                 if len(p.split()) >= 2 and set(re.split(r"-", p.split()[0])[:1]) & said]
    if not named:
        # NOTE: "Wiggan ran Wealth Management earlier. What role does he hold?", "kleinerman - title at snowflake?": a
        # surname only one participant has, in any case
        lowered = _asked_words(question)
        named = [p for p in dict.fromkeys(participants) if len(p.split()) >= 2 and p.split()[-1].lower() in lowered]
    if 1 < len(named) <= MAX_NAMED_ROLES and _ROLES_OF_SEVERAL.search(question):
        return PeopleAsk("role_of", name=named[0], others=tuple(named[1:]))  # NOTE: "what roles were X and Y in?"
    return PeopleAsk("role_of", name=named[0], also=_roles_asked_too(question)) if len(named) == 1 else None


def _roles_asked_too(question: str) -> tuple[str, ...]:
    """Roles asked beside a named person's ("What's his actual title, and who is the CFO?")."""
    return tuple(role for role, pattern in ROLE_WORDS.items() if role in ("CFO", "CEO", "investor relations")
                 and re.search(rf"{_WHO_IS_LEAD}(?:the\s+|its\s+|their\s+)?(?:{pattern})", question,
                               re.I if role != "investor relations" else 0))


_WHO_IS_ROLE = re.compile(rf"{_WHO_IS_LEAD}(?:the|their|its|[\w.&-]+['\u2019]s)\s+", re.I)
"""A role asked by "who's the ..." ("who's the IR person James hands back to ..., and what's her title?"): the person in
that role, whoever else the question names."""


def named_after_role(question: str, name: str) -> bool:
    """Whether a person is named only after "who's the <role>", in what describes that role's holder ("who's the IR
    person James hands back to ..., and what's her title?"), not asked about before it ("... tags Ajai Bambawale as
    'Chief Financial Officer' ... What's his actual title, and who is the CFO?")."""
    role = _WHO_IS_ROLE.search(question)
    words = [w for w in re.split(r"[\s-]+", name) if len(w) > 2]
    said = [m.start() for w in words for m in re.finditer(rf"\b{re.escape(w)}\b", question, re.I)]
    return bool(role and said) and min(said) > role.end()


MAX_NAMED_ROLES = 4
_ROLES_OF_SEVERAL = re.compile(r"\b(?:roles|jobs|titles|positions)\b|\bboth\b|\beach\b|\brespective(?:ly)?\b", re.I)
"""Words that ask the roles of each person a question names, not one of them."""


def names_company(question: str, identities: Sequence[Identity]) -> bool:
    """Whether a question names the company of one of the documents ("who is the CFO of Snowflake?")."""
    words = _asked_words(question)
    return any(_name_words(identity.company, 3, _GENERIC_NAME_WORDS) & words for identity in identities)


def _asked_words(question: str) -> set[str]:
    """A question's words in lower case, a possessive's "'s" dropped ("Citi's" -> "citi")."""
    return {re.sub(r"['\u2019]s$", "", w.lower()) for w in re.findall(r"[A-Za-z][\w&'\u2019-]+", question)}


def _name_words(printed: str, shortest: int, generic: set[str] | frozenset[str]) -> set[str]:
    """The words of a printed company name that may name it: `shortest` letters or more, none of `generic`."""
    return {w.lower() for w in re.findall(r"[A-Za-z][\w&'-]+", printed) if len(w) >= shortest and w.lower() not in generic}


def _named(person: str, lowered: str, question: str = "") -> bool:
    """A person is named by their full name or their surname ("Dimon", "Scarpelli"), in any case."""
    tokens = [t for t in re.findall(r"[a-z\u00e0-\u00ff'\u2019-]+", person.lower()) if len(t) > 2]
    if not tokens:
        return False
    surname = tokens[-1]
    if re.search(rf"\b{re.escape(surname)}\b", lowered) is None:
        # NOTE: a surname misspelt by a letter ("Scarpeli", "Jamie Diamon") names the person when it is capitalised as a
        # name is, or follows the person's first name ("margin" is a letter from "Martin", and no one's name)
        return surname not in _COMMON_WORDS and ((len(tokens) > 1 and names_person(question, person)) or any(
            m.group(0)[0].isupper() and near_spelling(m.group(0).lower(), surname)
            for m in re.finditer(r"[A-Za-z\u00c0-\u00ff'\u2019-]+", question)))
    return surname not in _COMMON_WORDS or re.search(rf"\b{re.escape(tokens[0])}\b", lowered) is not None


_COMMON_WORDS = {"post", "wood", "mason", "young", "price", "long", "hill", "brown", "green", "king", "rich", "best",
                 "fraser", "lee", "park", "may", "bank", "call"}
"""Surnames that are everyday words: a person of such a name is named only with their first name too."""
