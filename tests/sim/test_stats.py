"""Statistics: Wilson intervals against published values, and the counting rules."""

import pytest

from quarkade.sim.stats import Lengths, Rate, summarize, wilson
from quarkade.sim.tally import Tally


# Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I,
# method 3 (Wilson score interval without continuity correction).
@pytest.mark.parametrize(("successes", "trials", "low", "high"), [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0000, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_matches_newcombes_table(successes, trials, low, high):
    got = wilson(successes, trials)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_is_symmetric_and_stays_in_bounds():
    low, high = wilson(30, 100)
    low2, high2 = wilson(70, 100)
    assert (low, high) == pytest.approx((1 - high2, 1 - low2))
    assert wilson(10, 10)[1] == pytest.approx(1.0) and wilson(0, 10)[0] == 0.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_rate_text_shows_the_interval_in_percent():
    assert Rate(81, 263).text() == "30.8% [25.5, 36.6]"


def test_length_percentiles_interpolate():
    lengths = Lengths.of((1, 2, 3, 4, 10))
    assert lengths.percentile(0.5) == 3
    assert lengths.percentile(0.25) == 2
    assert lengths.percentile(0.9) == pytest.approx(7.6)
    assert lengths.mean == 4 and lengths.sd == pytest.approx(3.5355, abs=1e-4)


def result(seats, winners, first=0, length=10, **extra):
    return {"game": "g", "seats": seats, "winners": winners, "first": first,
            "length": length, **extra}


def test_summary_counts_draws_shared_wins_seats_and_the_first_mover():
    results = [
        result(["a", "b"], [0], first=0),
        result(["b", "a"], [0], first=1),
        result(["a", "b"], [], first=1),  # a draw
        result(["b", "a"], [1], first=1),
    ]
    summary = summarize(results)
    assert summary.games == 4 and summary.players == (2,)
    assert summary.agents["a"] == Rate(2, 4) and summary.agents["b"] == Rate(1, 4)
    assert summary.agent_draws == {"a": 1, "b": 1}
    assert summary.seats == {0: Rate(2, 4), 1: Rate(1, 4)}
    assert summary.first_mover == Rate(2, 4)
    assert summary.draws == Rate(1, 4)
    assert summary.fair_share == 0.5
    assert summary.balance == pytest.approx(0.75)
    assert summary.advantage[0] == pytest.approx(0.0)
    assert summary.lead_changes is None and summary.breakdowns == []


def test_an_agent_holding_two_seats_counts_two_seat_games():
    summary = summarize([result(["a", "b", "a"], [0, 2]), result(["b", "a", "b"], [1])])
    assert summary.agents["a"] == Rate(3, 3) and summary.agents["b"] == Rate(0, 3)
    assert summary.fair_share == pytest.approx(1 / 3)


def test_lead_statistics_average_over_games_that_have_them():
    summary = summarize([result(["a", "b"], [0], lead_changes=2, decided_at=0.5),
                         result(["a", "b"], [1], lead_changes=0, decided_at=0.25)])
    assert summary.lead_changes == 1.0
    assert summary.lead_change_games == Rate(1, 2)
    assert summary.decided_at == 0.375


def test_tags_break_the_games_down():
    tags = [{"game": {"players": 2}, "seats": [{"deck": "x"}, {"deck": ["y", "z"]}]},
            {"game": {"players": 3}, "seats": [{"deck": "x"}, {"deck": "y"}, {"deck": "x"}]}]
    summary = summarize([result(["a", "b"], [1], first=1, tags=tags[0], length=4),
                         result(["a", "b", "a"], [0], first=1, tags=tags[1], length=6)])
    by_players, by_deck = summary.breakdowns
    assert by_players.title == "By players"
    assert [row[:2] for row in by_players.rows] == [("2", "1"), ("3", "1")]
    assert [rate for _, rate in by_players.rates] == [Rate(1, 1), Rate(0, 1)]
    assert by_deck.title == "Win rate by deck"
    assert dict(by_deck.rates) == {"x": Rate(1, 3), "y": Rate(1, 2), "z": Rate(1, 1)}


def test_wilson_bounds_are_exact_at_no_or_all_successes():
    # The formula itself misses 0 and 1 by a rounding error at some sizes (3 and 10 here).
    assert wilson(0, 3)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert all(wilson(0, n)[0] == 0.0 and wilson(n, n)[1] == 1.0 for n in range(1, 500))


def test_seat_tags_are_split_by_the_agent_holding_the_seat():
    tags = {"game": {}, "seats": [{"deck": "x"}, {"deck": "y"}]}
    summary = summarize([result(["a", "b"], [0], tags=tags),
                         result(["b", "a"], [0], tags=tags),
                         result(["a", "b"], [1], tags=tags)])
    (by_deck,) = summary.breakdowns
    assert by_deck.columns == ("deck", "seats", "win rate [95% CI]", "as a (seats)",
                               "as b (seats)")
    assert by_deck.groups == ("a", "b")
    assert dict(by_deck.rates) == {"x": Rate(2, 3), "y": Rate(1, 3)}
    assert by_deck.group_rates == ((Rate(1, 2), Rate(1, 1)), (Rate(0, 1), Rate(1, 2)))
    assert by_deck.rows[0] == ("x", "3", Rate(2, 3).text(), f"{Rate(1, 2).text()} (2)",
                               f"{Rate(1, 1).text()} (1)")


def test_one_agent_gives_no_split():
    tags = {"game": {}, "seats": [{"deck": "x"}, {"deck": "y"}]}
    (by_deck,) = summarize([result(["a", "a"], [0], tags=tags)]).breakdowns
    assert by_deck.groups == () and len(by_deck.columns) == 3


def test_tallies_add_up_over_seats_and_games_per_value_and_agent():
    name = "caller's round win rate by cards seen"
    first = [{name: [[0, 2, 2], [3, 0, 1]]}, {name: [[3, 1, 1]]}]
    second = [{name: [["box out", 0, 1]]}, {}]
    summary = summarize([result(["a", "b"], [0], tallies=first),
                         result(["b", "a"], [1], tallies=second)])
    (table,) = summary.breakdowns
    assert table.title == "Caller's round win rate by cards seen"
    assert table.columns == ("cards seen", "count", "caller's round win rate [95% CI]",
                             "as a (count)", "as b (count)")
    assert table.plotted == "caller's round win rate"
    # numbers first, in numeric order, then text
    assert table.rates == (("0", Rate(2, 2)), ("3", Rate(1, 2)), ("box out", Rate(0, 1)))
    assert table.group_rates == ((Rate(2, 2), None), (Rate(0, 1), Rate(1, 1)),
                                 (None, Rate(0, 1)))
    assert table.rows[0][3:] == (f"{Rate(2, 2).text()} (2)", "-")


def test_a_games_notes_go_with_its_tables():
    tags = {"game": {"players": 2}, "seats": [{"turn order": 1}, {"turn order": 2}]}
    summary = summarize([{**result(["a", "b"], [0], tags=tags), "game": "hadronize"}])
    by_players, by_order = summary.breakdowns
    assert by_players.note == ""
    assert by_order.note.startswith("1 is the seat chance picked to begin")


def test_chunk_tallies_merged_count_what_one_tally_of_every_result_counts():
    def fault(agent, move):
        return {"seat": 0, "agent": agent, "move": move, "kind": "raised",
                "message": f"stopped at move {move}"}

    results = [result(["a", "b"], [0], length=7),
               result(["b", "a"], [], first=1, length=9, faults=[fault("a", 3)]),
               result(["a", "b"], [1], length=7, faults=[fault("a", 5), fault("b", 2)]),
               result(["b", "a"], [0], first=1, length=11, faults=[fault("a", 1)])]
    whole = Tally.of(results)
    merged = Tally()
    for start in (0, 1, 3):  # chunks of 1, 2 and 1 games, merged in index order
        merged.merge(Tally.of(results[start:{0: 1, 1: 3, 3: 4}[start]]))
    assert merged == whole
    assert whole.games == 4 and whole.lengths == {7: 2, 9: 1, 11: 1}
    assert whole.faults == {"a": [3, fault("a", 3)], "b": [1, fault("b", 2)]}
