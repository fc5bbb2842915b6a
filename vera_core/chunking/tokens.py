"""Word-piece counting with the embedding model's own tokenizer, so chunks fit what it reads."""

from __future__ import annotations

import functools
import re
from pathlib import Path

from tokenizers import Tokenizer

from vera_core.index.model_path import resolve_model_path


@functools.lru_cache(maxsize=4)
def _tokenizer(model_dir: str) -> Tokenizer:
    tokenizer = Tokenizer.from_file(str(Path(model_dir) / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


class TokenCounter:
    """Counts word pieces (without the [CLS]/[SEP] the model adds)."""

    def __init__(self, model_dir: Path | None = None) -> None:
        self._model_dir = str(resolve_model_path(model_dir))

    def count(self, text: str) -> int:
        return len(_tokenizer(self._model_dir).encode(text, add_special_tokens=False).ids)

    def count_many(self, texts: list[str]) -> list[int]:
        tokenizer = _tokenizer(self._model_dir)
        # NOTE: the fast batch skips the character offsets counting does not need (~20% faster)
        encode = getattr(tokenizer, "encode_batch_fast", tokenizer.encode_batch)
        encodings = encode(texts, add_special_tokens=False)
        return [len(e.ids) for e in encodings]


_SENTENCE = re.compile(r"(?<=[.!?;])\s+(?=[A-Z0-9(\"“])|\n+")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence-ish piece of `text`, in order; never an empty or blank piece."""
    spans, start = [], 0
    for cut in _SENTENCE.finditer(text):
        if text[start:cut.start()].strip():
            spans.append((start, cut.start()))
        start = cut.end()
    if text[start:].strip():
        spans.append((start, len(text)))
    return spans
