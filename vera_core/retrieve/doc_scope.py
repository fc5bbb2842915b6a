"""Which documents a question is about: an explicit filter, or the documents the question names.

A question names a document by its file name or stem ("Aurora_Annual_Report_2024.pdf", "3M 2018 10-K"),
or by company with optional years ("3M's FY2018 capex", "PepsiCo fiscal 2022"). Company, years, quarter
and qualifier words come from the stem: `PEPSICO_2023Q1_EARNINGS` -> company "pepsico", year 2023,
quarter 1, qualifier "earnings". Matching is deterministic and case-insensitive. An empty scope means
all documents.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from vera_core.errors import DocumentNotFoundError
from vera_core.finance.dates import QUARTER_ORDINALS
from vera_core.questions.speakers import spanned_quarters
from vera_core.records import DocumentRecord
from vera_core.text import TITLE_FOLLOWS as _BEFORE_TITLE
from vera_core.text import TITLE_KIND_WORDS as TITLE_GENERIC
from vera_core.text import ACRONYM_SKIP

__all__ = ["DocReference", "find_references", "find_titles", "resolve_scope"]

# Stem words that describe the document, not its company ("Aurora_Annual_Report_2024" -> "aurora").
GENERIC_DOC_WORDS = frozenset({
    "annual", "report", "form", "10k", "10q", "8k", "20f", "6k", "earnings", "quarterly", "interim",
    "financial", "statements", "filing", "policy", "dated", "release", "press", "transcript"})
# Names people use for a company that its stem does not spell (squashed, lower case).
COMPANY_ALIASES = {"amex": "americanexpress", "pepsi": "pepsico", "mmm": "3m"}
QUARTER_WORDS = QUARTER_ORDINALS
ID_PREFIX_MIN = 6  # NOTE: the same minimum as `Catalog.resolve`, so a prefix means one thing everywhere.
MAX_COMPANY_WORDS = 4  # "American Express Company" is three words.

_SEPARATORS = re.compile(r"[\s_.\-]+")
_LETTER_DIGIT = re.compile(r"(?<=\d)(?=[A-Za-z])|(?<=[A-Za-z])(?=\d)")
_WORD = re.compile(r"[A-Za-z0-9&]+")
_POSSESSIVE = re.compile(r"['\u2019]s?\b|['\u2019]")
_NOT_A_COMPANY_BEFORE = "$\u20ac\u00a3\u00a5.,"  # "$3M" and "1.3M" are amounts, not 3M
_STEM_YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d)")
_STEM_QUARTER = re.compile(r"(?<![A-Za-z])Q([1-4])(?!\d)", re.I)
_Q_YEARS = (  # FY2018, FY18, FY 2023Q1, fiscal 2018, fiscal year '18, 2018, 2023Q1 (not $2018 or 12,2018)
    re.compile(r"\bFY\s?'?(\d{4}|\d{2})(?!\d)", re.I),
    re.compile(r"\bfiscal\s+(?:year\s+)?'?(\d{4}|\d{2})\b", re.I),
    re.compile(r"(?<![\d$.])(?<!\d,)((?:19|20)\d{2})(?!\d)"),
)
_Q_QUARTER = re.compile(r"(?:\b|(?<=\d))Q([1-4])\b|\b(first|second|third|fourth)\s+quarter\b", re.I)


@dataclass(frozen=True)
class DocReference:
    """One place where the question names documents."""

    doc_ids: tuple[str, ...]
    start: int
    """Character offsets of the mention in the question (end exclusive)."""
    end: int
    kind: str
    """`document-name` (file name or stem) or `company` (narrowed by years in `resolve_scope`)."""


@dataclass(frozen=True)
class _DocKey:
    """What a stem says about its document."""

    doc_id: str
    company: str
    """Squashed lower-case company words before the first year; "" when the stem has no year."""
    years: frozenset[int]
    quarter: int | None
    qualifiers: frozenset[str]
    """Other stem words ("10k", "8k", "earnings"), used to pick among one company's documents."""


