"""Text a PDF prints with glyphs of no width: PyMuPDF's plain text holds it (the producer's ActualText), its
"dict" drops it (a line, or a line's last span, whose box is empty). Citi's call transcripts print every
curly apostrophe this way: "That’s not an accident." and the speaker line "MATT O’CONNOR:" were lost, so
a remark could not be found and an analyst was not listed.

Read only where the page's plain text holds more letters than its spans (one page in a thousand of the
filings, a few on each Citi call): the plain text's lines are walked beside the dict's lines, in the same
order; a line's missing tail becomes a span after the line's last span, a line missing whole a span where
the page's search places it."""

from __future__ import annotations

import re

import pymupdf

__all__ = ["missing_spans"]

_NOT_WORD = re.compile(r"\W+")
_CHAR_WIDTH = 0.5
"""A glyph's width as a share of the font size, for a span whose glyphs have none."""


def _squash(text: str) -> str:
    return _NOT_WORD.sub("", text)


def missing_spans(page: pymupdf.Page, textpage: pymupdf.TextPage, lines: list[dict]) -> list[tuple]:
    """Spans `(x0, y0, x1, y1, text, size, bold)` for the text `lines` (the dict's, in its order) lack."""
    plain = textpage.extractText()
    lacking = len(_squash(plain)) - sum(len(_squash(s["text"])) for line in lines for s in line["spans"])
    if lacking <= 0:
        return []
    # NOTE: the dict's word characters in order, with the line each is on and where that line ends; each plain
    # line is one of the dict's lines (in the same order) or one the dict dropped, and what it has beyond its
    # dict line's words is missing (a line whose last span has no width loses that span)
    printed = ""
    owner: list[int] = []
    ends: list[int] = []
    for i, line in enumerate(lines):
        words = _squash("".join(s["text"] for s in line["spans"]))
        printed += words
        owner += [i] * len(words)
        ends += [len(printed)] * len(words)
    pieces: list[tuple[str, str, dict | None, dict | None]] = []  # (text, its part the page's search finds, the
    # line it follows, a line near it)
    at = 0
    for text in plain.splitlines():
        want = _squash(text)
        if not want:
            continue
        end = ends[at] if at < len(printed) else at
        kept = 0
        while kept < len(want) and at + kept < len(printed) and printed[at + kept] == want[kept]:
            if at + kept == end:  # NOTE: a line ending in a hyphen runs on into the next (the plain text joins them)
                if not _hyphenated(lines[owner[end - 1]]) or not printed.startswith(want[kept:kept + 12], end):
                    break
                end = ends[end]
            kept += 1
        if kept < len(want) and at + kept < end:
            kept = 0  # NOTE: words in common with the start of a line it is not (a line dropped whole)
        before = lines[owner[at + kept - 1]] if kept else None
        at += kept
        back = len(want) - kept
        if not back:
            continue
        if before is not None and before["dir"][0] < 0.9:
            continue  # NOTE: a rotated line's tail is no body text, as the line is not
        shown = "".join(s["text"] for s in before["spans"]) if before is not None else ""
        missing = _raw(text, kept, shown)
        key = re.sub(r"^\W+", "", missing)  # NOTE: the page's search finds words ("-looking statements" as "looking")
        if before is None and pieces and pieces[-1][2] is None and len(_squash(pieces[-1][0])) <= 2:
            # NOTE: a word's first letter can come out as a line of its own ("T", "hat’s not an accident.")
            missing = pieces.pop()[0] + missing
        pieces.append((missing, key, before, lines[owner[at - 1]] if at else None))
    if sum(len(_squash(piece[0])) for piece in pieces) > lacking:
        return []  # NOTE: the two orders parted somewhere: more would be added than is missing
    out = []
    for missing, key, before, near in pieces:
        if before is not None and _squash(before["spans"][-1]["text"][-1:]) and _squash(missing[:1]):
            before["spans"][-1]["text"] += missing  # NOTE: the rest of a word ("Servic" + "es"): one span, no space
            continue
        span = _after(missing, before) if before is not None else _placed(page, textpage, missing, key, near)
        if span is not None:
            out.append(_up_to_next(span, lines))
    return out


def _hyphenated(line: dict) -> bool:
    return "".join(s["text"] for s in line["spans"]).rstrip().endswith(("-", "\u00ad", "\u2010"))


def _raw(text: str, kept: int, shown: str) -> str:
    """`text` after its first `kept` word characters, without the punctuation its dict line already shows after them
    (`shown`: the line as the dict prints it; "clients." then ". That’s" gives "That’s"), with what comes before its
    next word ("(1,234)", "-5.2%", "$12")."""
    seen, start = 0, 0
    for i, ch in enumerate(text):
        if seen == kept:
            start = i
            break
        seen += bool(_squash(ch))
    else:
        return ""
    tail = re.search(r"\W*$", shown.rstrip()).group(0) if kept else ""
    rest = text[start:]
    if tail and rest.lstrip().startswith(tail):
        rest = rest.lstrip()[len(tail):]
    # NOTE: the rest of a word keeps no space before it ("Servic" + "es"); anything else starts at its first sign
    return rest if kept and rest[:1] and _squash(rest[:1]) else " ".join(rest.split())


def _after(text: str, line: dict) -> tuple:
    """A span for `text`, printed after the line's last span."""
    span = line["spans"][-1]
    size = span["size"]
    x0 = span["bbox"][2] + 0.25 * size
    return (x0, span["bbox"][1], x0 + _CHAR_WIDTH * size * len(text), span["bbox"][3], text, size, False)


def _up_to_next(span: tuple, lines: list[dict]) -> tuple:
    """A placed span ends where the next span on its line begins (its glyphs fill the gap): the speaker line
    "MATT O’CONNOR:" and the words after it are one run."""
    x0, y0, x1, y1, text, size, bold = span
    after = [s["bbox"][0] for line in lines for s in line["spans"]
             if y0 <= (s["bbox"][1] + s["bbox"][3]) / 2 <= y1 and s["bbox"][0] >= x0 - 0.5]
    if after and min(after) - x1 < 3 * size:
        if min(after) <= x0 + 0.5:  # NOTE: printed where the next span begins: it comes first, just before it
            x0 = min(after) - 1.0
        x1 = max(x0 + 0.5, min(after) - 0.5)
    return (x0, y0, x1, y1, text, size, bold)


def _placed(page: pymupdf.Page, textpage: pymupdf.TextPage, text: str, key: str, near: dict | None) -> tuple | None:
    """A line missing whole, where the page's search finds it printed with no width; None when it cannot be
    placed."""
    text = " ".join(text.split())
    # NOTE: only where the search finds it printed with no width: elsewhere it would be a guess
    box = next((r for r in page.search_for(key[:40], textpage=textpage) if r.width < 1), None)
    if box is None:
        return None
    size = near["spans"][-1]["size"] if near else max(box.height * 0.8, 6.0)
    width = min(_CHAR_WIDTH * size * len(text), max(page.rect.x1 - box.x0, 1.0))
    return (box.x0, box.y0, box.x0 + width, box.y1, text, size, False)
