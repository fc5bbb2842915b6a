"""Page images for the viewer: the cited region is drawn amber, the rest of the page is untouched."""

from __future__ import annotations

import io

import pymupdf
from PIL import Image

from tests.pixels import yellowness
from vera_core.records import Rect
from vera_core.render import Highlight, render_page, scaled_box


def inner(rect: Rect, zoom: float) -> tuple[int, int, int, int]:
    """The rect's pixels less a margin (the outline and the number tag)."""
    left, top, right, bottom = scaled_box(rect, zoom)
    return left + 12, top + 12, right - 12, bottom - 12


def test_selected_region_is_amber_other_citations_blue_and_the_page_elsewhere_white(tmp_path):
    path = tmp_path / "two.pdf"
    doc = pymupdf.open()
    for _ in range(2):
        doc.new_page(width=612, height=792)
    doc.save(path)
    selected = Rect(1, 100, 100, 300, 200)
    other = Rect(1, 100, 400, 300, 500)
    elsewhere = Rect(2, 100, 100, 300, 200)  # another page: not drawn on page 1

    image = render_page(path, 1, (Highlight(1, (selected, elsewhere)), Highlight(2, (other,), active=False)))

    picture = Image.open(io.BytesIO(image.jpeg))
    assert picture.format == "JPEG" and picture.size == (image.width, image.height) == (1224, 1584)
    assert yellowness(picture, inner(selected, image.zoom)) > 60  # amber
    assert yellowness(picture, inner(other, image.zoom)) < -10  # blue
    assert abs(yellowness(picture, (700, 1200, 1100, 1500))) < 3  # untouched white
    blank = Image.open(io.BytesIO(render_page(path, 2, ()).jpeg))
    assert abs(yellowness(blank, inner(elsewhere, image.zoom))) < 3
