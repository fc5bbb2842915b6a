"""Grounding: how well each claim of an answer is supported by the chunks it cites, and one score
for the whole answer."""

from __future__ import annotations

import math
from collections.abc import Callable

from vera_core.answer.contract import ClaimCheck, GroundingLabel, grounding_label
from vera_core.answer.numbers import verify_numbers
from vera_core.text import content_tokens  # NOTE: the `content` mode; re-exported for callers

__all__ = ["content_tokens", "score_claim", "aggregate", "Embedder"]

Embedder = Callable[[list[str]], list[list[float]]]
"""Texts -> one vector per text (unit length expected; normalised again here)."""

LEXICAL_WEIGHT = 0.75
SEMANTIC_WEIGHT = 0.25
NUMBERS_FAIL_CAP = 0.4
"""Highest support of a claim whose figures do not all match its sources."""
SUPPORTED_MIN = 0.70


def _unit(vector: list[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in vector))
    return [x / norm for x in vector] if norm else [0.0 for _ in vector]


def _semantic(text: str, cited: list[str], embed: Embedder) -> float:
    """Highest cosine between the claim and one of its cited sources, in [-1, 1]."""
    vectors = [_unit(v) for v in embed([text, *cited])]
    claim, sources = vectors[0], vectors[1:]
    best = max(sum(a * b for a, b in zip(claim, v)) for v in sources)
    return max(-1.0, min(1.0, best))


def score_claim(text: str, citations: list[int], sources: dict[int, str],
                embed: Embedder | None = None, checks: list[NumberCheck] | None = None) -> ClaimCheck:
    """Support of one claim (an answer sentence or list item) by the sources it cites.

    `lexical` is the share of the claim's distinct content tokens found in its cited sources;
    `semantic` the best claim-source cosine (None without `embed`); `numbers_ok` whether every
    figure matched. Support is 0 without a cited source, 1.0 for an extractive claim (every
    content token and every figure found), else 0.75 * lexical + 0.25 * max(semantic, 0), or
    lexical alone without `embed`; at most 0.4 when a figure does not match. The cosine is only
    computed when it can change the support (not for an extractive claim: `semantic` is None).
    `checks`: this claim's `verify_numbers` result when the caller has it already.
    """
    cited = [n for n in dict.fromkeys(citations) if n in sources]
    if checks is None:
        checks = verify_numbers(text, {n: sources[n] for n in cited})
    numbers_ok = all(c.status == "match" for c in checks)
    if not cited:
        return ClaimCheck(text=text, citations=list(citations), support=0.0, supported=False, lexical=0.0,
                          semantic=None, numbers_ok=numbers_ok)
    claim = set(content_tokens(text))
    found: set[str] = set()
    for n in cited:
        found.update(content_tokens(sources[n]))
    # NOTE: the sign of a figure is judged by verify_numbers ('sign differs'), not by word overlap.
    found.update(t[1:] for t in list(found) if t.startswith("-"))
    lexical = len(claim & found) / len(claim) if claim else 0.0
    semantic = None
    if embed and lexical < 1.0:
        semantic = round(_semantic(text, [sources[n] for n in cited], embed), 4)
    if lexical == 1.0:
        # NOTE: an extractive claim scores 1.0 even though a sentence and a whole chunk never embed
        # to cosine 1; the semantic term only lifts claims with partial word overlap.
        support = 1.0
    elif semantic is None:
        support = lexical
    else:
        support = LEXICAL_WEIGHT * lexical + SEMANTIC_WEIGHT * max(semantic, 0.0)
    if not numbers_ok:
        support = min(support, NUMBERS_FAIL_CAP)
    support = round(max(0.0, min(1.0, support)), 4)
    return ClaimCheck(text=text, citations=list(citations), support=support,
                      supported=support >= SUPPORTED_MIN and numbers_ok, lexical=round(lexical, 4),
                      semantic=semantic, numbers_ok=numbers_ok)


def aggregate(claims: list[ClaimCheck]) -> tuple[float, GroundingLabel]:
    """The answer's grounding score and label: the mean claim support, rounded to 4 decimals.

    1.0 only when every claim is supported (else at most 0.99); 0.0 only when no claim is
    supported (else at least 0.01). No claims -> (0.0, 'ungrounded').
    """
    if not claims:
        return 0.0, "ungrounded"
    score = round(sum(c.support for c in claims) / len(claims), 4)
    if not all(c.supported for c in claims):
        score = min(score, 0.99)
    if any(c.supported for c in claims):
        score = max(score, 0.01)
    score = max(0.0, min(1.0, score))
    return score, grounding_label(score)
