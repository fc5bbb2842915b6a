"""Markdown text fixes applied before CommonMark parsing: front matter, 4-space-indented lists,
and pandoc grid tables (which markdown-it does not know)."""

from __future__ import annotations

import re

import yaml

_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_LIST_ITEM = re.compile(r"^(\s*)([-*+]|\d{1,3}[.)])\s+\S")
OUTLINE_MARKER = r"\((?:[a-z]{1,2}|[ivxlc]{1,6}|[A-Z]|\d{1,2})\)|(?:[a-z]|[ivxlc]{2,6}|[A-Z])[.)]"
"""An outline marker CommonMark does not read as a list: 'a.', 'b)', '(c)', 'iv.', '(iv)', 'A.', '(1)'."""
_OUTLINE = re.compile(rf"^(?P<indent>[ \t]*)(?P<marker>{OUTLINE_MARKER})[ \t]+(?P<text>\S.*)$")
_ROMAN_LETTERS = set("ivxlc")
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


def dedent_indented_lists(text: str) -> str:
    """Policy files often indent list items by 4 spaces under a lead-in paragraph, which CommonMark
    reads as an indented code block (or paragraph text). Such runs are un-indented to a real list,
    keeping their relative nesting; lists nested under a list item and fenced code are untouched."""
    lines = text.split("\n")
    out: list[str] = []
    in_fence = False
    i = 0
    prev_kind = "blank"  # blank | list | text
    while i < len(lines):
        line = lines[i]
        if _FENCE.match(line):
            in_fence = not in_fence
        if in_fence or _FENCE.match(line):
            out.append(line)
            prev_kind = "text"
            i += 1
            continue
        item = _LIST_ITEM.match(line)
        if item and len(item.group(1).expandtabs(4)) >= 4 and prev_kind != "list":
            run_end = i
            while run_end < len(lines) and (_LIST_ITEM.match(lines[run_end]) or
                                            lines[run_end].startswith("        ") and lines[run_end].strip()):
                run_end += 1
            indent = min(len(_LIST_ITEM.match(ln).group(1).expandtabs(4))
                         for ln in lines[i:run_end] if _LIST_ITEM.match(ln))
            if out and out[-1].strip():
                out.append("")
            out.extend(ln.expandtabs(4)[indent:] if ln.expandtabs(4)[:indent].strip() == "" else ln
                       for ln in lines[i:run_end])
            out.append("")
            prev_kind = "list"
            i = run_end
            continue
        out.append(line)
        prev_kind = "blank" if not line.strip() else "list" if item else (
            prev_kind if prev_kind == "list" and line.startswith(" ") else "text")
        i += 1
    return "\n".join(out)


def extract_grid_tables(text: str) -> tuple[str, list[tuple[list[str], list[list[str]]]]]:
    """Replace each pandoc grid table with a placeholder paragraph; return the parsed tables
    as (header, rows) with multi-line cells joined by spaces."""
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
                out.extend(["", GRID_PLACEHOLDER.format(len(tables) - 1), ""])
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


def outline_lists(text: str) -> str:
    """Outlines marked with letters or roman numerals ("a. Password protection" over indented
    "i. ..." items, "(a)" / "(iv)", "(1)"), which CommonMark reads as one paragraph, become nested
    Markdown bullet lists that keep each marker in the item's text ("- a. Password protection",
    "  - i. ..."). Nesting follows indentation; without indentation, the order in which marker
    styles first appear (a. before i.). Fenced code is untouched."""
    lines = text.split("\n")
    out: list[str] = []
    in_fence = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if _FENCE.match(line):
            in_fence = not in_fence
        if in_fence or _FENCE.match(line) or not _OUTLINE.match(line):
            out.append(line)
            i += 1
            continue
        run_end = i
        while run_end < len(lines) and (_OUTLINE.match(lines[run_end]) or (
                lines[run_end].strip() and lines[run_end][:1] in " \t" and not _FENCE.match(lines[run_end]))):
            run_end += 1
        if out and out[-1].strip() and not out[-1].rstrip().endswith(":"):
            out.append("")
        out.extend(_outline_run(lines[i:run_end]))
        out.append("")
        i = run_end
    return "\n".join(out)


def _outline_run(lines: list[str]) -> list[str]:
    items = [(n, m) for n, line in enumerate(lines) if (m := _OUTLINE.match(line))]
    levels = dict(zip((n for n, _ in items), outline_levels(
        [(len(m.group("indent").expandtabs(4)), m.group("marker")) for _, m in items])))
    out: list[str] = []
    level = 0
    for n, line in enumerate(lines):
        if n in levels:
            level = levels[n]
            m = _OUTLINE.match(line)
            out.append(f"{'  ' * level}- {m.group('marker')} {m.group('text').strip()}")
        else:  # a wrapped line of the item above
            out.append(f"{'  ' * level}  {line.strip()}")
    return out


def outline_levels(items: list[tuple[int, str]]) -> list[int]:
    """The level of each item of one list, given as (indent, marker; '' for a plain bullet): by
    indentation when the items are indented differently, else by the order in which their marker
    styles first appear (a. before i.)."""
    indents = sorted({indent for indent, _ in items})
    styles: list[str] = []
    last_letter: dict[int, str] = {}
    levels = []
    for indent, marker in items:
        style = _marker_style(marker, last_letter.get(indent)) if marker else "bullet"
        if style.endswith("alpha"):
            last_letter[indent] = marker.strip("().")[:1]
        if style not in styles:
            styles.append(style)
        levels.append(indents.index(indent) if len(indents) > 1 else styles.index(style))
    return levels


def _marker_style(marker: str, previous_letter: str | None) -> str:
    """alpha, roman, upper or number, with its parenthesis form: "(a)" and "a." are different levels."""
    core = marker.strip("().")
    paren = "(" if marker.startswith("(") else ""
    if core.isdigit():
        return paren + "number"
    if core.isupper():
        return paren + "upper"
    single = len(core) == 1
    # NOTE: "i." after "h." is a letter; "i." elsewhere starts a roman-numbered level
    if set(core) <= _ROMAN_LETTERS and not (single and previous_letter and ord(core) == ord(previous_letter) + 1):
        return paren + "roman"
    return paren + "alpha"
