"""A transcript as speaker turns: each turn a section of its own (so a chunk never holds two speakers'
words), under "Prepared remarks" or "Questions and answers", titled with the speaker, their title and
firm; the call's participants and turns (speaker, role, firm, section, the Q&A exchange, page) kept in
the document's metadata for questions about who spoke.

Read in two passes over the parsed paragraphs: the participant lists and the operator's hand-offs first
(names, titles and firms the transcript prints once), then the speaker lines that open turns
(`speakers.speaker_line`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from vera_core.ingest.structure import headings_with_ranges
from vera_core.records import Block, BlockKind, ParsedDocument
from vera_core.transcripts.speakers import _NOT_NAMES, COLON, DASHED, NAME, Roster, Speaker, SpeakerLine, _a_name, name_key, role_of, speaker_line

__all__ = ["PREPARED", "QA", "Turn", "as_turns", "read_turns"]

PREPARED = "Prepared remarks"
QA = "Questions and answers"
OPENING = "Call details"
"""The cover and anything printed before the first speaker."""

_QA_MARK = re.compile(r"^\s*(?:questions?[-\s]+(?:and|&)[-\s]+answers?(?:\s+(?:section|session))?|q\s?&\s?a(?:\s+session)?)"
                      r"\s*:?\s*$", re.I)
_PREPARED_MARK = re.compile(r"^\s*(?:presentation|management\s+discussion\s+section|prepared\s+remarks)\s*$", re.I)
_LIST_HEAD = re.compile(r"^\s*(?:corporate\s+participants|conference\s+call\s+participants|company\s+participants|"
                        r"participants|speakers|host|executives|analysts)\s*:?\s*", re.I)
_HANDOFF = re.compile(
    rf"(?:\b(?i:question|questions)\b[^.]{{0,40}}?\b(?i:from|with)|\b(?i:go|move|turn)\s+(?i:to|over\s+to))\s+(?i:the\s+line\s+of\s+)?"
    rf"(?P<name>{NAME})\s+(?i:with|from|of|at)\s+"
    r"(?P<firm>[A-Z][\w&.'\u2019\- ]{1,50}?)(?=\s*[.,;]|\s+(?i:please|your|you|go|now|line)\b)")
_FIRST_QUESTION = re.compile(r"\b(?:first|next)\s+question\b", re.I)
_TITLE_END = re.compile(r"\b(Officer|Relations|President|Chairman|Director|Treasurer|Controller|Counsel|CEO|CFO|COO)\s+"
                        rf"(?={NAME},)")
_FIRM_END = re.compile(r"\b(?:Co|Inc|Corp|Ltd|Plc|LLC|N\.A|S\.A|AG|SE)\.$")
"""A firm's abbreviation closing a title line ("JPMorgan Chase & Co."): no sentence's end."""
_NOT_A_TITLE = re.compile(r"\b(?:call|conference|earnings|results|quarter|transcript)\b", re.I)
_INTRODUCED = re.compile(rf"(?P<name>{NAME}),\s+(?:our\s+)?(?P<title>(?:[a-z]+\s+){{0,4}}?(?:chief\s+\w+\s+officer|"
                         r"officer|president|head\s+of\s+investor\s+relations|investor\s+relations|general\s+counsel|"
                         r"treasurer|controller))\b")
"""A speaker introduced in prose: "Satya Nadella, chairman and chief executive officer, Amy Hood, chief financial officer"."""
_SPACED_RUN = re.compile(r"^\s*(?:[A-Z] ){3,}[A-Z]\b")
"""A heading printed letter-spaced at a paragraph's start ("Q U E S T I O N A N D A N S W E R Operator ...")."""
_CAPITAL_TAIL = re.compile(r"(?:\s+[A-Z]{2,}[A-Z'\u2019-]*){2,}\s*$")
"""A name in capitals printed after a title in a list ("Head of Investor Relations CHRISTIAN SEWING")."""
_PROSE = re.compile(r"(?:\b[a-z][a-z'\u2019]*[\s,;]+){6}")
"""Six lowercase words in a row: a sentence, which no participant list prints ("and a warm welcome also from my")."""
_CAPITALS_NAME = re.compile(r"(?:[A-Z][A-Z'\u2019.-]+\s+){1,3}[A-Z][A-Z'\u2019-]+")
"""A name printed in capitals on a line of its own ("JAMES VON MOLTKE")."""
ALONE_CHARS = 160
"""A paragraph this short, ending without a full stop, can be a speaker's line of its own."""


