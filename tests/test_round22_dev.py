"""Issue 26: round 22's dev questions (w55 on the calls, w56 on the releases and decks, written blind before this part's
code) and what was left from round 21, each a class of question:

- a segment named after a table's "segment" ("Using the segment table ..., what operating margin did the Family of Apps
  segment earn ... (segment operating income over segment revenue)?") qualifies the question's own definition: the
  segment's margin, never the company's (it had stated Meta's 42.7%, a wrong figure)."""

from __future__ import annotations

from vera_core.questions.metric import read_plan


def test_the_segment_named_is_the_one_with_a_name_not_the_table():
    question = ("Using the segment table in the Q3 2024 earnings release, what operating margin did the Family of Apps "
                "segment earn in the third quarter of 2024 (segment operating income over segment revenue)? Round to one "
                "decimal.")
    plan = read_plan(question)
    assert plan is not None and plan.source == "question"
    assert {"famil", "apps"} <= plan.qualifier.words
    plan = read_plan("Using the segment table, what was the operating margin (operating income over revenue) in Q3 2024?")
    assert plan is not None and not plan.qualifier.words
