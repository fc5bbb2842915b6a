"""Ligatures a PDF's font mislabels as Latin letters are read as the ligature that makes the document's words words;
which ligature a letter stands for is read per document ("ý" is "ff" in one release and "ffi" in another)."""

from __future__ import annotations

from vera_core.ingest.ligatures import ligature_map, repair_ligatures
from vera_core.ingest.split_words import vocabulary


def _read(texts: list[str]) -> list[str]:
    mapping = ligature_map(texts, vocabulary(texts))
    return [repair_ligatures(t, mapping) for t in texts]


def test_each_letter_is_read_as_the_ligature_its_words_need():
    one = ["Gross proÞt rose in the Þrst quarter.", "Cash þows from operating activities", "The eýects of FX"]
    assert _read(one) == ["Gross profit rose in the first quarter.", "Cash flows from operating activities",
                          "The effects of FX"]
    other = ["Chief Financial Oýcer", "eýciency gains", "Free cash Ýow"]
    assert _read(other) == ["Chief Financial Officer", "efficiency gains", "Free cash flow"]


def test_a_word_spelled_out_elsewhere_decides_and_what_nothing_explains_is_left():
    assert _read(["the Þzzbin rate", "Fizzbin is a game"])[0] == "the fizzbin rate"  # no common word: the document's
    assert _read(["Þórsdóttir spoke for the board"]) == ["Þórsdóttir spoke for the board"]  # a name: no Latin neighbour
    assert _read(["Guðrún Aðalsteinsdóttir chairs it"]) == ["Guðrún Aðalsteinsdóttir chairs it"]  # nothing explains ð
    assert _read(["þ Revenue grew", "þ Costs fell"]) == ["þ Revenue grew", "þ Costs fell"]  # a bullet glyph alone
