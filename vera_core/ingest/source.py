"""Read and validate an input file before any parsing: format, size and identity."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from vera_core.errors import (EmptyDocumentError, FileTooLargeError, InvalidMarkdownError,
                              InvalidPDFError, UnsupportedFormatError)

FORMATS = {".pdf": "pdf", ".md": "markdown", ".markdown": "markdown"}


@dataclass(frozen=True)
class SourceFile:
    """A file accepted for ingestion: its bytes and identity."""

    name: str
    """File name as given (no folders)."""
    format: str
    """`pdf` or `markdown`."""
    data: bytes
    sha256: str

    @property
    def doc_id(self) -> str:
        """Stable id from the bytes: the same bytes are the same document, whatever the name."""
        return self.sha256[:16]


def load_source(path: Path | str, *, max_file_mb: float, data: bytes | None = None,
                name: str | None = None) -> SourceFile:
    """Validate a file by extension, size and magic bytes; `data`/`name` serve uploads held in memory."""
    path = Path(path)
    name = name or path.name
    suffix = Path(name).suffix.lower()
    if suffix not in FORMATS:
        raise UnsupportedFormatError(
            f"{name!r} has extension {suffix or '(none)'!r}; VERA ingests PDF (.pdf) and Markdown "
            f"(.md, .markdown). Export the document to PDF or Markdown and ingest that file.")
    size = len(data) if data is not None else path.stat().st_size
    limit = int(max_file_mb * 1024 * 1024)
    if size > limit:
        raise FileTooLargeError(
            f"{name!r} is {size / 1048576:.1f} MiB, over the {max_file_mb:g} MiB limit. Split the file, "
            f"or raise the limit with VERA_MAX_FILE_MB.")
    if data is None:
        data = path.read_bytes()
    if not data.strip():
        raise EmptyDocumentError(f"{name!r} is empty (0 bytes of content). Choose the complete file.")
    fmt = FORMATS[suffix]
    if fmt == "pdf" and b"%PDF-" not in data[:1024]:
        raise InvalidPDFError(
            f"{name!r} is named .pdf but is not a PDF (no %PDF header). Check that it downloaded "
            f"completely, or rename it to its real format.")
    if fmt == "markdown":
        check_markdown_bytes(name, data)
    return SourceFile(name=name, format=fmt, data=data, sha256=hashlib.sha256(data).hexdigest())


def check_markdown_bytes(name: str, data: bytes) -> None:
    """Reject binary or non-UTF-8 content named .md."""
    if b"\x00" in data[:65536]:
        raise InvalidMarkdownError(
            f"{name!r} contains binary data (NUL bytes), not Markdown text. Choose the text file.")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidMarkdownError(
            f"{name!r} is not UTF-8 text (invalid byte at offset {exc.start}). Re-save it as UTF-8.") from exc
