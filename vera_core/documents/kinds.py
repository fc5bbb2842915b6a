"""What kind of document each one is (a filing, a policy, a contract, or other), read from the document
itself, and which kind a question asks about ("which policies address ..." searches the policies and
leaves a 10-K in the same store out).

A document's kind is read, in this order, from:
1. its title (front matter `title`/`name`, the PDF's title, its first heading): "... Policy", "Form
   10-K", "Master Services Agreement";
2. its front matter's keys: policy-management keys (`satisfies`, `majorRevisions`, `acronym`, `owner`,
   `effective_date` ...) mark a policy;
3. its opening: an SEC cover page, a contract's preamble ("entered into ... by and between");
4. its headings: policy sections ("Policy Statements", "Purpose", "Scope", "Applicable Standards",
   "Enforcement" ...), contract sections ("Governing Law", "Indemnification", "Term and Termination"
   ...), filing sections ("Risk Factors", "Item 7", "Consolidated Balance Sheets" ...);
5. its vocabulary: how often it speaks as a policy ("policy requires", "workforce members", "must"),
   a contract ("the parties", "hereinafter", "in witness whereof") or a filing ("fiscal year", "net
   income", "shareholders");
6. its file name, last.
The first that decides gives the kind and its basis (`KindReading.basis`); when none decides, or two
kinds are about as likely, the kind is `other` with basis `uncertain`, and a question about one kind
still searches it (it is never silently left out). A kind the user sets (on upload, with `vera ingest
--kind`, on the Documents page or with `vera kind`) has basis `user` and wins over all of these."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from vera_core.records import ParsedDocument
    from vera_core.records import ChunkRecord, DocumentRecord

__all__ = ["BASES", "KIND_CHUNKS", "KINDS", "KIND_NOUNS", "DocKind", "KindReading", "kind_asked", "kind_of", "parsed_kind",
           "read_kind", "searched_for", "stored_kind"]

DocKind = Literal["filing", "policy", "contract", "other"]
KINDS: tuple[DocKind, ...] = ("filing", "policy", "contract", "other")
BASES = ("user", "title", "front matter", "opening", "headings", "vocabulary", "file name", "uncertain")
"""How a kind was decided, strongest first."""

_FILING = re.compile(
    r"\bform\s+(?:10-?k|10-?q|8-?k|20-?f|6-?k|40-?f|s-1)\b|\b(?:10-?k|10-?q|8-?k|20-?f)\b"
    r"|\bsecurities\s+and\s+exchange\s+commission\b|\bannual\s+report\b|\bquarterly\s+report\b"
    r"|\binterim\s+report\b|\bearnings\s+(?:release|report)\b|\bproxy\s+statement\b|\bprospectus\b"
    r"|\breports?\s+(?:first|second|third|fourth|full)[- ](?:quarter|year)\b|\bresults\s+for\s+the\s+(?:quarter|year)\b",
    re.I)
_CONTRACT = re.compile(
    r"\bagreement\b|\bcontract\b|\blease\b|\bterms\s+(?:and\s+conditions|of\s+(?:service|business))\b"
    r"|\bstatement\s+of\s+work\b|\bNDA\b|\bmemorandum\s+of\s+understanding\b"
    r"|\bby\s+and\s+between\b|\bentered\s+into\s+(?:as\s+of|on|by)\b", re.I)
_POLICY = re.compile(
    r"\bpolic(?:y|ies)\b|\bprocedures?\b|\bstandards?\b|\bguidelines?\b|\bcode\s+of\s+(?:conduct|ethics|practice)\b"
    r"|\bcharter\b|\bhandbook\b|\bplaybook\b|\bprotocol\b|\bcontingency\s+plan\b|\bresponse\s+plan\b", re.I)
_POLICY_TITLE_END = re.compile(
    r"\b(?:polic(?:y|ies)|procedures?|standards?|guidelines?|handbook|charter|playbook|plan|program(?:me)?)\s*$", re.I)
"""A title that ends so names a policy whatever else it says ("Vendor Agreement Policy")."""
_BY_TITLE: tuple[tuple[DocKind, re.Pattern[str]], ...] = (("filing", _FILING), ("contract", _CONTRACT),
                                                          ("policy", _POLICY))

_OPENING: tuple[tuple[DocKind, re.Pattern[str]], ...] = (
    ("filing", re.compile(r"\bsecurities\s+and\s+exchange\s+commission\b|\bform\s+(?:10-?k|10-?q|8-?k|20-?f|6-?k|40-?f)\b",
                          re.I)),
    ("contract", re.compile(r"\bby\s+and\s+between\b|\bentered\s+into\s+(?:as\s+of|on|by)\b|\bin\s+witness\s+whereof\b"
                            r"|\bhereinafter\s+(?:referred\s+to|called)\b", re.I)),
)
"""Phrases only a filing's cover page or a contract's preamble opens with (not "agreement" alone:
a policy speaks of business associate agreements)."""
OPENING_CHARS = 2000

_POLICY_KEYS = {"satisfies", "majorrevisions", "acronym", "owner", "policy_owner", "approver", "approved_by",
                "approval_date", "effective_date", "effective", "review_date", "next_review", "last_reviewed",
                "classification", "policy_id", "policy_number", "revision_history", "revisions", "controls"}
"""Front-matter keys of policy-management systems (SOC 2 and ISO template sets, GRC exports)."""

_HEADINGS: dict[DocKind, re.Pattern[str]] = {
    "policy": re.compile(
        r"^(?:[\d.]+\s+)?(?:policy(?:\s+statements?)?|purpose(?:\s+and\s+scope)?|scope|objectives?|applicability"
        r"|roles?(?:,)?\s+(?:and\s+)?responsibilities|responsibilities|applicable\s+standards.*|enforcement"
        r"|exceptions?|policy\s+exceptions|revision\s+history|version\s+history|definitions|procedures?"
        r"|violations?|sanctions|compliance|background|references|review(?:\s+and\s+approval)?)$", re.I),
    "contract": re.compile(
        r"^(?:(?:article|section|clause)?\s*[\d.]+\s+)?(?:governing\s+law|indemnification|indemnity|term\s+and\s+termination"
        r"|termination|limitation\s+of\s+liability|entire\s+agreement|recitals|warrant(?:y|ies)"
        r"|payment(?:\s+terms)?|fees(?:\s+and\s+payment)?|assignment|notices|force\s+majeure|severability"
        r"|confidentiality|representations\s+and\s+warranties|counterparts|signatures?)$", re.I),
    "filing": re.compile(
        r"^(?:item\s+\d+[a-c]?\b.*|risk\s+factors|management'?s\s+discussion.*|selected\s+financial\s+data"
        r"|quantitative\s+and\s+qualitative.*|consolidated\s+(?:balance\s+sheets?|statements?\s+of\s+.*)"
        r"|notes\s+to\s+(?:the\s+)?(?:consolidated\s+)?financial\s+statements|liquidity\s+and\s+capital\s+resources"
        r"|results\s+of\s+operations|financial\s+highlights|report\s+of\s+independent.*)$", re.I),
}
_VOCABULARY: dict[DocKind, re.Pattern[str]] = {
    "policy": re.compile(
        r"\bpolicy\s+(?:requires|is|applies)\b|\bthis\s+(?:policy|procedure|standard)\b|\bworkforce\s+members?\b"
        r"|\b(?:employees|users|staff|personnel)\s+(?:must|shall|are\s+required)\b|\bmust\s+(?:be|not)\b"
        r"|\bshall\s+be\b|\bis\s+responsible\s+for\b|\bsecurity\s+officer\b|\bin\s+accordance\s+with\b"
        r"|\bare\s+required\s+to\b|\bprohibited\b|\bapproved\s+by\b", re.I),
    "contract": re.compile(
        r"\bthe\s+parties\b|\bhereinafter\b|\bhereto\b|\bhereunder\b|\bin\s+witness\s+whereof\b|\bparty\s+shall\b"
        r"|\bthis\s+agreement\b|\bthe\s+(?:licensee|licensor|lessee|lessor|buyer|seller|contractor|supplier)\b"
        r"|\bindemnif", re.I),
    "filing": re.compile(
        r"\bfiscal\s+(?:year|quarter)\b|\bnet\s+(?:income|sales|revenues?|loss)\b|\bshareholders?\b|\bstockholders?\b"
        r"|\bper\s+(?:diluted\s+)?share\b|\bearnings\b|\boperating\s+income\b|\bsegment\b|\bin\s+millions\b", re.I),
}
KIND_CHUNKS = 40
"""Chunks read to tell the kind of a document stored before kinds were (its opening and headings)."""
VOCABULARY_CHARS = 30000
"""The opening of the text whose vocabulary is counted."""
MIN_VOCABULARY = 3
"""Phrases of a kind that a text must hold before its vocabulary decides anything."""
VOCABULARY_MARGIN = 2.0
"""The leading kind's phrases must outnumber the next kind's this many times."""

KIND_NOUNS: dict[DocKind, str] = {
    "policy": r"polic(?:y|ies)|procedures?|standards|guidelines|handbooks?|manuals|plans|SOPs|codes?\s+of\s+conduct",
    "contract": r"contracts?|agreements?|leases?",
    "filing": r"filings?|10-?Ks?|10-?Qs?|8-?Ks?|annual\s+reports?|quarterly\s+reports?|earnings\s+releases?|reports",
}
"""The nouns by which a question names a kind of document; 'documents' and 'files' name every kind."""
_NOUN = {kind: re.compile(rf"\b(?:{pattern})\b", re.I) for kind, pattern in KIND_NOUNS.items()}
_ANY = re.compile(r"\b(?:documents?|docs?|files?)\b", re.I)
_ASKED = re.compile(r"\b(?:which|what|every|each|all|any|list)\s+(?:(?:of\s+)?(?:the|our|your|these|those)\s+)?"
                    r"(?:[\w-]+\s+){0,2}?(?P<noun>[\w-]+)\b", re.I)
"""The documents a question asks for, right after its asking word ("which docs cover them?")."""


@dataclass(frozen=True)
class KindReading:
    """A document's kind and how it was decided."""

    kind: DocKind
    basis: str
    """One of BASES: what decided the kind (`uncertain`: nothing did, or two kinds were as likely)."""
    why: str = ""
    """The evidence, for the reader ("title 'Data Retention Policy'", "headings: Purpose, Scope")."""

    @property
    def certain(self) -> bool:
        return self.basis != "uncertain"


