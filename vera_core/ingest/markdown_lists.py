"""Lists as organisations write them, made into lists CommonMark reads (applied before parsing):

- outlines marked "a.", "(a)", "i.", "(iv)", "A." (CommonMark reads them as paragraphs) become nested
  bullet lists that keep each marker in the item's text, with their wrapped lines; siblings that
  repeat one marker ("a." "a." "a.", as renderers auto-number) read in the order they render;
- sub-items indented under a list item by less than its text's column ("3. ... following process:"
  over "  1. ..."), which CommonMark reads as siblings, are nested under it;
- lists indented four or more spaces under a lead-in paragraph, which CommonMark reads as code,
  become lists.
Fenced code is never touched."""

from __future__ import annotations

import re

__all__ = ["OUTLINE_MARKER", "dedent_indented_lists", "nest_sub_items", "normalise_lists", "outline_levels",
           "outline_lists"]

_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_LIST_ITEM = re.compile(r"^(\s*)([-*+]|\d{1,3}[.)])\s+\S")
_ITEM = re.compile(r"^(?P<indent>[ \t]*)(?P<marker>[-*+]|\d{1,3}[.)])(?P<gap>[ \t]+)\S")
OUTLINE_MARKER = r"\((?:[a-z]{1,2}|[ivxlc]{1,6}|[A-Z]|\d{1,2})\)|(?:[a-z]|[ivxlc]{2,6}|[A-Z])[.)]"
"""An outline marker CommonMark does not read as a list: 'a.', 'b)', '(c)', 'iv.', '(iv)', 'A.', '(1)'."""
_OUTLINE = re.compile(rf"^(?P<indent>[ \t]*)(?P<marker>{OUTLINE_MARKER})[ \t]+(?P<text>\S.*)$")
_ROMAN_LETTERS = set("ivxlc")
_BLOCK_START = re.compile(r"^\s{0,3}(?:#{1,6}\s|[-*+]\s|\d{1,3}[.)]\s|>|\||```|~~~|(?:[-*_]\s*){3,}$|!!!)")
"""A line that starts a block of its own (not a wrapped line of the paragraph above)."""
MIN_NEST = 2
"""A list item indented at least this many spaces more than the item above it is its sub-item (one
space is taken for sloppy alignment of a sibling)."""


def normalise_lists(text: str) -> str:
    """Every rule above, in order."""
    return dedent_indented_lists(nest_sub_items(outline_lists(text)))


def nest_sub_items(text: str) -> str:
    """A list item indented MIN_NEST or more spaces deeper than the item above it, but less than that
    item's text column (CommonMark's condition for a sub-item), is moved to the text column, with its
    wrapped lines; deeper levels keep their place relative to it."""
    lines = text.split("\n")
    out: list[str] = []
    stack: list[tuple[int, int, int]] = []  # (marker indent, text column as written, shift applied)
    in_fence = False
    for line in lines:
        if _FENCE.match(line):
            in_fence = not in_fence
            out.append(line)
            continue
        if in_fence or not line.strip():
            out.append(line)
            continue
        expanded = line.expandtabs(4)
        indent = len(expanded) - len(expanded.lstrip())
        item = _ITEM.match(expanded)
        if item is None:
            if indent == 0 and not _BLOCK_START.match(line) and not (out and out[-1].strip()):
                stack = []  # a paragraph at the margin after a blank line ends the list
            shift = next((s for i, _, s in reversed(stack) if indent > i), 0)
            out.append(" " * (indent + shift) + expanded.lstrip() if shift else line)
            continue
        while stack and indent < stack[-1][0] + MIN_NEST:
            stack.pop()
        column = indent + len(item.group("marker")) + len(item.group("gap").expandtabs(4))
        if stack:
            parent_indent, parent_column, parent_shift = stack[-1]
            new_indent = parent_column + parent_shift if indent < parent_column else indent + parent_shift
        else:
            new_indent = indent
        stack.append((indent, column, new_indent - indent))
        out.append(" " * new_indent + expanded.lstrip() if new_indent != indent else line)
    return "\n".join(out)


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
        run_end = _run_end(lines, i)
        if out and out[-1].strip() and not out[-1].rstrip().endswith(":"):
            out.append("")
        out.extend(_outline_run(lines[i:run_end]))
        out.append("")
        i = run_end
    return "\n".join(out)