def _doc_key(doc: DocumentRecord) -> _DocKey:
    words = [w.lower() for w in _SEPARATORS.split(doc.stem) if w]
    first_year = next((i for i, w in enumerate(words) if _STEM_YEAR.match(w)), None)
    company = [] if first_year is None else [w for w in words[:first_year] if w not in GENERIC_DOC_WORDS]
    quarter = _STEM_QUARTER.search(doc.stem)
    qualifiers = {w for w in words if not w.isdigit() and not _STEM_YEAR.match(w)} - set(company)
    return _DocKey(doc.doc_id, "".join(company), frozenset(int(y) for y in _STEM_YEAR.findall(doc.stem)),
                   int(quarter.group(1)) if quarter else None, frozenset(qualifiers))


def _name_pattern(doc: DocumentRecord) -> re.Pattern[str] | None:
    """The stem with any separator between its words, "10K" also as "10-K", optional extension.

    NOTE: a one-word stem ("contract.pdf") must be written with its extension: the bare word is too common."""
    words = [w for w in _SEPARATORS.split(doc.stem) if w]
    if not words:
        return None
    body = r"[\s_.\-]+".join(r"[\s\-]?".join(map(re.escape, _LETTER_DIGIT.split(w))) for w in words)
    ext = re.escape(doc.name[len(doc.stem):])
    return re.compile(rf"(?<![\w$]){body}(?:{ext}){'' if len(words) == 1 else '?'}(?!\w)", re.I)


def _full_year(text: str) -> int:
    n = int(text)
    return n if n >= 100 else (2000 + n if n < 70 else 1900 + n)


def _year_mentions(question: str) -> list[tuple[int, int]]:
    """(year, offset) of every year the question names, in any fiscal-year form ("FY18" -> 2018)."""
    return [(_full_year(m.group(1)), m.start()) for pattern in _Q_YEARS for m in pattern.finditer(question)]


def _years_by_company(question: str, companies: Sequence[DocReference]) -> dict[DocReference, set[int]]:
    """Each year goes to the nearest company mention ("3M FY2018 vs PepsiCo FY2022"); a company with no
    year of its own takes all of them ("3M and PepsiCo in 2022")."""
    mentions = _year_mentions(question)
    own = {ref: {y for y, pos in mentions
                 if min(companies, key=lambda r: min(abs(pos - r.start), abs(pos - r.end))) is ref}
           for ref in companies}
    return {ref: years or {y for y, _ in mentions} for ref, years in own.items()}


def _question_quarters(question: str) -> set[int]:
    """The quarters a question names; every quarter of a span it names by its ends ("Q1 to Q4")."""
    return spanned_quarters(question) or {int(m.group(1)) if m.group(1) else QUARTER_WORDS[m.group(2).lower()]
                                          for m in _Q_QUARTER.finditer(question)}


def _question_words(question: str) -> set[str]:
    """Lower-case words, with "10-K"/"8-K" spelled as the stems spell them ("10k", "8k")."""
    return set(_WORD.findall(re.sub(r"(?<=\d)-(?=[a-z]\b)", "", question.lower())))


def _company_mentions(question: str, keys: Sequence[_DocKey], companies: Mapping[str, str] | None = None
                      ) -> list[DocReference]:
    """Runs of 1-4 words that, squashed ("American Express" -> "americanexpress"), name a company: as its documents'
    file names spell it, or as their identities print it ("Costco" of "Costco Wholesale Corporation"). A file name's
    ticker of TICKER_LETTERS or fewer ("COST", "META", "TD") names it only in capitals: "cost of sales" names no
    company."""
    by_company: dict[str, list[str]] = {}
    by_ticker: dict[str, list[str]] = {}
    for key in keys:
        if key.company:
            (by_ticker if len(key.company) <= TICKER_LETTERS else by_company).setdefault(key.company, []).append(key.doc_id)
    for doc_id, name in (companies or {}).items():
        for form in _company_forms(name):
            ids = by_company.setdefault(form, [])
            if doc_id not in ids:
                ids.append(doc_id)
    words, refs, i = list(_WORD.finditer(question)), [], 0
    while i < len(words):
        for n in range(min(MAX_COMPANY_WORDS, len(words) - i), 0, -1):
            run = words[i:i + n]
            if any(question[a.end():b.start()].strip() for a, b in zip(run, run[1:])):
                continue  # words of a company name are separated by spaces only
            squashed = "".join(w.group().lower() for w in run)
            company = COMPANY_ALIASES.get(squashed, squashed)
            printed = "".join(w.group() for w in run)
            doc_ids = by_company.get(company) or (by_ticker.get(company) if printed.isupper() or
                                                  not printed.isalpha() else None)
            start = run[0].start()
            if doc_ids and not (start and question[start - 1] in _NOT_A_COMPANY_BEFORE):
                possessive = _POSSESSIVE.match(question, run[-1].end())
                end = possessive.end() if possessive else run[-1].end()
                refs.append(DocReference(tuple(doc_ids), start, end, "company"))
                i += n
                break
        else:
            i += 1
    return refs


