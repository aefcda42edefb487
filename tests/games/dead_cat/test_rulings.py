"""One test (or more) per Dead Cat ruling in docs/RULINGS.md (DC-1 ... DC-14; the leak
tests for DC-14 are in test_leaks.py, and several rulings also have scenario tests)."""

from fractions import Fraction
from itertools import combinations, product

import pytest

from quarkade import CHANCE, IllegalActionError, load_game
from quarkade.games.dead_cat.notation import ANNOUNCE, DEAD, bet_action
from quarkade.games.dead_cat.rules import round_winners
from tests.games.dead_cat.helpers import announce, award, peek, play, table, with_cubes


@pytest.mark.parametrize("players", [2, 3, 5])
def test_first_seat_is_a_uniform_chance_choice(players):  # DC-1
    state = load_game("dead-cat", players=players).new_initial_state()
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert [state.action_to_string(a) for a, _ in outcomes] == \
        [f"first {seat}" for seat in range(players)]
    assert all(p == pytest.approx(1 / players) for _, p in outcomes)


def test_turns_go_round_in_seat_order():  # DC-2
    state = table(3, first=1)
    movers = []
    for bet in (2, 3, 4, 5):
        movers.append(state.current_player())
        peek(state, "alive", bet)
    assert movers == [1, 2, 0, 1]


@pytest.mark.parametrize(("players", "first", "starters"), [
    (2, 0, [0, 1, 0]),
    (3, 0, [0, 2, 1, 0]),
    (5, 3, [3, 2, 1, 0, 4, 3]),
])
def test_next_round_starts_with_the_seat_to_the_right(players, first, starters):  # DC-2
    state = table(players, first=first)
    seen = [state.starter()]
    for _ in starters[1:]:
        award(state, (state.starter() + 1) % players)
        seen.append(state.starter())
        assert state.current_player() == state.starter()
    assert seen == starters


def test_a_draw_is_weighted_by_the_cards_nobody_has_drawn():  # DC-3
    state = play(table(2), "peek")
    assert [(state.action_to_string(a), p) for a, p in state.chance_outcomes()] == \
        [("draw alive", pytest.approx(8 / 10)), ("draw dead", pytest.approx(2 / 10))]
    play(state, "draw dead", "bet 2", "peek")
    assert [p for _, p in state.chance_outcomes()] == [pytest.approx(8 / 9),
                                                       pytest.approx(1 / 9)]
    play(state, "draw dead", "bet 3", "peek")
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["draw alive"]
    assert state.chance_outcomes() == [(state.legal_actions()[0], 1.0)]
    with pytest.raises(IllegalActionError, match="no dead cat"):
        state.apply_action(DEAD)


def test_lazy_draws_match_the_physical_shuffle():  # DC-3
    """Two players: shuffle 8 alive + 2 dead, remove 2 unseen, deal the box from the top.

    Every sequence of drawn cards gets the same chance from the engine's one-card-at-a-time
    draws as from counting the physical arrangements, exactly.
    """
    size = 10
    arrangements = [set(dead) for dead in combinations(range(size), 2)]  # dead positions

    def physical(cards):  # chance the box (positions 2..9) starts with ``cards``
        hits = sum(all((2 + i in dead) == (card == "dead") for i, card in enumerate(cards))
                   for dead in arrangements)
        return Fraction(hits, len(arrangements))

    for length in range(1, 9):
        for cards in product(("alive", "dead"), repeat=length):
            state = table(2)
            chance = Fraction(1)
            for i, card in enumerate(cards):
                play(state, "peek")
                outcomes = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
                if f"draw {card}" not in outcomes:
                    chance = Fraction(0)
                    break
                chance *= Fraction(outcomes[f"draw {card}"]).limit_denominator(1000)
                play(state, f"draw {card}", f"bet {2 + i % 5}")
            assert chance == physical(cards), cards


def test_a_peeked_card_goes_on_top_of_the_time_deck():  # DC-4
    state = table(2)
    peek(state, "dead", 3)
    peek(state, "alive", 2)
    assert state.time_deck() == ["alive", "dead"]  # top first
    deck = state.view(0)["time_deck"]
    assert deck == [{"position": 1, "peeker": 1, "card": None},
                    {"position": 2, "peeker": 0, "card": "dead"}]


def test_a_peek_must_change_the_die():  # DC-5
    state = play(table(2), "peek", "draw alive")
    assert state.current_player() == 0
    assert [state.action_to_string(a) for a in state.legal_actions()] == \
        ["bet 2", "bet 3", "bet 4", "bet 5", "bet 6"]
    assert state.string_to_action("4") == state.string_to_action("bet 4") == bet_action(4)
    before = state.history()
    with pytest.raises(IllegalActionError, match="already shows 1"):
        state.apply_action(bet_action(1))
    assert state.history() == before
    play(state, "bet 6")
    peek(state, "alive", 2)  # John
    play(state, "peek", "draw alive")
    assert "bet 6" not in [state.action_to_string(a) for a in state.legal_actions()]
    play(state, "bet 1")  # back to 1 is a change like any other
    assert state.dice() == [1, 2]


