"""The sample Markdown policies: each document's content as a spec, rendered to Markdown with its ground truth."""

from __future__ import annotations

import re
import textwrap

NIST_URL = "https://pages.nist.gov/800-63-3/sp800-63b.html"


def H(level: int, title: str) -> tuple:
    return ("h", level, title)


def P(text: str) -> tuple:
    return ("p", text)


def LIST(items: list, lead_in: str | None = None, ordered: bool = False, indent: int = 0) -> tuple:
    """items: str, or (str, [child str]) for a nested list."""
    return ("list", {"lead_in": lead_in, "items": items, "ordered": ordered, "indent": indent})


def OUTLINE(items: list, lead_in: str | None = None, style: str = "a.") -> tuple:
    """A policy outline: items are str, or (str, [child str]); top-level items are marked with letters
    ("a." or "(a)" by `style`), their children with roman numerals ("i." or "(i)"), indented 4 spaces."""
    return ("outline", {"lead_in": lead_in, "items": items, "style": style})


def PIPE(header: list[str], rows: list[list[str]]) -> tuple:
    return ("pipe", header, rows)


def GRID(header: list[str], rows: list[list[str]], widths: list[int]) -> tuple:
    return ("grid", header, rows, widths)


def CODE(lang: str, text: str) -> tuple:
    return ("code", lang, text)


