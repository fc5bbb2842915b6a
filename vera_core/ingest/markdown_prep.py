"""Markdown text fixes applied before CommonMark parsing: front matter, admonitions and template
leftovers, and pandoc grid tables (which markdown-it does not know). Lists: `markdown_lists.py`."""

from __future__ import annotations

import re
from bisect import bisect_right

import yaml

_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_GRID_BORDER = re.compile(r"^\s*\+[-=:+]+\+\s*$")
MAX_FRONT_MATTER = 64 * 1024
GRID_PLACEHOLDER = "VERAGRIDTABLE{}"


_OPENED = re.compile(r"^---[ \t]*\r?\n(.*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)", re.DOTALL)
_UNOPENED = re.compile(r"^((?:[A-Za-z_][\w -]{0,60}:(?:[ \t].*)?\r?\n)(?:.*\r?\n){0,400}?)---[ \t]*(?:\r?\n|$)")
"""Front matter closed by `---` but not opened by one (`name: Security Incident Response Policy` on the
first line): a YAML block of at most 400 lines before the first `---` line."""
_YAML_KEY_LINE = re.compile(r"^(?:[A-Za-z_][\w -]{0,60}:(?:[ \t].*)?|[ \t]+\S.*|-[ \t].*|#.*|)$")
"""A line a front-matter block may hold: `key:` / `key: value`, an indented continuation, a `- item`,
a YAML comment or a blank line (not a Markdown heading: `# Title` has a space, a YAML comment may too,
but a block whose lines are all comments is no front matter)."""


def split_front_matter(text: str) -> tuple[dict, str]:
    """YAML front matter as a JSON-safe dict, and the body after it: `---` ... `---` (or `...`), or a
    block of `key: value` lines closed by `---` without an opening one. Aliases are not expanded (a
    YAML "billion laughs" reads as its alias names); a block that is not a YAML mapping is body text."""
    match = _OPENED.match(text) if text.startswith("---") else _UNOPENED.match(text)
    if not match or len(match.group(1)) > MAX_FRONT_MATTER:
        return {}, text
    block = match.group(1)
    if not text.startswith("---"):
        lines = block.splitlines()
        if not all(_YAML_KEY_LINE.match(line) for line in lines) or all(line.startswith("#") for line in lines if line):
            return {}, text
    try:
        data = yaml.load(block, Loader=_NoAliasLoader)  # noqa: S506 - a SafeLoader that never expands aliases
    except (yaml.YAMLError, RecursionError, ValueError) as exc:
        if not text.startswith("---"):
            return {}, text
        return {"front_matter_error": str(exc).splitlines()[0] if str(exc) else type(exc).__name__}, text[match.end():]
    if not isinstance(data, dict):
        return {}, text
    if not text.startswith("---") and len(data) < 2 and not {"name", "title"} & {str(k).lower() for k in data}:
        return {}, text  # "Note: ..." over a thematic break is a paragraph, not front matter
    return _json_safe(data), text[match.end():]


class _NoAliasLoader(yaml.SafeLoader):
    """YAML's safe loader, except that an alias (`*name`) reads as the string "*name": the document is
    read in time and memory proportional to its size, whatever its anchors."""

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            event = self.get_event()
            return yaml.ScalarNode("tag:yaml.org,2002:str", f"*{event.anchor}", event.start_mark, event.end_mark)
        return super().compose_node(parent, index)


_ADMONITION = re.compile(r"^\s{0,3}(?:!!!|\?\?\?\+?)\s*([\w-]+)(?:\s+\"([^\"]*)\")?\s*$")
"""An admonition's opening line (`!!! Note`, `!!! warning "Title"`, `??? info`), as MkDocs writes them; its
body is the indented lines after it."""
_COLON_FENCE = re.compile(r"^\s{0,3}(:{3,})\s*([\w-]+)?(?:\s+(.*?))?\s*$")
"""A fenced admonition's opening (`:::note`, `:::warning Title`), as Docusaurus and Pandoc write them; it
closes at a line of as many colons."""
_TEMPLATE_LINE = re.compile(r"^\s*(?:\{\{\s*[#/^!>][^}]*\}\}|\{%-?[^%]*-?%\}|<!--.*?-->)\s*$")
"""A line that is only a template's control tag (`{{#needHIPAA}}`, `{{/needHIPAA}}`, `{% if x %}`) or an
HTML comment: the template's machinery, not the policy's text."""
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_CALLOUT_LINES = 2_000
"""An admonition longer than this stays as written (a runaway fence must not turn the rest into a quote)."""


def _callout(kind: str | None, title: str | None, body: list[str]) -> list[str]:
    """An admonition as the block quote it renders as: its title (or its kind) as a bold first line, then
    its body, so a list inside it is a callout's list under that title."""
    kind = (kind or "note").capitalize()
    title = (title or "").strip().strip('"')
    head = f"{kind}: {title}" if title and title.lower() != kind.lower() else title or kind
    lines = [f"> **{head}**", ">"]
    lines += [f"> {line}" if line.strip() else ">" for line in body]
    return lines + [""]


