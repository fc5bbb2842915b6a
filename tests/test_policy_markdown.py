"""Policy sets as organisations write them (issue 19), on the real dev policy files of
../shared/corpus/policies-dev and on copies of them saved the ways other sets are: front matter closed by
`---` without an opening one, repeated auto-numbering, UTF-16 and BOM files, a table as a list.
Each test is one Markdown form or one way of telling a document's kind; skipped when the corpus is
absent. The files are made searchable only (no vectors): list, pointer and kind answers read chunks."""

from __future__ import annotations

import re

import pytest

from tests.conftest import ROOT, SAMPLES, settings_for
from vera_core.documents.kinds import read_kind
from vera_core.ingest.service import Ingestor, read_and_parse
from vera_core.query import QueryEngine
from vera_core.workspace import Workspace

POLICIES = ROOT.parent / "shared" / "corpus" / "policies-dev"
REAL = ["acme/access.md", "acme/ccm.md", "acme/sdlc.md", "acme/ir.md", "acme/corp-gov.md", "acme/vendor.md",
        "datica/03-policy_management_policy.md", "datica/07-systems_access_policy.md", "datica/12-breach_policy.md",
        "datica/20-approved_tools_policy.md"]

pytestmark = [pytest.mark.corpus,
              pytest.mark.skipif(not POLICIES.is_dir(), reason=f"policy dev corpus not found at {POLICIES}")]

FRONT_MATTER = """name: Security Incident Response Policy
acronym: SIRP
satisfies:
  TSC:
    - CC7.3
    - CC7.4
majorRevisions:
  - date: Mar 1 2024
    comment: Initial document
---
"""


def _sirp() -> str:
    """acme/ir.md as a SOC 2 template set writes it: front matter without its opening `---`, every item
    marked "a.", and sub-items marked "i." indented four spaces under a lead-in sentence."""
    text = (POLICIES / "acme" / "ir.md").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^\(([a-z])\) ", "a. ", text)
    text += ("\n\n# Notification\n\nThe following information must be included as part of the notification:\n\n"
             "    i. Description of the incident\n    i. Date and time the incident was detected\n"
             "    i. Systems and data affected\n    i. Name of the person who reported it\n")
    return FRONT_MATTER + text


CRYPTO = """# Cryptographic Controls

Production systems protect data with the controls below.

| System | Data at rest | Data in transit |
|---|---|---|
| Customer database | AES-256 volume encryption | TLS 1.2 |
| Object storage | Server-side encryption | TLS 1.2 |
| Backups | Encrypted snapshots | TLS 1.2 |
| Laptops | Full disk encryption | VPN |
"""


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> QueryEngine:
    folder = tmp_path_factory.mktemp("policies")
    files = [POLICIES / name for name in REAL]
    (folder / "sirp.md").write_text(_sirp(), encoding="utf-8")
    (folder / "approved_tools_utf16.md").write_bytes(
        (POLICIES / "datica" / "20-approved_tools_policy.md").read_text(encoding="utf-8")
        .replace("20.1 List of Approved Tools", "List of Approved Tools (Windows export)").encode("utf-16"))
    (folder / "vendor_bom.md").write_bytes(
        b"\xef\xbb\xbf" + (POLICIES / "acme" / "vendor.md").read_text(encoding="utf-8")
        .replace("Acme", "Globex").replace("\n", "\r\n").encode("utf-8"))
    (folder / "crypto.md").write_text(CRYPTO, encoding="utf-8")
    files += sorted(folder.glob("*.md")) + [SAMPLES / "Aurora_Annual_Report_2024.pdf"]
    settings = settings_for(tmp_path_factory.mktemp("policies-store"))
    ws = Workspace(settings, batch=True)
    ingestor = Ingestor(ws)
    for path in files:
        source, parsed = read_and_parse(path, settings)
        ingestor.make_searchable(source, parsed)
    return QueryEngine(ws, llm=None)


