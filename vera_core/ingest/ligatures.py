"""Ligature glyphs a PDF's font maps to the wrong characters: eBay's and Costco's releases print "Gross proÞt" (or
"proðt", as PyMuPDF 2 reads the same glyph), "Cash þows", "eýects", "Oýcer", "Þrst quarter", "Þscal". The font
draws one glyph for "fi", "fl", "ff", "ffi" or "ffl" and its encoding names a Latin letter (Þ, þ, ð, ý, Ý) instead;
which ligature each letter stands for differs from font to font ("ý" is "ff" in one release, "ffi" in the other).
Each letter found inside words is read as the ligature that makes its words words: those the document prints
elsewhere spelled out, or common words of financial writing (`WORDS`). A letter no ligature explains (an Icelandic
name) is left as printed, and so is a letter beside no unaccented Latin letter."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence

__all__ = ["ligature_map", "repair_ligatures"]

SUSPECTS = "ÞþðÐýÝ"
LIGATURES = ("fi", "fl", "ff", "ffi", "ffl")
WORDS = frozenset("""
affect affiliate affirm afflict affluent afford affordable artificial baffle benefit beneficial certificate certified
certify clarification classification classified conflict confidence confident confidential configuration confirm
coffee deficit define defined definition definitive deflation differ difference different differential difficult
difficulty diffuse efficacy efficiency efficient effect effective effectively effort fifteen fifth fifty figure file
filed filing final finalize finally finance financial financing find finding fine finish finite firm first fiscal fit
fitness five fix fixed flag flagship flat flavor fleet flexibility flexible flight floor flow fluctuate fluctuation
fluid fly identification identified identify inefficient influence inflation inflow insufficient justification
justified magnificent modification modified modify notification notified notify offer offering office officer official
offset offshore outflow profit profitability profitable qualification qualified qualify ratification ratified reaffirm
reflect reflection reflective refinance refinancing scaffold scientific shuffle significance significant significantly
simplification simplified simplify specific specifically specified specify staff staffing stiff suffer sufficient
sufficiently tariff traffic unaffiliated unconfirmed undefined unprofitable unqualified verification verified verify
waffle workflow
""".split())
"""Common words of financial writing that hold a ligature (their inflections are read too: `_known`)."""
_IN_WORD = re.compile(rf"[A-Za-z]*[{SUSPECTS}][A-Za-z]*")
_ENDINGS = ("", "s", "es", "ed", "d", "ing", "ly", "al", "er", "ers", "ies")


def _known(word: str, vocabulary: Mapping[str, int]) -> bool:
    """Whether `word` (lowercase) is printed spelled out in the document, or is one of WORDS with a usual ending."""
    if vocabulary.get(word, 0) > 0:
        return True
    return any(word.endswith(end) and (word[:len(word) - len(end)] if end else word) in WORDS for end in _ENDINGS) \
        or (word.endswith("ies") and word[:-3] + "y" in WORDS)


def ligature_map(texts: Sequence[str], vocabulary: Mapping[str, int]) -> dict[str, str]:
    """Each suspect letter the texts print inside words, mapped to the ligature that makes most of its words known;
    a letter no ligature explains, or two explain as well, is not mapped."""
    words = Counter(m.group(0) for text in texts for m in _IN_WORD.finditer(text) if len(m.group(0)) > 1)
    mapping: dict[str, str] = {}
    for letter in SUSPECTS:
        seen = {w: n for w, n in words.items() if letter in w}
        if not seen:
            continue
        scores = {lig: sum(n for w, n in seen.items() if _known(w.replace(letter, lig).lower(), vocabulary))
                  for lig in LIGATURES}
        ranked = sorted(scores.items(), key=lambda kv: kv[1], reverse=True)
        if ranked[0][1] > 0 and ranked[0][1] > ranked[1][1]:
            mapping[letter] = ranked[0][0]
    return mapping


def repair_ligatures(text: str, mapping: Mapping[str, str]) -> str:
    """`text` with each mapped letter that sits beside an unaccented Latin letter read as its ligature
    ("Þrst" -> "first", "Free cash Ýow" -> "Free cash flow")."""
    if not mapping:
        return text
    letters = "".join(mapping)
    return re.sub(rf"(?<=[A-Za-z])[{letters}]|[{letters}](?=[A-Za-z])", lambda m: mapping[m.group(0)], text)
