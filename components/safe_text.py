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


def _find(text: str, words: list[str]) -> tuple[int, int] | None:
    match = re.search(r"\s+".join(re.escape(w) for w in words), text) if words else None
    return (match.start(), match.end()) if match else None


def quote_spans(text: str, quote: str) -> list[tuple[int, int]]:
    """Offsets of `quote` in `text`, whitespace-insensitive. A quote of table rows (header row and
    cited rows, not adjacent in the table) is found line by line; a cut quote by its head."""
    whole = _find(text, quote.split())
    if whole:
        return [whole]
    spans = [span for line in quote.split("\n") if (span := _find(text, line.split()))]
    return spans or [span for span in [_find(text, quote.split()[:12])] if span]


def highlighted_markdown(text: str, quote: str) -> str:
    """`text` as escaped Markdown with `quote` (whitespace-insensitive) wrapped in a highlight,
    line by line (a directive cannot span lines). Text without the quote is returned escaped."""
    spans = quote_spans(text, quote)
    if not spans:
        return escape_markdown(text)
    out_lines, offset = [], 0
    for line in text.split("\n"):
        line_start, line_end = offset, offset + len(line)
        offset = line_end + 1
        cuts = sorted((max(a, line_start) - line_start, min(b, line_end) - line_start)
                      for a, b in spans if max(a, line_start) < min(b, line_end))
        out, pos = [], 0
        for a, b in cuts:
            a = max(a, pos)
            if a >= b:
                continue
            out.append(escape_markdown(line[pos:a]))
            out.append(f":{HIGHLIGHT}[{escape_markdown(line[a:b])}]")
            pos = b
        out.append(escape_markdown(line[pos:]))
        out_lines.append("".join(out))
    return "  \n".join(out_lines)