@dataclass
class Turn:
    """One speaker's turn: who, in which section and exchange, and its paragraphs."""

    speaker: Speaker | None
    section: str
    exchange: int
    """The Q&A exchange (1, 2, ...) it belongs to; 0 in the prepared remarks."""
    header: Block | None = None
    """The speaker line as printed (its box is the turn's first highlight)."""
    blocks: list[Block] = field(default_factory=list)

    @property
    def title(self) -> str:
        if self.speaker is None:
            return OPENING
        s = self.speaker
        about = ", ".join(part for part in (s.title or (s.role if s.role not in ("", "operator") else ""), s.firm) if part)
        title = f"{s.name} ({about})" if about else s.name
        return title.replace("/", "-")  # NOTE: "/" separates a heading path's parts

    @property
    def page(self) -> int:
        first = self.header or (self.blocks[0] if self.blocks else None)
        return first.rects[0].page if first is not None and first.rects else 0


def _alone(block: Block) -> bool:
    text = block.text.strip()
    return block.kind is BlockKind.HEADING or (len(text) <= ALONE_CHARS and not text.endswith((".", "?", "!", ";")))


def _roster(blocks: list[Block], company: str) -> tuple[Roster, set[int]]:
    """Participant lists and the operator's hand-offs: who is on the call before anyone speaks; and the
    paragraphs that are lists (no turn starts in them)."""
    roster = Roster(company)
    listed: set[int] = set()
    for m in _HANDOFF.finditer("\n".join(b.text for b in blocks)):
        roster.handed_to(m.group("name"), m.group("firm").strip())
    for m in _INTRODUCED.finditer("\n".join(b.text for b in blocks[:60])):
        if not _NOT_NAMES.match(m.group("name")) and role_of(m.group("title")):
            roster.add(Speaker(m.group("name"), role_of(m.group("title")), m.group("title").strip()))
    listing = False
    before = set(roster.people)
    read_with_name: set[int] = set()
    for i, block in enumerate(blocks):
        if i in read_with_name:  # NOTE: "CIBC World Markets – Analyst" under "Paul Holden": his firm, not a person
            listed.add(i)
            continue
        text = block.text.strip()
        if listing and re.fullmatch(NAME, text) and name_key(text) in set(roster.people) - before:
            listing = False  # NOTE: a list names each person once: a name it listed, printed again, opens their turn
        head = _LIST_HEAD.match(text)
        if head:
            listing = True
            text = text[head.end():]
            if not text:
                continue
        elif _QA_MARK.match(text) or _PREPARED_MARK.match(text) or not _alone(block) and len(text) > 400 \
                or _PROSE.search(text):
            listing = False  # NOTE: remarks printed as short lines without a full stop end a list as prose does
        if not listing:
            continue
        listed.add(i)
        if re.fullmatch(NAME, text) and not role_of(text) and i + 1 < len(blocks) and "\u2013" in blocks[i + 1].text[:120]:
            firm, _, title = blocks[i + 1].text.strip().partition("\u2013")  # a name, then "Firm – Title"
            firm, title = firm.strip(), title.strip()
            role = role_of(title) or ("analyst" if re.search(r"research|securities|capital|bank", firm, re.I) else "")
            roster.add(Speaker(text, role, title, firm))
            read_with_name.add(i + 1)
            continue
        for line in _TITLE_END.sub(r"\1\n", text).split("\n"):
            found = speaker_line(line.strip(), roster, alone=True)
            if found is None:
                parts = line.split(",", 1)
                if len(parts) == 2 and re.fullmatch(NAME, parts[0].strip()):
                    title = _CAPITAL_TAIL.sub("", parts[1]).strip()
                    roster.add(Speaker(parts[0].strip(), role_of(title), title))
    return roster, listed


def _name_line(line: str) -> bool:
    """A line "Name – Firm – Title" (en dashes, no sentence's end)."""
    return bool(DASHED.match(line)) and "\u2013" in line and not line.endswith((".", "?", "!", ","))


def _split_at_speakers(block: Block) -> list[Block]:
    """A paragraph with a speaker's line starting one of its later lines ("NAME: ...", a line "Name Firm - Title", a
    name in capitals that opens a page), cut there."""
    ends = [*block.rect_offsets[1:], len(block.text)]
    lines = {o: block.text[o:end].strip() for o, end in zip(block.rect_offsets, ends)}
    cuts = [o for o in block.rect_offsets[1:] if ((m := COLON.match(block.text[o:])) and not _NOT_NAMES.match(m.group("name")))
            or _name_line(lines[o]) or _name_opens_page(block, o, lines[o])]
    if len(block.rect_offsets) > 1 and _name_line(lines[block.rect_offsets[0]]) and block.rect_offsets[1] not in cuts:
        # NOTE: "Ebrahim Huseini Poonawala – Bank of America Securities – Analyst" over the first lines of his question:
        # the name line is a line of its own, read as one (the list printed him as "Ebrahim Poonawala")
        cuts.insert(0, block.rect_offsets[1])
    if not cuts or block.kind is not BlockKind.PARAGRAPH:
        return [block]
    out, bounds = [], [0, *cuts, len(block.text)]
    for start, end in zip(bounds, bounds[1:]):
        lines = [i for i, o in enumerate(block.rect_offsets) if start <= o < end]
        out.append(replace(block, text=block.text[start:end].strip(), rects=tuple(block.rects[i] for i in lines),
                           rect_offsets=tuple(block.rect_offsets[i] - start for i in lines)))
    return out