def listed(engine: QueryEngine, doc: str, question: str) -> list[str]:
    return [i.text for i in engine.answer(question, docs=[doc], mode="deterministic").items]


def doc(engine: QueryEngine, name: str):
    return next(d for d in engine.ws.catalog.documents() if d.name == name)


# -- document kinds ------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, kind, basis", [
    ("access.md", "policy", "headings"),  # titled "Access": its "Policy Statements" section says it
    ("07-systems_access_policy.md", "policy", "title"),
    ("sirp.md", "policy", "title"),  # the front matter's name, though its `---` has no opening one
    ("vendor_bom.md", "policy", "headings"),  # "... Agreement" in its text does not make it a contract
    ("corp-gov.md", "other", "uncertain"),
    ("Aurora_Annual_Report_2024.pdf", "filing", "title"),
])
def test_a_documents_kind_is_read_from_the_document(engine, name, kind, basis):
    d = doc(engine, name)
    assert (d.kind, d.kind_source) == (kind, basis)


def test_front_matter_without_its_opening_rule_is_read_and_kept_out_of_the_text(engine):
    d = doc(engine, "sirp.md")
    assert d.metadata["front_matter"]["acronym"] == "SIRP"
    assert d.metadata["front_matter"]["satisfies"] == {"TSC": ["CC7.3", "CC7.4"]}
    assert not any("majorRevisions" in c.text or "CC7.3" in c.text for c in engine.ws.doc_chunks(d.doc_id))


def test_a_document_of_uncertain_kind_is_searched_and_said_so_and_another_kind_is_left_out(engine):
    answer = engine.answer("Which policies address the Board of Directors?", mode="deterministic")
    statuses = {m.doc_name: (m.status, m.kind_basis) for m in answer.documents}
    assert statuses["corp-gov.md"] == ("matched", "uncertain")
    assert statuses["Aurora_Annual_Report_2024.pdf"][0] == "other_kind"
    assert "corp-gov.md" in answer.answer and "kind is uncertain" in answer.answer


def test_kinds_from_words_alone():
    assert read_kind("x.md", ["Master Services Agreement"]).kind == "contract"
    assert read_kind("x.md", ["Vendor Agreement Policy"]).kind == "policy"
    assert read_kind("x.md", [""], {"owner": "CISO", "effective_date": "2024-01-01"}).basis == "front matter"
    assert read_kind("x.md", ["Notes"], text="This Agreement is entered into as of May 1 by and between A and B").kind \
        == "contract"
    assert read_kind("x.md", ["Notes"], headings=["Purpose", "Scope", "Enforcement"]).kind == "policy"
    assert read_kind("x.md", ["Notes"], text="We met on Tuesday.").basis == "uncertain"


# -- Markdown as it is written ---------------------------------------------------------------------

def test_parenthesised_items_keep_their_wrapped_lines(engine):
    items = listed(engine, "ccm.md", "List all the requirements for production changes.")
    assert len(items) == 5
    assert items[0].endswith("must be invoked through approved change management process.")


def test_sub_items_indented_under_an_items_marker_are_its_sub_items(engine):
    """datica 3.2: "3. ... using the following process:" over "  1." ... "  5." (two spaces: CommonMark
    reads them as siblings numbered 4 to 8)."""
    items = listed(engine, "03-policy_management_policy.md",
                   "List the steps of the process for employees to request a policy change.")
    assert len(items) == 5 and items[0].startswith("The Datica employee initiates a policy change request")


def test_a_list_indented_four_spaces_under_a_list_item_is_a_list_not_code(engine):
    items = listed(engine, "sdlc.md", "List all the examples of security testing.")
    assert items == ["Linting with security rules", "Open source security analysis", "Static secure code analysis",
                     "Dynamic security analysis", "Penetration testing"]


def test_bullets_after_a_lead_in_with_wrapped_lines(engine):
    items = listed(engine, "ir.md", "List everything the incident response process addresses.")
    assert len(items) == 6 and items[-1].startswith("Facilitation of clear communication")
    assert items[-1].endswith("internal, as well as external, stakeholders")


