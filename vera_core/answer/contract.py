"""The answer contract: one typed model that the CLI prints with --json, the app renders and the
export writes. Outside tools read it: extend it, never rename or drop a field."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, computed_field, model_validator

IntentType = Literal["location", "coverage", "metadata", "semantic", "figure", "metric", "verdict"]
CoverageSubtype = Literal["list", "attribute", "numeric_list", "pointer", "documents"]
MetadataSubtype = Literal["default_currency", "reporting_period", "accounting_framework", "units",
                          "consolidation_basis"]
GroundingLabel = Literal["grounded", "partial", "ungrounded"]

GROUNDED_MIN = 0.85
PARTIAL_MIN = 0.70


def grounding_label(score: float) -> GroundingLabel:
    """`grounded` >= 0.85, `partial` 0.70-0.84, `ungrounded` < 0.70."""
    return "grounded" if score >= GROUNDED_MIN else "partial" if score >= PARTIAL_MIN else "ungrounded"


class Intent(BaseModel):
    """What kind of question this is, and why the router thinks so."""

    type: IntentType
    subtype: str | None = Field(default=None, description="coverage: list|attribute|numeric_list|pointer|documents|speakers; "
                                "metadata: the fact name; semantic: remarks (what was said on a call), slides (which slide "
                                "of a deck shows something) or None")
    rule: str = Field(description="The router rule that fired, e.g. 'location:page-number'.")
    pages: list[int] = Field(default_factory=list, description="1-based pages named in the question.")
    doc_scope: list[str] = Field(default_factory=list, description="doc_ids the question is limited to.")
    numeric: bool = Field(default=False, description="Semantic: the question asks for amounts/KPIs.")
    focus: str = Field(default="", description="The question without routing phrases (what to search).")


class Polygon(BaseModel):
    """A highlight region: PDF points, PyMuPDF page coordinates (origin top-left)."""

    page: int = Field(description="1-based page number.")
    x0: float
    y0: float
    x1: float
    y1: float


class Citation(BaseModel):
    """One piece of evidence, numbered as the [n] markers in the answer."""

    n: int = Field(description="1-based citation number used in [n] markers.")
    doc_id: str
    doc_name: str
    format: str = Field(description="pdf or markdown")
    page: int | None = Field(description="1-based page of the evidence; None for Markdown.")
    heading_path: str
    chunk_id: str
    kind: str = Field(description="text, table or code")
    quote: str = Field(description="The cited passage or table rows, under 500 characters.")
    polygons: list[Polygon] = Field(default_factory=list, description="Regions to highlight.")
    context_polygons: list[Polygon] = Field(default_factory=list, description="Regions drawn faintly around the "
                                            "highlight: the whole table of a cited cell.")
    score: float = Field(description="Retrieval score of the chunk (fused rank score or 1.0 for scoped reads).")
    doc_type: str = Field(default="", description="The cited document's type (10-K, 10-Q, release, transcript, slides, "
                                                  "...; '' when not read).")
    quarter: str = Field(default="", description="The period the cited document covers: '2024-Q3', 'FY2024' ('' unknown).")
    speaker: str = Field(default="", description="A transcript's cited turn: the speaker's name ('' otherwise).")
    table_id: str = Field(default="", description="A cited table: its table id (as `vera table` lists it); '' otherwise.")


class Item(BaseModel):
    """One element of a list answer."""

    text: str
    citations: list[int] = Field(default_factory=list)
    amount: str | None = Field(default=None, description="numeric_list: the item's amount as printed.")
    verified: bool | None = Field(default=None, description="Coverage verifier: >= 70% of its tokens in the cited chunk.")


class ClaimCheck(BaseModel):
    """Support of one answer sentence or list item by its cited chunks."""

    text: str
    citations: list[int] = Field(default_factory=list)
    support: float = Field(ge=0.0, le=1.0, description="Support score in [0, 1].")
    supported: bool
    lexical: float = Field(ge=0.0, le=1.0, description="Share of the claim's content tokens in its sources.")
    semantic: float | None = Field(default=None, description="Cosine of claim and best source, if computed.")
    numbers_ok: bool = Field(description="Every number in the claim matched its sources.")


class NumberCheck(BaseModel):
    """A number of the answer looked up in its cited table or text."""

    text: str = Field(description="The number as written in the answer.")
    value: float = Field(description="Normalised value (scale words applied, parentheses negative).")
    status: Literal["match", "mismatch", "not_found"]
    citation: int | None = Field(default=None, description="The citation it was checked against.")
    source_text: str | None = Field(default=None, description="The closest figure in the source, as printed.")
    source_value: float | None = None
    message: str = ""


class AuditCheck(BaseModel):
    """LLM verifier of one figure claim: the extractor's reading and the auditor's verdict."""

    citation: int = Field(description="The citation whose chunk was audited.")
    claim: str = Field(description="The claim as written in the answer.")
    extracted: str = Field(description="The figure the extractor read in the chunk ('NONE' if none).")
    supported: bool = Field(description="The auditor answered YES: the chunk states the claim.")


WarningCode = Literal["grounding", "figure_check", "coverage_check", "nothing_found", "llm_unknown_source",
                      "llm_uncited_claim", "auditor", "other"]
"""What an answer's warning is about: a program reads the code, never the text's words."""

_LEGACY_PREFIXES: tuple[tuple[str, WarningCode], ...] = (
    ("This answer is ", "grounding"), ("Figure check:", "figure_check"), ("Coverage check failed", "coverage_check"),
    ("The LLM cited sources", "llm_unknown_source"), ("Dropped an LLM statement", "llm_uncited_claim"),
    ("Auditor:", "auditor"))
"""How warnings were told apart before they carried codes: only to read answers saved without codes."""


class AnswerWarning(BaseModel):
    """A warning an answer carries: its code, and the text a reader reads."""

    code: WarningCode
    text: str


class Verification(BaseModel):
    grounding_score: float = Field(ge=0.0, le=1.0)
    label: GroundingLabel
    claims: list[ClaimCheck] = Field(default_factory=list)
    numbers: list[NumberCheck] = Field(default_factory=list)
    alerts: list[AnswerWarning] = Field(default_factory=list, description="The warnings, each with its code.")
    audits: list[AuditCheck] = Field(default_factory=list, description="LLM extractor + auditor checks (LLM modes).")

    @computed_field(description="The warnings' texts, in order (the contract's field; `alerts` adds their codes).")
    @property
    def warnings(self) -> list[str]:
        return [a.text for a in self.alerts]

    @model_validator(mode="before")
    @classmethod
    def _saved_warnings(cls, data):
        """An answer saved with `warnings` texts and no `alerts` (or made from texts) gets them as alerts."""
        if isinstance(data, dict) and "warnings" in data:
            data = dict(data)
            texts = data.pop("warnings") or []
            if "alerts" not in data:
                data["alerts"] = [{"code": next((c for p, c in _LEGACY_PREFIXES if t.startswith(p)), "other"), "text": t}
                                  for t in texts]
        return data


class LLMUsage(BaseModel):
    """What the optional LLM layer did for one answer."""

    model: str = Field(description="Claude model name.")
    calls: int = Field(default=0, description="Messages API calls that returned.")
    input_tokens: int = Field(default=0)
    output_tokens: int = Field(default=0)
    cost_usd: float = Field(default=0.0, description="At the configured prices per million tokens.")
    wrote_answer: bool = Field(default=False, description="The answer's claims are the LLM's (each still verified).")


class RetrievalInfo(BaseModel):
    hops: int = Field(default=1, description="Retrieval rounds (iterative expansion adds hops, max 3).")
    coverage: float = Field(default=0.0, ge=0.0, le=1.0, description="Share of the question's key terms found in the context.")
    searched_pages: list[int] = Field(default_factory=list, description="1-based pages the answer's scope covered.")
    candidates: int = Field(default=0, description="Chunks considered.")
    sections: list[str] = Field(default_factory=list, description="Heading paths read (coverage scopes).")
    mode: str = Field(default="hybrid", description="hybrid or dense")
    ranked_pages: list[int] = Field(default_factory=list, description="1-based pages in evidence order: "
                                    "cited first, then retrieved candidates (page recall@k reads this).")
    ranked_docs: list[str] = Field(default_factory=list, description="doc_id of each entry of ranked_pages.")
    dense_pending: list[str] = Field(default_factory=list, description="Documents in scope that are searchable but "
                                     "whose dense vectors are still being written (searched by keywords and "
                                     "structure only), by name.")
    dense_unavailable: str = Field(default="", description="Why dense search is off or partial for this process: "
                                   "the store's vectors were made by another embedding model, or are being "
                                   "re-embedded (`vera reembed`); '' when dense search reads every complete document.")


class FigureCell(BaseModel):
    """The table cell a figure was read from."""

    chunk_id: str = Field(description="The table chunk (its table_id in `vera table`).")
    row: int = Field(description="0-based body row of the grid.")
    col: int = Field(description="0-based column of the grid (0 is the row label).")
    page: int | None = Field(default=None, description="1-based page of the cell; None for Markdown.")
    bbox: list[float] | None = Field(default=None, description="[x0, y0, x1, y1] of the printed figure, PDF points.")


class Figure(BaseModel):
    """A figure the answer states, read from one cell."""

    line_item: str = Field(description="The line item asked, as the answer names it.")
    row_label: str = Field(default="", description="The row label as printed.")
    period: str = Field(description="The period as an analyst reads it, e.g. 'FY2018 (year ended December 31, 2018)'.")
    period_end: str = Field(default="", description="ISO end date of the period ('' when not printed).")
    value: float = Field(description="The figure in the unit the answer states: `value` x `scale` units of `unit`.")
    unit: str = Field(description="Currency code, '%' for percentages, '' when the table states none.")
    scale: float = Field(description="1, 1e3, 1e6 or 1e9: the scale `value` is stated in (the unit asked).")
    printed: str = Field(description="The cell as printed, e.g. '(1,577)'.")
    printed_scale: float = Field(default=1.0, description="The scale the table prints in.")
    statement: str = Field(default="", description="income, balance, cash_flow, equity, comprehensive_income or '' (a note).")
    table_title: str = Field(default="")
    cell: FigureCell
    citation: int | None = Field(default=None, description="The [n] citation of the cell.")
    source: Literal["cell", "sentence"] = Field(
        default="cell", description="'cell': read from a table cell; 'sentence': a figure a sentence states and no table "
        "prints (`cell` then names the sentence's text chunk, with row and col -1).")


class CalculationOperand(BaseModel):
    """One operand of a calculation: a cited table cell, or an amount a cited sentence states."""

    name: str = Field(description="The operand as the formula names it, e.g. 'revenue'.")
    row_label: str = Field(default="", description="The row label as printed.")
    value: float = Field(description="The value used, in units of `unit` (scale applied; an outflow as spent).")
    period: str = Field(description="The period read, as an analyst reads it.")
    unit: str = Field(description="Currency code, '%' or ''.")
    printed: str = Field(description="The cell as printed.")
    statement: str = Field(default="")
    proposed_by_llm: bool = Field(default=False, description="Claude named this row (no row was found by VERA); "
                                  "the cell and the arithmetic are still VERA's.")
    cell: FigureCell | None = Field(default=None, description="The table cell read; None for an amount read "
                                    "from a sentence (source 'text': the citation quotes the sentence).")
    citation: int | None = Field(default=None, description="The [n] citation of the cell.")


class PeriodResult(BaseModel):
    """A metric computed for one period (direction questions compute several)."""

    period: str
    result: float
    rounded: str


class Calculation(BaseModel):
    """A computed metric: VERA's arithmetic over cited cells, or what was missing."""

    metric: str = Field(description="The metric as the question names it.")
    definition: str = Field(description="The formula used, as written in the question or the library.")
    source: Literal["question", "library", "text"] = Field(
        description="Where the definition came from: the question, the library (vera_core/data/metrics.md), or 'text': a "
                    "change or total the question asks of amounts stated in sentences (vera_core/metrics/stated.py).")
    expression: str = Field(description="The calculation with each operand's value, e.g. '32,765 / ((8,738 + 8,866) / 2)'.")
    result: float | None = Field(default=None, description="Unrounded result (percent metrics in percent); None when abstaining.")
    rounded: str | None = Field(default=None, description="The result as stated, rounded as asked, with its unit.")
    unit: str = Field(description="percent, ratio, days or amount (a change of percentages is in percentage points).")
    period: str = Field(default="", description="The period computed (the last one for direction questions).")
    operands: list[CalculationOperand] = Field(default_factory=list)
    results: list[PeriodResult] = Field(default_factory=list, description="Direction questions: one result per period.")
    direction: str | None = Field(default=None, description="improved, declined or unchanged (direction questions).")
    aggregate: str | None = Field(default=None, description="A metric over several years: mean (of the yearly values), "
                                  "growth (last / first - 1, percent), change (last - first) or sum (of each quarter's "
                                  "printed figure); `results` are the per-period values, `result` the aggregate.")
    missing: list[str] = Field(default_factory=list, description="Operands not found, with where VERA looked.")


