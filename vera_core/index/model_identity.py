"""Which embedding model made a set of vectors: its name, a version read from its weights, and the
vectors' dimension, read from the model folder without loading torch (a 90 MB weights file hashes in
~0.2 s, once per process and file)."""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from vera_core.index.model_path import resolve_model_path
from vera_core.records import ModelIdentity

BUNDLED_NAME = "all-MiniLM-L6-v2"
WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin")


def model_identity(configured: Path | None) -> ModelIdentity:
    """The identity of the model VERA loads for `VERA_EMBED_MODEL_PATH` = `configured`."""
    path = resolve_model_path(configured)
    weights = next((path / name for name in WEIGHT_FILES if (path / name).is_file()), None)
    if weights is None:
        from vera_core.errors import EmbeddingModelError
        raise EmbeddingModelError(f"No weights ({' or '.join(WEIGHT_FILES)}) in the model folder {str(path)!r}.")
    stat = weights.stat()
    name = BUNDLED_NAME if configured is None else path.name
    return ModelIdentity(name, _fingerprint(str(weights), stat.st_size, stat.st_mtime_ns), _dimension(path))


@lru_cache(maxsize=8)
def _fingerprint(path: str, _size: int, _mtime_ns: int) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as weights:
        for block in iter(lambda: weights.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:16]


def _dimension(path: Path) -> int:
    """The sentence vector's length: the pooling layer's, else the transformer's hidden size."""
    for config, key in ((path / "1_Pooling" / "config.json", "word_embedding_dimension"),
                        (path / "config.json", "hidden_size")):
        if config.is_file():
            value = json.loads(config.read_text(encoding="utf-8")).get(key)
            if value:
                return int(value)
    return 0