TICKER_LETTERS = 4
"""A file name's company part this short is a ticker ("COST", "INTC"), not a name."""
_COMPANY_SUFFIXES = frozenset({"inc", "corporation", "corp", "co", "company", "ltd", "limited", "plc", "ag", "se", "nv",
                               "sa", "llc", "group", "holdings", "holding", "the", "and"})
_COMPANY_FIRST_GENERIC = frozenset({"american", "general", "united", "national", "first", "international", "global",
                                    "bank", "new", "royal"})


def _company_forms(name: str) -> set[str]:
    """How a question may name the company an identity prints: its name squashed without its legal suffix
    ("costcowholesale"), and its first word when that is a name of its own ("costco"; never "american")."""
    words = [w.lower() for w in _WORD.findall(name)]
    core = [w for w in words if w not in _COMPANY_SUFFIXES]
    if not core:
        return set()
    forms = {"".join(core)}
    if len(core[0]) > TICKER_LETTERS - 1 and core[0] not in _COMPANY_FIRST_GENERIC and not core[0].isdigit():
        forms.add(core[0])
    return forms


def find_references(question: str, documents: Sequence[DocumentRecord]) -> list[DocReference]:
    """Every mention of a document (by name or stem) or of a company with documents, in question order."""
    refs = []
    for doc in documents:
        pattern = _name_pattern(doc)
        refs += [DocReference((doc.doc_id,), m.start(), m.end(), "document-name")
                 for m in (pattern.finditer(question) if pattern else ())]
    companies = {d.doc_id: (d.identity or {}).get("company") or "" for d in documents}
    refs += [r for r in _company_mentions(question, [_doc_key(d) for d in documents], companies)
             if not any(n.start <= r.start and r.end <= n.end for n in refs)]  # "Aurora" inside "Aurora_..._2024"
    return sorted(refs, key=lambda r: (r.start, -r.end))


TITLE_WORDS_ALONE = 3
"""A title of this many distinctive words names its document without a kind word after it."""
_TITLE_NUMBER = re.compile(r"^\s*(?:\d+(?:\.\d+)*\.?|[ivx]+\.)\s+", re.I)
_DOC_NOUN_AFTER = re.compile(r"^\W*(?:polic(?:y|ies)|standard|procedures?|guide(?:lines?)?|handbook|page|document|plan)\b",
                             re.I)


def _title_words(title: str) -> list[str]:
    return [w for w in _WORD.findall(_TITLE_NUMBER.sub("", title).lower()) if w not in TITLE_GENERIC]


_ORG_PREFIX = re.compile(r"^(?:[^\u2014\u2013:|]{2,60}?\s(?:\u2014|\u2013|-{1,2}|\|)|"
                         r"(?!(?:chapter|part|section|appendix|annex|schedule|article)\b)[^\u2014\u2013:|\d]{2,60}?[^\s\d]:)"
                         r"\s+(?=\S.{5,})", re.I)
"""An organisation's name before the document's own title, set off by a dash, a bar or a colon ("Brightwater Freight
Ltd: Information Security Policy"; never a numbering such as "Chapter 4:")."""
_TITLE_HEAD = re.compile(r"^(?P<head>.+?)\s+(?:of|for|on|in|at|within)\s+\S", re.I)


