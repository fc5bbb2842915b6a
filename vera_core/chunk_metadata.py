"""The one metadata contract of a chunk (a llama-index TextNode): key names and their meaning.

Values are flat scalars (str/int/float) because Chroma rejects nested metadata.
"""

from __future__ import annotations

DOC_ID = "doc_id"
"""Document id (16 hex digits of the file's SHA-256)."""
DOC_NAME = "doc_name"
"""File name, e.g. `3M_2018_10K.pdf`."""
FORMAT = "format"
"""`pdf` or `markdown`."""
CHUNK_ID = "chunk_id"
"""`<doc_id>-<position:05d>`; also the node id and the vector id."""
KIND = "kind"
"""`text`, `table` or `code`."""
POSITION = "position"
"""0-based order of the chunk in the document."""
PAGE_START = "page_start"
"""1-based first page; 0 for Markdown (no pages)."""
PAGE_END = "page_end"
"""1-based last page; 0 for Markdown."""
HEADING_PATH = "heading_path"
"""`<doc stem>/<h1>/<h2>...`: the headings enclosing the chunk."""
SECTION_ID = "section_id"
"""`<doc stem>/<h1>`: the top-level section (coarser than the heading path)."""
CAPTION = "caption"
"""Tables: caption line(s) above the table; empty otherwise."""
POLYGONS = "polygons"
"""JSON list of {page, x0, y0, x1, y1} in PDF points; empty list for Markdown."""
TOKENS = "tokens"
"""Word pieces of the chunk's embedding text."""

KIND_TEXT = "text"
KIND_TABLE = "table"
KIND_CODE = "code"

HIDDEN_FROM_MODELS = [POLYGONS, CHUNK_ID, DOC_ID, POSITION, TOKENS, PAGE_END, FORMAT]
"""Keys excluded from the text that embedding models and LLMs see."""

HEADING_SEPARATOR = "/"