def read_kind(name: str, titles: Sequence[str], front_matter: Mapping | None = None,
              headings: Iterable[str] = (), text: str = "") -> KindReading:
    """The kind of a document from its title(s), front matter, headings, text and file name."""
    for title in (t.strip() for t in titles if t and t.strip()):
        if _POLICY_TITLE_END.search(title):
            return KindReading("policy", "title", f"title {title!r}")
        for kind, pattern in _BY_TITLE:
            if pattern.search(title):
                return KindReading(kind, "title", f"title {title!r}")
    keys = {re.sub(r"[\s-]+", "_", str(k)).lower() for k in (front_matter or {})}
    policy_keys = sorted(keys & _POLICY_KEYS)
    if policy_keys:
        return KindReading("policy", "front matter", f"front matter keys {', '.join(policy_keys)}")
    for kind, pattern in _OPENING:
        found = pattern.search(text[:OPENING_CHARS])
        if found:
            return KindReading(kind, "opening", f"opens with {found.group(0)!r}")
    by_headings = _by_headings(headings)
    if by_headings is not None:
        return by_headings
    by_words = _by_vocabulary(text[:VOCABULARY_CHARS])
    if by_words is not None:
        return by_words
    stem = re.sub(r"[_.\-]+", " ", name.rsplit(".", 1)[0])
    for kind, pattern in _BY_TITLE:
        if pattern.search(stem):
            return KindReading(kind, "file name", f"file name {name!r}")
    return KindReading("other", "uncertain", "no title, front matter, heading or vocabulary names a kind")


