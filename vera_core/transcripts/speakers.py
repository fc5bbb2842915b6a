"""Who speaks on an earnings call: the speaker lines of a transcript in the layouts publishers print, and
each speaker's role and firm.

A speaker line is read in any of these shapes (each seen in a real publisher's transcripts):
- a name and a colon before the words: "JANE FRASER: ...", "Brian Nowak: ...", "KEITH WEISS, Morgan Stanley: ...";
- a line of its own: "Operator"; "Michael P. Scarpelli Snowflake Inc. – CFO" (name, firm, title after a
  dash); "Ebrahim Poonawala – Bank of America Securities – Analyst"; "Mark Zuckerberg, CEO";
- a title line and the name with a question or answer mark: "Analyst, Wolfe Research LLC Steven Chubak Q";
- a name known from the participant lists or the operator's hand-offs at the start of a paragraph
  (transcripts that print the speaker's name in a margin column beside the words).
A role is read from the title printed with the name or in the participant lists (CEO, CFO, investor
relations, other executive), from the operator's hand-off ("... from Glenn Schorr with Evercore": an
analyst of Evercore) or from being the operator."""

from __future__ import annotations

import re
from dataclasses import dataclass

from vera_core.finance.dates import MONTH_WORD

__all__ = ["COLON", "DASHED", "NAME", "ROLES", "near_spelling", "same_first_name", "participant_names", "same_person", "Speaker", "SpeakerLine", "Roster", "role_of", "speaker_line"]

ROLES = ("CEO", "CFO", "other executive", "investor relations", "operator", "analyst", "")

NAME_TOKEN = r"(?:[A-Z]['\u2019][A-Z][A-Za-z]+|[A-Z][a-z\u00e0-\u00ff'\u2019\-]+(?:[A-Z][a-z\u00e0-\u00ff'\u2019\-]+)*|[A-Z]\.|[A-Z]{2,}(?:['\u2019\-][A-Z]+)?|(?:von|van|de|der|da|di|du|le|la|bin|al)(?=\s))"
NAME = rf"(?:{NAME_TOKEN}(?:[\s\-]+{NAME_TOKEN}){{1,4}})"
_NOT_NAMES = re.compile(
    r"^(?:slide|page|note|notes|question|questions|answer|answers|q|a|presentation|operator\s+instructions|thank"
    r"|thanks|disclaimer|forward|safe|good|hi|hello|okay|yes|no|so|and|well|look|sure|great|turning|moving|next"
    r"|first|second|third|fourth|total|net|our|we|in|on|for|the|as|with|to|this|that|these|those|management|discussion"
    r"|section|corporate|conference|call|participants|speakers|host|transcript|copyright|fiscal|revenue|cet1)\b", re.I)
_ORGANISATION = re.compile(r"\b(?:bank|banks|financial|group|securities|capital|markets|inc|corp|corporation|llc|ltd|plc"
                           r"|holdings|partners|research|company|limited)\.?$", re.I)
"""A name line that names a firm, not a person ("TD Bank:", "National Bank:")."""


def _a_name(text: str) -> bool:
    """Whether a speaker line's name can be a person's: not a heading word, not a firm."""
    return not _NOT_NAMES.match(text) and not _ORGANISATION.search(text.strip())


COLON = re.compile(rf"^(?P<name>{NAME}|Operator|OPERATOR)(?:,\s*(?P<firm>[A-Z][^:\n]{{1,60}}?))?\s*:\s+(?=\S)")
DASHED = re.compile(r"^(?P<who>[^\u2013\u2014\n]{3,120}?)\s+[\u2013\u2014-]\s+(?P<rest>[^\n]{2,160})$")
_COMMA_TITLE = re.compile(rf"^(?P<name>{NAME}),\s+(?P<title>[^\n]{{2,80}})$")
_MARKED = re.compile(rf"^(?P<title>[^\n]{{3,160}}?)\s+(?P<name>{NAME})\s+(?P<mark>[QA])$")
_MARGIN = re.compile(rf"^(?P<name>{NAME_TOKEN}(?:[\s\-]+{NAME_TOKEN}){{1,2}})\s+(?=[A-Z])[^()\n]{{0,140}}?\((?P<firm>[A-Z][^()\n]{{1,40}})\)")
"""A name printed in a margin column beside the words, the analyst's firm in parentheses in the first line
("Anke Reingen Thank you very much, good morning, for taking my (RBC) questions")."""
_DATE_AFTER = re.compile(rf"\s+{MONTH_WORD}(?![a-z])\s+\d", re.I)
_TITLE_WORDS = re.compile(
    r"\b(?:chief|officer|president|chair(?:man|woman|person)?|director|head|vice|svp|evp|cfo|ceo|coo|cto|analyst"
    r"|investor\s+relations|treasurer|controller|managing|partner|founder|general\s+counsel|md|research|ir)\b", re.I)
