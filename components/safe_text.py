"""Document text and model output as escaped Markdown: never raw HTML, and no Markdown syntax of
the source (a `*`, `$`, `[` or `:emoji:` in a filing) is interpreted."""

from __future__ import annotations

import re

_PUNCTUATION = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:&\"'=^%@,;?/])")
HIGHLIGHT = "orange-background"
"""Streamlit's Markdown colour directive used to mark a quoted span."""


def escape_markdown(text: str) -> str:
    """`text` as Markdown that renders literally: every ASCII punctuation backslash-escaped
    (CommonMark allows it for all of them), line breaks kept as hard breaks."""
    lines = [_PUNCTUATION.sub(r"\\\1", line) for line in text.split("\n")]
    return "  \n".join(lines)


def _normalised_span(text: str, quote: str) -> tuple[int, int] | None:
    """Offsets of `quote` in `text`, ignoring differences in whitespace."""
    words = quote.split()
    if not words:
        return None
    pattern = r"\s+".join(re.escape(w) for w in words)
    match = re.search(pattern, text)
    if match is None:  # a long quote may be cut: find its head
        pattern = r"\s+".join(re.escape(w) for w in words[:12])
        match = re.search(pattern, text)
    return (match.start(), match.end()) if match else None


def highlighted_markdown(text: str, quote: str) -> str:
    """`text` as escaped Markdown with `quote` (whitespace-insensitive) wrapped in a highlight,
    line by line (a directive cannot span lines). Text without the quote is returned escaped."""
    span = _normalised_span(text, quote)
    if span is None:
        return escape_markdown(text)
    start, end = span
    out_lines, offset = [], 0
    for line in text.split("\n"):
        line_start, line_end = offset, offset + len(line)
        offset = line_end + 1
        a, b = max(start, line_start) - line_start, min(end, line_end) - line_start
        if a >= b:
            out_lines.append(escape_markdown(line))
            continue
        before, marked, after = line[:a], line[a:b], line[b:]
        out_lines.append(f"{escape_markdown(before)}:{HIGHLIGHT}[{escape_markdown(marked)}]{escape_markdown(after)}")
    return "  \n".join(out_lines)
