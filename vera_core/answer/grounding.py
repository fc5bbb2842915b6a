"""Grounding: how well each claim of an answer is supported by the chunks it cites, and one score
for the whole answer."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from decimal import Decimal

from vera_core.answer.contract import ClaimCheck, GroundingLabel, grounding_label
from vera_core.answer.numbers import verify_numbers

__all__ = ["content_tokens", "score_claim", "aggregate", "Embedder"]

Embedder = Callable[[list[str]], list[list[float]]]
"""Texts -> one vector per text (unit length expected; normalised again here)."""

LEXICAL_WEIGHT = 0.75
SEMANTIC_WEIGHT = 0.25
NUMBERS_FAIL_CAP = 0.4
"""Highest support of a claim whose figures do not all match its sources."""
SUPPORTED_MIN = 0.70

STOPWORDS = frozenset("""
a an the and or but nor of in on at to for from by with without within into onto over under as
is are was were be been being am has have had having do does did doing will would shall should
can could may might must this that these those it its it's they them their theirs we our ours
you your he she his her him i me my which who whom whose what when where why how than then so
such not no yes all any both each few more most other some own same too very s t just also
there here about above below after before during between through up down out off again further
once per via if while whereas because until upon only amongst among
""".split())

_CITATION = re.compile(r"\[\^?\d+(?:\s*[,;\u2013-]\s*\^?\d+)*\]")
_TOKEN = re.compile(r"(?P<open>\()?(?:(?<![\w.])(?P<neg>[-\u2212]))?\$?(?P<num>\d[\d,]*(?:\.\d+)?)(?P<close>\))?"
                    r"|(?P<pct>%)|(?P<word>[^\W\d_]+)")


def _stem(word: str) -> str:
    """Light suffix stripping: plural -s/-es/-ies, -ed, -ing, then a doubled or silent final letter,
    so 'increase', 'increased', 'increases' and 'increasing' share one stem."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith("ied"):
        return word[:-3] + "y"
    stem = word
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        stem = word[:-1]
    elif word.endswith("ed") and not word.endswith("eed") and len(word) > 4:
        stem = word[:-2]
    elif word.endswith("ing") and len(word) > 5:
        stem = word[:-3]
    if stem != word and len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "aeiouylsz":
        stem = stem[:-1]  # stopped -> stop, running -> run
    if len(stem) > 3 and stem.endswith("e"):
        stem = stem[:-1]
    return stem


def _number_token(num: str, negative: bool) -> str:
    digits = num.replace(",", "")
    if "." in digits:
        digits = digits.rstrip("0").rstrip(".")
    digits = str(Decimal(digits)) if digits else "0"
    return "-" + digits if negative and digits.strip("0.") else digits


def content_tokens(text: str) -> list[str]:
    """Lowercase content tokens of `text`, in order: stopwords dropped, light stemming, figures
    normalised ('1,577.00' -> '1577', '(1,577)' -> '-1577'), '%' read as 'percent', citation
    markers and Markdown table pipes and emphasis ignored."""
    tokens: list[str] = []
    for m in _TOKEN.finditer(_CITATION.sub(" ", text)):
        if m.group("num"):
            negative = bool(m.group("neg")) or bool(m.group("open") and m.group("close"))
            tokens.append(_number_token(m.group("num"), negative))
        elif m.group("pct"):
            tokens.append("percent")
        else:
            word = m.group("word").lower()
            if len(word) > 1 and word not in STOPWORDS:
                tokens.append(_stem(word))
    return tokens


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
