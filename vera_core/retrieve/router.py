"""Deterministic intent routing: which kind of question this is, which pages and documents it names,
and what retrieval should search for. Every decision is a named rule, reported in `Intent.rule`.

Precedence (first family that fires wins):
  1. location  - the question names pages ("page 22", "pp. 3-5", "pages 4, 7 and 9"). A coverage
                 subtype that also fits ("list all items on page 4") goes in `subtype`.
  2. metadata  - a document-level fact (currency, period, framework, units, consolidation basis).
  3. coverage  - documents > numeric_list > attribute > pointer > list (first match in `COVERAGE_RULES`);
                 `documents` asks which documents of a set address a topic ("which policies address
                 encryption at rest?", "across all filings", "in each contract").
  4-6.         verdict, metric and figure only when a document in scope prints figures (a filing or
                 a document of another kind, not a policy or contract): over policies alone a question
                 about "rates" or "costs" is answered from their text (`semantic:no-figures`).
  4. verdict   - a yes/no or which-one question over figures ("Is working capital positive?", "Did the
                 gross margin improve?", "Which segment had the highest operating income?").
  5. metric    - asks for a computed metric: defined in the question, or named from vera_core/data/metrics.md
                 (not a question about its causes: "what drove the margin change" stays semantic).
  6. figure    - asks for the printed figure of a named line item (not a computed metric, not yes/no).
  7. semantic  - everything else; `numeric` marks questions that ask for amounts or KPIs.
A question about who spoke on a call (`coverage:speakers`: a role, the analysts, the company speakers)
comes before metadata, and only when a call transcript is in scope.
Metadata outranks coverage because "list the reporting currency" is still one fact of the document.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from vera_core.answer.contract import Intent
from vera_core.documents.identity import DECK_TYPE, Identity
from vera_core.questions.figure import FigureRequest, asking_sentences, is_figure_question, read_request
from vera_core.questions.metric import MetricPlan, read_plan
from vera_core.questions.speakers import (PeopleAsk, RemarkAsk, firm_exchange_asked, firm_question_asked, firm_reply_asked, names_company,
                                         named_after_role, names_person, read_people_ask, read_remark_ask,
                                         role_of_named, affiliation_of_named, who_is_named)
from vera_core.questions.stated import StatedAsk, read_ask
from vera_core.questions.verdict import VerdictRequest, read_verdict
from vera_core.records import DocumentRecord
from vera_core.retrieve.doc_scope import find_references, find_titles, resolve_scope
from vera_core.transcripts.speakers import participant_names
from vera_core.text import focus_words

__all__ = ["COVERAGE_RULES", "METADATA_RULES", "Routed", "Rule", "find_pages", "prints_figures", "read_question",
           "route"]


@dataclass(frozen=True)
class Rule:
    """A named pattern: fires when `pattern` matches, `requires` (if set) matches and `excludes` does not."""

    name: str
    subtype: str
    pattern: re.Pattern[str]
    requires: re.Pattern[str] | None = None
    excludes: re.Pattern[str] | None = None

    def search(self, text: str) -> re.Match[str] | None:
        """The cue this rule found in `text` (stripped from the focus), or None."""
        found = self.pattern.search(text)
        if found and (self.requires is None or self.requires.search(text)):
            return None if self.excludes and self.excludes.search(text) else found
        return None


def _rule(name: str, subtype: str, pattern: str, requires: str = "", excludes: str = "") -> Rule:
    return Rule(name, subtype, re.compile(pattern, re.I), re.compile(requires, re.I) if requires else None,
                re.compile(excludes, re.I) if excludes else None)


# -- vocabulary -----------------------------------------------------------------------------------
KPI = (r"\b(?:revenues?|sales|(?:net|operating)\s+income|profits?|margins?|EPS|earnings|cash\s+flows?|capex|"
       r"capital\s+expenditures?|EBITDA|EBIT|dividends?|expenses?|costs?|growth|(?:net|total)\s+debt)\b")
NUMERIC = (KPI + r"|\b(?:amounts?|percent(?:ages?)?|basis\s+points|bps|earnings\s+per\s+share|YoY|"
           r"year[\s-]over[\s-]year|ratios?|how\s+(?:much|many)|tax\s+rate|PP&E|PPNE|USD|EUR|GBP)\b"
           r"|[$\u20ac\u00a3\u00a5%]|\b\d[\d,.]*\s*(?:million|billion|thousand|bn|mn)\b")  # no "m": 3M is a company
PRESENTATION = (r"\b(?:financial\s+statements|statements?|reports?|reported|reporting|presented|presents?|expressed|"
                r"stated|shown|figures|amounts|numbers|accounts|tables?|filing|document|prepared)\b")
FX_RISK = (r"\b(?:risks?|exposures?|translation|impacts?|effects?|hedg\w*|fluctuat\w*|movements?|devaluation|"
           r"weak\w*|strength\w*|gains?|loss(?:es)?)\b")
NOT_FRAMEWORK = (r"\b(?:new|newly|adopt\w*|recent\w*|issued|upcoming|future|changes?|amendments?|updates?|ASU|"
                 r"measures?|reconcil\w*)\b|non-GAAP")
AMOUNT_NOUNS = r"(?:amounts?|impacts?|effects?|values?|costs?|figures?|prices?)"
YES_NO = r"^\s*(?:is|are|was|were|do|does|did|has|have|had|can|could|will|would|should)\b"
DOC_NOUNS = r"(?:note|section|page|chapter|exhibit|schedule|table|heading|appendix|paragraph|clause)s?"
DOC_VERBS = (r"(?:discuss(?:es)?|covers?|describes?|address(?:es)?|contains?|explains?|presents?|discloses?|"
             r"mentions?|deals?|includes?|details?|talks?|refers?|shows?|lists?|provides?|tells?|says?|states?|"
             r"defines?|outlines?|specif(?:y|ies)|gives?|sets?\s+out|spells?\s+out|goes\s+(?:over|through))")
PLACE_NOUNS = r"(?:section|subsection|bit|chapter|clause|paragraph|heading|appendix)s?"
"""The places in a document a pointer asks for by name (a filing's "note" and "page" are asked in other frames too)."""
PLACE_DOCS = (r"(?:report|document|doc|filing|policy|policies|procedure|procedures|standard|standards|plan|handbook|"
              r"manual|guide|guidelines|contract|agreement|rules|code|charter|10-?K|10-?Q)")
"""What a reader calls the document a place is in."""
WHERE_DOC_VERBS = (r"\b(?:disclosed|described|discussed|presented|explained|covered|mentioned|addressed|detailed|"
                   r"set\s+out|documented|defined|disclose|describe|discuss|present|explain|mention|address)\b")
BOILERPLATE = [re.compile(p, re.I) for p in (  # analyst-prompt framing that says nothing about the topic
    r"\b(?:by\s+)?assum(?:e|ing)\s+(?:that\s+you\s+are\s+|the\s+(?:perspective|role)\s+of\s+)an?\s+"
    r"(?:[\w-]+\s+){0,3}analyst\b(?:\s+who\s+can\s+only\s+use)?",
    r"\b(?:give|provide)\s+(?:a|an|your)\s+(?:response|answer)\s+to\s+the\s+question\b",
    r"\b(?:respond|answer)\s+(?:to\s+)?the\s+(?:following\s+)?question\b",
    r"\b(?:(?:by\s+)?(?:primarily\s+)?(?:relying\s+on|using|based\s+on)\s+)?(?:the\s+)?(?:details|information|data)"
    r"(?:\s+that\s+(?:is|are))?\s+(?:shown|presented|provided|outlined|reported)\s+(?:in|within)\b",
    r"\(?\b(?:answer\s+)?in\s+(?:USD|US\$|\$|EUR|GBP|dollars)\s*(?:millions|billions|thousands)\)?",
)]

_NUMERIC = re.compile(NUMERIC, re.I)
EXPLAIN = re.compile(r"\b(?:why|drove|drive[sn]?|drivers?|explain\w*|reasons?|caus\w*|what\s+(?:led|contributed))\b", re.I)
"""A question about causes is answered from the discussion, not computed (it stays semantic)."""

# -- rules ----------------------------------------------------------------------------------------
METADATA_RULES = [
    _rule("metadata:currency", "default_currency", r"\b(?:reporting|presentation|functional)\s+currenc(?:y|ies)\b"),
    _rule("metadata:currency", "default_currency", r"\b(?:what|which)\s+currency\b", PRESENTATION, FX_RISK),
    _rule("metadata:currency", "default_currency",
          r"\bcurrency\s+(?:of|used\s+(?:in|for))\s+(?:the\s+)?(?:financial\s+statements|statements|report|accounts"
          r"|figures|amounts|presentation)\b"),
    _rule("metadata:reporting-period", "reporting_period",
          r"\breporting\s+period\b|\bperiod\s+covered\b"
          r"|\b(?:what|which)\s+(?:is|was)\s+the\s+(?:balance\s+sheet|reporting)\s+date\b", excludes=KPI),
    _rule("metadata:reporting-period", "reporting_period", r"\b(?:fiscal|financial)\s+year[\s-]+end(?:s|ing)?\b",
          r"\b(?:when|what|which)\b", KPI),
    _rule("metadata:reporting-period", "reporting_period",
          r"\b(?:what|which)\s+(?:time\s+)?period\b|\b(?:what|which)\s+(?:fiscal|financial)\s+years?\b"
          r"|\bfor\s+(?:what|which)\s+(?:period|year)\b",
          r"\b(?:cover\w*|report|reports|statements?|filing|document|accounts|relates?|prepared|presented)\b",
          KPI + r"|\bperiod[\s-]over[\s-]period\b"),
    _rule("metadata:accounting-framework", "accounting_framework",
          r"\bIFRS\s+or\s+(?:U\.?S\.?\s+)?GAAP\b|\b(?:U\.?S\.?\s+)?GAAP\s+or\s+IFRS\b"
          r"|\baccounting\s+(?:framework|basis)\b|\bbasis\s+of\s+(?:preparation|accounting)\b"
          r"|\bfinancial\s+reporting\s+framework\b"),
    _rule("metadata:accounting-framework", "accounting_framework",
          r"\b(?:which|what)\s+(?:accounting\s+)?(?:standards|framework|GAAP|accounting\s+principles)\b"
          r"|\bprepared\s+(?:under|in\s+accordance\s+with|according\s+to|using)\s+"
          r"(?:which|what|IFRS|(?:U\.?S\.?\s+)?GAAP)\b"
          r"|\b(?:report\w*|compl(?:y|ies)|follow\w*|uses?|appl(?:y|ies))\s+(?:under\s+|with\s+)?"
          r"(?:IFRS|U\.?S\.?\s+GAAP)\b",
          excludes=NOT_FRAMEWORK),
    _rule("metadata:units", "units",
          r"\b(?:thousands|millions|billions)\s+or\s+(?:in\s+)?(?:thousands|millions|billions)\b"
          r"|\b(?:are|is)\s+(?:the\s+|all\s+)?(?:amounts|figures|numbers|values|tables?)\b[^?]{0,40}?"
          r"\bin\s+(?:thousands|millions|billions)\b|\brounded\s+to\s+the\s+nearest\b"),
    _rule("metadata:units", "units",
          r"\b(?:what|which)\s+(?:units?|scale|denomination)\b|\bunits?\s+of\s+(?:measure(?:ment)?|presentation)\b",
          PRESENTATION),
    _rule("metadata:consolidation", "consolidation_basis",
          r"\bconsolidated\s+or\s+(?:stand-?alone|separate|parent[\s-]only|unconsolidated)\b"
          r"|\b(?:stand-?alone|separate|unconsolidated)\s+or\s+consolidated\b"
          r"|\b(?:basis|scope|principles?)\s+of\s+consolidation\b|\bconsolidation\s+(?:basis|scope|method)\b"
          r"|\b(?:what|which)\s+(?:entities|entity|subsidiaries|companies|businesses)\s+(?:are|were|is)\s+"
          r"(?:\w+\s+)?(?:consolidated|included\s+in\s+the\s+consolidat\w+)\b"
          r"|\b(?:are|is)\s+(?:the|these|this)\s+(?:financial\s+)?(?:statements?|accounts|figures)\s+"
          r"(?:consolidated|stand-?alone)\b"),
]

DOC_SETS = (r"(?:polic(?:y|ies)|procedures|standards|guidelines|handbooks|manuals|plans|SOPs|contracts?|agreements|leases|"
            r"documents?|docs|files|filings?|10-?Ks|10-?Qs|annual\s+reports|reports)")
"""Documents named as a set a question runs across ("which policies", "across all filings")."""
DOC_SET_VERBS = (DOC_VERBS[:-1] + r"|requires?|says?|states?|specif(?:y|ies)|has|have|contains?|appl(?:y|ies)|"
                 r"permits?|allows?|prohibits?|forbids?|mandates?|imposes?|sets?(?:\s+out)?|refers?|speaks?|touch(?:es)?\s+on|"
                 r"govern|governs|regulates?|handles?|defines?|tells?|expects?|establish(?:es)?|"
                 r"should\s+(?:i|we)\s+(?:read|check|consult|look\s+at))")
GAP_WORDS = r"(?:do|does|did|is|are|was|were|the|a|an|this|that|has|have|had|can|could|should|would|will|must|may)"
"""Words that do not qualify a document noun ("what does the policy require" asks one policy a question)."""
NOT_DOC_SET = r"\b(?:accounting|critical|significant|reporting)\s+polic|\bprocedures?\s+(?:of|for)\s+(?:the\s+)?audit"

SET_NAMED_WORDS = r"(?:in|of|from)\s+(?:the|our|this|that)\s+(?:[\w&'-]+\s+){0,3}?(?:set|library|collection|suite|pack|handbook)"
"""A set of documents named by its words ("in the Corvid Pay set", "from our handbook")."""
SET_NAMED = rf"(?:\s+{SET_NAMED_WORDS})?"
IN_THE_SET = r"(?:\s+in\s+(?:the|this|our)\s+(?:set|library|collection|pack))?"
"""The set a question's documents sit in, said between them and "that" ("every document in the set that ...")."""
"""A set named between the documents and their verb ("which policies in the Corvid Pay set require ...")."""

OWNER = r"(?:[A-Z][\w&.-]*\s+){0,2}?[\w&.-]+(?:'s|\u2019s|s'|s\u2019)"
"""The organisation owning the documents asked about ("the Trust's", "Northbridge's")."""
OWN_DOCS = r"(?:policies|procedures|standards|guidelines|handbooks|SOPs|documents|docs)"
"""The nouns only an organisation's own documents go by (not a filing's "plans", "reports" or "leases")."""

OUR_DOCUMENTS = (r"which\s+of\s+(?:our|your)\s+(?:[\w-]+\s+)?(?:rules|guides|guidance|rulebooks|materials|paperwork|"
                 r"write-?ups)\b")
"""A reader's word for an organisation's documents, asked of the set ("Which of our rules talk about ...")."""

COVERAGE_RULES = [
    _rule("coverage:documents:which-documents", "documents",
          rf"\b(?:which|what)\s+(?:(?:ones?\s+)?of\s+(?:(?:the|our|your|these|those|my|all\s+(?:the|our|your))\s+)?"
          rf"(?:{OWNER}\s+)?)?"
          rf"(?:(?!{DOC_NOUNS}\b|{GAP_WORDS}\b)[\w-]+\s+){{0,2}}?{DOC_SETS}(?:\s*,\s*{DOC_SETS})*(?:,?\s+(?:or|and)\s+{DOC_SETS})?"
          rf"\b{SET_NAMED}"
          rf"(?=\s+(?:(?:do|does|also|specifically|explicitly|actually)\s+)?{DOC_SET_VERBS}\b)"
          # NOTE: an organisation's own documents asked for by their plain nouns take any verb ("Which of the Trust's
          # documents say ...", "which documents plan for ...", "Which policies would I need to look at ...")
          rf"|\b(?:which\s+|what\s+(?=(?:ones?\s+)?of\s))(?:(?:ones?\s+)?of\s+(?:(?:the|our|your|these|those|my)\s+)?"
          rf"(?:{OWNER}\s+)?)?"
          rf"(?:(?!{GAP_WORDS}\b)[\w-]+\s+)?{OWN_DOCS}\b(?=\s+(?!of\b|in\b|that\b|is\b|was\b)[a-z]+\b)"
          # NOTE: the documents asked for in a sentence of their own, after the topic ("Are there rules for
          # working from home? which policies"; "Where do our policies apply a four-eyes principle? List the policies.")
          rf"|(?:^|[?.!:;]\s*|\s[-\u2013\u2014]\s+)(?:(?:and|so)\s+)?(?:which|what|list|name)\s+(?:(?:ones?\s+)?of\s+)?(?:all\s+)?(?:the\s+|our\s+)?"
          rf"(?:relevant\s+)?{DOC_SETS}\s*[?.!]*\s*$"
          # NOTE: "Which of our rules talk about breath tests ...?": a reader's word for the documents, asked of a set
          rf"|\b{OUR_DOCUMENTS}(?=\s+(?:(?:do|does|also|actually)\s+)?{DOC_SET_VERBS}\b)"
          # NOTE: "I need every policy that talks about cooperating with law enforcement - which ones?"
          rf"|\b(?:every|each|all\s+(?:the\s+|our\s+)?)\s*(?:polic(?:y|ies)|documents?|docs|procedures?|standards?)"
          rf"{IN_THE_SET}\s+(?:that|which)\s+(?:\w+\s+)?{DOC_SET_VERBS}\b",
          excludes=NOT_DOC_SET),
    _rule("coverage:documents:across-documents", "documents",
          rf"\b(?:across|throughout)\s+(?:(?:all|the|our|these|every|each|of)\s+)*(?:[\w-]+\s+)?{DOC_SETS}\b"
          rf"|\b(?:in|for|from)\s+(?:each|every|all)\s+(?:of\s+)?(?:the\s+|our\s+)?(?:[\w-]+\s+)?{DOC_SETS}\b"
          rf"|\b(?:do|does|did)\s+any\s+(?:of\s+)?(?:the\s+|our\s+|these\s+)?(?:[\w-]+\s+)?{DOC_SETS}\b"
          rf"|\blist\s+(?:all\s+)?(?:of\s+)?(?:the\s+)?(?:[\w-]+\s+)?{DOC_SETS}\s+(?:that|which)\b"
          rf"|\bwhere\s+do\s+(?:we|(?:our|the|any\s+of\s+(?:the|our))\s+(?:policies|documents|docs|procedures|standards|"
          rf"guidelines|files|contracts|filings))\s+(?:\w+\s+)?"
          rf"(?:talk|say|speak|cover|deal|mention|address|discuss|apply|require|use|need|spell|set\s+out|lay\s+out|"
          rf"make\s+sure|ensure|handle)\w*\b",
          excludes=NOT_DOC_SET),
    _rule("coverage:numeric_list:with-amounts", "numeric_list",
          r"\b(?:with|and|along\s+with|together\s+with|including)\s+(?:their|the\s+respective)\s+"
          rf"(?:[\w-]+\s+){{0,2}}?{AMOUNT_NOUNS}\b"),
    _rule("coverage:numeric_list:each-amount", "numeric_list",
          rf"\b(?:and|with)\s+(?:its|the)\b(?=\s+(?:[\w-]+\s+){{0,2}}?{AMOUNT_NOUNS}\b)"
          rf"|\b{AMOUNT_NOUNS}\s+(?:of|for)\s+each\b|\bhow\s+much\s+(?:did\s+|does\s+|do\s+|was\s+|were\s+)?each\b",
          r"\b(?:each|every)\b"),
    _rule("coverage:attribute:range", "attribute",
          r"\brange\s+of\s+(?:reasonably\s+possible\s+|possible\s+|potential\s+|estimated\s+)?"
          r"(?:loss(?:es)?|outcomes?)\b"
          r"|\b(?:aggregate|estimated|guidance|target|expected)\s+range\b|\breasonably\s+possible\s+loss(?:es)?\b"
          r"|\b(?:lower\s+and\s+upper|low\s+and\s+high|minimum\s+and\s+maximum)\s+"
          r"(?:ends?|bounds?|estimates?|amounts?)\b"),
    _rule("coverage:attribute:between-amounts", "attribute",
          r"\bbetween\s+what\s+(?:amounts?|values?|figures?|levels?|numbers?)\b"),
    _rule("coverage:pointer:where-find", "pointer",
          r"\bwhere\s+(?:can|could|do|would|should|might|will)\s+(?:i|we|one|you|a\s+reader)\s+"
          r"(?:find|locate|see|read\s+about|look\s+(?:for|up))\b"),
    _rule("coverage:pointer:which-section", "pointer",
          rf"\b(?:which|what)\s+{DOC_NOUNS}\b(?:\s+[\w&'-]+){{0,4}}?\s+{DOC_VERBS}\b"),
    _rule("coverage:pointer:in-which-section", "pointer",
          rf"\bin\s+(?:which|what)\s+(?:{DOC_NOUNS}|part\s+of\s+the\s+(?:report|document|filing|policy|10-?K))\b"),
    _rule("coverage:pointer:where-in-document", "pointer",
          r"\bwhere\s+(?:in\s+(?:the|our|this|that)\s+(?:[\w&'-]+\s+){0,4}?(?:report|document|doc|filing|policy|"
          r"procedure|standard|plan|handbook|manual|contract|agreement|10-?K)|does\s+(?:the\s+(?:[\w&'-]+\s+){0,4}?"
          r"(?:report|document|doc|filing|policy|procedure|standard|plan|handbook|manual|10-?K)|it|this|that)\s+"
          r"(?:say|says|talk|mention|cover|explain|describe|state|tell|list|set\s+out|deal\s+with|spell\s+out)|"
          r"do\s+(?:they|the\s+(?:[\w&'-]+\s+){0,3}?(?:policies|documents|docs|procedures|standards))\s+(?:say|talk|mention|"
          r"explain|describe|state|tell|spell\s+out)(?!\w))"),
    _rule("coverage:pointer:where-noun", "pointer",
          r"\bwhere(?:'s|\u2019s|\s+(?:is|are|was|were))\s+(?:the\s+|a\s+|any\s+)?(?:[\w-]+\s+)?(?:section|note|page|"
          r"part|item|bit|piece|disclosure|discussion|information|details?|description|table|breakdown|guidance|rules?|"
          r"requirements?|provisions?|instructions?)s?"
          r"(?:\s+in\s+(?:the|our|this|that)\s+(?:[\w&'-]+\s+){0,4}?(?:report|document|doc|filing|policy|procedure|"
          r"standard|plan|handbook|manual|contract|agreement|10-?K))?\s+(?:on|about|of|for|"
          r"regarding|concerning|related\s+to|relating\s+to|covering|describing|that|which)\b"),
    _rule("coverage:pointer:where-disclosed", "pointer", r"\bwhere\s+(?:is|are|was|were|does|do|did)\b",
          WHERE_DOC_VERBS),
    # NOTE: a reader names the place asked for in many frames ("which section of the information security policy
    # covers ...", "which bit of the infosec policy tells me ...", "point me to the section", "BCP - section on ...",
    # "where in Acme's Access policy ...", "where does acme's access policy deal with ..."): the noun of a place
    # asked for, or a document named after "where in"/"where does", is a pointer whatever the words between
    _rule("coverage:pointer:which-place", "pointer",
          rf"\b(?:which|what)\s+(?:{PLACE_NOUNS})\b(?!\s+(?:headings?|titles?|names?|numbers?|must|should|shall|do|does|are|were|have|has|need|apply)\b)"
          rf"|\b(?:which|what)\s+part\s+of\s+(?:[\w&'\u2019-]+\s+){{0,6}}?{PLACE_DOCS}\b"
          rf"|\bpoint\s+(?:me|us)\s+(?:to|at|towards)\b"
          rf"|(?:^|\s[-\u2013\u2014:]\s*)(?:the\s+)?(?:section|part|bit|chapter|clause|paragraph)\s+"
          rf"(?:on|about|covering|dealing\s+with|for|that)\b"),
    _rule("coverage:pointer:where-in-named", "pointer",
          rf"\bwhere\s+in\s+(?:[\w&'\u2019-]+\s+){{0,6}}?{PLACE_DOCS}\b"
          rf"|\bwhere\s+(?:does|do|did)\s+(?:[\w&'\u2019-]+\s+){{0,6}}?{PLACE_DOCS}\s+(?:\w+\s+)?{DOC_VERBS}\b"),
    _rule("coverage:list:list-all", "list", r"\blist\s+(?:out\s+)?(?:all|every|each)\b"),
    # NOTE: "What are the subsections under Access control ...?", "What topics does the personnel policy set requirements
    # on?", "Which disruption scenarios does the plan have a response for?": the parts of a section asked by their kind
    _rule("coverage:list:parts", "list",
          r"\b(?:what|which)\s+(?:are\s+the\s+|are\s+|were\s+the\s+)?(?:[\w-]+\s+)?(?:sub-?sections|topics|scenarios|use\s+cases|"
          r"headings)\b(?!\s+(?:of|in)\s+(?:revenue|sales|income)\b)"),
    _rule("coverage:list:list-the", "list",
          r"(?:^|[.?!;:]\s*|\b(?:please|you|and|then)\s+)list\b(?!\s+(?:prices?|of)\b)"
          r"|\blist\s+(?:the|any|out|which|what|those|these|its|their|[\w&]+'s)\b(?!\s+prices?\b)"),
    _rule("coverage:list:what-are-all", "list", r"\b(?:what|which)\s+(?:are|were)\s+all\b"),
    _rule("coverage:list:enumerate", "list", r"\b(?:enumerate|itemi[sz]e)\b"),
    _rule("coverage:list:every", "list",
          r"\b(?:give|show|tell|name|identify)\s+(?:me\s+|us\s+)?(?:all|every|each)\b"),
    _rule("coverage:list:all-significant", "list",
          r"\ball\b(?=\s+(?:of\s+)?(?:the\s+)?(?:significant|material|key|major|notable|main|principal|important|"
          r"reportable)\s+\w+s\b)", excludes=YES_NO),
    _rule("coverage:list:summarize-section", "list",
          r"\bsummari[sz]e\b(?=\s+(?:the\s+)?(?:[\w&'-]+\s+){0,4}?(?:section|chapter|part|note|item)\b)"
          r"|\b(?:give\s+(?:me\s+)?)?(?:a\s+)?summary\s+of\b(?=\s+(?:the\s+)?(?:[\w&'-]+\s+){0,3}?"
          r"(?:section|chapter|part|note|item)\b)"),
]

# -- pages ----------------------------------------------------------------------------------------
_ITEM = r"\d{1,4}(?:\s*(?:-|to|through|thru)\s*\d{1,4})?"
_NEXT = r"\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)\d{1,3}(?:\s*(?:-|to|through|thru)\s*\d{1,3})?"  # 3 digits: not a year
PAGE_REF = re.compile(
    rf"\b(?:pages?|pp\.?|p\.)\s*(?:no\.?\s*|number\s+|#\s*)?(?P<nums>{_ITEM}(?:{_NEXT})*)\b(?![-%])", re.I)
_ONES = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen " \
        "seventeen eighteen nineteen".split()
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
PAGE_WORD_REF = re.compile(rf"\bpage\s+(?P<tens>{'|'.join(_TENS)})?(?:[\s-]?(?P<ones>{'|'.join(_ONES[1:])}))?\b"
                           r"(?![-\w])", re.I)
MAX_RANGE = 200  # NOTE: "pages 1-5000" is a typo or a joke; beyond this only the two ends are kept


def _expand(item: str) -> list[int]:
    ends = [int(n) for n in re.findall(r"\d+", item)]
    if len(ends) == 2 and 0 <= ends[1] - ends[0] <= MAX_RANGE:
        return list(range(ends[0], ends[1] + 1))
    return ends


def find_pages(question: str) -> tuple[list[int], list[tuple[int, int]], str]:
    """1-based pages named in the question, the spans naming them, and the rule ("" when none)."""
    pages, spans, kinds = [], [], set()
    for m in PAGE_REF.finditer(question):
        items = re.split(r"\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)", m.group("nums"))
        kinds.add("page-range" if re.search(r"\d\s*(?:-|to|through|thru)\s*\d", m.group("nums"), re.I)
                  else "page-list" if len(items) > 1 else "page-number")
        pages += [p for item in items for p in _expand(item)]
        spans.append(m.span())
    for m in PAGE_WORD_REF.finditer(question):
        if m.group("tens") or m.group("ones"):
            kinds.add("page-number")
            tens, ones = (m.group("tens") or "").lower(), (m.group("ones") or "zero").lower()
            pages.append(_TENS.get(tens, 0) + _ONES.index(ones))
            spans.append(m.span())
    pages = sorted({p for p in pages if p >= 1})
    if not pages:
        return [], [], ""
    kind = "page-range" if "page-range" in kinds else "page-list" if len(pages) > 1 else "page-number"
    return pages, spans, f"location:{kind}"


# -- focus ----------------------------------------------------------------------------------------
def _focus(question: str, spans: Sequence[tuple[int, int]]) -> str:
    """The question without routing spans, analyst-prompt framing, stopwords and bare location nouns."""
    spans = list(spans) + [m.span() for p in BOILERPLATE for m in p.finditer(question)]
    keep, cursor = [], 0
    for start, end in sorted(spans):
        keep.append(question[cursor:max(cursor, start)])
        cursor = max(cursor, end)
    return " ".join(focus_words(" ".join(keep + [question[cursor:]])))


def _normalize(question: str) -> str:
    text = question.replace("\u2019", "'").replace("\u2018", "'").replace("\u2013", "-").replace("\u2014", "-")
    return re.sub(r"\s+", " ", text).strip()


@dataclass(frozen=True)
class Routed:
    """A question as the router read it: its intent, and the typed request its strategy answers (the
    strategy does not parse the question again)."""

    intent: Intent
    request: FigureRequest | MetricPlan | StatedAsk | VerdictRequest | PeopleAsk | RemarkAsk | None = None


WORDS_ONLY_KINDS = frozenset({"policy", "contract"})
"""Kinds of document that state rules and terms in words: no figure or metric is read from them."""


_SAID_ANYTHING = re.compile(r"\b(?:say|said|says)\s+anything\s*(?:at\s+all\s*)?(?:on|during|in)\b|\bspeak\s+at\s+all\b|"
                            # NOTE: "did dimon even talk on jpm's jan 2024 call or was it all barnum?"
                            r"\b(?:did|does|do)\s+[\w.'\u2019-]+(?:\s+[\w.'\u2019-]+){0,2}\s+(?:even|actually|really|ever)\s+"
                            r"(?:talk|speak|say\s+anything|show\s+up|appear|get\s+a\s+word\s+in)\b|"
                            r"\b(?:was|were|is)\s+[\w.'\u2019-]+(?:\s+[\w.'\u2019-]+){0,2}\s+(?:even|actually|really)\s+on\b", re.I)
"""Whether someone spoke at all ("did Dimon actually say anything on the call?", "was jamie dimon even on JPM's Q4 2023
call?"): no topic of what was said."""
_QUESTION_TO = re.compile(r"\bwho\s+(?:put|posed|directed|addressed|sent|asked)\s+(?:a\s+|any\s+)?questions?\s+(?:to|of|for)\b",
                          re.I)
"""The analysts asked by whom they questioned ("everyone who put a question to Zuck and Susan")."""
_STEPS_ASKED = re.compile(r"\b(?:what\s+(?:are|were)\s+the\s+(?:\w+\s+)?steps|(?:list|give|show)\s+(?:me\s+)?the\s+steps|"
                          r"steps?\s+(?:to|for)\s+(?!(?:19|20)\d\d\b)|how\s+do\s+(?:i|we)\s+(?!calculate|compute|work\s+out))", re.I)
"""A question asking how something is done ("What are the steps to fail over the call centre if the primary site goes
down?"): never a metric or a verdict, whatever movement its words name."""


def prints_figures(documents: Sequence[DocumentRecord], doc_scope: Sequence[str] = ()) -> bool:
    """Whether any document in scope (all of `documents` when no scope) can answer a figure, metric or
    verdict question: one that is not a policy or contract (a filing, or a document of another kind)."""
    scope = set(doc_scope)
    return any(d.kind not in WORDS_ONLY_KINDS for d in documents if not scope or d.doc_id in scope)


def _in_scope(documents: Sequence[DocumentRecord], doc_scope: Sequence[str]) -> list[DocumentRecord]:
    """The documents a question is scoped to (every one when the scope is empty)."""
    scope = set(doc_scope)
    return [d for d in documents if not scope or d.doc_id in scope]


def _calls_in_scope(documents: Sequence[DocumentRecord], doc_scope: Sequence[str], text: str) -> bool:
    """Whether a question is about call transcripts: every document in scope is one cut into speaker
    turns, or some are and the question names a call, its Q&A or one of its participants ("did the company
    raise its dividend?" over a 10-K and a call is the 10-K's question too)."""
    scope = _in_scope(documents, doc_scope)
    calls = [d for d in scope if (d.metadata or {}).get("transcript")]
    if not calls:
        return False
    if len(calls) == len(scope) or _CALL_WORDS.search(text):
        return True
    # NOTE: a role asked of a company whose calls are in scope ("who is the CFO of Snowflake?") is asked of its calls
    if _ROLE_ASKED.search(text) and names_company(text, [Identity.from_dict(d.identity or {}) for d in calls]):
        return True
    return any(names_person(text, p) for p in _participants(calls, ()))


_ROLE_ASKED = re.compile(r"\b(?:CEO|CFO|COO|chief\s+\w+\s+officer|head\s+of\s+investor\s+relations|investor\s+relations|"
                         r"chair(?:man|woman|person)?|president)\b", re.I)
"""A role asked of a company ("who is the CFO of Snowflake?")."""
_WITH_FIRMS = re.compile(r"\b(?:with|and)\s+(?:the\s+|their\s+|his\s+or\s+her\s+)?firms?\b|\bthe\s+firm\s+they\b", re.I)
"""A list of people asked with their firms ("each with the firm they were introduced with"): who they are, even when
the question names the executives they asked."""
_LIST_ASKED = re.compile(r"\blist\s+(?:every|all|each)\s+(?:\w+\s+){0,3}?(?:speakers?|executives?|analysts?|participants?|people)\b",
                         re.I)
"""'... or was it all Barnum? list every company speaker': the list asked, whoever the question names."""
_CONTENT_ASKED = re.compile(r"\bwhat\s+(?:did|do|does|were|was|questions?|topics?|issues?|themes?)\b|"
                            r"^\s*(?:did|does|do|was|were|has|have)\s+(?:any|anyone|anybody|an|the)\b|"
                            r"\bwhich\s+(?:topics?|themes?|issues?|questions?|subjects?)\b|\bdescribe\b|\bsummari[sz]e\b|"
                            r"\bwant(?:ed)?\s+to\s+know\b", re.I)
_TOPIC = re.compile(r"\b(?:about|concerning|regarding|related\s+to|topics?|themes?|issues?|pushback|push\s+back|"
                    r"focus(?:ed)?\s+on)\b", re.I)
_FIRM_S_ANALYST = re.compile(r"\bthe\s+[A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*){0,2}\s+(?:analyst|guy|gal)\b")


def _asks_topic_of_analysts(text: str) -> bool:
    """'Which topics did analysts focus on?', 'What did analysts ask about the efficiency ratio?': what analysts asked
    about a topic, not who asked ('what did the Morgan Stanley analyst ask?' is the firm's analyst's exchange, which the
    list of analysts answers)."""
    return bool(_CONTENT_ASKED.search(text) and _TOPIC.search(text) and not _FIRM_S_ANALYST.search(text))
_ROLE_SAID = re.compile(r"^\s*(?:what|how)\b[^?]{0,60}?\b(?:did|does|do|has|had)\s+(?:the\s+|[\w&.-]+['\u2019]s\s+)?"
                        r"(?:CEO|CFO|COO|chief\s+\w+\s+officer|head\s+of\s+investor\s+relations|IR\s+head|investor\s+relations|"
                        r"host|president|chair(?:man|woman)?)\b", re.I)
"""What a company role did ("What ground rules did TD's head of investor relations set for analyst questions?")."""


def _said_by_company_role(text: str, said) -> bool:
    """Whether a question asks what a company role said or did, whatever analysts it mentions."""
    return bool(_ROLE_SAID.search(text)) and any(r not in ("analyst", "management", "operator") for r in said.roles)


_WHO_ASKED = re.compile(r"\s*(?:(?:which|what)\s+(?:(?!(?:did|do|does|were|was|are|is|have|has|had)\b)[\w&.'\u2019-]+\s+)?"
                        r"(?:analysts?|execs?|executives|speakers)|who)\b", re.I)
"""A question that asks who ("Which analysts asked Charles Scharf about buybacks?", "which jpm execs said anything - just
barnum, or dimon too?"): the people, whoever it names."""
_SLIDE_ASKED = re.compile(r"\b(?:which|what)\s+(?:slides?|pages?)\b|\bon\s+which\s+(?:slide|page)\b|"
                          r"\bwhere\s+(?:in|on|does|do|is|are)\b[^?]{0,80}\b(?:deck|presentation|slides?)\b|"
                          r"^(?![^?]*\b(?:what\s+(?:was|is|were|are)|how\s+(?:much|many))\b)[^?]*?"
                          r"\b(?:the\s+)?(?:slide|page)\s+(?:(?:with|showing|that\s+(?:shows|has|gives))\b|w/)|"
                          r"\bthe\s+(?:slide|page)\s+(?:in|of|from)\s+[^?]{0,60}?\b(?:deck|presentation)\s+"
                          r"(?:that|which)\s+(?:shows?|has|gives|breaks)\b", re.I)
"""A question asking where in a deck something is ("which slide shows ...", "page with the FCF reconciliation?", "I need
the slide in Twilio's Q4 2023 earnings deck that shows how much revenue comes from ...")."""
_WHO_HOSTED = re.compile(r"\bwho\s+(?:hosted|hosts|was\s+(?:the\s+)?host(?:ing)?)\b", re.I)
"""The host asked by who they were, whoever else the question names on the way."""
_DECK_WORDS = re.compile(r"\b(?:decks?|presentations?|slides?)\b", re.I)


def _decks_in_scope(documents: Sequence[DocumentRecord], doc_scope: Sequence[str], text: str) -> bool:
    """Whether a where-is question is about slide decks: every document in scope is one, or some are and the question
    says deck, presentation or slide."""
    scope = _in_scope(documents, doc_scope)
    decks = [d for d in scope if (d.identity or {}).get("doc_type") == DECK_TYPE]
    return bool(decks) and (len(decks) == len(scope) or bool(_DECK_WORDS.search(text)))


_CALL_WORDS = re.compile(r"\b(?:earnings\s+|conference\s+|analyst\s+)?calls?\b|\btranscripts?\b|\bq\s?&\s?a\b|"
                         r"\bprepared\s+remarks\b|\bquestion[-\s]+and[-\s]+answer\b", re.I)
"""Words that put a question on a call when other documents are in scope too."""


def _participants(documents: Sequence[DocumentRecord], doc_scope: Sequence[str]) -> list[str]:
    """The names the call transcripts in scope print for their participants."""
    return participant_names(_in_scope(documents, doc_scope), ("operator",))


def _analyst_firms(documents: Sequence[DocumentRecord], doc_scope: Sequence[str]) -> list[str]:
    """The firms of the analysts the call transcripts in scope print."""
    return sorted({p.get("firm") or "" for d in _in_scope(documents, doc_scope)
                   for p in (d.metadata or {}).get("transcript", {}).get("participants", [])
                   if p.get("role") == "analyst"} - {""})


def route(question: str, documents: Sequence[DocumentRecord] = (), doc_filter: Sequence[str] = ()) -> Intent:
    """The intent of a question (see `read_question`)."""
    return read_question(question, documents, doc_filter).intent


def read_question(question: str, documents: Sequence[DocumentRecord] = (), doc_filter: Sequence[str] = (),
                  titles: dict[str, str] | None = None, mentions=None) -> Routed:
    """Classify a question into location / metadata / coverage / verdict / metric / figure / semantic,
    deterministically, with the typed request of the figure kinds.

    `doc_scope` comes from `resolve_scope` (an unknown `doc_filter` entry raises `DocumentNotFoundError`;
    `titles`, doc_id -> a document's own title, let a question name a policy by its title; `mentions(doc_id, word)`,
    whether a document's opening names a word, tells apart documents of one title by the organisation that owns them);
    `focus` is what retrieval should search for: the question without page and document references,
    routing cues, analyst-prompt framing and stopwords. `numeric` is False for metadata questions.
    """
    text = _normalize(question)
    coverage = [(rule, m) for rule in COVERAGE_RULES if (m := rule.search(text))]
    # NOTE: "which policies address data protection?" asks across the set: a title it happens to name
    # ("Data Protection") does not narrow it to that document
    titles = None if coverage and coverage[0][0].subtype == "documents" else titles
    doc_scope, _ = resolve_scope(text, documents, doc_filter, titles, mentions)
    removed = [(r.start, r.end) for r in find_references(text, documents)]
    if titles and not doc_filter:
        removed += [(r.start, r.end) for r in find_titles(text, titles)]
    pages, page_spans, location_rule = find_pages(text)
    # NOTE: "range of loss" is the topic too, as are the parts asked by their kind ("what scenarios does the BC plan have
    # specific plans for?": the section is "Scenario plans")
    cues = [m.span() for rule, m in coverage if rule.subtype != "attribute" and rule.name != "coverage:list:parts"]
    numeric = bool(_NUMERIC.search(text))
    common = {"doc_scope": doc_scope, "pages": pages}
    if location_rule:
        return Routed(Intent(type="location", subtype=coverage[0][0].subtype if coverage else None, rule=location_rule,
                             numeric=numeric, focus=_focus(text, removed + page_spans + cues), **common))
    on_calls = _calls_in_scope(documents, doc_scope, text)
    people = read_people_ask(text) if on_calls else None
    named = _participants(documents, doc_scope) if on_calls else []
    said = read_remark_ask(text, named) if on_calls else None
    affiliation = affiliation_of_named(text, named) if on_calls else None
    who_is = who_is_named(text, named) if on_calls else None
    if who_is is not None and affiliation is None and not (people is not None and people.kind == "handoff"):
        # NOTE: "Bharat asks 'Ray and Barb' to comment. Who is Barb and what does she run?": who she is, not what was said
        affiliation = who_is
    analyst_firms = _analyst_firms(documents, doc_scope) if on_calls else []
    firms = firm_reply_asked(text, analyst_firms) if analyst_firms else set()
    if firms and affiliation is None and (said is None or not said.names):
        # NOTE: "When Morgan Stanley asked Microsoft how ..., what was the answer?", "the morgan stanley analyst asked what
        # 'normal' NII looks like - what did management say?": the company's replies in that firm's exchanges
        people, said = None, RemarkAsk(roles=("management",), section="qa", firm=sorted(firms)[0])
    elif analyst_firms and affiliation is None and (said is None or not said.names) \
            and firm_exchange_asked(text, analyst_firms):
        # NOTE: "what did the Needham analyst ask, and what answers did he get?": that exchange, question and replies
        people, said = None, RemarkAsk(roles=("analyst", "management"), section="qa")
    elif analyst_firms and affiliation is None and (said is None or not said.names) \
            and (asking := firm_question_asked(text, analyst_firms)):
        # NOTE: "What did the Morgan Stanley analyst ask about?": that analyst's own questions, not the list of analysts
        people, said = None, RemarkAsk(roles=("analyst",), section="qa", firm=sorted(asking)[0])
    # NOTE: "the operator handed over to both X and Y. Which of them actually spoke first, and what is his title?": the
    # hand-off asked, with the title of whoever it names
    # NOTE: "who hosted - the person who ... handed over to Zuckerberg - and what is his title?": the host's title
    if affiliation is not None and not (people is not None and (people.kind == "handoff" or (
            people.kind == "role" and named_after_role(text, affiliation.name)) or (
            people.kind == "role" and people.role == "host" and _WHO_HOSTED.search(text)))):
        # "Raj Mehta asked about deposit betas - what firm is he with?"
        people, said = affiliation, None
    if on_calls and people is None and said is None:
        people = role_of_named(text, named)
    # NOTE: "What tax rate did James von Moltke tell analysts to use?" asks what a named person said, not who the analysts were;
    # "Besides Satya Nadella and Amy Hood, which other executives ...?" names people to set them aside
    if people is not None and not (said is not None and (said.names or _asks_topic_of_analysts(text)
                                                         or _said_by_company_role(text, said))
                                   and people.kind in ("analysts", "executives")
                                   and not _WHO_ASKED.match(text) and not _WITH_FIRMS.search(text)
                                   and not _LIST_ASKED.search(text) and not people.besides
                                   # NOTE: "X, Y and Z gave the prepared remarks. Which other executives spoke only in the
                                   # Q&A?": the names set the speakers of the remarks aside
                                   and people.role != "qa_only"
                                   # NOTE: "which Microsoft people did Brett Iversen say were on the call with him?":
                                   # those he introduced, not what he said
                                   and not (people.kind == "executives" and people.introduced)
                                   # NOTE: "did Dimon actually say anything on JPM's 4Q23 call? who from the bank spoke
                                   # on it?": whether he spoke at all is who spoke
                                   and not (people.kind == "executives" and _SAID_ANYTHING.search(text))
                                   # NOTE: "everyone who put a question to Zuck and Susan": they were asked, the analysts ask
                                   and not (people.kind == "analysts" and _QUESTION_TO.search(text))):
        # "who's the CFO?", "which analysts asked questions?" over call transcripts
        return Routed(Intent(type="coverage", subtype="speakers", rule=f"coverage:speakers:{people.kind}",
                             focus=_focus(text, removed), **common), people)
    if _SLIDE_ASKED.search(text) and _decks_in_scope(documents, doc_scope, text):  # "which slide shows ...?" of a deck
        return Routed(Intent(type="semantic", subtype="slides", rule="semantic:slides", focus=_focus(text, removed),
                             **common))
    if said is not None:  # "what did the CFO say about expenses?" over call transcripts
        return Routed(Intent(type="semantic", subtype="remarks", rule="semantic:remarks", focus=_focus(text, removed),
                             **common), said)
    for rule in METADATA_RULES:
        if rule.search(text):
            return Routed(Intent(type="metadata", subtype=rule.subtype, rule=rule.name, focus=_focus(text, removed),
                                 **common))
    if coverage:
        rule = coverage[0][0]
        # NOTE: a pointer asks where something is, never for an amount, even when it names a KPI
        numeric = rule.subtype in ("numeric_list", "attribute") or (numeric and rule.subtype != "pointer")
        return Routed(Intent(type="coverage", subtype=rule.subtype, rule=rule.name, numeric=numeric,
                             focus=_focus(text, removed + cues), **common))
    focus = _focus(text, removed)
    if documents and not prints_figures(documents, doc_scope):
        return Routed(Intent(type="semantic", rule="semantic:no-figures", numeric=numeric, focus=focus, **common))
    explained = bool(EXPLAIN.search(asking_sentences(text)))  # NOTE: the scene set before the question explains nothing
    if not explained and not _STEPS_ASKED.search(text):
        verdict = read_verdict(text)
        if verdict is not None:
            return Routed(Intent(type="verdict", rule=f"verdict:{verdict.kind}", numeric=True, focus=focus, **common),
                          verdict)
        metric = read_plan(text)
        if metric is not None:
            return Routed(Intent(type="metric", rule=f"metric:{metric.source}", numeric=True, focus=focus, **common),
                          metric)
    if is_figure_question(text):
        return Routed(Intent(type="figure", rule="figure:line-item", numeric=True, focus=focus, **common),
                      read_request(text, focus))
    ask = read_ask(text) if not explained else None
    if ask is not None:  # "by how much did it increase ...?"
        return Routed(Intent(type="metric", rule="metric:text", numeric=True, focus=focus, **common), ask)
    return Routed(Intent(type="semantic", rule="semantic:numeric-kpi" if numeric else "semantic:default",
                         numeric=numeric, focus=focus, **common))