_OPERATOR = re.compile(r"^operator:?$", re.I)
_OPERATOR_LEADS = re.compile(r"^Operator\s+(?=\[|[A-Z][a-z])")
_BARE_COLON = re.compile(rf"^(?P<name>{NAME})(?:,\s*(?P<firm>[A-Z][^:\n]{{1,60}}?))?\s*:$")


@dataclass(frozen=True)
class Speaker:
    """One person on the call."""

    name: str
    """As printed (capitals kept: 'JANE FRASER')."""
    role: str = ""
    """One of ROLES ('' when nothing printed says it)."""
    title: str = ""
    """The title as printed ('Chief Financial Officer'), when printed."""
    firm: str = ""
    """The analyst's firm, or the executive's company, as printed."""

    @property
    def key(self) -> str:
        return name_key(self.name)


@dataclass(frozen=True)
class SpeakerLine:
    """A speaker line found at the start of a paragraph: who, and where the words begin."""

    speaker: Speaker
    end: int
    """Offset in the paragraph where the speaker's words begin (0 when the line is all of it)."""


def name_key(name: str) -> str:
    """A name compared whatever its case and initials: 'Michael P. Scarpelli' ~ 'MICHAEL SCARPELLI'."""
    tokens = [t for t in re.findall(r"[a-z\u00e0-\u00ff'\-]+", name.lower().replace("\u2019", "'"))
              if len(t) > 1 and t not in ("jr", "sr", "ii", "iii", "iv")]
    # NOTE: the first name's initial only: the operator says "Doug Anmuth" for "Douglas Anmuth"
    return f"{tokens[0][0]} {tokens[-1]}" if len(tokens) >= 2 else " ".join(tokens)


def same_person(asked: str, printed: str) -> bool:
    """Whether a name asked ('Dimon', 'jamie dimon', 'Doug Anmuth', misspelt 'Jamie Diamon') is the person printed
    ('Jamie Dimon', 'JAMIE DIMON', 'Douglas Anmuth')."""
    if name_key(asked) == name_key(printed):
        return True
    words = re.findall(r"[a-z\u00e0-\u00ff'-]+", asked.lower().replace("\u2019", "'"))
    printed_words = name_key(printed).split()
    if not words or not printed_words:
        return False
    if len(words) == 1:
        return near_spelling(words[0], printed_words[-1])
    return near_spelling(words[-1], printed_words[-1]) and words[0][:1] == printed_words[0][:1]  # its initial


NEAR_LETTERS = 5
"""A surname this long or longer may be asked with one letter wrong ("Scarpeli", "Diamon"); a shorter one only as
printed."""


_NICKNAMES = {"mike": "michael", "jim": "james", "jimmy": "james", "jamie": "james", "bob": "robert", "rob": "robert",
              "bobby": "robert", "bill": "william", "will": "william", "dave": "david", "rick": "richard", "dick": "richard",
              "rich": "richard", "liz": "elizabeth", "beth": "elizabeth", "kate": "katherine", "katie": "katherine",
              "joe": "joseph", "chuck": "charles", "charlie": "charles", "ted": "edward", "ed": "edward", "tony": "anthony",
              "andy": "andrew", "drew": "andrew", "peggy": "margaret", "meg": "margaret", "sue": "susan", "jen": "jennifer",
              "jenny": "jennifer", "becky": "rebecca", "larry": "lawrence", "jack": "john", "johnny": "john",
              "harry": "henry", "hank": "henry", "patty": "patricia", "trish": "patricia", "pat": "patrick"}