def _dedent(lines: list[str]) -> list[str]:
    width = min((len(x) - len(x.lstrip()) for x in lines if x.strip()), default=0)
    return [x[width:] if x.strip() else "" for x in lines]


def strip_leftovers(text: str) -> tuple[str, int]:
    """The text with admonitions as callouts (`!!! tip "Found a broken seal?"` and its indented body,
    `:::warning` ... `:::`: a block quote led by the title in bold) and without template leftovers
    (control-tag lines, HTML comments); and how many leftovers were removed. Fenced code is untouched."""
    text, comments = _COMMENT.subn("", text)
    lines = text.split("\n")
    closers: dict[str, list[int]] = {}  # a line of only colons -> where it stands, in order
    for at, line in enumerate(lines):
        if line.strip().startswith(":::") and not line.strip().strip(":"):
            closers.setdefault(line.strip(), []).append(at)
    out: list[str] = []
    removed, in_fence, i = comments, False, 0
    while i < len(lines):
        line = lines[i]
        if _FENCE.match(line):
            in_fence = not in_fence
        admonition = None if in_fence else _ADMONITION.match(line)
        if admonition:
            end = i + 1
            while end < len(lines) and (not lines[end].strip() or lines[end].startswith(("    ", "\t"))):
                end += 1
            out += _callout(admonition.group(1), admonition.group(2), _dedent(lines[i + 1:end]))
            i = end
            continue
        fence = None if in_fence else _COLON_FENCE.match(line)
        if fence and fence.group(2):
            closing = closers.get(fence.group(1), [])
            at = bisect_right(closing, i)  # NOTE: the next closing line, found without scanning (one pass built them)
            end = closing[at] if at < len(closing) and closing[at] < i + _CALLOUT_LINES else None
            if end is not None:
                out += _callout(fence.group(2), fence.group(3), _dedent(lines[i + 1:end]))
                i = end + 1
                continue
        if not in_fence and _TEMPLATE_LINE.match(line):
            removed += 1
            i += 1
            continue
        out.append(line)
        i += 1
    return "\n".join(out), removed


def _json_safe(value, depth: int = 0):
    """Plain JSON values only, bounded in depth (YAML aliases must not expand without limit)."""
    if depth > 6:
        return str(value)[:200]
    if isinstance(value, dict):
        return {str(k): _json_safe(v, depth + 1) for k, v in list(value.items())[:100]}
    if isinstance(value, list | tuple):
        return [_json_safe(v, depth + 1) for v in list(value)[:100]]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)


def extract_grid_tables(text: str, start: int = 0) -> tuple[str, list[tuple[list[str], list[list[str]]]]]:
    """Replace each pandoc grid table with a placeholder paragraph (numbered from `start`); return the parsed
    tables as (header, rows) with multi-line cells joined by spaces."""
    lines = text.split("\n")
    out: list[str] = []
    tables: list[tuple[list[str], list[list[str]]]] = []
    i = 0
    while i < len(lines):
        if _GRID_BORDER.match(lines[i]):
            end = i + 1
            while end < len(lines) and (lines[end].strip().startswith("|") or _GRID_BORDER.match(lines[end])):
                end += 1
            block = lines[i:end]
            if len(block) >= 3 and _GRID_BORDER.match(block[-1]):
                tables.append(_parse_grid(block))
                out.extend(["", GRID_PLACEHOLDER.format(start + len(tables) - 1), ""])
                i = end
                continue
        out.append(lines[i])
        i += 1
    return "\n".join(out), tables


def _parse_grid(block: list[str]) -> tuple[list[str], list[list[str]]]:
    border = block[0].strip()
    cuts = [i for i, ch in enumerate(border) if ch == "+"]
    indent = len(block[0]) - len(block[0].lstrip())
    rows: list[list[str]] = []
    header_rows = 0
    current: list[list[str]] | None = None
    for line in block[1:]:
        stripped = line[indent:].rstrip()
        if _GRID_BORDER.match(stripped):
            if current is not None:
                rows.append([" ".join(" ".join(part).split()) for part in current])
            current = None
            if "=" in stripped:
                header_rows = len(rows)
            continue
        current = current or [[] for _ in range(len(cuts) - 1)]
        for col in range(len(cuts) - 1):
            current[col].append(stripped[cuts[col] + 1:cuts[col + 1]].strip(" |"))
    if current is not None:
        rows.append([" ".join(" ".join(part).split()) for part in current])
    if header_rows:
        header = [" ".join(r[c] for r in rows[:header_rows]).strip() for c in range(len(cuts) - 1)]
        return header, rows[header_rows:]
    return rows[0], rows[1:]


