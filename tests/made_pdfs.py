"""Small PDFs made in tests, for facts the bundled samples do not hold."""

from __future__ import annotations

import pymupdf

PAGE_W, PAGE_H = 612, 792
KESTREL_NAME = "kestrel_review.pdf"


def kestrel_review_pdf() -> bytes:
    """Two pages; page 2 states the acquisition the location question asks about."""
    doc = pymupdf.open()
    texts = [("Falcon Holdings review 2025",
              "Falcon Holdings designs warehouse automation systems for retailers in Europe. "
              "This review summarises the year for shareholders and staff."),
             ("Acquisitions",
              "On 3 March 2025 Falcon Holdings acquired Kestrel Robotics, a maker of picking arms, "
              "for EUR 12.5 million in cash. Kestrel Robotics employs 85 engineers in Ghent.")]
    for title, body in texts:
        page = doc.new_page(width=PAGE_W, height=PAGE_H)
        page.insert_text((72, 90), title, fontsize=16, fontname="hebo")
        page.insert_textbox(pymupdf.Rect(72, 120, 540, 400), body, fontsize=11, fontname="helv")
    return doc.tobytes()
