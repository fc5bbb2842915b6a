"""The arithmetic `vera bench ui --sessions` prints beside its measurements."""

from vera_bench.bench_ui import floor_s, percentile


def test_floor_shares_a_round_of_questions_between_the_cores():
    # four sessions, 0.06 s of CPU a question: 0.24 s a round, 0.12 s on two cores
    assert floor_s(0.06, 4, 2) == 0.12
    # one session gains nothing from a second core, and more cores than sessions stay idle
    assert floor_s(0.06, 1, 2) == 0.06
    assert floor_s(0.06, 4, 8) == 0.06


def test_percentile_is_the_nearest_rank():
    times = [0.1 * n for n in range(1, 21)]  # 0.1 .. 2.0 s
    assert percentile(times, 50) == 1.1
    assert percentile(times, 95) == 1.9
    assert percentile([], 95) == 0.0
