"""The coverage modes a question is answered in (a light module: the app's settings sidebar reads them
before the answering machinery is imported)."""

from __future__ import annotations

from typing import Literal, get_args

Mode = Literal["deterministic", "llm_fallback", "llm_always"]
"""deterministic: never ask the LLM; llm_fallback: ask it when the evidence is thin; llm_always: ask it."""

MODES: tuple[str, ...] = get_args(Mode)

__all__ = ["MODES", "Mode"]
