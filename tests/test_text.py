"""The one text normaliser (vera_core/text.py): each mode on a few strings, and the contract that no
other module keeps its own stopword list or tokenising pattern."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from vera_core import text
from vera_core.text import MODES, normalise, terms

PACKAGE = Path(text.__file__).resolve().parent
QUESTION = "What were the Capital Expenditures of 3M in FY2018 (1,577)?"
CLAIM = "Revenues increased 3.4% to $1,577.00 [2]"
POINTER = "Where does Note 7 discuss the US GAAP section on leases?"


@pytest.mark.parametrize("mode, source, expected", [
    # keyword (BM25): lowercase, stopwords out, thousands separators dropped, no stemming
    ("keyword", QUESTION, ["capital", "expenditures", "3m", "fy2018", "1577"]),
    ("keyword", CLAIM, ["revenues", "increased", "3.4", "1577.00", "2"]),
    ("keyword", POINTER, ["where", "note", "7", "discuss", "us", "gaap", "section", "leases"]),
    # terms: question noise out ("where", "us"), crude stems ('expenditur', 'leas')
    ("terms", QUESTION, ["capit", "expenditur", "3m", "fy2018", "1577"]),
    ("terms", CLAIM, ["revenu", "increas", "3.4", "1577.00", "2"]),
    ("terms", POINTER, ["note", "7", "discus", "gaap", "section", "leas"]),
    ("terms", "Show me the acquired companies", ["acquir", "compan"]),
    # figures: digit runs as written, separators dropped, also inside words ('FY2018' -> '2018')
    ("figures", QUESTION, ["3", "2018", "1577"]),
    ("figures", "in 2024. Then 1,577.5", ["2024.", "1577.5"]),
    # key: terms then figures (retrieval coverage)
    ("key", POINTER, ["note", "7", "discus", "gaap", "section", "leas", "7"]),
    # content (grounding): figures normalised and signed, '%' as 'percent', citations ignored
    ("content", QUESTION, ["capital", "expenditur", "3", "fy", "2018", "-1577"]),
    ("content", CLAIM, ["revenu", "increas", "3.4", "percent", "1577"]),
    ("content", "the companies were stopped", ["company", "stop"]),
    ("content", "**Revenues** | (1,577.00) | increased 3.4% [2]", ["revenu", "-1577", "increas", "3.4", "percent"]),
    # focus (router): case kept, acronyms kept, a location noun kept only before its number
    ("focus", QUESTION, ["Capital", "Expenditures", "3M", "FY2018", "1,577"]),
    ("focus", POINTER, ["Note", "7", "US", "GAAP", "leases"]),
    ("focus", "what does the section say about us", []),
    # phrase (topics and synonyms): every word kept, hyphens split, content stems
    ("phrase", "Encrypted at-rest; multi-factor Policies", ["encrypt", "at", "rest", "multi", "factor", "policy"]),
])
def test_each_mode_reads_words_its_own_way(mode, source, expected):
    assert normalise(source, mode) == expected


def test_every_mode_is_named_and_an_unknown_one_is_refused():
    assert set(MODES) == {"keyword", "terms", "figures", "key", "content", "focus", "phrase"}
    for mode in MODES:
        assert normalise("", mode) == []
    with pytest.raises(ValueError, match="mode must be one of"):
        normalise("revenue", "stems")


def test_set_helpers_are_the_modes_as_sets():
    for source in (QUESTION, CLAIM, POINTER):
        assert text.terms(source) == set(normalise(source, "terms"))
        assert text.figures(source) == set(normalise(source, "figures"))
        assert text.key_terms(source) == set(normalise(source, "key")) == text.terms(source) | text.figures(source)


def test_old_entry_points_are_the_normaliser_itself():
    """Callers that import the old names get the normaliser's modes, not a second copy."""
    from vera_core.answer import grounding, units
    from vera_core.index import bm25
    from vera_core.retrieve import iterative

    assert bm25.tokenize is text.keyword_tokens
    assert units.terms is text.terms
    assert grounding.content_tokens is text.content_tokens
    assert iterative.key_terms is text.key_terms


# -- contract: one place defines how words are read ---------------------------------------------------
FUNCTION_WORDS = {"a", "an", "and", "the", "of", "in", "is", "are", "what", "which", "to", "for", "by"}
KNOWN = {
    # NOTE: generic words of cash-flow row labels used to match a parent label to its child; owned by the
    # table reader (tables/*), to fold into vera_core/text.py when that module is next changed.
    ("tables/grid.py", "_GENERIC"),
    # NOTE: a formula's tokens (numbers, operators, avg/prior, line-item names), not words of text.
    ("questions/expression.py", "_TOKEN"),
}


def _word_list(value: ast.AST) -> set[str]:
    """The words of a set of single words: `frozenset("a b c".split())`, `{"a", "b"}`,
    `frozenset({"a", "b"})`; empty for anything else (a list of questions is not a word list)."""
    if isinstance(value, ast.Call) and getattr(value.func, "id", "") in ("frozenset", "set") and value.args:
        value = value.args[0]
    if isinstance(value, ast.Call) and getattr(value.func, "attr", "") == "split" \
            and isinstance(value.func.value, ast.Constant) and isinstance(value.func.value.value, str):
        return set(value.func.value.value.split())
    if isinstance(value, (ast.Set, ast.List, ast.Tuple)) and value.elts and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) and len(e.value.split()) == 1 for e in value.elts):
        return {e.value for e in value.elts}
    return set()


def _definitions():
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel == "text.py":
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name) and node.value is not None:
                        yield rel, target.id, node.value


def _is_word_collection(value: ast.AST) -> bool:
    call = isinstance(value, ast.Call) and getattr(value.func, "id", "") in ("frozenset", "set", "tuple", "list")
    return call or isinstance(value, (ast.Set, ast.List, ast.Tuple))


def _is_pattern(value: ast.AST) -> bool:
    return isinstance(value, ast.Call) and getattr(value.func, "attr", "") == "compile"


def test_only_the_text_module_defines_stopword_lists_and_word_patterns():
    offenders = []
    for rel, name, value in _definitions():
        if (rel, name) in KNOWN or not (_is_word_collection(value) or _is_pattern(value)):
            continue
        if _is_word_collection(value) and (re.search(r"STOPWORDS|NOISE", name)
                                           or len(_word_list(value) & FUNCTION_WORDS) >= 3):
            offenders.append(f"{rel}: {name} (a stopword list)")
        elif _is_pattern(value) and re.fullmatch(r"_?(TOKENS?|STEM|TERMS?)", name):
            offenders.append(f"{rel}: {name} (a tokenising pattern)")
    assert not offenders, "define word lists and tokenising patterns in vera_core/text.py: " + "; ".join(offenders)


def test_the_contract_check_finds_a_stopword_list():
    """The check above can fail: a module-level list of function words is caught."""
    words = ast.parse('WORDS = frozenset("a an the of and to".split())').body[0].value
    assert _is_word_collection(words) and len(_word_list(words) & FUNCTION_WORDS) >= 3
    token = ast.parse('_TOKEN = re.compile(r"[a-z]+")').body[0].value
    assert _is_pattern(token)


@pytest.mark.parametrize("words", [
    "example examples", "revenue revenues", "policy policies", "expense expenses", "service services",
    "approve approved approving approval", "dispose disposed disposal", "increase increased increases increasing",
])
def test_a_word_and_its_plural_or_its_noun_share_one_term(words):
    """`terms` (list and section matching, topics): 'security testing, for example:' must match a
    question about 'examples', 'approval' a question about 'approving'."""
    assert len({frozenset(terms(w)) for w in words.split()}) == 1
