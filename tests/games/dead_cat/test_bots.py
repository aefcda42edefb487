"""Dead Cat bots: bayes's odds are exact, both bots play sensibly, and both beat random."""

import random
from fractions import Fraction
from itertools import combinations

import pytest

from quarkade import load_game
from quarkade.agents import make_agent, turn_for
from quarkade.games.dead_cat.notation import FIRST_BASE
from quarkade.games.dead_cat.policies import announce_value, first_dead_chances, unseen_cards
from quarkade.sim import play_match
from tests.games.dead_cat.helpers import peek, play, table


def brute_force(view):
    """Chances of the first dead cat's position by listing every equally likely way to put
    the dead cats among the cards the seat has not seen."""
    deck = [entry["card"] for entry in view["time_deck"]]
    hidden = [i for i, card in enumerate(deck) if card is None]
    alive, dead = unseen_cards(view)
    slots = alive + dead  # the hidden time-deck cards come first, then the box and removed
    counts = [Fraction(0)] * (len(deck) + 1)  # index 0: no dead cat in the time deck
    ways = 0
    for dead_slots in combinations(range(slots), dead):
        cards = deck[:]
        for slot, index in enumerate(hidden):
            cards[index] = "dead" if slot in dead_slots else "alive"
        first = next((p for p, card in enumerate(cards, start=1) if card == "dead"), 0)
        counts[first] += 1
        ways += 1
    return [c / ways for c in counts[1:]], counts[0] / ways


def _positions():
    two = table(2)
    peek(two, "alive", 3)
    peek(two, "dead", 4)
    peek(two, "alive", 2)
    three = table(3, first=1)
    for card, bet in [("alive", 2), ("dead", 3), ("alive", 4), ("alive", 5), ("dead", 6),
                      ("alive", 2)]:
        peek(three, card, bet)
    return [two, three, table(3)]


@pytest.mark.parametrize("position", range(3))
def test_bayes_odds_are_exact(position):
    state = _positions()[position]
    for seat in [*range(state.game.num_players), -2]:
        view = state.view(seat)
        alive, dead = unseen_cards(view)
        chances, none = first_dead_chances([e["card"] for e in view["time_deck"]], alive, dead)
        exact, exact_none = brute_force(view)
        assert chances == pytest.approx([float(c) for c in exact], abs=1e-12)
        assert none == pytest.approx(float(exact_none), abs=1e-12)
        assert sum(chances) + none == pytest.approx(1)


def _act(state, spec, seed=0):
    agent = make_agent(spec, "dead-cat")
    return state.action_to_string(agent.act(turn_for(state), random.Random(seed)))


@pytest.mark.parametrize("spec", ["bayes", "greedy"])
def test_bots_take_the_starters_free_cube_as_written(spec):  # DC-6
    assert _act(table(3), spec) == "announce"
    assert _act(table(3, peek_first=True), spec) == "peek"


def test_bayes_announces_when_every_reveal_goes_its_way():
    state = table(2)
    peek(state, "alive", 6)
    peek(state, "alive", 6)  # John's card is hidden, but a 6-6 tie goes to the announcer
    assert announce_value(state.view(0), 0) == 1.0
    assert _act(state, "bayes") == "announce"


def test_bayes_bets_the_certain_count_when_the_box_runs_out():
    state = table(2)
    for bet in (2, 2, 3, 3, 4, 4, 5):
        peek(state, "alive", bet)
    play(state, "peek", "draw dead")  # John draws the last card: the dead cat is on top
    assert state.box_left() == 0
    # The count is 1 for sure: 1, 2 or 3 beat Maria's 5 outright (5 would share the cube).
    assert _act(state, "bayes") == "bet 3"
    play(state, "bet 3")
    assert state.last_round()["winners"] == [1]


def test_bayes_bets_high_when_the_odds_tie():
    state = play(table(2), "peek", "draw alive")  # nothing can beat a die above John's 1
    assert _act(state, "bayes") == "bet 6"


def test_greedy_bets_the_dead_cat_it_knows():
    state = table(3)
    peek(state, "dead", 2)
    peek(state, "alive", 4)
    peek(state, "alive", 5)
    play(state, "peek", "draw alive")  # its dead cat is now at position 4
    assert _act(state, "greedy") == "bet 4"
    play(state, "bet 3")
    state2 = table(2)
    play(state2, "peek", "draw alive")
    assert _act(state2, "greedy") == "bet 6"  # no dead cat known: as high as it can


def test_bots_read_only_their_view():
    state = _positions()[1]
    turn = turn_for(state)
    assert turn.view == state.view(state.current_player())
    for spec in ("bayes", "greedy"):
        assert make_agent(spec, "dead-cat").act(turn, random.Random(1)) in turn.legal_actions


def _share(hero, villain, players, games, **options):
    game = load_game("dead-cat", players=players, **options)
    total = 0.0
    for seed in range(games):
        seat = seed % players
        agents = [make_agent(villain, "dead-cat") for _ in range(players)]
        agents[seat] = make_agent(hero, "dead-cat")
        final, _ = play_match(game, agents, seed=seed)
        winners = final.game_winners()
        total += (seat in winners) / len(winners)
    return total / games


@pytest.mark.parametrize("spec", ["bayes", "greedy"])
@pytest.mark.parametrize(("players", "options"), [(2, {}), (4, {"peek_first": True})])
def test_bots_beat_random(spec, players, options):
    # A fair share is 1/players; both bots take well over twice that.
    assert _share(spec, "random", players, 80, **options) > 2.0 / players * 0.85


def test_as_written_the_first_player_wins_every_bot_game():  # DC-6
    for players in (2, 3, 5):
        game = load_game("dead-cat", players=players)
        for seed in range(10):
            agents = [make_agent("bayes" if s % 2 else "greedy", "dead-cat")
                      for s in range(players)]
            final, _ = play_match(game, agents, seed=seed)
            assert final.game_winners() == [final.history()[0] - FIRST_BASE]