def _run_end(lines: list[str], start: int) -> int:
    """The end of the outline run starting at `start`: its items, their indented lines, their wrapped
    lines at the margin (a lazy continuation: no blank line before it, not the start of another
    block), and further items after blank lines."""
    end = start
    while end < len(lines):
        line = lines[end]
        if _OUTLINE.match(line) or (line.strip() and line[:1] in " \t" and not _FENCE.match(line)):
            end += 1
        elif line.strip() and end > start and lines[end - 1].strip() and not _BLOCK_START.match(line):
            end += 1  # "(a) Access to all computing resources ...\ndevices, network equipment ..."
        elif not line.strip():
            following = next((j for j in range(end, len(lines)) if lines[j].strip()), None)
            if following is None or not (_OUTLINE.match(lines[following]) or
                                         (lines[following][:1] in " \t" and _ITEM.match(lines[following]))):
                break
            end = following
        else:
            break
    while end > start and not lines[end - 1].strip():
        end -= 1
    return end


def _outline_run(lines: list[str]) -> list[str]:
    items = [(n, m) for n, line in enumerate(lines) if (m := _OUTLINE.match(line))]
    levels = dict(zip((n for n, _ in items), outline_levels(
        [(len(m.group("indent").expandtabs(4)), m.group("marker")) for _, m in items])))
    markers = _rendered_markers([(levels[n], m.group("marker")) for n, m in items])
    out: list[str] = []
    level = 0
    for n, line in enumerate(lines):
        if n in levels:
            level = levels[n]
            m = _OUTLINE.match(line)
            out.append(f"{'  ' * level}- {markers.pop(0)} {m.group('text').strip()}")
        elif not line.strip():
            out.append("")
        else:  # a wrapped line of the item above, or a plain bullet under it
            out.append(f"{'  ' * level}  {line.strip()}")
    return out


def _rendered_markers(items: list[tuple[int, str]]) -> list[str]:
    """Each item's marker as a renderer numbers it: siblings that all repeat one marker ("a." "a." "a.",
    "i." "i.", auto-numbered Markdown) read in order ("a." "b." "c."); other markers stay."""
    siblings: dict[tuple, list[int]] = {}
    parents: list[int] = []
    for index, (level, _) in enumerate(items):
        parents = parents[:level]
        siblings.setdefault((tuple(parents), level), []).append(index)
        parents = parents + [index] if len(parents) == level else parents
    out = [marker for _, marker in items]
    for group in siblings.values():
        found = {items[i][1] for i in group}
        if len(group) > 1 and len(found) == 1:
            for position, i in enumerate(group):
                out[i] = _nth(items[i][1], position)
    return out


def _nth(marker: str, position: int) -> str:
    """The `position`-th (0-based) marker of the style of `marker`, in its form ("a." -> "c.", "(i)" -> "(iii)")."""
    core = marker.strip("().")
    style = _marker_style(marker, None)
    if style.endswith("number"):
        value = str(int(core) + position)
    elif style.endswith("roman"):
        value = _roman(position + 1)
    elif style.endswith("upper"):
        value = chr(ord("A") + position % 26)
    else:
        value = chr(ord("a") + position % 26)
    if marker.startswith("("):
        return f"({value})"
    return value + marker[-1]


def _roman(n: int) -> str:
    out = ""
    for value, digits in ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"),
                          (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")):
        while n >= value:
            out, n = out + digits, n - value
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


def dedent_indented_lists(text: str) -> str:
    """Policy files often indent list items by 4 spaces under a lead-in paragraph, which CommonMark
    reads as an indented code block (or paragraph text). Such runs are un-indented to a real list,
    keeping their relative nesting; lists nested under a list item and fenced code are untouched."""
    lines = text.split("\n")
    out: list[str] = []
    in_fence = False
    i = 0
    prev_kind = "none"  # none | list | text: the last block above that is not blank
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
        if line.strip():  # NOTE: a blank line keeps the kind of the block above (a list's next item may follow one)
            prev_kind = "list" if item else (prev_kind if prev_kind == "list" and line.startswith(" ") else "text")
        i += 1
    return "\n".join(out)


