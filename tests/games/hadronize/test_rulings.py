"""One test (or more) per Hadronize ruling in docs/RULINGS.md (H-1 ... H-9)."""

from fractions import Fraction
from itertools import combinations

import pytest

from quarkade import CHANCE, TERMINAL, IllegalActionError, load_game
from quarkade.games.hadronize.notation import FLAVOURS
from tests.games.hadronize.helpers import chamber, dealt, turn


def _after_deal(players: int):
    state = load_game("hadronize", players=players).new_initial_state()
    for _ in range(4 * players):
        state.apply_action(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("players", [2, 3, 6])
def test_first_seat_is_a_uniform_chance_choice(players):  # H-1
    state = _after_deal(players)
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert [state.action_to_string(a) for a, _ in outcomes] == \
        [f"first {seat}" for seat in range(players)]
    assert all(p == pytest.approx(1 / players) for _, p in outcomes)


def test_turns_go_round_in_seat_order():  # H-1
    state = dealt([["up"] * 4, ["down"] * 4, ["top"] * 4], first=1)
    movers = []
    for _ in range(5):
        movers.append(state.active_seat())
        turn(state, "s/c/b", state.active_seat(), "strange")
    assert movers == [1, 2, 0, 1, 2]


def test_setup_deals_four_independent_uniform_quarks():  # H-2
    game = load_game("hadronize", players=3)
    state = game.new_initial_state()
    for step in range(12):
        outcomes = state.chance_outcomes()
        assert [state.action_to_string(a) for a, _ in outcomes] == \
            [f"deal {f}" for f in FLAVOURS]
        assert all(p == pytest.approx(1 / 6) for _, p in outcomes)
        state.apply_action(outcomes[step % 2][0])  # up, down, up, down, ...
    assert state.chamber(0) == [2, 2, 0, 0, 0, 0]
    assert state.chamber(2) == [2, 2, 0, 0, 0, 0]
    repeated = dealt([["top"] * 4, ["top"] * 4])
    assert chamber(repeated, 0) == {"top": 4}


def test_superposition_is_three_distinct_flavours_uniformly():  # H-3
    state = dealt([["up"] * 4, ["down"] * 4])
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 20
    assert sum(Fraction(p).limit_denominator(100) for _, p in outcomes) == 1
    sets = set()
    for action, probability in outcomes:
        assert probability == pytest.approx(1 / 20)
        flavours = state.action_to_string(action).split()[1].split("/")
        assert len(set(flavours)) == 3
        sets.add(frozenset(flavours))
    assert len(sets) == len(list(combinations(FLAVOURS, 3)))
    state.apply_action(state.string_to_action("superpose u/d/t"))
    assert state.current_player() == 0  # the set is known before the choice


def test_collapse_is_uniform_over_the_superposition_after_the_choice():  # H-4
    state = dealt([["up"] * 4, ["down"] * 4])
    state.apply_action(state.string_to_action("superpose b/s/t"))
    assert state.current_player() == 0
    state.apply_action(state.string_to_action("observe 1"))
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert [state.action_to_string(a) for a, _ in outcomes] == \
        ["collapse strange", "collapse bottom", "collapse top"]
    assert all(p == pytest.approx(1 / 3) for _, p in outcomes)
    with pytest.raises(IllegalActionError, match="not legal"):
        state.apply_action(26)  # "up" is not in b/s/t


def test_hadronized_quarks_never_react():  # H-5
    state = dealt([["charm", "up", "up", "up"], ["down"] * 4])
    turn(state, "c/s/u", 0, "charm")  # seat 0 hadronizes 2 charm
    assert state.hadronized(0) == 2
    turn(state, "u/d/s", 1, "strange")
    turn(state, "c/s/b", 0, "charm")  # charm again: nothing left to react with
    assert state.hadronized(0) == 2
    assert chamber(state, 0) == {"up": 3, "charm": 1}


def test_tunnelled_quarks_do_not_hadronize_that_turn():  # H-6
    state = dealt([["strange", "up", "up", "up"], ["strange", "strange", "down", "down"]])
    turn(state, "u/s/c", 1, "strange")  # 3 strange tunnel to seat 0, which already had 1
    assert chamber(state, 0) == {"up": 3, "strange": 4}
    assert state.hadronized(0) == 0
    assert state.active_seat() == 1  # the turn ended with the tunnel


def test_tunnelled_quarks_react_on_later_turns():  # H-6
    state = dealt([["up"] * 4, ["strange", "strange", "down", "down"]])
    turn(state, "u/s/c", 1, "strange")  # 3 strange tunnel into seat 0
    turn(state, "u/d/s", 1, "down")  # seat 1 hadronizes 3 down
    turn(state, "s/c/t", 0, "strange")  # the tunnelled strange quarks hadronize now
    assert state.hadronized(0) == 4
    assert chamber(state, 0) == {"up": 4}


def test_reaching_the_goal_ends_the_game_at_once():  # H-7
    state = dealt([["up"] * 4, ["down"] * 4], goal=5)
    turn(state, "u/d/s", 0, "up")  # 5 up quarks hadronize: goal reached
    assert state.is_terminal()
    assert state.current_player() == TERMINAL
    assert state.returns() == [1.0, -1.0]
    assert state.legal_actions() == []
    with pytest.raises(IllegalActionError, match="over"):
        state.apply_action(0)


def test_short_of_the_goal_the_game_goes_on():  # H-7
    state = dealt([["up"] * 4, ["down"] * 4], goal=6)
    turn(state, "u/d/s", 0, "up")
    assert not state.is_terminal() and state.returns() == [0.0, 0.0]


def test_capped_game_is_won_by_the_most_hadronized():  # H-8
    state = dealt([["up"] * 4, ["down"] * 4, ["top"] * 4], max_turns=3)
    turn(state, "u/d/s", 0, "up")  # seat 0: 5
    turn(state, "u/d/s", 1, "down")  # seat 1: 5
    assert not state.is_terminal()
    turn(state, "u/d/s", 0, "up")  # seat 2 hands seat 0 an up quark: no reaction
    assert state.is_terminal()
    assert state.returns() == [0.5, 0.5, -1.0]


def test_capped_game_with_everyone_level_is_a_draw():  # H-8
    state = dealt([["up"] * 4, ["down"] * 4], max_turns=2)
    turn(state, "s/c/b", 0, "strange")
    turn(state, "s/c/b", 1, "bottom")
    assert state.is_terminal()
    assert state.returns() == [0.0, 0.0]
    assert state.winners() == []


def test_no_cap_by_default():  # H-8
    assert load_game("hadronize").options["max_turns"] == 0


@pytest.mark.parametrize("players", [2, 4, 6])
def test_every_seat_may_be_chosen_to_observe(players):  # H-9
    state = dealt([["up"] * 4] * players, first=players - 1)
    state.apply_action(state.string_to_action("superpose u/d/s"))
    assert [state.action_to_string(a) for a in state.legal_actions()] == \
        [f"observe {seat}" for seat in range(players)]