def _name_opens_page(block: Block, offset: int, line: str) -> bool:
    """A name in capitals alone on the first line of a page, which the paragraph that ends the page before ran on into
    ("... Deputy Head of Investor Relations" then, overleaf, "CHRISTIAN SEWING" over his remarks)."""
    at = block.rect_offsets.index(offset)
    return bool(_CAPITALS_NAME.fullmatch(line)) and not _NOT_NAMES.match(line) \
        and block.rects[at].page != block.rects[at - 1].page


def read_turns(blocks: list[Block], company: str = "") -> tuple[list[Turn], Roster]:
    """The turns of a transcript's paragraphs, in order, and its roster."""
    blocks = [part for block in blocks for part in _split_at_speakers(block)]
    roster, listed = _roster(blocks, company)
    openers = _openers([b for i, b in enumerate(blocks) if i not in listed])
    turns = [Turn(None, PREPARED, 0)]
    section, exchange, asking = PREPARED, 0, ""
    handed: re.Match | None = None
    skip: set[int] = set()
    for i, block in enumerate(blocks):
        if i in skip:
            continue
        if i in listed:  # a participant list stays where it is printed, and opens no turn
            turns[-1].blocks.append(block)
            continue
        spaced = _SPACED_RUN.match(block.text)
        if spaced and spaced.group(0).replace(" ", "").upper() in ("QUESTIONANDANSWER", "QUESTIONSANDANSWERS"):
            section = QA
            cut = spaced.end()
            block = replace(block, text=block.text[cut:].lstrip(),
                            rect_offsets=tuple(max(0, o - cut) for o in block.rect_offsets))
        text = block.text.strip()
        if _QA_MARK.match(text) and len(text) < 60:
            section = QA
            continue
        if _PREPARED_MARK.match(text) and len(text) < 60:
            continue
        if block.kind is BlockKind.TABLE:
            turns[-1].blocks.append(block)
            continue
        alone = _alone(block)
        found = speaker_line(block.text, roster, alone=alone, margin=True)
        if found is None and alone and re.fullmatch(NAME, text) and i + 1 < len(blocks):
            follow = blocks[i + 1].text.strip()  # a name line, then its title line
            # NOTE: a title line may end with its firm's abbreviation ("Chairman & Chief Executive Officer, JPMorgan Chase &
            # Co."): still a line alone, not a sentence
            if (_alone(blocks[i + 1]) or _alone(replace(blocks[i + 1], text=_FIRM_END.sub("", follow)))) \
                    and role_of(follow) and not _NOT_A_TITLE.search(follow) \
                    and not _NOT_NAMES.match(text):
                title, _, firm = follow.partition(",")
                speaker = roster.add(Speaker(text, role_of(follow), title.strip(), firm.strip()))
                found = SpeakerLine(speaker, 0)
                skip.add(i + 1)
        if found is None:
            found = _margin_name(block, roster, section, openers)
        if found is None and text.startswith(":") and handed is not None:
            # NOTE: the speaker's name was lost in the PDF's text, its colon kept: the one the operator just named
            found = SpeakerLine(roster.add(Speaker(handed.group("name"), "analyst", "", handed.group("firm").strip())),
                                len(block.text) - len(block.text.lstrip()) + 1)
        if found is None:
            turns[-1].blocks.append(block)
            continue
        speaker = found.speaker
        handed = _HANDOFF.search(block.text) if speaker.role == "operator" else None
        if speaker.role == "operator" and section == PREPARED and _FIRST_QUESTION.search(block.text) and exchange == 0:
            section = QA
        if section == PREPARED and exchange == 0 and speaker.role == "analyst" and speaker.firm:
            section = QA  # NOTE: no Q&A heading and no operator: the first analyst's question opens it
        if section == QA and _asks(speaker, roster) and speaker.key != asking:
            exchange, asking = exchange + 1, speaker.key
        turn = Turn(speaker, section, exchange if section == QA else 0, header=block)
        rest = block.text[found.end:].strip()
        if found.end and rest:
            shift = len(block.text) - len(block.text[found.end:].lstrip())
            turn.blocks.append(replace(block, text=block.text[shift:],
                                       rect_offsets=tuple(max(0, o - shift) for o in block.rect_offsets)))
        turns.append(turn)
    for turn in turns:  # roles learned later in the call (a firm the operator named) reach every turn
        if turn.speaker is not None:
            turn.speaker = roster.people.get(turn.speaker.key, turn.speaker)
    return [t for t in turns if t.blocks or t.speaker is not None], roster