def _by_headings(headings: Iterable[str]) -> KindReading | None:
    """A kind when its section headings are there (two distinct ones, or "Policy Statements") and
    no other kind's are."""
    found: dict[DocKind, list[str]] = {}
    for heading in headings:
        title = re.sub(r"\s+", " ", heading).strip().rstrip(":")
        for kind, pattern in _HEADINGS.items():
            if pattern.match(title) and title.lower() not in (h.lower() for h in found.get(kind, [])):
                found.setdefault(kind, []).append(title)
    strong = [k for k, hs in found.items() if len(hs) >= 2 or any(h.lower() == "policy statements" for h in hs)]
    if len(strong) == 1:
        kind = strong[0]
        return KindReading(kind, "headings", f"headings {', '.join(found[kind][:4])}")
    return None


def _by_vocabulary(text: str) -> KindReading | None:
    """A kind when its phrases are frequent and outnumber every other kind's VOCABULARY_MARGIN times."""
    counts = sorted(((len(p.findall(text)), k) for k, p in _VOCABULARY.items()), reverse=True)
    (top, kind), (second, _) = counts[0], counts[1]
    if top >= MIN_VOCABULARY and top >= VOCABULARY_MARGIN * max(second, 1):
        return KindReading(kind, "vocabulary", f"{top} {kind} phrases against {second} of any other kind")
    return None


