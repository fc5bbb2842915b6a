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



def release_pdf(quarter: int, month_end: str, rows: list[tuple[str, str, str]], statement_rows: list[tuple[str, str, str]],
                widowed: bool = False, summary: str = "Revenue grew and cash generation stayed strong.",
                table_title: str = "Reconciliation of Operating Cash Flow to Free Cash Flow") -> bytes:
    """A small quarterly earnings release of Falcon Holdings: page 1 a headline, a summary and a non-GAAP reconciliation
    (`rows`: label, this year's quarter, last year's); page 2 the cash flow statement (`statement_rows`), its title
    printed at page 1's foot when `widowed` (the statement alone on page 2), else above it."""
    doc = pymupdf.open()
    page = doc.new_page(width=PAGE_W, height=PAGE_H)
    names = {1: "First", 2: "Second", 3: "Third", 4: "Fourth"}
    page.insert_text((72, 70), f"Falcon Holdings Reports {names[quarter]} Quarter 2023 Results", fontsize=15, fontname="hebo")
    page.insert_textbox(pymupdf.Rect(72, 90, 540, 150), f"News Release. Falcon Holdings today reported results for the "
                        f"quarter ended {month_end}, 2023. {summary}",
                        fontsize=10, fontname="helv")
    y = _table(page, 170, table_title, month_end, rows)
    statement_title = "Condensed Consolidated Statement of Cash Flows"
    if widowed:
        page.insert_text((72, PAGE_H - 60), "Falcon Holdings", fontsize=10, fontname="helv")
        page.insert_text((72, PAGE_H - 46), statement_title, fontsize=10, fontname="helv")
    second = doc.new_page(width=PAGE_W, height=PAGE_H)
    _table(second, 60, "" if widowed else statement_title, month_end, statement_rows)
    assert y < PAGE_H - 90
    return doc.tobytes()


def _table(page, top: float, title: str, month_end: str, rows: list[tuple[str, str, str]], unit_row: bool = True) -> float:
    """A two-column table of three months ended `month_end` 2023 and 2022, in millions (said on a row of its own over the
    labels when `unit_row`); returns the y below it."""
    y = top
    if title:
        page.insert_text((72, y), title, fontsize=10, fontname="helv")
        y += 18
    page.insert_text((340, y), "Three Months Ended", fontsize=9, fontname="helv")
    page.insert_text((360, y + 12), f"{month_end},", fontsize=9, fontname="helv")
    page.insert_text((340, y + 24), "2023", fontsize=9, fontname="helv")
    page.insert_text((440, y + 24), "2022", fontsize=9, fontname="helv")
    if unit_row:
        page.insert_text((72, y + 38), "(In millions)", fontsize=9, fontname="helv")
    y += 54
    for label, now, before in rows:
        page.insert_text((72, y), label, fontsize=9, fontname="helv")
        page.insert_text((340, y), now, fontsize=9, fontname="helv")
        page.insert_text((440, y), before, fontsize=9, fontname="helv")
        y += 14
    return y


OFFERINGS = [("Sales", "1,810", "1,632"), ("Service", "1,964", "1,761"), ("Data", "1,131", "955"), ("Total", "4,905", "4,348")]


def led_in_release_pdf(lead_in: str = "Subscription and support revenues consisted of the following:",
                       rows: list[tuple[str, str, str]] = OFFERINGS) -> bytes:
    """Falcon Holdings' second-quarter release whose revenue by offering is named only by the sentence leading into its
    table (`lead_in`): its rows are bare names ("Data")."""
    doc = pymupdf.open()
    page = doc.new_page(width=PAGE_W, height=PAGE_H)
    page.insert_text((72, 70), "Falcon Holdings Reports Second Quarter 2023 Results", fontsize=15, fontname="hebo")
    page.insert_textbox(pymupdf.Rect(72, 90, 540, 150), "News Release. Falcon Holdings today reported results for the "
                        "quarter ended June 30, 2023. Revenue grew across every offering.", fontsize=10, fontname="helv")
    page.insert_text((72, 180), "Disaggregation of Revenue", fontsize=12, fontname="hebo")
    page.insert_text((72, 200), lead_in, fontsize=8, fontname="helv")
    _table(page, 218, "", "June 30", rows, unit_row=False)
    return doc.tobytes()


