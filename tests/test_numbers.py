"""Figures in answers and sources: every written format is read to the right value, citation
markers and ordinals are not figures, and each answer figure is checked against its sources."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vera_core.answer.numbers import NumberMention, find_numbers, source_scale, values_match, verify_numbers


def one(text: str) -> NumberMention:
    found = find_numbers(text)
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize("text, shown, value, is_percent, currency, scale", [
    ("1,577", "1,577", 1577, False, None, 1),
    ("cost $1,577.00 in total", "$1,577.00", 1577, False, "USD", 1),
    ("(1,577)", "(1,577)", -1577, False, None, 1),
    ("fell −12.4", "−12.4", -12.4, False, None, 1),
    ("fell -12.4", "-12.4", -12.4, False, None, 1),
    ("EUR 2.1 million", "EUR 2.1 million", 2.1e6, False, "EUR", 1e6),
    ("€48.5m", "€48.5m", 48.5e6, False, "EUR", 1e6),
    ("£3bn", "£3bn", 3e9, False, "GBP", 1e9),
    ("¥100", "¥100", 100, False, "JPY", 1),
    ("GBP 7 thousand", "GBP 7 thousand", 7e3, False, "GBP", 1e3),
    ("$12k", "$12k", 12e3, False, "USD", 1e3),
    ("4.2 mn", "4.2 mn", 4.2e6, False, None, 1e6),
    ("$3.1MM", "$3.1MM", 3.1e6, False, "USD", 1e6),
    ("2 trillion", "2 trillion", 2e12, False, None, 1e12),
    ("($1,577)", "($1,577)", -1577, False, "USD", 1),
    ("$(1,577)", "$(1,577)", -1577, False, "USD", 1),
    ("grew 3.4%", "3.4%", 3.4, True, None, 1),
    ("fell (5.9)%", "(5.9)%", -5.9, True, None, 1),
    ("up 12.5 percent", "12.5 percent", 12.5, True, None, 1),
    ("up 1.5 percentage points", "1.5 percentage points", 1.5, True, None, 1),
    ("EPS of $4.44 per share", "$4.44", 4.44, False, "USD", 1),
    ("2.1 million EUR", "2.1 million EUR", 2.1e6, False, "EUR", 1e6),
])
def test_every_written_format_is_read_to_its_value(text, shown, value, is_percent, currency, scale):
    m = one(text)
    assert (m.text, m.is_percent, m.currency, m.scale) == (shown, is_percent, currency, scale)
    assert m.value == pytest.approx(value)
    assert text[m.start:m.end] == shown
    assert not m.is_year


def test_citation_markers_and_list_ordinals_are_not_figures():
    text = "1. Revenue was 1,577 [3].\n(a) Costs rose [12][1, 2].\n2) See the 10-K."
    assert [m.text for m in find_numbers(text)] == ["1,577"]


def test_note_and_page_numbers_are_kept_for_checking():
    assert [m.value for m in find_numbers("See Note 4 on page 11.")] == [4, 11]


@pytest.mark.parametrize("text, is_year, value", [
    ("in 2024", True, 2024), ("(2023)", True, 2023), ("1899", False, 1899), ("2,024", False, 2024),
    ("$2024", False, 2024), ("2024%", False, 2024), ("2024.5", False, 2024.5),
])
def test_only_bare_four_digit_numbers_are_years(text, is_year, value):
    m = one(text)
    assert (m.is_year, m.value) == (is_year, value)


def test_a_range_of_years_is_two_years_not_a_negative_number():
    assert [(m.value, m.is_year) for m in find_numbers("2019-2020")] == [(2019, True), (2020, True)]


@pytest.mark.parametrize("text, scale", [
    ("Consolidated balance sheet (in thousands)", 1e3),
    ("EUR thousand\n| Sales | 2,100 |", 1e3),
    ("(in millions, except per share data)", 1e6),
    ("Cash flows (Millions)", 1e6),
    ("Dollars in millions", 1e6),
    ("$ in billions", 1e9),
    ("£'000", 1e3),
    ("Millions of dollars", 1e6),
    ("Revenue 1,000 and 2,000 in 2024", None),
    ("Revenue was EUR 2.1 million.", None),
])
def test_source_scale_reads_the_declared_unit(text, scale):
    assert source_scale(text) == scale


@pytest.mark.parametrize("answer, source, scale, expected", [
    ("1,577", "1,577", None, True),
    ("1,001.9", "1,001", None, True),        # 0.09% apart
    ("1,002", "1,000", None, False),         # 0.2% apart
    ("0", "0", None, True),
    ("0.001", "0", None, False),
    ("EUR 2.1 million", "2,100", 1e3, True),
    ("EUR 2.1 million", "2,100", 1e6, False),
    ("$1,577 million", "1,577", 1e6, True),
    ("3.4%", "3.4", None, False),            # percent only matches percent
    ("3.4", "3.4%", None, False),
    ("2024", "2024", None, True),
    ("2024", "2,024", None, False),          # a year only matches the same year
    ("2023", "2024", None, False),
])
def test_values_match(answer, source, scale, expected):
    assert values_match(one(answer), one(source), scale) is expected


def check(claim: str, sources: dict[int, str]):
    [result] = verify_numbers(claim, sources)
    return result


def test_answer_in_millions_matches_a_table_declared_in_millions():
    result = check("Revenue was $1,577 million [2].", {2: "(in millions)\n| Revenue | 1,577 |"})
    assert (result.status, result.citation, result.source_text, result.source_value) == \
        ("match", 2, "1,577", 1577e6)
    assert result.message == ""


def test_eur_million_matches_a_eur_thousand_table():
    result = check("Sales reached EUR 2.1 million [1].", {1: "EUR thousand\n| Sales | 2,100 |"})
    assert (result.status, result.source_value) == ("match", 2.1e6)


def test_a_rounded_answer_matches_with_a_message():
    result = check("Capex was $1.6 billion [2].", {2: "(Millions)\n| Capex | 1,577 |"})
    assert (result.status, result.message) == ("match", "rounded")


def test_rounding_beyond_five_percent_is_a_mismatch():
    assert check("Capex was $2 billion [2].", {2: "(Millions)\n| Capex | 1,577 |"}).status == "mismatch"


def test_a_parenthesised_outflow_matches_a_positive_answer_but_says_the_sign_differs():
    result = check("Purchases were $1,577 million [2].", {2: "(Millions)\n| Purchases of PP&E | (1,577) |"})
    assert (result.status, result.message, result.source_text) == ("match", "sign differs", "(1,577)")


def test_a_wrong_figure_is_a_mismatch_naming_both_values_and_the_closest_figure():
    sources = {1: "Headcount 12 and 9,000.", 2: "| Revenue | 1,577 |\n| Cost | 900 |"}
    result = check("Revenue was 1,600 [2].", sources)
    assert result.status == "mismatch"
    assert (result.citation, result.source_text, result.source_value) == (2, "1,577", 1577)
    assert result.message == "answer says 1,600 but [2] says 1,577"


def test_a_percent_is_never_compared_with_an_amount():
    result = check("Margin was 3.4% [1].", {1: "Revenue 3.4 and 3,400."})
    assert result.status == "not_found"
    assert "3.4%" in result.message and "[1]" in result.message


def test_a_missing_year_is_not_found_even_when_other_years_are_there():
    result = check("In 2022 [1].", {1: "Results for 2023 and 2024."})
    assert result.status == "not_found"
    assert "2022" in result.message


def test_a_figure_without_cited_source_is_not_found():
    assert check("Revenue was 1,577.", {}).status == "not_found"


def test_the_exact_figure_wins_over_an_earlier_one_within_tolerance():
    result = check("Revenue was 1,577 [1][2].", {1: "Revenue 1,578", 2: "Revenue 1,577"})
    assert (result.status, result.citation, result.message) == ("match", 2, "")


NUMBERISH = st.sampled_from(list("0123456789,.()%$€£¥-−[] \nmkbMBKillonpercentEURUSD|*#"))


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=NUMBERISH, max_size=80) | st.text(max_size=80))
def test_find_numbers_never_crashes_and_returns_ordered_exact_spans(text):
    found = find_numbers(text)
    for m in found:  # may be empty (text without figures)
        assert text[m.start:m.end] == m.text
    assert all(a.end <= b.start for a, b in zip(found, found[1:]))


@settings(max_examples=200, deadline=None)
@given(st.decimals(min_value=0, max_value=10**9, places=2, allow_nan=False, allow_infinity=False),
       st.sampled_from(["", "$", "€", "EUR "]), st.booleans(),
       st.sampled_from([("", 1), (" million", 1e6), ("bn", 1e9)]))
def test_a_written_amount_is_read_back_to_its_value(amount, currency, negative, scale_word):
    word, scale = scale_word
    body = f"{amount:,.2f}"
    shown = f"{currency}({body}){word}" if negative else f"{currency}{body}{word}"
    m = one(f"Total: {shown} [4].")
    assert m.text == shown
    assert m.value == pytest.approx(float(amount) * scale * (-1 if negative and amount else 1))
    assert m.is_percent is False and not m.is_year


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["Revenue", "1,577", "(1,400)", "3.4%", "2024", "[1]", "$2.1 million", "fell"]),
                max_size=12).map(" ".join),
       st.lists(st.sampled_from(["1,577", "1,600", "3.5%", "(in millions)", "2024", "Revenue"]),
                max_size=8).map(" ".join))
def test_verify_numbers_is_reproducible_and_checks_every_figure(claim, source):
    first = verify_numbers(claim, {1: source})
    assert first == verify_numbers(claim, {1: source})
    assert [c.text for c in first] == [m.text for m in find_numbers(claim)]


def test_one_currency_list_serves_the_figures_and_the_scale_lines():
    """Every currency is defined once (finance/money.py): a code, symbol or name the figure reader knows, the scale
    lines know too, and the other way round (two lists each lacked codes the other had: KRW and ZAR, CZK and PLN)."""
    from vera_core.answer.numbers import find_numbers
    from vera_core.finance.money import CURRENCIES, CURRENCY_CODES, currency_in
    for currency in CURRENCIES:
        assert currency.code in CURRENCY_CODES
        assert currency_in(f"(In millions of {currency.code})") == currency.code
        assert find_numbers(f"Revenue was {currency.code} 5.2 billion.")[0].currency == currency.code
        for symbol in currency.symbols:
            assert find_numbers(f"Revenue was {symbol}5.2 billion.")[0].currency == currency.code, symbol
    assert currency_in("(In millions of South African rand)") == "ZAR"
    assert find_numbers("Revenue was RMB 3.1 billion.")[0].currency == "CNY"
    assert currency_in("(in millions of Czech koruna)") == "CZK"
