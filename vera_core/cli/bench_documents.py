"""Extra policies for `vera bench query`: with the samples and the dev filings they make a store of 20+
documents, so document-coverage questions ("which policies address ...") are timed over many
documents of several kinds. Written on the fly into the bench's own store, never into data/samples."""

from __future__ import annotations

from pathlib import Path

__all__ = ["COVERAGE_QUESTIONS", "write_extra_policies"]

COVERAGE_QUESTIONS = [
    "Which policies address encryption of data at rest? Provide the specific policy sections.",
    "Which policies require multi-factor authentication?",
    "Which policies address working from home?",
    "Which policies mention visitors?",
    "Which policies address gifts and hospitality?",
    "Which documents mention restructuring?",
    "Which filings discuss cybersecurity risks?",
    "Across all documents, what is said about backups?",
]

_POLICIES: dict[str, list[tuple[str, str]]] = {
    "Clean Desk Policy": [
        ("Purpose", "Confidential papers and devices are not left where others can see or take them."),
        ("Rules", "Lock confidential documents in a drawer at the end of each day. Remove printouts from printers "
                  "at once. Lock your screen when you leave your desk."),
        ("Visitors", "Visitors are escorted at all times and never left alone in offices where documents are out."),
    ],
    "Social Media Policy": [
        ("Scope", "This policy applies to posts by employees about the Group on any public platform."),
        ("Personal accounts", "Make clear that views are your own. Do not share customer names, prices or "
                              "unpublished results."),
        ("Official accounts", "Only Corporate Communications may post on the Group's official accounts."),
    ],
    "Procurement Policy": [
        ("Thresholds", "Purchases above EUR 10,000 need three written quotes. Purchases above EUR 100,000 are "
                       "tendered by Group Procurement."),
        ("Supplier selection", "Suppliers are selected on price, quality, delivery and their own security "
                               "controls, and are screened against sanctions lists."),
        ("Approvals", "Purchase orders are approved in the ERP system before any commitment is made."),
    ],
    "Anti-Bribery Policy": [
        ("Principles", "The Group does not offer, pay or accept bribes or facilitation payments, directly or "
                       "through third parties."),
        ("Gifts and hospitality", "Gifts and hospitality above EUR 100 in value are recorded in the gifts register "
                                  "and approved by the compliance officer."),
        ("Reporting concerns", "Concerns are reported to the compliance officer or the whistleblowing hotline."),
    ],
    "Physical Security Policy": [
        ("Sites", "Every site has controlled entrances; badges are worn visibly at all times."),
        ("Visitors", "Visitors sign in at reception, wear a visitor badge and are escorted by their host."),
        ("Server rooms", "Server rooms are locked; access is logged and reviewed every quarter."),
    ],
    "Change Management Policy": [
        ("Scope", "Changes to production systems are planned, tested and approved before they are made."),
        ("Approval", "The change advisory board approves every normal change; emergency changes are reviewed "
                     "within two working days."),
        ("Records", "Every change is recorded with its risk assessment, test evidence and back-out plan."),
    ],
}


def write_extra_policies(folder: Path) -> list[Path]:
    """Write the extra policies as Markdown files into `folder`; returns their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for title, sections in _POLICIES.items():
        body = [f"# {title}"] + [f"## {heading}\n\n{text}" for heading, text in sections]
        path = folder / (title.lower().replace(" ", "_").replace("-", "_") + ".md")
        path.write_text("\n\n".join(body) + "\n", encoding="utf-8")
        paths.append(path)
    return paths