POLICIES: dict[str, dict] = {
    "information_security_policy.md": {
        "front_matter": {"title": "Information Security Policy", "owner": "Chief Information Security Officer",
                         "version": "3.1", "effective_date": "2024-03-01"},
        "blocks": [
            H(1, "Information Security Policy"),
            H(2, "Purpose"),
            P("This policy sets out the minimum controls that protect the confidentiality, integrity and "
              "availability of information held by Aurora Components Group. It applies to all employees, "
              "contractors and third parties who use Group systems or handle Group data."),
            H(2, "Password protection"),
            LIST(["Passwords must be at least 14 characters.",
                  "Passwords must not repeat any of the previous 12 passwords.",
                  "Passwords must be unique to Group systems and must never be shared or sent by email.",
                  "Multi-factor authentication is mandatory for remote access and for all privileged accounts.",
                  "A suspected password compromise must be reported to the IT Service Desk immediately."],
                 lead_in="All user and service accounts must follow these password rules:", indent=4),
            P(f"The rules follow [NIST SP 800-63B]({NIST_URL}). Periodic forced password changes are not required "
              "unless there is evidence that a password has been compromised."),
            H(3, "Exceptions"),
            P("Exceptions to the password rules may be granted by the Chief Information Security Officer for a "
              "maximum of 90 days. Each exception must be recorded in the risk register together with the "
              "compensating controls that apply while it is in force."),
            H(2, "Access control"),
            P("Access is granted on a least-privilege basis and reviewed by the system owner at the frequency "
              "shown below."),
            PIPE(["Role", "Access level", "Review frequency"],
                 [["Employee", "Standard business applications", "Annually"],
                  ["Line manager", "Team data and approval workflows", "Semi-annually"],
                  ["System administrator", "Privileged access to managed systems", "Quarterly"],
                  ["Contractor", "Time-limited project access", "Quarterly"],
                  ["Service account", "Non-interactive access to a single system", "Quarterly"]]),
            H(3, "Account reviews"),
            P("Administrators identify dormant accounts on Linux servers with the following script and lock "
              "them until the owner confirms they are still needed:"),
            CODE("bash",
                 "# Report accounts with no login in the last 90 days\n"
                 "lastlog --before 90 | awk 'NR > 1 {print $1}' > stale_accounts.txt\n"
                 "\n"
                 "# Lock each stale account and keep a record for the review ticket\n"
                 "while read -r account; do\n"
                 "    sudo usermod --lock \"$account\"\n"
                 "    echo \"$(date -I) locked $account\" >> access_review.log\n"
                 "done < stale_accounts.txt"),
            H(2, "Compliance"),
            P("Breaches of this policy may lead to disciplinary action. The Information Security team reports "
              "compliance with this policy to the Audit Committee twice a year."),
        ],
    },
    "expense_policy.md": {
        "front_matter": {"title": "Travel and Expense Policy", "owner": "Group Finance", "version": "2.4",
                         "effective_date": "2024-01-15"},
        "blocks": [
            H(1, "Travel and Expense Policy"),
            H(2, "Scope"),
            P("This policy applies to all employees of Aurora Components Group who incur business travel or "
              "other expenses on behalf of the Group. Local rules may be stricter but never more generous."),
            H(2, "Expense limits"),
            P("The following limits apply per person and include VAT. Amounts are in euro (EUR); expenses in "
              "other currencies are converted at the rate on the date of the card transaction."),
            GRID(["Expense category", "Limit (EUR)", "Conditions"],
                 [["Hotel accommodation", "180 per night",
                   "240 per night in London, Paris, Zurich and New York; breakfast included where available"],
                  ["Meals while travelling", "60 per day", "Itemised receipts required for any single meal "
                                                           "above EUR 25"],
                  ["Client entertainment", "90 per person", "Prior approval by a director; names of all "
                                                            "attendees recorded on the claim"],
                  ["Air travel", "Economy class", "Business class allowed for flights longer than six hours"],
                  ["Rail travel", "First class", "Only where the fare is no more than 30% above standard "
                                                 "class"],
                  ["Private car mileage", "0.30 per km", "Only when cheaper than a rental car or public "
                                                         "transport"]],
                 [24, 15, 40]),
            H(2, "Submitting claims"),
            LIST(["Submit the claim in the expense system within 30 days of the expense being incurred.",
                  "Attach an itemised receipt for every expense above EUR 25.",
                  "State the business purpose and, for entertainment, the names of all attendees.",
                  "Your line manager reviews and approves the claim within five working days.",
                  "Group Finance reimburses approved claims with the next monthly payroll."],
                 lead_in="To be reimbursed, follow these steps:", ordered=True),
            H(3, "Late or incomplete claims"),
            P("Claims submitted more than 90 days after the expense was incurred are reimbursed only with the "
              "approval of the local finance director. Incomplete claims are returned to the employee."),
            H(2, "Non-reimbursable expenses"),
            LIST(["Personal travel insurance, which is provided by the Group.",
                  "Fines for traffic or parking offences.",
                  "Upgrades to flights, trains or hotel rooms paid for privately or with loyalty points.",
                  "Alcohol, unless it is part of approved client entertainment."],
                 lead_in="The Group does not reimburse:"),
        ],
    },
    "data_retention_policy.md": {
        "front_matter": {"title": "Data Retention Policy", "owner": "Group Legal and Compliance",
                         "version": "1.2", "effective_date": "2024-06-30"},
        "blocks": [
            H(1, "Data Retention Policy"),
            H(2, "Purpose"),
            P("Aurora Components Group keeps records for as long as they are needed for business, legal and "
              "regulatory purposes and then disposes of them securely. This policy sets the minimum and maximum "
              "retention periods for the main record types."),
            H(2, "Retention schedule"),
            P("Retention periods run from the end of the financial year in which the record was created, unless "
              "stated otherwise."),
            PIPE(["Record type", "Retention period", "Basis"],
                 [["Accounting records and general ledger", "10 years", "Commercial and tax law"],
                  ["Customer and supplier contracts", "10 years after expiry", "Limitation periods"],
                  ["Payroll records", "7 years", "Tax and social security law"],
                  ["Employee personnel files", "6 years after employment ends", "Employment law"],
                  ["Applications from unsuccessful candidates", "6 months", "Data protection"],
                  ["Product quality and test records", "15 years", "Product liability"],
                  ["CCTV recordings", "30 days", "Data protection"]]),
            H(3, "Legal hold"),
            P("When litigation, an investigation or an audit is reasonably anticipated, Group Legal may suspend "
              "disposal of the relevant records. A legal hold overrides the retention schedule until Group Legal "
              "releases it in writing."),
            H(2, "Storage and disposal"),
            H(3, "Disposal methods"),
            LIST([("Paper records", ["Shred to DIN 66399 security level P-4 or higher.",
                                     "Use locked confidential waste bins until collection."]),
                  ("Electronic records", ["Delete from active systems and shared drives.",
                                          "Wipe or physically destroy storage media before disposal."]),
                  ("Backups", ["Let records expire with the 90-day backup rotation cycle.",
                               "Do not restore expired records except under a legal hold."])],
                 lead_in="Records that have reached the end of their retention period must be disposed of as "
                         "follows:"),
            H(3, "Responsibilities"),
            LIST([("Record owners", ["Classify records and apply the retention schedule."]),
                  ("IT Operations", ["Configure automatic deletion in business systems.",
                                     "Maintain disposal certificates from destruction vendors."]),
                  "Group Legal and Compliance reviews this policy every two years."],
                 lead_in="The following roles are responsible for applying this policy:"),
        ],
    },
    "data_protection_policy.md": {
        "front_matter": {"title": "Data Protection Policy", "owner": "Data Protection Officer", "version": "2.0",
                         "effective_date": "2024-05-15"},
        "topics": {"encryption_at_rest": {
            "section_path": ["Data Protection Policy", "Security of personal data"],
            "passage": "Personal data held in Group databases, file shares and backups must be encrypted at rest "
                       "with AES-256."}},
        "blocks": [
            H(1, "Data Protection Policy"),
            H(2, "Purpose"),
            P("Aurora Components Group processes personal data of employees, customers and suppliers. This policy "
              "sets out how the Group complies with the General Data Protection Regulation and national data "
              "protection law."),
            H(2, "Principles"),
            LIST(["Personal data is processed lawfully, fairly and transparently.",
                  "Personal data is collected for specified purposes and not used for other purposes.",
                  "Only the personal data needed for the purpose is collected.",
                  "Personal data is kept accurate and up to date.",
                  "Personal data is kept no longer than the Data Retention Policy allows."],
                 lead_in="Every business unit applies the following principles:"),
            H(2, "Security of personal data"),
            P("Personal data held in Group databases, file shares and backups must be encrypted at rest with "
              "AES-256. Encryption keys are held in the Group key management service, separately from the data "
              "they protect, and are rotated every twelve months."),
            P("Access to personal data is limited to employees who need it for their role and is logged."),
            H(2, "Data subject requests"),
            P("Requests from individuals to access, correct or erase their personal data are forwarded to the "
              "Data Protection Officer within two working days and answered within one month."),
            H(2, "International transfers"),
            P("Personal data is transferred outside the European Economic Area only under standard contractual "
              "clauses approved by the European Commission or another lawful transfer mechanism."),
        ],
    },
    "mobile_device_policy.md": {
        "front_matter": {"title": "Mobile Device Policy", "owner": "Head of IT Operations", "version": "1.4",
                         "effective_date": "2024-02-01"},
        "topics": {"encryption_at_rest": {
            "section_path": ["Mobile Device Policy", "Device requirements"],
            "passage": "Laptops must use full disk encryption (BitLocker on Windows, FileVault on macOS) before "
                       "they are issued."}},
        "blocks": [
            H(1, "Mobile Device Policy"),
            H(2, "Scope"),
            P("This policy covers laptops, tablets and smartphones that connect to Group systems, whether the "
              "Group or the employee owns them."),
            H(2, "Device requirements"),
            LIST(["Laptops must use full disk encryption (BitLocker on Windows, FileVault on macOS) before they "
                  "are issued.",
                  "Screens lock automatically after five minutes without use.",
                  "Operating system and security updates are installed within 14 days of release.",
                  "Smartphones are enrolled in the Group's mobile device management service."],
                 lead_in="Every device must meet these requirements:"),
            H(2, "Lost or stolen devices"),
            P("A lost or stolen device must be reported to the IT Service Desk within four hours. IT Operations "
              "wipes the device remotely once the report is confirmed."),
            H(2, "Personal devices"),
            P("Employees may read Group email on their own smartphones only through the approved mail app, which "
              "keeps Group data in a separate container that IT Operations can wipe."),
        ],
    },
    "acceptable_use_policy.md": {
        "front_matter": {"title": "Acceptable Use Policy", "owner": "Chief Information Security Officer",
                         "version": "4.0", "effective_date": "2024-04-01"},
        "topics": {"encryption_at_rest": {
            "section_path": ["Acceptable Use Policy", "User responsibilities"],
            "passage": "Switch on persistent data encryption for any USB stick or external drive that holds "
                       "Group information."}},
        "blocks": [
            H(1, "Acceptable Use Policy"),
            H(2, "Purpose"),
            P("This policy sets the rules for using the Group's computers, networks, accounts and removable "
              "media."),
            H(2, "User responsibilities"),
            OUTLINE([("Password protection",
                      ["Choose a passphrase of at least four random words.",
                       "Never write a password down or keep it in a browser.",
                       "Change a password at once when someone else may know it."]),
                     ("Removable media",
                      ["Use only USB sticks and external drives issued by IT Operations.",
                       "Switch on persistent data encryption for any USB stick or external drive that holds "
                       "Group information.",
                       "Hand media that is no longer needed to IT Operations for destruction."]),
                     ("Email and messaging",
                      ["Do not forward Group email to personal accounts.",
                       "Report phishing messages with the Report button."]),
                     ("Internet use",
                      ["Do not download software from unapproved sites."])],
                    lead_in="Every user must follow these rules:"),
            H(2, "Monitoring"),
            P("The Group may monitor the use of its systems within the limits of the law. Monitoring records are "
              "kept for 30 days."),
        ],
    },
    "remote_working_policy.md": {
        "front_matter": {"title": "Remote Working Policy", "owner": "Group Human Resources", "version": "1.1",
                         "effective_date": "2024-09-01"},
        "blocks": [
            H(1, "Remote Working Policy"),
            H(2, "Eligibility"),
            P("Employees whose role allows it may work from home for up to three days a week with the agreement "
              "of their line manager."),
            H(2, "Working securely from home"),
            LIST(["Connect to Group systems only through the Group VPN; all traffic between your device and Group "
                  "systems is then encrypted in transit.",
                  "Keep work files on Group file shares, not on personal cloud services.",
                  "Do not print confidential documents at home.",
                  "Lock your screen whenever you leave your device unattended."],
                 lead_in="When working remotely:"),
            H(2, "Equipment and expenses"),
            P("The Group provides a laptop, a monitor and a headset. Internet costs are covered by a monthly "
              "allowance of EUR 20 paid with the salary."),
        ],
    },
    "incident_response_policy.md": {
        "front_matter": {"title": "Incident Response Policy", "owner": "Chief Information Security Officer",
                         "version": "2.2", "effective_date": "2024-07-01"},
        "blocks": [
            H(1, "Incident Response Policy"),
            H(2, "Reporting an incident"),
            P("Report every suspected security incident to the Security Operations Centre within one hour of "
              "noticing it."),
            OUTLINE([("the date and time the incident was detected;", []),
                     ("the systems and data affected;",
                      ["the categories of personal data, if any;",
                       "the approximate number of records;"]),
                     ("the name and contact details of the person reporting;", []),
                     ("the actions already taken to contain the incident.", [])],
                    lead_in="The following information must be included in every incident notification:",
                    style="(a)"),
            H(2, "Severity levels"),
            PIPE(["Severity", "Example", "Response time"],
                 [["Critical", "Ransomware spreading on the network", "15 minutes"],
                  ["High", "Confirmed loss of personal data", "1 hour"],
                  ["Medium", "Malware on a single laptop", "4 hours"],
                  ["Low", "Phishing email reported, not opened", "1 working day"]]),
            H(2, "Closing an incident"),
            P("The incident manager closes an incident once the root cause is fixed and writes a short review "
              "within ten working days."),
        ],
    },
    "business_continuity_policy.md": {
        "front_matter": {"title": "Business Continuity Policy", "owner": "Chief Operating Officer",
                         "version": "1.0", "effective_date": "2024-10-01"},
        "blocks": [
            H(1, "Business Continuity Policy"),
            H(2, "Objectives"),
            P("The Group keeps its critical processes running, or restores them quickly, after a disruption such "
              "as a fire, a flood, a power failure or a cyber attack."),
            H(2, "Recovery targets"),
            PIPE(["Process", "Recovery time objective", "Recovery point objective"],
                 [["Order intake and invoicing", "8 hours", "1 hour"],
                  ["Production planning", "24 hours", "4 hours"],
                  ["Payroll", "3 days", "24 hours"]]),
            H(2, "Backups"),
            P("Business systems are backed up every night. Backups are copied to a second data centre at least "
              "200 km away and kept for 90 days; a restore is tested every quarter."),
            H(2, "Testing the plans"),
            P("Each site runs a continuity exercise once a year and reports the lessons learned to the Chief "
              "Operating Officer."),
        ],
    },
}