def test_announcing_with_an_empty_time_deck_is_allowed_as_written():  # DC-6
    state = table(3, first=2)
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["announce", "peek"]
    announce(state)
    last = state.last_round()
    assert last["revealed"] == [] and last["count"] is None
    assert last["winners"] == [2]  # everyone on 1, the announcer takes the tie


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_starter_wins_every_round_by_announcing_at_once(players):  # DC-6
    state = table(players, first=players - 1)
    for _ in range(2 * players):
        starter = state.starter()
        assert state.dice() == [1] * players and state.time_deck() == []
        announce(state)
        assert state.last_round()["winners"] == [starter]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_first_player_wins_the_game_when_every_starter_announces_at_once(players):  # DC-6
    first = 1
    state = table(players, first=first)
    rounds = 0
    while not state.is_terminal():
        announce(state)
        rounds += 1
    assert rounds == 3 * players + 1
    assert state.game_winners() == [first]


def test_peek_first_forbids_announcing_with_an_empty_time_deck():  # DC-6
    assert load_game("dead-cat").options["peek_first"] is False
    state = table(3, first=0, peek_first=True)
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["peek"]
    with pytest.raises(IllegalActionError, match="time deck is empty"):
        state.apply_action(ANNOUNCE)
    assert state.history() == table(3, first=0, peek_first=True).history()
    peek(state, "alive", 2)
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["announce", "peek"]
    announce(state)
    assert state.round_number() == 2
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["peek"]


def test_the_reveal_stops_at_the_first_dead_cat():  # DC-7
    state = table(2)
    peek(state, "alive", 2)  # position 4
    peek(state, "dead", 3)  # position 3
    peek(state, "dead", 4)  # position 2, peeked by Maria
    peek(state, "alive", 5)  # position 1
    announce(state)
    last = state.last_round()
    assert last["revealed"] == ["alive", "dead"] and last["count"] == 2
    assert last["winners"] == [0]  # Maria's 4 is two away, John's 5 three
    for seat in (0, 1, -2):
        assert state.view(seat)["last_round"]["revealed"] == ["alive", "dead"]


def test_a_count_above_six_goes_to_the_highest_die():  # DC-8
    state = table(3, first=0)
    peek(state, "dead", 2)
    for bet in (2, 2, 6, 6, 4, 3, 5):  # seats 1, 2, 0, 1, 2, 0, 1
        peek(state, "alive", bet)
    assert state.dice() == [3, 5, 4] and state.current_player() == 2
    announce(state)
    assert state.last_round()["count"] == 8
    assert state.last_round()["winners"] == [1]
    for count in range(7, 21):  # up to the deepest count, all twenty cards of five players
        assert round_winners([2, 6, 5], [0, 0, 0], count, 0) == (1,)


def test_box_running_out_with_no_dead_cat_goes_to_the_highest_die():  # DC-10
    state = table(3, first=0)
    bets = [2, 2, 2, 3, 3, 3, 4, 4, 4, 6, 5, 5]
    for bet in bets:
        peek(state, "alive", bet)
    last = state.last_round()
    assert last["ran_out"] and last["announcer"] is None
    assert last["count"] is None and len(last["revealed"]) == 12
    assert last["winners"] == [0]


def test_cube_supply_never_runs_out():  # DC-11
    state = with_cubes([3, 3, 3, 3, 3])
    assert sum(state.cubes()) == 15  # the whole supply is on the table
    award(state, state.starter())
    assert sum(state.cubes()) == 16
    assert state.is_terminal() and len(state.game_winners()) == 1


def test_new_round_resets_dice_and_cards():  # DC-12
    state = table(2)
    peek(state, "dead", 4)
    peek(state, "alive", 6)
    announce(state)
    assert state.round_number() == 2
    assert state.dice() == [1, 1] and state.time_deck() == [] and state.box_left() == 8
    assert state.cubes() == [1, 0]  # the dead cat was second: Maria's 4 beat John's 6
    play(state, "peek")
    assert [p for _, p in state.chance_outcomes()] == [pytest.approx(0.8), pytest.approx(0.2)]


def test_both_players_reaching_four_share_the_win():  # DC-13
    state = with_cubes([3, 3])
    for bet in [2, 2, 3, 3, 4, 4, 5, 5]:
        peek(state, "alive", bet)  # the box runs out with both on 5: both score
    assert state.cubes() == [4, 4]
    assert state.is_terminal() and state.game_winners() == [0, 1] == state.winners()
    # Nothing is won from anyone (returns 0 each), but it is a shared win, not a draw.
    assert state.returns() == [0.0, 0.0]
    assert state.outcome().result == "shared win"