class DocumentMatch(BaseModel):
    """Document-coverage answers: one document in scope, and whether a passage of it addresses the topic."""

    doc_id: str
    doc_name: str
    kind: str = Field(description="filing, policy, contract or other (vera_core/documents/kinds.py).")
    kind_basis: str = Field(default="", description="How the kind was decided: user, title, front matter, opening, "
                            "headings, vocabulary, file name, or uncertain (then searched whatever the kind asked).")
    status: Literal["matched", "not_matched", "other_kind"] = Field(
        description="matched: a passage addresses the topic (cited); not_matched: searched, none does; "
                    "other_kind: not of the kind the question names ('which policies'), not searched.")
    section: str = Field(default="", description="The matched passage's section path, ' > ' between titles.")
    score: float | None = Field(default=None, description="The best passage's topic coverage in [0, 1] (searched documents).")
    citation: int | None = Field(default=None, description="The [n] citation of the matched passage.")


class Verdict(BaseModel):
    """A yes/no or which-one answer over figures ("Is working capital positive?", "Which segment had the
    highest operating income?"), computed by VERA from gated figures, each cited in the answer."""

    value: str | None = Field(default=None, description="yes, no, or the name that answers a which-one question; "
                              "None when the verdict is withheld.")
    basis: str = Field(default="", description="What was compared, e.g. 'gross margin, FY2018 vs FY2019'.")
    withheld: str = Field(default="", description="Why no verdict was given (a figure missing or not checked).")


