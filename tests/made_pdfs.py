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


LONG_NAME = "harbour_logistics_review.pdf"
LONG_PAGES = 48
LONG_FACT_PAGE = 37
"""The page that states the Orion crane contract (a location question asks what page 37 says)."""


def long_review_pdf(pages: int = LONG_PAGES) -> bytes:
    """A report of `pages` full pages of distinct prose (a few hundred chunks: embedding takes a while,
    long enough to ask questions before the document is complete); page LONG_FACT_PAGE states the
    Orion crane contract."""
    ports = ["Aberdeen", "Bremen", "Cadiz", "Danzig", "Esbjerg", "Flushing", "Genoa", "Hull", "Izmir", "Jaffa"]
    doc = pymupdf.open()
    for number in range(1, pages + 1):
        port = ports[number % len(ports)]
        page = doc.new_page(width=PAGE_W, height=PAGE_H)
        page.insert_text((72, 80), f"Terminal report {number}: {port}", fontsize=15, fontname="hebo")
        lines = []
        for k in range(14):
            lines.append(f"In week {k + 1} the {port} terminal handled {1000 + 37 * number + 11 * k} containers on "
                         f"berth {k % 5 + 1}, with a crane productivity of {20 + (number + k) % 9} moves per hour "
                         f"and {k % 4} safety observations recorded by the shift supervisors.")
        if number == LONG_FACT_PAGE:
            lines.insert(0, "Harbour Logistics signed the Orion crane contract on 9 June 2025: four electric "
                            "ship-to-shore cranes for EUR 41 million, to be delivered to Genoa in 2027.")
        page.insert_textbox(pymupdf.Rect(72, 100, 540, 760), " ".join(lines), fontsize=9, fontname="helv")
    return doc.tobytes()


CALL_NAME = "falcon_call.pdf"
CALL = ("Falcon Holdings Q1 2026 Earnings Call\nFebruary 12, 2026\nCorporate Participants\nAnna Peeters Falcon Holdings - "
        "Chief Executive Officer\nTom Wouters Falcon Holdings - Chief Financial Officer\nPresentation\nOperator: Good "
        "morning and welcome to the Falcon Holdings first quarter fiscal 2026 earnings call.\nANNA PEETERS: Thank you. "
        "Revenue grew 9% and our warehouse robots shipped to 40 new sites.\nTOM WOUTERS: Gross margin was 41%, up two "
        "points.\nQuestions and Answers\nOperator: Our first question comes from Lisa Marin with Northgate Securities.\n"
        "LISA MARIN: How many of the new sites are in Germany?\nANNA PEETERS: Twelve of the forty are in Germany.")
"""A small earnings call: a participant list, prepared remarks by the CEO and CFO, one analyst's question."""
CALL_TOP, CALL_STEP = 60, 26
"""Where the call's first line is printed and the distance between its lines (one paragraph per line)."""


def falcon_call_pdf() -> bytes:
    """`CALL` on one page, one paragraph per line, as a transcript prints them."""
    doc = pymupdf.open()
    page = doc.new_page(width=PAGE_W, height=PAGE_H)
    for i, line in enumerate(CALL.split("\n")):
        page.insert_text((50, CALL_TOP + CALL_STEP * i), line, fontsize=9)
    return doc.tobytes()

