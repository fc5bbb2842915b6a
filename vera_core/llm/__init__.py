"""Claude as an optional layer over the deterministic answer path (Anthropic Messages API)."""

from vera_core.llm.client import ClaudeClient, UsageMeter, api_key
from vera_core.llm.layer import Audit, LLMLayer

__all__ = ["Audit", "ClaudeClient", "LLMLayer", "UsageMeter", "api_key"]
