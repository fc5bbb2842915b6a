"""A topic said in words and spoken as an acronym, or the other way round (issue 26, round 18's across-quarter remarks):
read from the texts themselves, one word to the reader either way."""

from __future__ import annotations

from vera_core.answer.acronyms import as_acronyms, spelt_out


def test_an_acronym_the_speakers_print_is_spelt_by_the_topics_words():
    assert spelt_out("US anti-money-laundering problem", ["We know what the AML issue is.", "In the US, underwriting "
                                                          "standards held."]) == {"AML": "anti money laundering"}
    assert spelt_out("net interest income guidance", ["We now expect 2023 NII to be $81 billion."]) == {
        "NII": "net interest income"}


def test_an_acronym_the_topic_prints_takes_the_words_the_speakers_spell_it_with_most_often():
    texts = ["Performance in the consumer lending book was good.", "The provision for credit losses was $1 billion.",
             "Provisions for credit losses rose.", "We expect provision for credit losses to normalise."]
    assert spelt_out("full-year PCL guidance", texts) == {"PCL": "provision for credit losses"}
    # "US" asked is the country, never "underwriting standards"; "in the" joins no acronym's words
    assert spelt_out("US deposits", ["underwriting standards"]) == {}
    assert spelt_out("in terms of IT", ["information technology spend"]) == {}


def test_the_words_and_the_acronym_are_one_word():
    spelt = {"NII": "net interest income", "AML": "anti money laundering"}
    assert as_acronyms("lower net interest income from tighter spreads", spelt) == "lower NII from tighter spreads"
    assert as_acronyms("our anti-money-laundering program", spelt) == "our AML program"
    assert as_acronyms("NII ex. Markets", spelt) == "NII ex. Markets"