"""Everyday forms of first names that are not their start ("Mike" for Michael; "Ken" for Kenneth is its start)."""
NICKNAME_LETTERS = 3
"""A first name asked by its start ("Ken", "Chris", "Matt") has this many letters or more."""


def same_first_name(asked: str, printed: str) -> bool:
    """Whether a first name asked is the one printed, its start ("ken" for Kenneth) or an everyday form of it ("mike"
    for Michael; "jim" for James). Lower case both."""
    if asked == printed:
        return True
    if len(asked) >= NICKNAME_LETTERS and len(printed) > len(asked) and printed.startswith(asked):
        return True
    return _NICKNAMES.get(asked) == printed or (printed in _NICKNAMES and _NICKNAMES[printed] == asked)


def near_spelling(asked: str, printed: str) -> bool:
    """Whether a word asked is the word printed, or it with one letter added, dropped, changed or two swapped (never
    its first letter), when the printed word has NEAR_LETTERS letters or more."""
    if asked == printed:
        return True
    if len(printed) < NEAR_LETTERS or not asked or asked[0] != printed[0] or abs(len(asked) - len(printed)) > 1:
        return False
    if len(asked) == len(printed):
        diff = [i for i, (a, b) in enumerate(zip(asked, printed)) if a != b]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and asked[diff[0]] == printed[diff[1]]
                                  and asked[diff[1]] == printed[diff[0]])
    short, long_ = sorted((asked, printed), key=len)
    return any(long_[:i] + long_[i + 1:] == short for i in range(1, len(long_)))


def participant_names(documents, skip_roles: tuple[str, ...] = ()) -> list[str]:
    """The names the call transcripts among `documents` print for their participants (none of `skip_roles`), in
    order."""
    return [p["name"] for d in documents for p in (d.metadata or {}).get("transcript", {}).get("participants", [])
            if p.get("name") and p.get("role") not in skip_roles]


def host_of(turns: list[dict]) -> str:
    """The name key of whoever hosts a call: the first speaker of its prepared remarks who is not the operator ('' for
    a call without one)."""
    return next((name_key(t["speaker"]) for t in turns if t["section"] == "prepared" and t["role"] != "operator"), "")


def role_of(title: str, *, operator: bool = False) -> str:
    """The role a printed title names."""
    if operator:
        return "operator"
    text = title.lower()
    if re.search(r"chief\s+executive|\bceo\b", text):
        return "CEO"
    if re.search(r"chief\s+financial|\bcfo\b|finance\s+director", text):
        return "CFO"
    if re.search(r"investor\s+relations|\bir\b", text):
        return "investor relations"
    if re.search(r"\banalyst\b|research|securities", text):
        return "analyst"
    if _TITLE_WORDS.search(text):
        return "other executive"
    return ""


class Roster:
    """The call's speakers as the transcript prints them: participant lists, hand-offs, speaker lines."""

    def __init__(self, company: str = "") -> None:
        self.company = company
        self.people: dict[str, Speaker] = {}
        self.firms_named: dict[str, str] = {}
        """Firms the operator named for a person ('glenn schorr' -> 'Evercore')."""

    def add(self, speaker: Speaker) -> Speaker:
        """Record a speaker, merging what is already known of the same person; returns the merged one."""
        known = self.people.get(speaker.key)
        if known is not None:
            speaker = Speaker(known.name if len(known.name) >= len(speaker.name) else speaker.name,
                              known.role or speaker.role, known.title or speaker.title, known.firm or speaker.firm)
        if not speaker.firm and speaker.key in self.firms_named:
            speaker = Speaker(speaker.name, speaker.role or "analyst", speaker.title, self.firms_named[speaker.key])
        self.people[speaker.key] = speaker
        return speaker

    def handed_to(self, name: str, firm: str) -> None:
        """The operator named the next questioner and their firm."""
        key = name_key(name)
        self.firms_named[key] = firm
        known = self.people.get(key)
        if known is not None and not known.firm:
            self.people[key] = Speaker(known.name, known.role or "analyst", known.title, firm)

    def known(self, text: str) -> Speaker | None:
        """The known speaker whose name opens `text` (a name printed in a margin column)."""
        head = text[:60]
        for speaker in sorted(self.people.values(), key=lambda s: -len(s.name)):
            if speaker.role != "operator" and re.match(re.escape(speaker.name) + r"(?=[\s:,])", head, re.I):
                return speaker
        return None


