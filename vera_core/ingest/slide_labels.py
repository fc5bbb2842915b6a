"""A slide's row label printed on two lines centred on its figures: "Family of Apps" above the row of numbers and
"Operating Income" below it, the three lines packed closer than a line's height (Meta's segment slides). Read line by
line, the figures had no label and each half of the label was a row of its own; they are one row, "Family of Apps
Operating Income", with the figures. A label of three lines prints its middle line beside the figures ("Less: Principal"
/ "payments on finance" with the figures / "leases"). Decks only: a filing's wrapped label ends on its figures' line and
is joined where tables are read."""

from __future__ import annotations

import re

from vera_core.ingest.pdf_rows import Cell, Row

__all__ = ["join_centred_labels"]

_FIGURE = re.compile(r"^[$€£(]*\s*[-\u2013]?\d[\d,.]*\s*%?\)?\s*[$€£%]?$|^[$€£%]$")
_ALIGN = 3.0
"""Points the two label lines' left edges may differ by."""


def _figures_only(row: Row) -> bool:
    return bool(row.cells) and all(_FIGURE.match(c.text.strip()) for c in row.cells)


def _label_only(row: Row, figures: Row) -> bool:
    return bool(row.cells) and not any(_FIGURE.match(c.text.strip()) for c in row.cells) \
        and row.x1 < min(c.x0 for c in figures.cells if c.text.strip() not in ("$", "€", "£"))


def _centred(above: Row, figures: Row, below: Row) -> bool:
    """The label's two lines overlap the figures' line from above and below, and start at one left edge."""
    return above.y0 < figures.y0 < below.y0 and figures.y0 < above.y1 and below.y0 < figures.y1 \
        and abs(above.x0 - below.x0) <= _ALIGN


def _middle_label(row: Row, above: Row) -> Cell | None:
    """The label's middle line printed at the head of its figures' row, starting where the line above starts."""
    if len(row.cells) < 2 or _FIGURE.match(row.cells[0].text.strip()) or abs(row.cells[0].x0 - above.x0) > _ALIGN:
        return None
    return row.cells[0]


def join_centred_labels(rows: list[Row]) -> list[Row]:
    """The page's rows with each label centred on two (or three) lines around its figures joined to them."""
    out: list[Row] = []
    i = 0
    while i < len(rows):
        if i + 2 < len(rows):
            above, figures, below = rows[i], rows[i + 1], rows[i + 2]
            middle = _middle_label(figures, above)
            figures = Row(figures.page, figures.cells[1].x0, figures.y0, figures.x1, figures.y1, figures.cells[1:],
                          figures.size, figures.bold) if middle else figures
            if _figures_only(figures) and _label_only(above, figures) and _label_only(below, figures) \
                    and _centred(above, figures, below):
                first = above.cells[0]
                words = [above.text] + ([middle.text] if middle else []) + [below.text]
                label = Cell(min(above.x0, below.x0), max(above.x1, below.x1, middle.x1 if middle else 0), " ".join(words),
                             first.size, first.bold)
                out.append(Row(figures.page, min(above.x0, below.x0), above.y0, max(figures.x1, above.x1, below.x1),
                               below.y1, [label] + figures.cells, figures.size, figures.bold))
                i += 3
                continue
        out.append(rows[i])
        i += 1
    return out