def _title_forms(title: str) -> list[tuple[list[str], bool]]:
    """The ways a question names a document by its title: its words (and without an organisation's name set off
    before it), and the words before its first "of" or "for" when a kind word follows them ("the acceptable use policy" for
    "Acceptable Use of Information Technology Resources"), each with whether it is that short form."""
    words = _title_words(title)
    forms = [(words, False)] if words else []
    # NOTE: "Corriveau Diagnostics, Inc. — Information Security Policy": a reader names it without the organisation set
    # off before it (the whole title still names it: "Joiners, Movers and Leavers: Access Procedure")
    titled = _ORG_PREFIX.sub("", title)
    own = _title_words(titled)
    if own and own != words:
        forms.append((own, False))
        title = titled
    head = _TITLE_HEAD.match(_TITLE_NUMBER.sub("", title).strip())
    short = _title_words(head.group("head")) if head else []
    if len(short) >= 2 and short != words:
        forms.append((short, True))
    return forms


_SHORT_FORMS = {"ops": "operations", "mgmt": "management", "mgt": "management", "info": "information",
                "admin": "administration", "dept": "department", "infosec": "security"}
"""Words a reader shortens in a document's title ("the emergency ops plan")."""


_KIND_NAMED = re.compile(r"(?:\b(?:the|our|this)\s+|^\W*|[,;:]\s+|\s[-\u2013\u2014]\s+)(?P<words>(?:[A-Za-z][\w'-]*\s+){0,2}?)(?P<kind>handbook|manual|charter|"
                         r"playbook|runbook|plan|standard|procedure|guide|guidelines|policy)\b(?!\s*(?:s\b|[-\u2013\u2014]\s*\w))",
                         re.I)
"""A document named by its kind and at most two words of its title ("where in the handbook ...", "the privacy policy"
for the Patient Data Privacy Policy)."""


def _one_of_kind(question: str, titles: dict[str, str]) -> list[tuple[int, int, int, str]]:
    """A document named by its kind and a few of its title's words ("Where in the handbook is that covered?", "where does
    the privacy policy say ..."): only when one title in scope has them all; the weakest of mentions, so a title or file
    name that also matches wins."""
    found = []
    for m in _KIND_NAMED.finditer(question):
        said = _WORD.findall(m.group("words"))
        kind = m.group("kind").lower()
        owners = {d for d, t in titles.items() if _names_title(said, kind, _WORD.findall(t))}
        if len(owners) == 1:
            found.append((m.start(), m.end(), 1, next(iter(owners))))
    return found


def _names_title(said: list[str], kind: str, title: list[str]) -> bool:
    """Whether a document's title holds the kind and every word said before it, a word in capitals also as the
    initials of adjacent title words ("the IT DR plan" for "IT Incident Response, Backup and Disaster Recovery
    Plan")."""
    lowered = [w.lower() for w in title]
    initials = {"".join(w[0] for w in lowered[i:i + n]) for n in (2, 3, 4) for i in range(len(lowered) - n + 1)}
    return kind in lowered and all(
        _SHORT_FORMS.get(w.lower(), w.lower()) in lowered or (w.isupper() and 2 <= len(w) <= 4 and w.lower() in initials)
        for w in said)


def _acronyms(question: str, titles: dict[str, str]) -> list[tuple[int, int, int, str]]:
    """A document named by its title's initials in capitals ("the BCP" for the Business Continuity Plan, "our AUP"):
    only when one title in scope has them."""
    by_initials: dict[str, set[str]] = {}
    for doc_id, title in titles.items():
        name = re.split(r"\s+[-\u2013\u2014:|]\s+", title)[-1] if re.search(r"\s[-\u2013\u2014:|]\s", title) else title
        words = [w for w in re.findall(r"[A-Za-z][\w'-]*", name) if w.lower() not in ACRONYM_SKIP]
        if 2 <= len(words) <= 6:
            by_initials.setdefault("".join(w[0] for w in words).upper(), set()).add(doc_id)
    found = []
    for m in re.finditer(r"\b[A-Z]{2,6}\b", question):
        owners = by_initials.get(m.group(0), set())
        if len(owners) == 1:
            found.append((m.start(), m.end(), 2, next(iter(owners))))
    return found