def kind_of(name: str, titles: Sequence[str], opening: str) -> DocKind:
    """The kind named by a document's titles, its opening text or its file name."""
    return read_kind(name, titles, text=opening).kind


def searched_for(asked: DocKind | None, reading: KindReading) -> bool:
    """Whether a question about documents of kind `asked` (None: any kind) searches a document so
    read: its own kind, or a document whose kind is not known for certain (never silently left out)."""
    return asked is None or reading.kind == asked or not reading.certain or reading.kind == "other"


def kind_asked(question: str) -> tuple[DocKind | None, str]:
    """The kind of document a question names ('policies' -> policy) and the noun it used; (None,
    'documents') when it names documents in general."""
    # NOTE: the noun the question asks for wins over one its topic names ("business associate agreements - which
    # docs cover them?" asks documents in general, not contracts)
    for asked in _ASKED.finditer(question):
        noun = asked.group("noun")
        if _ANY.fullmatch(noun):
            return None, noun
        kinds = [kind for kind, pattern in _NOUN.items() if pattern.fullmatch(noun)]
        if kinds:
            return kinds[0], noun
    found = [(m.start(), kind, m.group(0)) for kind, pattern in _NOUN.items() for m in [pattern.search(question)] if m]
    if found:
        _, kind, noun = min(found)
        return kind, noun
    generic = _ANY.search(question)
    return None, generic.group(0) if generic else "documents"


def _titles(metadata: Mapping, first_heading: str) -> list[str]:
    front = metadata.get("front_matter") or {}
    return [str(front.get("title") or front.get("name") or ""), str((metadata.get("pdf") or {}).get("title") or ""),
            first_heading]


def parsed_kind(parsed: ParsedDocument) -> KindReading:
    """The kind of a document just parsed: its title, front matter, headings and text."""
    headings = [h.title for h in parsed.headings]
    text = "\n".join(b.text for b in parsed.blocks[:400])
    return read_kind(parsed.name, _titles(parsed.metadata, headings[0] if headings else ""),
                     parsed.metadata.get("front_matter") or {}, headings, text)


def stored_kind(doc: DocumentRecord, chunks: Callable[[], Sequence[ChunkRecord]]) -> KindReading:
    """A stored document's kind: as the catalog holds it (set by the user or read at ingestion), else
    read now from its first chunks (a store ingested before kinds were stored)."""
    if doc.kind:
        return KindReading(doc.kind, doc.kind_source or "uncertain", "")  # type: ignore[arg-type]
    first = chunks()
    headings = list(dict.fromkeys(t for c in first for t in c.heading_titles))
    return read_kind(doc.name, _titles(doc.metadata or {}, headings[0] if headings else ""),
                     (doc.metadata or {}).get("front_matter") or {}, headings, "\n".join(c.text for c in first))
