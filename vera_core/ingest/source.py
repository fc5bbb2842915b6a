"""Read and validate an input file before any parsing: format, size and identity."""

from __future__ import annotations

import hashlib
import re
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


NAME_CHARS = 160
"""The longest document name kept (the extension is kept whole within it)."""


def document_name(sent: str | None) -> str:
    """The name a document is stored under, from the name an upload was sent with: its base name (no folder
    part, whichever the separator), printable characters only, spaces collapsed, at most NAME_CHARS
    characters with its extension kept; "upload" when nothing is left."""
    base = re.split(r"[\\/]", sent or "")[-1]
    base = re.sub(r"\s+", " ", "".join(ch if ch.isprintable() else " " for ch in base)).strip()
    if base.strip(".") == "":
        return "upload"
    if len(base) > NAME_CHARS:
        suffix = Path(base).suffix if len(Path(base).suffix) <= 16 else ""
        base = base[:NAME_CHARS - len(suffix)].rstrip() + suffix
    return base


def check_markdown_bytes(name: str, data: bytes) -> None:
    """Reject binary content named .md, or text in no encoding VERA reads (see `markdown_text`)."""
    markdown_text(name, data)


_BOMS = ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32"),
         (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))


def markdown_text(name: str, data: bytes) -> str:
    """The text of a Markdown file: UTF-8 (with or without a byte-order mark), or UTF-16/32 with a
    byte-order mark, or UTF-16 without one (as Windows tools export); line ends made `\\n`.
    Raises `InvalidMarkdownError` naming the file for binary data or undecodable text."""
    encoding = next((enc for bom, enc in _BOMS if data.startswith(bom)), None)
    if encoding is None and len(data) >= 4 and b"\x00" in data[:4096]:
        head = data[:4096]
        if head[1::2].count(0) > len(head) // 4 and head[0::2].count(0) == 0:
            encoding = "utf-16-le"
        elif head[0::2].count(0) > len(head) // 4 and head[1::2].count(0) == 0:
            encoding = "utf-16-be"
        else:
            raise InvalidMarkdownError(
                f"{name!r} contains binary data (NUL bytes), not Markdown text. Choose the text file.")
    try:
        text = data.decode(encoding or "utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidMarkdownError(
            f"{name!r} is not {(encoding or 'UTF-8').upper()} text (invalid byte at offset {exc.start}). "
            f"Re-save it as UTF-8.") from exc
    if "\x00" in text:
        raise InvalidMarkdownError(
            f"{name!r} contains binary data (NUL characters), not Markdown text. Choose the text file.")
    return text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