def find_titles(question: str, titles: dict[str, str]) -> list[DocReference]:
    """Mentions of documents by their own title ("Acme's HR and Personnel Security policy", "the IDS
    Policy"): every word of the title but its kind words ("policy", "standard"), in order, with only
    kind words, "and" or "&" between them; a title of fewer than TITLE_WORDS_ALONE such words counts only
    followed by a kind word ("the access policy"; "risk management for vendors" names a topic), as does a
    title's head before "of" or "for" ("the acceptable use policy"). Where two titles match overlapping words
    the longer wins ("System Access Policy", not "Access")."""
    qwords = list(_WORD.finditer(question))
    lowered = [_SHORT_FORMS.get(w.group().lower(), w.group().lower()) for w in qwords]
    found: list[tuple[int, int, int, str]] = []  # (start, end, length, doc_id)
    for doc_id, title, words, short in ((d, t, w, short) for d, t in titles.items()
                                        for w, short in _title_forms(t)):
        for i in range(len(lowered)):
            j, k = i, 0
            while j < len(lowered) and k < len(words):
                if lowered[j] == words[k]:
                    k += 1
                    j += 1
                elif k and lowered[j] in TITLE_GENERIC:
                    j += 1
                else:
                    break
            if k < len(words):
                continue
            end = qwords[j - 1].end()
            after = _DOC_NOUN_AFTER.match(question[end:])
            if (len(words) < TITLE_WORDS_ALONE or short) and not after:
                continue
            before = lowered[i - 1] if i else ""
            possessive = re.search(r"['\u2019]s?\s*$", question[:qwords[i].start()]) is not None
            if before and before not in _BEFORE_TITLE and not possessive and not re.search(r"[-:,;(]\s*$",
                                                                                            question[:qwords[i].start()]):
                continue  # NOTE: "patch management procedures": the title "Management" only ends a longer name
            found.append((qwords[i].start(), end + (after.end() if after else 0), len(words), doc_id))
    found += _acronyms(question, titles)
    found += _one_of_kind(question, titles)
    found.sort(key=lambda f: (-f[2], f[0]))
    kept: list[tuple[int, int, int, str]] = []
    for f in found:
        if not any(f[0] < k[1] and k[0] < f[1] and k[2] > f[2] for k in kept):
            kept.append(f)
    return sorted((DocReference((d,), a, b, "document-title") for a, b, _, d in kept), key=lambda r: (r.start, -r.end))


def _narrow(keys: list[_DocKey], years: set[int], quarters: set[int], words: set[str]) -> tuple[list[_DocKey], bool]:
    """One company's documents narrowed by the question's years, then by quarter and qualifier words.

    A year that matches none of them keeps them all (a later filing reports earlier years too)."""
    dated = [k for k in keys if k.years & years]
    pool = dated or keys
    scores = [(k.quarter in quarters) + len(k.qualifiers & words) for k in pool]
    if len(pool) > 1 and max(scores) > 0:
        pool = [k for k, s in zip(pool, scores) if s == max(scores)]
    return pool, bool(dated)


def _filtered(doc_filter: Sequence[str], documents: Sequence[DocumentRecord]) -> set[str]:
    """Doc ids of the filter entries: id, file name, name without extension, or id prefix."""
    chosen: set[str] = set()
    for ref in (r.strip() for r in doc_filter):
        if not ref:
            continue
        low = ref.lower()
        named = [d for d in documents if d.doc_id == ref or low in (d.name.lower(), d.stem.lower())]
        prefixed = [d for d in documents if len(ref) >= ID_PREFIX_MIN and d.doc_id.startswith(low)]
        found = named or prefixed  # NOTE: a name shared by several files (a.md, a.pdf) means all of them
        if not named and len(prefixed) > 1:
            names = ", ".join(f"{d.name} ({d.doc_id})" for d in prefixed)
            raise DocumentNotFoundError(f"Document filter {ref!r} matches several documents: {names}. Use the full id.")
        if not found:
            known = ", ".join(d.name for d in documents) or "none; ingest some with `vera ingest PATH`"
            raise DocumentNotFoundError(f"Document filter {ref!r} matches no document. Known documents: {known}.")
        chosen |= {d.doc_id for d in found}
    return chosen


_OWNER = re.compile(r"\b(?P<org>[A-Z][A-Za-z0-9&-]{1,40})['\u2019]s?(?=\s)")
"""An organisation named as the owner of what follows ("Datica's incident response policy", "Acme's Access policy")."""


