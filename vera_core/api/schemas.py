"""The API's request and response bodies (the retrieval design's `POST /query` contract, with VERA's
answer contract inside)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from vera_core.answer.contract import Answer, Citation, Verification
from vera_core.documents.filters import LibraryFilters

DocType = Literal["10-K", "10-Q", "8-K", "release", "transcript", "slides", "annual_report", "policy", "contract", "other"]
"""vera_core.documents.identity.DOC_TYPES, as the API's schema lists them."""


class Filters(BaseModel):
    model_config = ConfigDict(extra="forbid")

    doc_ids: list[str] = Field(default_factory=list, description="Only these documents (ids).")
    kinds: list[Literal["filing", "policy", "contract", "other"]] = Field(default_factory=list,
                                                                         description="Only documents of these kinds.")
    fiscal_period: str | None = Field(default=None, description="Only documents whose reporting period names this "
                                      "(e.g. 2022 or FY2022).")
    format: Literal["pdf", "markdown"] | None = Field(default=None, description="Only PDFs or only Markdown files.")
    quarter: str | list[str] = Field(default_factory=list, description="Only documents of these fiscal quarters as the "
                                     "company labels them ('2025-Q2', 'Q2 2025') or fiscal years ('FY2024').")
    fiscal_year: int | list[int] = Field(default_factory=list, description="Only documents of these fiscal years.")
    doc_type: DocType | list[DocType] = Field(default_factory=list, description="Only documents of these types.")
    speaker: str | list[str] = Field(default_factory=list, description="Answer from these speakers' turns of the call "
                                     "transcripts in scope (names, or roles: CEO, CFO, analyst).")
    segment: str | list[str] = Field(default_factory=list, description="The business segment asked about ('Reality "
                                     "Labs'): only documents printing its name, the question asked of it. One at a time.")

    def library(self) -> LibraryFilters:
        """The quarter, fiscal year, type, speaker and segment filters as one record (a bad quarter, or two segments,
        raises VeraError)."""
        listed = lambda v: tuple(v) if isinstance(v, list) else (v,)  # noqa: E731
        return LibraryFilters(quarter=listed(self.quarter), fiscal_year=listed(self.fiscal_year),
                              doc_type=listed(self.doc_type), speaker=listed(self.speaker),
                              segment=listed(self.segment))


class QueryRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: str = Field(min_length=1, max_length=4000)
    filters: Filters = Field(default_factory=Filters)
    top_k: int = Field(default=8, ge=1, le=50)
    include_images: bool = Field(default=False, description="Each cited page as a PNG with its highlight, base64.")
    mode: Literal["deterministic", "llm_fallback", "llm_always"] = "llm_fallback"


class CitationOut(Citation):
    image_url: str | None = Field(default=None, description="The cited page rendered with this citation highlighted.")
    image_png_base64: str | None = Field(default=None, description="That image, when include_images was asked.")


class Source(BaseModel):
    doc_id: str
    name: str
    kind: str
    format: str
    pages: int


class QueryResponse(BaseModel):
    answer: str
    citations: list[CitationOut]
    sources: list[Source]
    verification: Verification
    vera: Answer = Field(description="VERA's whole answer: figures, calculation, documents, retrieval, timings.")


class DocumentOut(BaseModel):
    doc_id: str
    name: str
    format: str
    kind: str
    pages: int
    chunks: int
    tables: int
    stage: str
    warnings: list[str]
    collections: list[str]
    doc_type: str = Field(default="", description="10-K, 10-Q, 8-K, release, transcript, slides, annual_report, policy, "
                                                  "contract or other ('' when not read yet).")
    company: str = Field(default="", description="The company, as the document names it.")
    fiscal_year: int | None = Field(default=None, description="The fiscal year as the company numbers it.")
    fiscal_quarter: int | None = Field(default=None, description="1-4 for a quarter's document; none for a year's.")
    quarter: str = Field(default="", description="'2024-Q3' for a quarter, 'FY2024' for a year.")
    period_end: str = Field(default="", description="ISO date the covered period ends ('' when not printed).")
    identity_basis: dict[str, str] = Field(default_factory=dict, description="What each of these was read from, or 'user'.")


class JobOut(BaseModel):
    job_id: int
    kind: str
    name: str
    doc_id: str | None
    status: str
    stage: str
    progress: float
    error: str
    error_type: str


class UploadOut(BaseModel):
    status: Literal["queued", "already present"]
    doc_id: str
    job: JobOut | None = None
    collection: str | None = None


class ErrorOut(BaseModel):
    error: str = Field(description="What is wrong, and the fix.")
    field: str | None = Field(default=None, description="The request field at fault, when one is.")