class Timings(BaseModel):
    route: float = 0.0
    retrieve: float = 0.0
    synthesize: float = 0.0
    verify: float = 0.0
    total: float = 0.0


class Answer(BaseModel):
    """A cited answer with its verification."""

    question: str
    intent: Intent
    answer: str = Field(description="Answer text with [n] citation markers.")
    items: list[Item] = Field(default_factory=list)
    citations: list[Citation] = Field(default_factory=list)
    verification: Verification
    retrieval: RetrievalInfo = Field(default_factory=RetrievalInfo)
    timings_ms: Timings = Field(default_factory=Timings)
    mode: str = Field(default="deterministic", description="Coverage mode used: deterministic, llm_fallback, llm_always.")
    notices: list[str] = Field(default_factory=list, description="Things the user should know (e.g. LLM unavailable).")
    llm: LLMUsage | None = Field(default=None, description="Token usage and cost when the LLM layer was called.")
    figures: list[Figure] = Field(default_factory=list, description="Figures read from table cells (figure answers).")
    calculation: Calculation | None = Field(default=None, description="Computed metrics: the calculation and its cited operands.")
    documents: list[DocumentMatch] = Field(default_factory=list, description="Document-coverage answers: every "
                                           "document in scope, matched or not, in the answer's order.")
    verdict: Verdict | None = Field(default=None, description="Yes/no and which-one questions over figures: the "
                                    "verdict VERA computed (or why it was withheld); the figures are the citations.")