def _openers(blocks: list[Block]) -> set[str]:
    """Names that open two paragraphs or more, each followed by a capital ("Giulia Aurora Miotto Hi, good morning",
    "Giulia Aurora Miotto Understood."), or one that the next speakers address by first name ("Thanks, Giulia."): a
    speaker printed in a left column the call names nowhere else (no list, no hand-off). The longest run of two to four
    name words that does."""
    counts: dict[str, int] = {}
    for i, block in enumerate(blocks):
        words = block.text.split()[:5]
        for k in range(2, min(4, len(words) - 1) + 1):
            head = " ".join(words[:k])
            if re.fullmatch(NAME, head) and words[k][:1].isupper():
                # NOTE: the next speaker addressing them by first name counts as a second ("Thanks, Giulia.")
                after = " ".join(b.text[:200] for b in blocks[i + 1:i + 4])
                addressed = re.search(rf"\b(?i:thanks?|thank\s+you|hi|hello|yes|sure|okay)\W{{1,3}}{re.escape(words[0])}\b", after)
                counts[head] = counts.get(head, 0) + 1 + bool(addressed)
    twice = {h for h, n in counts.items() if n >= 2 and _a_name(h) and not _NOT_NAMES.match(h) and not role_of(h)}
    return {h for h in twice if not any(o != h and o.startswith(h + " ") for o in twice)}


def _margin_name(block: Block, roster: Roster, section: str, openers: set[str]) -> SpeakerLine | None:
    """A paragraph of the Q&A opened by one of `_openers`: that analyst's turn."""
    head = next((h for h in openers if block.text.startswith(h + " ")), None) if section == QA else None
    if head is None:
        return None
    speaker = roster.people.get(name_key(head)) or roster.add(Speaker(head, "analyst", "", ""))
    return SpeakerLine(speaker, len(head) + 1)


def _asks(speaker: Speaker, roster: Roster) -> bool:
    """An analyst (or someone from outside the company) opens an exchange."""
    if speaker.role == "analyst":
        return True
    company = roster.company.lower()[:6]
    return bool(speaker.firm) and speaker.role not in ("CEO", "CFO", "investor relations", "operator") \
        and not (company and speaker.firm.lower().startswith(company))


def as_turns(parsed: ParsedDocument, company: str = "") -> ParsedDocument:
    """The transcript with each turn a section of its own and its participants and turns in metadata."""
    turns, roster = read_turns(parsed.blocks, company)
    if sum(1 for t in turns if t.speaker is not None) < 2:
        return parsed  # not a call's turns after all: leave the document as parsed
    blocks: list[Block] = []
    for turn in turns:
        section = OPENING if turn.speaker is None else turn.section
        titles = (section, turn.title) if turn.speaker is not None else (section,)
        if not blocks or blocks[-1].heading_titles[:1] != (section,):
            blocks.append(Block(BlockKind.HEADING, section, (section,), level=1,
                                rects=(turn.header or turn.blocks[0]).rects[:1] if (turn.header or turn.blocks) else ()))
        if turn.speaker is not None:
            blocks.append(Block(BlockKind.HEADING, turn.title, titles, level=2,
                                rects=turn.header.rects[:1] if turn.header is not None else ()))
        for block in turn.blocks:
            kind = BlockKind.PARAGRAPH if block.kind is BlockKind.HEADING else block.kind
            blocks.append(replace(block, kind=kind, heading_titles=titles, level=0))
    meta = dict(parsed.metadata)
    meta["transcript"] = {
        "participants": [{"name": s.name, "role": s.role, "title": s.title, "firm": s.firm}
                         for s in roster.people.values()],
        "turns": [{"speaker": t.speaker.name, "role": t.speaker.role, "title": t.speaker.title, "firm": t.speaker.firm,
                   "section": "qa" if t.section == QA else "prepared", "exchange": t.exchange, "page": t.page,
                   "heading": t.title} for t in turns if t.speaker is not None]}
    out = replace(parsed, blocks=blocks, metadata=meta)
    out.headings = headings_with_ranges(blocks, last_page=parsed.pages)
    return out
