"""VERA's UI-free library: ingestion, stores, retrieval, answers and their verification."""

from __future__ import annotations

import sys

# NOTE: pymupdf 2.0 imports its layout analyser on import, and that loads an ONNX model (~0.4 s in
# every process: the app's first page, each parse and embedding worker). VERA never calls
# `Page.get_layout()`, the one user of it; a None entry makes pymupdf's `import pymupdf.layout` fail
# quietly, as it does where the package is not installed. Likewise pymupdf4llm, which pymupdf imports
# for its `to_markdown` helpers (VERA parses pages itself) and which imports onnxruntime: 0.15-0.3 s.
if "pymupdf" not in sys.modules:
    sys.modules.setdefault("pymupdf.layout", None)
    sys.modules.setdefault("pymupdf4llm", None)