def render_grid(header: list[str], rows: list[list[str]], widths: list[int]) -> str:
    def sep(ch: str) -> str:
        return "+" + "+".join(ch * (w + 2) for w in widths) + "+"

    def row_lines(cells: list[str]) -> list[str]:
        wrapped = [textwrap.wrap(c, w) or [""] for c, w in zip(cells, widths)]
        height = max(len(x) for x in wrapped)
        out = []
        for i in range(height):
            parts = [(x[i] if i < len(x) else "").ljust(w) for x, w in zip(wrapped, widths)]
            out.append("| " + " | ".join(parts) + " |")
        return out

    lines = [sep("-")] + row_lines(header) + [sep("=")]
    for row in rows:
        lines += row_lines(row) + [sep("-")]
    return "\n".join(lines)


def render_pipe(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(x) for x in col) for col in zip(header, *rows)]
    line = lambda cells: "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"  # noqa: E731
    return "\n".join([line(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
                     + [line(r_) for r_ in rows])


ROMAN = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x"]


def _outline_marker(label: str, style: str) -> str:
    return f"({label})" if style.startswith("(") else f"{label}."


def build_markdown(name: str, spec: dict) -> tuple[str, dict]:
    fm = spec["front_matter"]
    parts = ["---\n" + "".join(f'{k}: "{v}"\n' for k, v in fm.items()) + "---"]
    path: list[tuple[int, str]] = []
    gt = {"format": "markdown", "front_matter": dict(fm), "headings": [], "tables": [], "code_blocks": [],
          "lists": [], "outlines": [], "links": [], "topics": spec.get("topics", {})}

    def section_path() -> list[str]:
        return [t for _, t in path]

    for block in spec["blocks"]:
        kind = block[0]
        if kind == "h":
            _, level, title = block
            path = [(lv, t) for lv, t in path if lv < level] + [(level, title)]
            parts.append("#" * level + " " + title)
            gt["headings"].append({"title": title, "level": level, "path": section_path()})
        elif kind == "p":
            parts.append("\n".join(textwrap.wrap(block[1], 100, break_long_words=False, break_on_hyphens=False)))
            gt["links"] += re.findall(r"\]\((https?://[^)\s]+)\)", block[1])
        elif kind == "list":
            spec_l = block[1]
            pad = " " * spec_l["indent"]
            lines = []
            texts, nested = [], []
            for i, item in enumerate(spec_l["items"], 1):
                text, children = (item, []) if isinstance(item, str) else item
                marker = f"{i}." if spec_l["ordered"] else "-"
                lines.append(f"{pad}{marker} {text}")
                lines += [f"{pad}    - {c}" for c in children]
                texts.append(text)
                if children:
                    nested.append({"parent": text, "items": list(children)})
            if spec_l["lead_in"]:
                parts.append(spec_l["lead_in"])
            parts.append("\n".join(lines))
            rec = {"section_path": section_path(), "lead_in": spec_l["lead_in"], "items": texts,
                   "ordered": spec_l["ordered"], "marker_indent": spec_l["indent"]}
            if nested:
                rec["nested"] = nested
            gt["lists"].append(rec)
        elif kind == "outline":
            spec_o = block[1]
            lines, items = [], []
            for i, item in enumerate(spec_o["items"]):
                text, children = (item, []) if isinstance(item, str) else item
                marker = _outline_marker(chr(ord("a") + i), spec_o["style"])
                lines.append(f"{marker} {text}")
                kids = [{"marker": _outline_marker(ROMAN[j], spec_o["style"]), "text": c}
                        for j, c in enumerate(children)]
                lines += [f"    {k['marker']} {k['text']}" for k in kids]
                items.append({"marker": marker, "text": text, "children": kids})
            if spec_o["lead_in"]:
                parts.append(spec_o["lead_in"])
            parts.append("\n".join(lines))
            gt["outlines"].append({"section_path": section_path(), "lead_in": spec_o["lead_in"], "items": items})
        elif kind == "pipe":
            _, header, rows = block
            parts.append(render_pipe(header, rows))
            gt["tables"].append({"kind": "pipe", "header": header, "rows": rows, "section_path": section_path()})
        elif kind == "grid":
            _, header, rows, widths = block
            parts.append(render_grid(header, rows, widths))
            gt["tables"].append({"kind": "grid", "header": header, "rows": rows, "section_path": section_path()})
        elif kind == "code":
            _, lang, text = block
            parts.append(f"```{lang}\n{text}\n```")
            gt["code_blocks"].append({"language": lang, "section_path": section_path(), "text": text})
        else:  # pragma: no cover
            raise ValueError(kind)
    return "\n\n".join(parts) + "\n", gt
