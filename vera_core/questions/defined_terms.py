"""Short names a document defines for itself ("Data Center and AI (DCAI)", "Client Computing Group (CCG)"), so a
question that uses the short name ("DCAI revenue") is read against rows that print the long one ("Data Center and
AI"). Only a document's own definitions count: no list of companies' abbreviations is kept here.

A question's short name is written out as the long name with the short one in parentheses ("Data Center and AI
(DCAI) revenue"): the qualifier reader takes the parenthesis as an alias, so a row printing either names the line.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

__all__ = ["defined_acronyms", "short_names", "spelled_out"]

_SHORT = r"(?:[A-Z][A-Z0-9&]{1,6}|[A-Z][a-z]{1,2}[A-Z][A-Za-z]{0,3})"
"""A short name: capitals ("DCAI"), or capitals around a small word's letter ("FoA")."""
_DEFINED = re.compile(r"\b(?P<long>[A-Z][\w&'\u2019-]*(?:\s+(?:and\s+|of\s+|&\s+|for\s+)?[A-Z][\w&'\u2019-]*){0,5})\s*"
                      rf"\((?:the\s+)?[\"\u201c]?(?P<short>{_SHORT})[\"\u201d]?\)")
"""A capitalised name followed by its short form in parentheses ("Data Center and AI (DCAI)", "Family of Apps (FoA)")."""
_SHORT_IN_QUESTION = re.compile(rf"(?<!\w)(?<!\()(?<!\(the\s){_SHORT}(?!\w)|(?<=\()(?:the\s)?{_SHORT}(?![\w)])")
"""A short name as a question writes it; one alone in parentheses is the long name's own ("Data Center and AI (DCAI)"),
one opening them ("(FoA op income / FoA revenue)") or closing them after other words ("(net revenues / GMV)") is asked."""


def short_names(question: str) -> set[str]:
    """The short names a question writes that a document may define ("DCAI"; not a quarter or a fiscal year)."""
    return {m.group(0) for m in _SHORT_IN_QUESTION.finditer(question)
            if sum(ch.isalpha() for ch in m.group(0)) >= 2 and not re.fullmatch(r"FY\d*|Q[1-4]\w*|H[12]\w*", m.group(0))}


def _initials_fit(long: str, short: str) -> bool:
    """Whether `short` is made of the long name's initials (an all-capitals word may give all its letters:
    "Data Center and AI" -> "DCAI"), so "Securities Act of 1933 (the Act)" or a ticker in parentheses is not read as
    a definition."""
    words = [w for w in re.split(r"[\s-]+", long) if w and w.lower() not in ("and", "of", "&", "for", "the")]
    # NOTE: "FoA" writes the initial of "of" in small: its capitals are the initials
    letters = "".join(ch for ch in short if not ch.islower()).replace("&", "")

    def fits(i: int, j: int) -> bool:
        if j == len(letters):
            return i == len(words) or all(w.lower() in ("inc", "group") for w in words[i:])
        if i == len(words):
            return False
        word = words[i]
        if word[0].upper() != letters[j]:
            return fits(i + 1, j) if word.lower() in ("group", "segment", "inc") else False
        taken = 1
        while taken < len(word) and j + taken < len(letters) and word[taken].isupper() and word[taken] == letters[j + taken]:
            taken += 1
        return any(fits(i + 1, j + n) for n in range(taken, 0, -1))

    return fits(0, 0)


def defined_acronyms(texts: Iterable[str]) -> dict[str, str]:
    """Each short name the texts define, with its long name (the most printed one when several are)."""
    seen: dict[str, Counter] = {}
    for text in texts:
        for m in _DEFINED.finditer(text):
            long, short = " ".join(m.group("long").split()), m.group("short")
            # NOTE: the capitalised run may start earlier than the name ("Intel Data Center and AI (DCAI)"): the
            # shortest tail of it whose initials make the short name is the name
            words = long.split()
            for start in range(len(words)):
                tail = " ".join(words[start:])
                if tail.split()[0].lower() not in ("and", "of", "for", "&") and _initials_fit(tail, short):
                    seen.setdefault(short, Counter())[tail] += 1
                    break
    return {short: names.most_common(1)[0][0] for short, names in seen.items()}


def spelled_out(question: str, acronyms: dict[str, str]) -> tuple[str, dict[str, str]]:
    """The question with each defined short name written as "long name (short)", and the names written out. A short
    name in the parentheses that close on its long name is the question's own definition and is left; one used
    elsewhere when the question prints the long name too is written as the long name alone ("the Family of Apps
    operating margin (FoA operating income divided by FoA revenue)": "(Family of Apps operating income divided by
    Family of Apps revenue)")."""
    used: dict[str, str] = {}
    printed = question.lower()

    def write(m: re.Match) -> str:
        short = m.group(0)
        long = acronyms.get(short)
        if not long:
            return short
        used[short] = long
        # NOTE: a question that prints the long name already uses the short one for the same thing: the long name
        # alone ("I'm updating my Reality Labs model. What was RL's operating income" -> "Reality Labs's")
        # NOTE: inside a parenthesis ("(net revenues / GMV)") the long name alone: a parenthesis in a parenthesis would
        # end the formula it writes
        inside = question.count("(", 0, m.start()) > question.count(")", 0, m.start())
        return long if long.lower() in printed or inside else f"{long} ({short})"

    return _SHORT_IN_QUESTION.sub(write, question), used
