"""Writes data/policies-dev/questions.jsonl: the policy dev set of issue 19, over the two real policy
sets in ../shared/corpus/policies-dev/ (acme: 25 files, datica: 19 files) plus one document of another
kind (the sample annual report) in the same store.

Every question comes from a fixed template (see data/policies-dev/README.md), applied to what the
files print, not chosen by what VERA answers. The golds were read from the files by two readers
(documents of "which policies" questions: independently, then reconciled; list items: copied from the
file). This script refuses to write when a gold does not stand in its file: every required item must
occur in its document (compared without case, punctuation or line breaks), every named document must
exist.

    python scripts/policies_dev_questions.py [--corpus ../shared/corpus/policies-dev]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "data" / "policies-dev" / "questions.jsonl"
OTHER_KIND = ["Aurora_Annual_Report_2024"]
"""Documents of another kind in the store: a "which policies" answer must never cite them."""

# -- which policies address X (template docs:which; docs:which-synonym when worded in words the
#    policies do not use). required: the documents whose own statements are about the topic; accept:
#    documents that touch it in passing (citing them is no error, missing them no miss).
WHICH = [
    ("docs-encryption-at-rest", "docs:which", "Which policies address encryption of data at rest?",
     ["mdm", "data-protection", "access", "06-data_management_policy", "07-systems_access_policy",
      "09-configuration_management_policy", "14-disposable_media_policy", "17-data_integrity_policy",
      "08-auditing_policy"],
     []),
    ("docs-mfa", "docs:which", "Which policies require multi-factor authentication?",
     ["access", "07-systems_access_policy", "17-data_integrity_policy"], []),
    ("docs-passwords", "docs:which", "Which policies set password requirements?",
     ["access", "07-systems_access_policy"],
     ["09-configuration_management_policy", "05-roles_policy", "11-incident_response_policy"]),
    ("docs-backups", "docs:which", "Which policies address data backups?",
     ["data-mgmt", "bcdr", "06-data_management_policy", "13-disaster_recovery_policy", "03-policy_management_policy"],
     ["08-auditing_policy", "11-incident_response_policy", "05-roles_policy"]),
    ("docs-training", "docs:which", "Which policies address security awareness training for the workforce?",
     ["hr", "rar", "ir", "05-roles_policy", "19-employees_policy", "08-auditing_policy", "12-breach_policy",
      "11-incident_response_policy"],
     ["09-configuration_management_policy", "13-disaster_recovery_policy", "06-data_management_policy"]),
    ("docs-background-checks", "docs:which", "Which policies address background checks on new hires?",
     ["hr"], []),
    ("docs-audit-logging", "docs:which", "Which policies address audit logging?",
     ["system-audit", "data-protection", "08-auditing_policy", "17-data_integrity_policy",
      "09-configuration_management_policy"],
     ["access", "data-mgmt", "15-ids_policy", "05-roles_policy", "13-disaster_recovery_policy",
      "21-3rd_party_policy", "16-vulnerability_scanning_policy"]),
    ("docs-physical-access", "docs:which", "Which policies address physical access to facilities?",
     ["facility", "10-facility_access_policy"], []),
    ("docs-media-disposal", "docs:which", "Which policies address the disposal of storage media?",
     ["mdm", "14-disposable_media_policy", "10-facility_access_policy"], ["13-disaster_recovery_policy"]),
    ("docs-vulnerability-scanning", "docs:which", "Which policies address vulnerability scanning?",
     ["vuln-mgmt", "data-protection", "16-vulnerability_scanning_policy", "17-data_integrity_policy",
      "08-auditing_policy", "09-configuration_management_policy"],
     ["sdlc", "system-audit", "15-ids_policy"]),
    ("docs-risk-assessment", "docs:which", "Which policies address risk assessments?",
     ["risk-mgmt", "sdlc", "04-risk_management_policy", "12-breach_policy", "16-vulnerability_scanning_policy",
      "21-3rd_party_policy"],
     ["vendor", "09-configuration_management_policy", "11-incident_response_policy"]),
    ("docs-breach-notification", "docs:which", "Which policies address breach notification?",
     ["breach", "12-breach_policy"],
     ["compliance-audit", "ir", "11-incident_response_policy", "19-employees_policy"]),
    ("docs-syn-two-step", "docs:which-synonym", "Which policies address two-step login verification?",
     ["access", "07-systems_access_policy", "17-data_integrity_policy"], []),
    ("docs-syn-security-fixes", "docs:which-synonym", "Which policies address applying software security fixes?",
     ["09-configuration_management_policy", "17-data_integrity_policy", "08-auditing_policy",
      "13-disaster_recovery_policy"],
     ["sdlc", "05-roles_policy"]),
    ("docs-syn-supplier-risk", "docs:which-synonym", "Which policies address supplier risk?",
     ["vendor", "21-3rd_party_policy"],
     ["08-auditing_policy", "14-disposable_media_policy", "20-approved_tools_policy", "13-disaster_recovery_policy",
      "facility", "10-facility_access_policy"]),
    ("docs-syn-antivirus", "docs:which-synonym", "Which policies address antivirus software?",
     ["data-protection", "08-auditing_policy", "09-configuration_management_policy", "17-data_integrity_policy",
      "19-employees_policy"],
     ["11-incident_response_policy", "15-ids_policy", "05-roles_policy"]),
    ("docs-syn-leavers", "docs:which-synonym",
     "Which policies address removing access when someone leaves the company?",
     ["access", "hr", "07-systems_access_policy", "10-facility_access_policy"],
     ["08-auditing_policy", "05-roles_policy"]),
]

# -- list all ... (one document; template by how the list is written) -------------------------------
LISTS = [
    # a lead-in sentence, then "*" bullets with wrapped lines
    ("list-ir-process", "list:lead-in", "ir", "List everything the incident response process addresses.",
     ["Continuous monitoring of threats through intrusion detection systems",
      "Establishment of an information security incident response team",
      "Establishment of procedures to respond to media inquiries",
      "Establishment of clear procedures for identifying, responding, assessing",
      "Workforce training, education, and awareness on information security incidents",
      "Facilitation of clear communication of information security incidents"]),
    ("list-audit-guard-against", "list:lead-in", "system-audit",
     "List everything Acme audits access and activity to detect, report, and guard against.",
     ["Network vulnerabilities and intrusions", "Breaches in confidentiality and security of sensitive information",
      "Performance problems and flaws in applications", "Improper alteration or destruction of sensitive information",
      "Out of date software and/or software known to have vulnerabilities"]),
    ("list-model-objectives", "list:lead-in", "model",
     "List all the objectives and best practices the security program should be designed with.",
     ["data-centric, cloud-first", "assume compromise therefore never trust, always verify",
      "apply controls using least-privilege and defense-in-depth principles", "avoid single point of compromise",
      "automate whenever possible", "prompt self management and reward good behaviors"]),
    ("list-workforce-required", "list:lead-in", "rar", "List everything all workforce members are required to do.",
     ["Complete all required security trainings", "Complete annual HIPAA awareness training",
      "Follow all security requirements set forth in Acme security",
      "See something, say something"]),
    ("list-compliance-frameworks", "list:lead-in", "compliance-audit",
     "List all the laws, standards and frameworks Acme operations must comply with.",
     ["HIPAA/HITECH", "HITRUST", "GDPR", "NIST", "PCI"]),
    ("list-policy-standards", "list:lead-in", "policy-mgmt",
     "List all the compliance requirements Acme policies must be developed to meet.",
     ["HIPAA", "HITRUST", "GDPR", "NIST", "SOC 2"]),
    # "(a)" paragraphs under a heading
    ("list-access-control", "list:outline", "access", "List all the requirements of the access control policy.",
     ["Access to all computing resources, including servers, end-user computing",
      "Interactive user access must be associated to an account or login unique",
      "All credentials, including user passwords, service accounts, and access",
      "Use strong password and multi-factor authentication (MFA) whenever possible",
      "MFA is required to access any critical system or resource",
      "Unused accounts, passwords, access keys must be removed",
      "A unique access key or service account must be used",
      "Authenticated sessions must time out after a defined period of inactivity"]),
    ("list-change-management", "list:outline", "ccm", "List all the requirements for production changes.",
     ["All production changes, including but not limited to software deployment",
      "Each production change must maintain complete traceability",
      "Each production change must be fully tested prior to implementation",
      "Each production change must include a rollback plan",
      "Each production change must include proper approval"]),
    ("list-hr-security", "list:outline", "hr", "List all the HR and personnel security requirements.",
     ["Background verification checks on all candidates for employees",
      "Employees, contractors and third party users must agree and sign the terms",
      "Employees will go through an onboarding process",
      "Employee offboarding will include reiterating any duties",
      "ensure no sensitive data is transmitted via digital communications",
      "will maintain a list of prohibited activities",
      "A fair disciplinary process will be utilized"]),
    ("list-sdlc-requirements", "list:outline", "sdlc", "List all the secure software development requirements.",
     ["software engineering and product development is required to follow",
      "Quality assurance activities must be performed",
      "Risk assessment activities (i.e. threat modeling) must be performed",
      "Security requirements must be defined, tracked, and implemented",
      "Security analysis must be performed for any open source software",
      "Static application security testing (SAST) must be performed",
      "Dynamic application security testing (DAST) must be performed",
      "All critical or high severity security findings must be remediated prior",
      "All critical or high severity vulnerabilities discovered post release",
      "Any exception to the remediation of a finding must be documented"]),
    # sub-items indented under an item or a lead-in (two or four spaces)
    ("list-change-approval", "list:nested", "ccm", "List the rules for approving a production change.",
     ["The approvers are determined based on the type of change",
      "Approvers must be someone other than the author/executor of the change",
      "Approvals may be automatically granted if certain criteria is met"]),
    ("list-security-testing", "list:nested", "sdlc", "List all the examples of security testing.",
     ["Linting with security rules", "Open source security analysis", "Static secure code analysis",
      "Dynamic security analysis", "Penetration testing"]),
    ("list-policy-exceptions", "list:nested", "policy-mgmt", "List the requirements for policy exceptions.",
     ["All exceptions must be fully documented with business purpose",
      "All policy exceptions must be approved by both Acme Security Officer and COO",
      "An exception must have an expiration date no longer than one year"]),
    ("list-password-config", "list:nested", "07-systems_access_policy",
     "List all the password configuration requirements on production systems.",
     ["a minimum length of 8 characters",
      "a mix of upper case characters, lower case characters, and numbers or special characters",
      "a 90-day password expiration, or 60-day password expiration for administrative accounts",
      "prevention of password reuse using a history of the last 6 passwords",
      "modifying at least 4 characters when changing passwords", "account lockout after 5 invalid attempts"]),
    ("list-breach-notice-content", "list:nested", "12-breach_policy",
     "List all the information the breach notice must contain.",
     ["A brief description of what happened, including the date of the breach",
      "A description of the types of unsecured protected health information that were involved",
      "Any steps the Customer should take to protect Customer data",
      "A brief description of what Datica is doing to investigate the breach",
      "Contact procedures for individuals to ask questions"]),
    ("list-breach-log", "list:nested", "12-breach_policy",
     "List all the information that should be logged for each breach.",
     ["the number of records and Customers affected, if known",
      "A description of the types of unsecured protected health information that were involved in the breach (such as full name",
      "A description of the action taken with regard to notification of patients",
      "Resolution steps taken to mitigate the breach and prevent future occurrences"]),
    ("list-training-schedule", "list:nested", "05-roles_policy",
     "List when the Privacy Officer trains workforce members.",
     ["New workforce members within their first month of employment", "Existing workforce members annually",
      "whose functions are affected by a material change in the policies and procedures",
      "Existing workforce members as needed due to changes in security and risk posture"]),
    ("list-linux-baseline", "list:nested", "09-configuration_management_policy",
     "List everything the baseline Salt states for Linux systems cover.",
     ["Ensuring that the machine is up-to-date with security patches", "Stopping and disabling any unnecessary OS services",
      "Installing and configuring the OSSEC IDS agent", "Configuring 15-minute session inactivity timeouts",
      "Installing and configuring the ClamAV virus scanner", "Installing and configuring the NTP daemon",
      "Configuring LUKS volumes", "Configuring authentication to the centralized LDAP servers",
      "Configuring audit logging as described in the"]),
    ("list-new-system-checks", "list:nested", "09-configuration_management_policy",
     "List the items the security team verifies on a newly provisioned system.",
     ["Removal of default users used during provisioning", "Network configuration for system",
      "Data volume encryption settings", "Intrusion detection and virus scanning software installed",
      "All items listed below in the operating system-specific subsections"]),
    ("list-incident-reporting", "list:nested", "11-incident_response_policy",
     "List all the ways Datica members can report suspected and known incidents.",
     ["Direct report to management, the Security Officer, Privacy Officer, or other", "Email", "Phone call",
      "Online incident response form", "Secure Chat", "Anonymously through workforce member's desired channels"]),
    ("list-policy-change-steps", "list:nested", "03-policy_management_policy",
     "List the steps of the process for employees to request a policy change.",
     ["The Datica employee initiates a policy change request by creating an Issue",
      "The Security Officer or the Privacy Officer is assigned to review the policy change request",
      "Once the review is completed, the Security Officer or Privacy Officer approves or rejects the Issue",
      "If the review is approved, the Security Officer or Privacy Officer then marks the Issue as Done",
      "If the policy change requires technical modifications to production systems"]),
    ("list-retention-steps", "list:nested", "18-data_retention_policy",
     "List the steps taken once a Customer ceases to be a Customer.",
     ["Customer is sent a notice via email of change of standing",
      "If no response to notice in #1 above within 7 days",
      "If Customer downloads data or does not respond to notices from Datica within 30 days"]),
    ("list-implementation-plan", "list:nested", "04-risk_management_policy",
     "List all the information the safeguard implementation plan should contain.",
     ["Each risk or vulnerability/threat pair and risk level", "Prioritized actions",
      "The recommended feasible control(s) for each identified risk",
      "Required resources for implementation of selected controls",
      "Team member responsible for implementation of each control", "Start date for implementation",
      "Target date for completion of implementation", "Maintenance requirements"]),
    ("list-contingency-phases", "list:nested", "13-disaster_recovery_policy",
     "List the phases of the contingency plan.",
     ["Notification/Activation phase", "Recovery phase", "Reconstitution phase"]),
    ("list-contingency-compliance", "list:lead-in", "13-disaster_recovery_policy",
     "List all the federal and departmental policies the Datica Contingency Plan complies with.",
     ["The Computer Security Act of 1987", "OMB Circular A-130, Management of Federal Information Resources",
      "Federal Preparedness Circular (FPC) 65", "Presidential Decision Directive (PDD) 67",
      "PDD 63, Critical Infrastructure Protection", "Federal Emergency Management Agency (FEMA)",
      "Defense Authorization Act (Public Law 106-398)"]),
    ("list-external-audit-firm", "list:nested", "08-auditing_policy",
     "List everything Datica shall do prior to contracting with an external audit firm.",
     ["Outline the audit responsibility, authority, and accountability",
      "Choose an audit firm that is independent of other organizational operations",
      "Ensure technical competence of the audit firm staff",
      "Require the audit firm's adherence to applicable codes of professional ethics",
      "Obtain a signed HIPAA business associate agreement",
      "Assign organizational responsibility for supervision of the external audit firm"]),
    # a list that is all a section holds, under its heading
    ("list-approved-tools", "list:heading", "20-approved_tools_policy", "List all the approved tools.",
     ["GitLab", "Box", "Google Apps", "JIRA"]),
    ("list-trigger-events", "list:heading", "08-auditing_policy", "List all the potential trigger events.",
     ["High risk or problem prone incidents or events", "Business associate, customer, or partner complaints",
      "Known security vulnerabilities", "Atypical patterns of activity", "Failed authentication attempts",
      "Remote access use and activity", "Activity post termination", "Random audits"]),
    ("list-technical-testing", "list:heading", "13-disaster_recovery_policy",
     "List what the technical test of the contingency plan includes.",
     ["Process from backup system at the alternate site", "Restore system using backups",
      "Switch compute and storage resources to alternate processing site"]),
]

# -- where can I find ... (template pointer): the document and the section heading ---------------------
POINTERS = [
    ("where-password-management", "Where can I find the password management rules?",
     ["07-systems_access_policy"], ["Password Management"]),
    ("where-line-of-succession", "Where can I find the line of succession for disaster recovery?",
     ["13-disaster_recovery_policy"], ["Line of Succession"]),
    ("where-breach-letter", "Where can I find the sample letter to customers in case of a breach?",
     ["12-breach_policy"], ["Sample Letter to Customers in Case of Breach"]),
    ("where-shared-secrets", "Where can I find the rules for managing shared secrets?",
     ["access"], ["Shared Secrets Management"]),
    ("where-sirt", "Where can I find the description of the Security Incident Response Team?",
     ["11-incident_response_policy"], ["Security Incident Response Team"]),
    ("where-wireless", "Where can I find the rules for wireless access?",
     ["07-systems_access_policy"], ["Wireless Access Use"]),
    ("where-tabletop", "Where can I find how tabletop testing is conducted?",
     ["13-disaster_recovery_policy"], ["Tabletop Testing"]),
    ("where-patch-procedures", "Where can I find the patch management procedures?",
     ["09-configuration_management_policy"], ["Patch Management Procedures"]),
    ("where-audit-retention", "Where can I find how long audit data is retained?",
     ["08-auditing_policy"], ["Retention of Audit Data"]),
]


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def build(corpus: Path) -> list[dict]:
    files = {p.stem: p for p in corpus.rglob("*.md")}
    texts = {stem: _norm(p.read_text(encoding="utf-8")) for stem, p in files.items()}
    problems: list[str] = []

    def known(names: list[str], qid: str) -> list[str]:
        for name in names:
            if name not in files:
                problems.append(f"{qid}: no document {name}")
        return names

    questions: list[dict] = []
    for qid, template, question, required, accept in WHICH:
        questions.append({"id": qid, "template": template, "question": question,
                          "required_docs": known(required, qid), "accept_docs": known(accept, qid),
                          "other_docs": OTHER_KIND})
    for qid, template, doc, question, items in LISTS:
        known([doc], qid)
        for item in items:
            if doc in texts and _norm(item) not in texts[doc]:
                problems.append(f"{qid}: {item!r} is not in {doc}")
        questions.append({"id": qid, "template": template, "doc_name": doc, "question": question,
                          "required_items": items})
    for qid, question, docs, sections in POINTERS:
        for doc in known(docs, qid):
            for section in sections:
                if doc in files and not re.search(rf"^#+ .*{re.escape(section)}", files[doc].read_text(encoding="utf-8"),
                                                  re.I | re.M):
                    problems.append(f"{qid}: no heading {section!r} in {doc}")
        questions.append({"id": qid, "template": "pointer", "question": question, "required_docs": docs,
                          "required_items": sections, "other_docs": OTHER_KIND})
    if problems:
        raise SystemExit("golds that do not stand in their files:\n" + "\n".join(problems))
    return questions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus" / "policies-dev")
    args = parser.parse_args()
    questions = build(args.corpus)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("".join(json.dumps(q, ensure_ascii=False) + "\n" for q in questions), encoding="utf-8")
    counts: dict[str, int] = {}
    for q in questions:
        counts[q["template"]] = counts.get(q["template"], 0) + 1
    print(f"wrote {len(questions)} questions to {OUT.relative_to(ROOT)}: "
          + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
