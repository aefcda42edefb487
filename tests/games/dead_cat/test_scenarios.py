"""The rulebook's worked examples (seed 004, Announce Dead Cat examples 1 and 2), and one
walk-through for each tiebreak, the box running out, a round without a dead cat, the next
round's starter, and shared wins.

Maria is seat 0 and John seat 1; Maria takes the first turn, so with two players she moves
after every even number of peeks. Time decks are written top first (position 1 is the most
recent peek, DC-4).
"""

import pytest

from quarkade.core.protocol import TERMINAL
from tests.games.dead_cat.helpers import announce, award, peek, play, table, with_cubes

MARIA, JOHN = 0, 1


@pytest.mark.parametrize("dead_at", [3, 4])
def test_maria_announces_and_john_is_closer_to_the_dead_cat(dead_at):
    """Example 1: Maria shows 5, John 4; the dead cat turns up as the third card.

    ``dead_at=4`` is the other reading of "after the third card" (DC-8): John still wins.
    """
    state = table(2, first=MARIA)
    # Four peeks; the card that ends up at position ``dead_at`` is the dead one.
    cards = ["dead" if 5 - turn == dead_at else "alive" for turn in range(1, 5)]
    peek(state, cards[0], 2)  # Maria
    peek(state, cards[1], 3)  # John
    peek(state, cards[2], 5)  # Maria
    peek(state, cards[3], 4)  # John
    assert state.dice() == [5, 4]
    assert state.time_deck() == ["dead" if p == dead_at else "alive" for p in range(1, 5)]
    assert state.current_player() == MARIA
    announce(state)
    last = state.last_round()
    assert last["announcer"] == MARIA
    assert last["revealed"] == ["alive"] * (dead_at - 1) + ["dead"]
    assert last["count"] == dead_at
    assert last["winners"] == [JOHN]
    assert state.cubes() == [0, 1]


def test_maria_finds_no_dead_cat_so_the_higher_bet_wins():
    """Example 2: Maria shows 5, John 4, and the time deck holds no dead cat."""
    state = table(2, first=MARIA)
    peek(state, "alive", 5)
    peek(state, "alive", 4)
    announce(state)
    last = state.last_round()
    assert last["revealed"] == ["alive", "alive"]
    assert last["count"] is None
    assert last["winners"] == [MARIA]
    assert state.cubes() == [1, 0]


def test_same_number_tie_goes_to_the_announcer():
    state = table(3, first=0)
    peek(state, "alive", 2)  # seat 0
    peek(state, "alive", 4)  # seat 1
    peek(state, "alive", 4)  # seat 2
    peek(state, "alive", 4)  # seat 0 moves to 4 as well
    announce(state)  # seat 1: no dead cat, the highest number is 4, held by 0, 1 and 2
    assert state.last_round()["announcer"] == 1
    assert state.last_round()["winners"] == [1]


def test_same_number_tie_without_the_announcer_goes_to_fewer_cubes():
    state = with_cubes([1, 0, 0])  # one round played: seat 2 starts the second (DC-2)
    assert state.starter() == 2
    peek(state, "dead", 2)  # seat 2
    peek(state, "alive", 3)  # seat 0 (one cube)
    peek(state, "alive", 3)  # seat 1 (no cubes)
    announce(state)  # seat 2, on 2: the dead cat is third, and the 3s tie without it
    assert state.last_round()["count"] == 3
    assert state.last_round()["winners"] == [1]
    assert state.cubes() == [1, 1, 0]


def test_same_number_and_same_cubes_all_score():
    state = table(3, first=0)
    peek(state, "alive", 4)
    peek(state, "alive", 4)
    announce(state)
    assert state.last_round()["winners"] == [0, 1]
    assert state.cubes() == [1, 1, 0]


