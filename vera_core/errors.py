"""Typed errors. Every message names the input and the fix; the UI and CLI render them."""

from __future__ import annotations


class VeraError(Exception):
    """Base of every error VERA raises on purpose (bad input, broken store, missing model)."""


class UnsupportedFormatError(VeraError):
    """The file's extension is not one VERA ingests (.pdf, .md, .markdown)."""


class InvalidPDFError(VeraError):
    """The bytes are not a readable PDF (corrupt, truncated, or another format named .pdf)."""


class EncryptedPDFError(VeraError):
    """The PDF needs a password to read."""


class EmptyDocumentError(VeraError):
    """The document has no pages or no extractable text (scanned PDF, empty Markdown)."""


class FileTooLargeError(VeraError):
    """The file exceeds the configured size limit (`VERA_MAX_FILE_MB`)."""


class InvalidMarkdownError(VeraError):
    """The Markdown file is binary or not decodable as UTF-8 text."""


class ParseBudgetError(VeraError):
    """Reading one file took longer, or more memory, than its budget (`VERA_PARSE_TIMEOUT_S`,
    `VERA_PARSE_MEMORY_MB`); the file is refused and the queue goes on."""


class SchemaContractError(VeraError):
    """The catalog's schema lacks a table or column the code relies on; `vera migrate` fixes it."""


class StoreUnavailableError(VeraError):
    """A server the store needs (the catalog database, the vector server) cannot be reached."""


class DocumentNotFoundError(VeraError):
    """A document reference (name, file name or id) matched nothing, or more than one document."""


class EmbeddingModelError(VeraError):
    """The offline embedding model could not be loaded from disk."""


class LLMUnavailableError(VeraError):
    """No LLM is configured, or it failed after retries; callers fall back to deterministic answers.

    `cause` is a short phrase for the user ("rate limited (429) after 3 attempts")."""

    def __init__(self, cause: str) -> None:
        super().__init__(f"LLM unavailable: {cause}. Answered deterministically.")
        self.cause = cause
