"""The Anthropic Messages API behind one small client: key lookup, bounded retries with backoff,
token usage and cost. Every failure ends as `LLMUnavailableError` naming its cause; nothing else
escapes, so callers can always fall back to the deterministic answer."""

from __future__ import annotations

import os
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from vera_core.config import VeraSettings
from vera_core.errors import LLMUnavailableError

SECRETS_FILE = Path(".streamlit/secrets.toml")


def api_key(secrets: Path | None = None) -> str | None:
    """The Anthropic API key: `ANTHROPIC_API_KEY`, else the same name in `.streamlit/secrets.toml`."""
    key = os.environ.get("ANTHROPIC_API_KEY", "").strip()
    if key:
        return key
    try:
        with (secrets or SECRETS_FILE).open("rb") as handle:
            value = tomllib.load(handle).get("ANTHROPIC_API_KEY", "")
    except (OSError, tomllib.TOMLDecodeError):
        return None
    return value.strip() or None if isinstance(value, str) else None


@dataclass
class UsageMeter:
    """Token usage and cost of the LLM calls made for one question."""

    model: str
    input_usd_per_mtok: float
    output_usd_per_mtok: float
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    failures: list[str] = field(default_factory=list)

    def add(self, input_tokens: int, output_tokens: int) -> None:
        self.calls += 1
        self.input_tokens += input_tokens
        self.output_tokens += output_tokens

    @property
    def cost_usd(self) -> float:
        return round((self.input_tokens * self.input_usd_per_mtok
                      + self.output_tokens * self.output_usd_per_mtok) / 1e6, 6)


class ClaudeClient:
    """Sends one system prompt and one user message; returns the reply text."""

    def __init__(self, settings: VeraSettings, key: str, base_url: str | None = None) -> None:
        import anthropic
        self.settings = settings
        # NOTE: the SDK's own retries are off: ours are bounded, back off, and name the cause.
        self._client = anthropic.Anthropic(
            api_key=key, base_url=base_url or os.environ.get("ANTHROPIC_BASE_URL") or None,
            timeout=settings.llm_timeout_s, max_retries=0)

    def __repr__(self) -> str:  # never show the key
        return f"ClaudeClient(model={self.settings.llm_model!r})"

    @classmethod
    def from_settings(cls, settings: VeraSettings) -> ClaudeClient | None:
        """A client when an API key is configured, else None."""
        key = api_key()
        return cls(settings, key) if key else None

    def meter(self) -> UsageMeter:
        s = self.settings
        return UsageMeter(s.llm_model, s.llm_input_usd_per_mtok, s.llm_output_usd_per_mtok)

    def complete(self, system: str, user: str, meter: UsageMeter, max_tokens: int | None = None) -> str:
        """The model's text reply; `LLMUnavailableError` after the retries are spent."""
        import anthropic
        attempts = self.settings.llm_retries + 1
        cause = ""
        for attempt in range(attempts):
            if attempt:
                time.sleep(self.settings.llm_backoff_s * 2 ** (attempt - 1))
            try:
                reply = self._client.messages.create(
                    model=self.settings.llm_model, max_tokens=max_tokens or self.settings.llm_max_tokens,
                    system=system, messages=[{"role": "user", "content": user}])
            except anthropic.APITimeoutError:
                cause = f"timed out after {self.settings.llm_timeout_s:g} s"
                continue
            except anthropic.APIConnectionError:
                cause = "connection failed"
                continue
            except anthropic.APIStatusError as exc:
                cause = _status_cause(exc.status_code)
                if exc.status_code in (429, 529) or exc.status_code >= 500:
                    continue
                raise LLMUnavailableError(cause) from exc
            except (anthropic.AnthropicError, ValueError, TypeError, KeyError) as exc:
                # NOTE: a body that is not the Messages API's JSON surfaces as a decode error
                raise LLMUnavailableError(f"malformed response ({type(exc).__name__})") from exc
            usage = getattr(reply, "usage", None)
            meter.add(getattr(usage, "input_tokens", 0) or 0, getattr(usage, "output_tokens", 0) or 0)
            text = "".join(getattr(block, "text", "") for block in (reply.content or []))
            if not text.strip():
                cause = "malformed response (no text)"
                continue
            return text
        meter.failures.append(cause)
        raise LLMUnavailableError(f"{cause} ({attempts} attempt{'s' if attempts > 1 else ''})")


def _status_cause(status: int) -> str:
    return {401: "API key rejected (401)", 403: "access denied (403)", 429: "rate limited (429)",
            529: "overloaded (529)"}.get(status, f"HTTP {status}")