def test_indirect_tie_goes_to_the_lower_number():
    """The seed's own case: four cards revealed, one die on 3 and others on 5."""
    state = table(3, first=0)
    peek(state, "dead", 2)  # seat 0: this card ends at position 4
    peek(state, "alive", 6)  # seat 1
    peek(state, "alive", 5)  # seat 2
    peek(state, "alive", 3)  # seat 0
    announce(state)  # seat 1, on 6, two away
    last = state.last_round()
    assert last["count"] == 4 and last["dice"] == [3, 6, 5]
    assert last["winners"] == [0]


def test_indirect_tie_beats_the_announcer_rule():
    state = table(3, first=0)
    peek(state, "dead", 2)
    peek(state, "alive", 5)  # seat 1, who will announce on 5
    peek(state, "alive", 5)
    peek(state, "alive", 3)
    announce(state)
    assert state.last_round()["announcer"] == 1
    assert state.last_round()["winners"] == [0]  # 3 beats 5: the lower number (DC-9)


def test_announcer_on_the_lower_number_wins_an_indirect_tie():
    state = table(3, first=0)
    peek(state, "dead", 2)
    peek(state, "alive", 3)  # seat 1 will announce on 3
    peek(state, "alive", 5)
    peek(state, "alive", 3)  # seat 0 also on 3
    announce(state)
    assert state.last_round()["winners"] == [1]  # 3 wins the number; the announcer the seat


def test_box_running_out_reveals_the_time_deck():
    state = table(2, first=MARIA)
    cards = ["dead"] + ["alive"] * 7
    bets = [2, 2, 3, 3, 4, 5, 5, 6]  # Maria ends on 5, John on 6
    for card, bet in zip(cards, bets, strict=True):
        assert state.box_left() > 0
        peek(state, card, bet)
    last = state.last_round()
    assert last["announcer"] is None and last["ran_out"]
    assert last["revealed"] == ["alive"] * 7 + ["dead"]
    assert last["count"] == 8
    assert last["dice"] == [5, 6]
    assert last["winners"] == [JOHN]  # 6 is closest to 8
    assert state.round_number() == 2 and state.box_left() == 8


def test_box_running_out_has_no_announcer():
    """John draws the last card; the dice tie on the same number and nobody announced."""
    state = table(2, first=MARIA)
    for bet in [2, 2, 3, 3, 4, 4, 5, 5]:
        peek(state, "alive", bet)
    last = state.last_round()
    assert last["count"] is None and last["dice"] == [5, 5]
    assert last["winners"] == [MARIA, JOHN]  # equal cubes: both score (DC-10)
    assert state.cubes() == [1, 1]


def test_a_round_with_no_dead_cat():
    """Both dead cats were among the removed cards: the box holds only alive cats."""
    state = table(2, first=MARIA)
    for bet in [3, 4, 5, 6, 2, 3, 4, 2]:
        probe = play(state.clone(), "peek")
        assert len(probe.chance_outcomes()) == 2  # a dead cat stays possible to the end
        peek(state, "alive", bet)
    last = state.last_round()
    assert last["revealed"] == ["alive"] * 8 and last["count"] is None
    assert last["winners"] == [MARIA]  # Maria on 4 beats John on 2


def test_a_new_rounds_starting_player():
    state = table(3, first=0)
    starters = []
    for winner in (0, 1, 2):
        starters.append(state.starter())
        award(state, winner)
    starters.append(state.starter())
    assert starters == [0, 2, 1, 0]  # each time the seat to the right (DC-2)
    assert state.current_player() == 0


def test_shared_wins():
    state = with_cubes([3, 3, 0])  # six rounds: seat 0 starts the seventh
    peek(state, "alive", 4)  # seat 0
    peek(state, "alive", 4)  # seat 1
    announce(state)  # seat 2, on 1
    assert state.cubes() == [4, 4, 0]
    assert state.current_player() == TERMINAL
    assert state.game_winners() == [0, 1]
    assert state.returns() == [0.5, 0.5, -1.0]


def test_a_single_winner_ends_the_game():
    state = with_cubes([3, 2])
    award(state, 0)
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0]
    assert state.legal_actions() == []