def _split_name_firm(who: str, roster: Roster) -> tuple[str, str]:
    """'Michael P. Scarpelli Snowflake Inc.' -> name, firm: the firm starts where the company's or a firm the
    operator named begins, else after the last token shaped like a name part."""
    tokens = who.split()
    for k in range(2, min(len(tokens), 5)):  # the operator named this person: "Kash Rangan with Goldman Sachs"
        if name_key(" ".join(tokens[:k])) in roster.firms_named:
            return " ".join(tokens[:k]), " ".join(tokens[k:])
    for k in range(2, min(len(tokens), 6)):
        rest = " ".join(tokens[k:])
        named = [roster.company, *roster.firms_named.values()]
        if any(n and rest.lower().startswith(n.lower()[:max(4, min(len(n), 12))]) for n in named):
            return " ".join(tokens[:k]), rest
    match = re.match(rf"^{NAME}", who)
    if match and len(tokens) > 2:
        name_tokens = match.group(0).split()
        # NOTE: a firm's first word looks like a name part; keep two or three tokens (an initial keeps three)
        keep = 3 if len(name_tokens) >= 3 and (re.fullmatch(r"[A-Z]\.", name_tokens[1]) or len(tokens) > 5) else 2
        return " ".join(tokens[:keep]), " ".join(tokens[keep:])
    return who, ""


def speaker_line(text: str, roster: Roster, *, alone: bool, margin: bool = False) -> SpeakerLine | None:
    """The speaker line opening a paragraph, if any. `alone`: the paragraph is a short line of its own
    (a heading or a name line), where a bare name or a name with a title can stand. `margin`: a new name
    with a firm in parentheses in its first line may open the paragraph (a name in capitals, or one
    followed by a date, is a dateline, not a speaker)."""
    first = text.strip()
    if alone:
        if _OPERATOR.match(first):
            return SpeakerLine(roster.add(Speaker("Operator", "operator")), 0)
        bare = _BARE_COLON.match(first)
        if bare and _a_name(bare.group("name")):  # "BRETT IVERSEN:" on a line of its own
            known, firm = roster.people.get(name_key(bare.group("name"))), bare.group("firm") or ""
            role = (known.role if known else "") or ("analyst" if firm else "")
            return SpeakerLine(roster.add(Speaker(bare.group("name"), role, "", firm)), len(text))
        marked = _MARKED.match(first)
        if marked and _a_name(marked.group("name")):
            marked = _marked_name(first, roster)
            title, firm = _title_and_firm(marked.group("title"))
            role = role_of(title)
            return SpeakerLine(roster.add(Speaker(marked.group("name"), role, title, firm)), 0)
        dashed = DASHED.match(first)
        if dashed and not _NOT_NAMES.match(dashed.group("who")):  # NOTE: "who" holds the firm too
            parts = [p.strip() for p in re.split(r"\s+[\u2013\u2014-]\s+", first)]
            if len(parts) >= 3 and re.fullmatch(NAME, parts[0]):  # "Name – Firm – Analyst"
                name, firm, title = parts[0], parts[1], " - ".join(parts[2:])
            elif len(parts) >= 3:  # "Name Firm – Title – with a dash in it"
                name, firm = _split_name_firm(parts[0], roster)
                title = " - ".join(parts[1:])
            else:
                name, firm = _split_name_firm(parts[0], roster)
                title = parts[1]
            if re.fullmatch(NAME, name) and _a_name(name):
                return SpeakerLine(roster.add(Speaker(name, _role(title, firm, roster.company), title, firm)), 0)
        comma = _COMMA_TITLE.match(first)
        if comma and _TITLE_WORDS.search(comma.group("title")) and _a_name(comma.group("name")) \
                and not _introduces(first[comma.end("name"):], roster.people.get(name_key(comma.group("name"))), roster):
            title = comma.group("title")
            return SpeakerLine(roster.add(Speaker(comma.group("name"), role_of(title), title)), 0)
        if re.fullmatch(NAME, first) and name_key(first) in roster.people:
            return SpeakerLine(roster.people[name_key(first)], 0)
    colon = COLON.match(first)
    if colon and _a_name(colon.group("name")) or colon and _OPERATOR.match(colon.group("name")):
        name = colon.group("name")
        if _OPERATOR.match(name):
            return SpeakerLine(roster.add(Speaker("Operator", "operator")), colon.end() + len(text) - len(text.lstrip()))
        firm = colon.group("firm") or ""
        known = roster.people.get(name_key(name))
        speaker = Speaker(name, (known.role if known else "") or ("analyst" if firm else ""), "", firm)
        return SpeakerLine(roster.add(speaker), colon.end() + len(text) - len(text.lstrip()))
    found = _MARGIN.match(first) if margin else None
    if found and _a_name(found.group("name")) and name_key(found.group("name")) not in roster.people \
            and not found.group("name").isupper() and not _DATE_AFTER.match(first[found.end("name"):]):
        speaker = roster.add(Speaker(found.group("name"), "analyst", "", found.group("firm").strip()))
        return SpeakerLine(speaker, len(text) - len(text.lstrip()) + found.end("name") + 1)
    known = roster.known(first)
    if known is not None and _introduces(first[len(known.name):], known, roster):
        known = None
    if known is not None:
        end = len(text) - len(text.lstrip()) + len(known.name)
        rest = text[end:]
        end += len(rest) - len(rest.lstrip(" :,"))
        for part in (known.firm, known.title):  # "Doug Young – Desjardins Capital Markets – Analyst Just starting ..."
            dashed = re.match(rf"\s*[\u2013\u2014-]\s*{re.escape(part)}\s*", text[end:]) if part else None
            if dashed:
                end += dashed.end()
        return SpeakerLine(known, end)
    operator = _OPERATOR_LEADS.match(first)
    if operator:  # "Operator [Operator Instructions]. Our first question is from ..."
        return SpeakerLine(roster.add(Speaker("Operator", "operator")), len(text) - len(text.lstrip()) + operator.end())
    return None