def test_an_item_set_apart_from_its_siblings_names_the_list_under_it(engine):
    items = listed(engine, "ccm.md", "List the rules for approving a production change.")
    assert len(items) == 3 and items[1].startswith("Approvers must be someone other than the author")


def test_repeated_auto_numbering_reads_in_the_order_it_renders(engine):
    d = doc(engine, "sirp.md")
    text = "\n".join(c.text for c in engine.ws.doc_chunks(d.doc_id))
    assert "- b. All alerts must be reviewed" in text and "- d. Incident response team" in text
    assert "- iv. Name of the person who reported it" in text
    items = listed(engine, "sirp.md", "List all the information that must be included as part of the notification")
    assert items == ["Description of the incident", "Date and time the incident was detected",
                     "Systems and data affected", "Name of the person who reported it"]


def test_numbered_section_headings_are_found_by_their_words(engine):
    answer = engine.answer("Where can I find the rules for wireless access?", docs=["07-systems_access_policy.md"],
                           mode="deterministic")
    assert "7.9 Wireless Access Use" in answer.answer


def test_an_admonition_is_a_callout_not_markup(engine):
    """`!!! Note` and its indented body: the note's text is read (as a quote led by its kind), never its
    markup, and nothing of it is counted as a removed leftover."""
    d = doc(engine, "ir.md")
    assert "notes_removed" not in d.metadata
    chunks = engine.ws.doc_chunks(d.doc_id)
    assert any("HIPAA Collaborative of Wisconsin" in c.text for c in chunks)
    assert not any("!!!" in c.text for c in chunks)


def test_utf16_and_bom_files_are_read_not_refused(engine):
    assert listed(engine, "approved_tools_utf16.md", "List all the approved tools.") [:4] == [
        "GitLab. GitLab is an open source tool built on top of Git, the version control platform. GitLab is hosted "
        "and secured by Datica. It is utilized for storage of configuration scripts and other infrastructure "
        "automation tools, as well as for source and version control of application code used by Datica.",
        "Box. Box is used for storage of files and sharing of files with Partners and Customers.",
        "Google Apps. Google Apps is used for email and document collaboration.",
        "JIRA. JIRA is used for configuration management and to generate artifacts for compliance procedures."]
    vendor = doc(engine, "vendor_bom.md")
    assert engine.ws.doc_chunks(vendor.doc_id)[0].text.startswith("Third Party Security")


def test_a_table_is_a_list_source(engine):
    answer = engine.answer("List all the systems covered by the table", docs=["crypto.md"], mode="deterministic")
    assert [i.text for i in answer.items] == ["Customer database", "Object storage", "Backups", "Laptops"]
    quotes = {c.n: c.quote for c in answer.citations}
    assert all(quotes[i.citations[0]].startswith(f"| {i.text} |") for i in answer.items)


def test_policies_that_say_a_topic_in_the_groups_usual_words_are_found(tmp_path):
    """'Antivirus software' and 'software security fixes': a policy saying only 'malware detection' or
    'Software patches and updates will be applied' addresses them; one on neither is not matched."""
    ws = Workspace(settings_for(tmp_path / "store"))
    for name in ["acme/data-protection.md", "datica/08-auditing_policy.md", "acme/vendor.md"]:
        assert Ingestor(ws).ingest_file(POLICIES / name).status == "ingested"
    engine = QueryEngine(ws, llm=None)
    antivirus = engine.answer("Which policies address antivirus software?", mode="deterministic")
    assert "data-protection.md" in [d.doc_name for d in antivirus.documents if d.status == "matched"]
    fixes = engine.answer("Which policies address applying software security fixes?", mode="deterministic")
    matched = {d.doc_name: d.section for d in fixes.documents if d.status == "matched"}
    assert "08-auditing_policy.md" in matched and "vendor.md" not in matched
    assert any("Software patches and updates will be applied" in item.text for item in fixes.items)