_OWNED_SET = re.compile(r"\bof\s+[A-Z][A-Za-z0-9&-]{1,40}['\u2019]s?\s+(?:[\w-]+\s+)?(?:policies|documents|docs|procedures|"
                        r"standards|handbooks|plans|guidelines)\b")
"""An organisation's documents asked for as a set ("which of Tailscale's policies ...")."""


def _owned(question: str, candidates: set[str], mentions) -> set[str]:
    """Of several documents a question names, those whose own text names the organisation it names as their owner
    ("Datica's incident response policy" among Datica's, Tailscale's and the samples' incident response policies); all
    of them when none or every one does."""
    owners = [m.group("org") for m in _OWNER.finditer(question)]
    for org in owners:
        kept = {d for d in candidates if mentions(d, org)}
        if kept and kept != candidates:
            return kept
    return candidates


def _says_all(said: str, titles: dict[str, str], doc_ids: Sequence[str]) -> bool:
    """Whether every title of `doc_ids` holds every word said ("acceptable use policy" in "Acceptable Use of Technology
    Policy"; not "incident response policy" in "Incident response process")."""
    words = {w.lower() for w in _WORD.findall(said)} - {"the", "our", "this"}
    return all(words <= {w.lower() for w in _WORD.findall(titles.get(d, ""))} for d in doc_ids)


def resolve_scope(question: str, documents: Sequence[DocumentRecord],
                  doc_filter: Sequence[str] = (), titles: dict[str, str] | None = None,
                  mentions=None) -> tuple[list[str], str]:
    """The doc_ids a question is limited to, and the rule that decided it.

    Precedence: explicit `doc_filter` entries ("filter:explicit"; an unknown entry raises
    `DocumentNotFoundError` naming it and the known documents), then documents named in the question
    ("question:document-name", "question:company-year", "question:company", "question:document-title"
    when `titles` (doc_id -> title) are given, joined by "+" when several fire), else [] with "scope:all".
    A year without a company never narrows the scope.
    """
    if any(r.strip() for r in doc_filter):
        chosen, rules = _filtered(doc_filter, documents), ["filter:explicit"]
    else:
        keys = {d.doc_id: _doc_key(d) for d in documents}
        refs = find_references(question, documents)
        named = find_titles(question, titles) if titles else []
        titled_too = {d for t in named for d in t.doc_ids}
        # NOTE: a title said in the same words as a file name names its document as well ("the acceptable use policy":
        # acceptable_use_policy.md and the "Acceptable Use of Technology Policy"); the question's content tells them apart
        refs += [t for t in named if not any(r.start < t.end and t.start < r.end and not (
            r.kind == "document-name" and t.start <= r.start and r.end <= t.end
            and _says_all(question[t.start:t.end], titles, t.doc_ids)) for r in refs)]
        years = _years_by_company(question, [r for r in refs if r.kind == "company"])
        quarters, words = _question_quarters(question), _question_words(question)
        chosen, rules = set(), []
        for ref in refs:
            if ref.kind in ("document-name", "document-title"):
                chosen |= set(ref.doc_ids)
                rule = f"question:{ref.kind}"
            else:
                pool, by_year = _narrow([keys[i] for i in ref.doc_ids], years[ref], quarters, words)
                chosen |= {k.doc_id for k in pool}
                rule = "question:company-year" if by_year else "question:company"
            rules += [rule] if rule not in rules else []
        if mentions is not None and len(chosen | titled_too) > 1 and any(r.kind in ("document-name", "document-title")
                                                                          for r in refs):
            # NOTE: a title another document shares, or a file name that hides a numbered one ("11-incident_response_policy"),
            # is told apart by the organisation the question names as its owner
            candidates = chosen | titled_too
            kept = _owned(question, candidates, mentions)
            chosen = kept if kept != candidates else chosen
        owned_set = _OWNED_SET.search(question) if not chosen and mentions is not None else None
        if owned_set is not None:
            # NOTE: "which of Tailscale's policies let engineers skip the usual review?": the documents whose opening
            # names the organisation, in a store that holds other organisations' too
            everything = {d.doc_id for d in documents}
            kept = _owned(owned_set.group(0), everything, mentions)
            if kept != everything:
                chosen, rules = kept, ["question:owner"]
    return [d.doc_id for d in documents if d.doc_id in chosen], "+".join(rules) or "scope:all"