def continued_balance_sheet_pdf() -> bytes:
    """Falcon Holdings' balance sheet over two pages: page 1 its title, its dates and the assets; page 2 carries on under
    its group labels in capitals ("LIABILITIES AND EQUITY", "CURRENT LIABILITIES") with no header of its own."""
    doc = pymupdf.open()
    first = doc.new_page(width=PAGE_W, height=PAGE_H)
    for x, y, text in [(200, 60, "CONSOLIDATED BALANCE SHEETS"), (220, 74, "(amounts in millions)"), (340, 100, "June 30,"),
                       (440, 100, "December 31,"), (340, 112, "2023"), (440, 112, "2022")]:
        first.insert_text((x, y), text, fontsize=9, fontname="helv")
    _statement_rows(first, 130, [("ASSETS", "", ""), ("CURRENT ASSETS", "", ""), ("Cash and cash equivalents", "12,493", "10,203"),
                                 ("Merchandise inventories", "16,324", "17,907"), ("Total current assets", "28,817", "28,110"),
                                 ("Property and equipment, net", "25,931", "24,646"), ("TOTAL ASSETS", "54,748", "52,756")])
    _statement_rows(doc.new_page(width=PAGE_W, height=PAGE_H), 60,
                    [("LIABILITIES AND EQUITY", "", ""), ("CURRENT LIABILITIES", "", ""), ("Accounts payable", "16,853", "17,848"),
                     ("Accrued salaries and benefits", "4,117", "4,381"), ("Total current liabilities", "20,970", "22,229"),
                     ("Long-term debt", "6,484", "6,590"), ("TOTAL LIABILITIES AND EQUITY", "54,748", "52,756")])
    return doc.tobytes()


def foot_split_balance_sheet_pdf() -> bytes:
    """Falcon Holdings' balance sheet begun at page 1's foot (its title, its dates, "ASSETS", one row) and carried on
    atop page 2 with no header; the page's foot also prints the start of page 2's first row, cut off ("Sh  i  1 215
    846", the page number on its line), as Costco's release does."""
    doc = pymupdf.open()
    first = doc.new_page(width=PAGE_W, height=PAGE_H)
    first.insert_textbox(pymupdf.Rect(72, 60, 540, 140), "Falcon Holdings reported its second-quarter results. Revenue "
                         "grew and cash generation stayed strong.", fontsize=10, fontname="helv")
    top = PAGE_H - 150
    for x, y, text in [(200, top, "CONSOLIDATED BALANCE SHEETS"), (200, top + 14, "(amounts in millions)"),
                       (340, top + 40, "June 30, 2023"), (440, top + 36, "December 31,"), (450, top + 44, "2022")]:
        first.insert_text((x, y), text, fontsize=9, fontname="helv")
    _statement_rows(first, top + 58, [("ASSETS", "", ""), ("CURRENT ASSETS", "", ""),
                                      ("Cash and cash equivalents", "12,493", "10,203")])
    for x, text in ((72, "Sh"), (110, "i"), (340, "1 215"), (440, "846"), (540, "3")):
        first.insert_text((x, top + 58 + 14 * 3), text, fontsize=9, fontname="helv")
    _statement_rows(doc.new_page(width=PAGE_W, height=PAGE_H), 60,
                    [("Short-term investments", "1,215", "846"), ("Merchandise inventories", "16,324", "17,907"),
                     ("Total current assets", "30,032", "28,956"), ("TOTAL ASSETS", "55,963", "53,602")])
    return doc.tobytes()


def _statement_rows(page, top: float, rows: list[tuple[str, str, str]]) -> None:
    """Rows of a two-column statement from `top` down, a label alone where its figures are empty."""
    for k, (label, now, before) in enumerate(rows):
        y = top + 14 * k
        page.insert_text((72, y), label, fontsize=9, fontname="helv")
        if now:
            page.insert_text((340, y), now, fontsize=9, fontname="helv")
            page.insert_text((440, y), before, fontsize=9, fontname="helv")
