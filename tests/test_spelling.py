"""A misspelt word of a question read as the one word the documents print a letter away (questions/spelling.py)."""

from __future__ import annotations

from vera_core.questions.spelling import misspelt, respelled
from vera_core.text import words_of

PRINTED = words_of(["Product development (1) 352 301", "Total operating expenses", "Sales and marketing",
                    "Net revenues were $2.5 billion", "Research and development", "Marketable securities"])


def test_a_word_a_letter_from_one_the_documents_print_is_read_as_it():
    fixes = misspelt("ebay product developmnet expense Q1 2023?", PRINTED)
    assert fixes == {"developmnet": "development"}
    assert respelled("ebay product developmnet expense Q1 2023?", fixes) == "ebay product development expense Q1 2023?"
    assert misspelt("what were operatnig expenses?", PRINTED) == {"operatnig": "operating"}
    assert misspelt("salse and marketing", PRINTED) == {}  # NOTE: five letters or fewer: too near other words
    assert misspelt("ebay US GMV sequential chnage Q1 -> Q2 2023", words_of(["Change", "GMV"])) == {"chnage": "change"}
    # NOTE: a letter added or changed is no typing slip read: "divided" is a letter from "dividend"
    assert misspelt("net income divided by revenue", words_of(["dividend per share", "net income", "revenue"])) == {}
    assert misspelt("marketting spend in Q2", PRINTED) == {}


def test_no_word_the_documents_print_an_inflection_of_a_name_or_a_word_of_two_readings_is_changed():
    assert misspelt("net revenues and research and development", PRINTED) == {}
    assert misspelt("net revenue growth", PRINTED) == {}  # "revenue" is "revenues" without its ending
    assert misspelt("What did Scarpeli say?", PRINTED) == {}  # capitals: a name (transcripts read names a letter off)
    two = words_of(["xbacdefg", "xacbdefg"])  # NOTE: both a swap from the word asked: neither is read
    assert misspelt("what is xabcdefg", two) == {} and misspelt("what is xabcdefg", words_of(["xbacdefg"])) != {}


def test_two_vowels_swapped_make_another_word_not_a_slip():
    assert misspelt("Was the company compliant with the covenants?", words_of(["a complaint was filed"])) == {}


def test_a_capitalised_word_is_read_as_printed_and_keeps_its_capital():
    """Round 18: "Salesfroce full-time equivalent headcount at the end of Q1 FY24?" (the note had gone to search)."""
    printed = words_of(["Salesforce, Inc.", "Full time equivalent headcount"])
    fixes = misspelt("Salesfroce full-time equivalent headcount at the end of Q1 FY24?", printed)
    assert fixes == {"Salesfroce": "Salesforce"}
    assert respelled("Salesfroce full-time equivalent headcount", fixes) == "Salesforce full-time equivalent headcount"
    assert misspelt("SALESFROCE headcount", printed) == {}  # a word in capitals is an acronym or a ticker: as asked


def test_a_vowel_dropped_between_two_consonants_is_a_slip_and_a_vowel_beside_a_vowel_or_a_word_form_is_not():
    """Round 18 (w42-021): "intel notbook revenue yoy change q1 23" asks of the "Notebook" row; "dilutd" is "diluted".
    "rising" is no slip for a printed "raising", nor "action" for "auction" (the vowel would sit beside another), nor
    "drives" for "derives" where "drive" is printed (a word's plural, not a slip)."""
    printed = words_of(["Notebook 3,407", "Diluted EPS", "raising prices at auction", "derives from what we drive"])
    assert misspelt("intel notbook revenue yoy change q1 23", printed) == {"notbook": "notebook"}
    assert misspelt("dilutd eps", printed) == {"dilutd": "diluted"}
    assert misspelt("rising prices and action", printed) == {}
    assert misspelt("what drives margins", printed) == {}
