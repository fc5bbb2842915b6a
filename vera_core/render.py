"""Page images with highlights: a stored PDF page rendered with PyMuPDF and the cited regions drawn
over it with Pillow (translucent fill, outline, citation number). UI-free; the app shows the JPEG."""

from __future__ import annotations

import io
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pymupdf
from PIL import Image, ImageDraw, ImageFont

from vera_core.records import Rect

DEFAULT_ZOOM = 2.0
"""Pixels per PDF point: 2.0 renders a US-letter page at 1224 x 1584, readable when scaled to a column."""
ACTIVE_FILL = (255, 196, 0, 96)
"""RGBA of the selected citation's fill: translucent amber, the text under it stays legible."""
ACTIVE_OUTLINE = (214, 90, 0, 255)
OTHER_FILL = (31, 95, 168, 40)
"""Other citations on the same page: a faint blue, so the selected one stands out."""
OTHER_OUTLINE = (31, 95, 168, 200)
JPEG_QUALITY = 88
"""JPEG, not PNG: encoding a letter page at zoom 2 takes ~6 ms instead of ~50 ms (PNG level 1) at a
similar size, and the browser decodes it faster; at 88 the text stays crisp when scaled to a column."""

_lock = threading.Lock()
"""PyMuPDF documents are not thread-safe; sessions of the app render concurrently."""


@dataclass(frozen=True)
class Highlight:
    """One citation's regions to draw on a page."""

    n: int
    """Citation number drawn beside the first region (0: no label)."""
    rects: tuple[Rect, ...]
    """Regions in PDF points, PyMuPDF page coordinates; rects of other pages are ignored."""
    active: bool = True
    """The selected citation (amber); others are drawn faint blue."""


@dataclass(frozen=True)
class PageImage:
    """A rendered page."""

    jpeg: bytes
    """JPEG bytes of the page with its highlights."""
    width: int
    """Width in pixels (page width in points times `zoom`)."""
    height: int
    zoom: float
    """Pixels per PDF point."""


def scaled_box(rect: Rect, zoom: float) -> tuple[int, int, int, int]:
    """A rect in pixels of an image rendered at `zoom` (left, top, right, bottom)."""
    return (round(rect.x0 * zoom), round(rect.y0 * zoom), round(rect.x1 * zoom), round(rect.y1 * zoom))


def page_count(path: Path | str) -> int:
    """Pages of a stored PDF."""
    with _lock, pymupdf.open(path) as doc:
        return doc.page_count


def render_page(path: Path | str, page: int, highlights: Sequence[Highlight] = (),
                zoom: float = DEFAULT_ZOOM) -> PageImage:
    """The 1-based `page` of the PDF at `path` with `highlights` drawn; cached (same arguments, same
    bytes). Raises ValueError for a page outside the document."""
    return _render(str(path), page, tuple(highlights), float(zoom))


@lru_cache(maxsize=96)
def _render(path: str, page: int, highlights: tuple[Highlight, ...], zoom: float) -> PageImage:
    with _lock, pymupdf.open(path) as doc:
        if not 1 <= page <= doc.page_count:
            raise ValueError(f"page {page} is outside {Path(path).name} (1-{doc.page_count})")
        pix = doc[page - 1].get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)
        image = Image.frombytes("RGB", (pix.width, pix.height), pix.samples)
    overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(overlay)
    font = _font(round(11 * zoom))
    # NOTE: the selected citation is drawn last, so it is on top where regions overlap
    for hl in sorted(highlights, key=lambda h: h.active):
        rects = [r for r in hl.rects if r.page == page]
        fill, outline = (ACTIVE_FILL, ACTIVE_OUTLINE) if hl.active else (OTHER_FILL, OTHER_OUTLINE)
        width = max(2, round(zoom * (1.5 if hl.active else 0.75)))
        for rect in rects:
            draw.rectangle(scaled_box(rect, zoom), fill=fill, outline=outline, width=width)
        if rects and hl.n:
            _label(draw, rects[0], hl.n, zoom, outline, font)
    image = Image.alpha_composite(image.convert("RGBA"), overlay).convert("RGB")
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=JPEG_QUALITY)
    return PageImage(buffer.getvalue(), image.width, image.height, zoom)


def _label(draw: ImageDraw.ImageDraw, rect: Rect, n: int, zoom: float, color, font) -> None:
    """The citation number in a filled tag left of the region's top-left corner (inside the page)."""
    text = str(n)
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    pad = round(2 * zoom)
    w, h = right - left + 2 * pad, bottom - top + 2 * pad
    x = max(0, round(rect.x0 * zoom) - w - pad)
    y = max(0, round(rect.y0 * zoom))
    draw.rectangle((x, y, x + w, y + h), fill=color)
    draw.text((x + pad - left, y + pad - top), text, fill=(255, 255, 255, 255), font=font)


@lru_cache(maxsize=8)
def _font(size: int):
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow without FreeType sizes
        return ImageFont.load_default()


__all__ = ["DEFAULT_ZOOM", "Highlight", "PageImage", "page_count", "render_page", "scaled_box"]