def _introduces(after: str, known: Speaker | None, roster: Roster) -> bool:
    """Whether a paragraph that opens with a known name introduces the people on the call ("Satya Nadella, chairman
    and chief executive officer, Amy Hood, chief"): after a comma, another person on the call is named."""
    if not after.lstrip().startswith(","):
        return False
    head = after[:160]
    return any(other is not known and other.role != "operator" and re.search(rf"\b{re.escape(other.name)}\b", head, re.I)
               for other in roster.people.values())


def _marked_name(line: str, roster: Roster) -> re.Match:
    """'Analyst, Wolfe Research LLC Steven Chubak Q': the name is the shortest tail of two to four words that
    the operator or a list named, else two words (three when the middle one is an initial)."""
    tokens = line.split()[:-1]
    chosen = 2
    for k in (2, 3, 4):
        if len(tokens) > k and name_key(" ".join(tokens[-k:])) in {*roster.people, *roster.firms_named}:
            chosen = k
            break
    else:
        if len(tokens) > 3 and re.fullmatch(r"[A-Z]\.", tokens[-2]):
            chosen = 3
    title = " ".join(tokens[:-chosen])
    return re.match(r"(?P<title>.*)\x00(?P<name>.*)\x00(?P<mark>.*)", f"{title}\x00{' '.join(tokens[-chosen:])}\x00{line.split()[-1]}")


def _role(title: str, firm: str, company: str) -> str:
    """A title's role; a research firm's 'MD' or 'Head of ...' is an analyst."""
    role = role_of(title)
    if role in ("", "other executive") and firm and not (company and firm.lower().startswith(company.lower()[:6])) \
            and re.search(r"research|securities|capital|partners|bank|\bllc\b|advisors|asset|equit", firm, re.I):
        return "analyst"
    return role


def _title_and_firm(printed: str) -> tuple[str, str]:
    """'Analyst, Wolfe Research LLC' -> ('Analyst', 'Wolfe Research LLC'); 'Chief Financial Officer, JPMorgan
    Chase & Co.' -> (title, company)."""
    if "," in printed:
        title, firm = printed.split(",", 1)
        return title.strip(), firm.strip()
    return printed.strip(), ""
