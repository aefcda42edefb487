"""Hidden information (DC-14): what a seat has not seen never reaches its view, its log or
its resampled states.

A *twin* of a position, for seat P, is the same game with one or two of the cards P has not
seen changed (another seat's peek that was never revealed): the history is rewritten and
replayed. P must not be able to tell a position from its twins.
"""

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quarkade import SPECTATOR, IllegalActionError
from quarkade.games.dead_cat import text
from quarkade.games.dead_cat.notation import ALIVE, DEAD
from tests.games.dead_cat.helpers import peek, play, table
from tests.games.dead_cat.playing import random_game, replay
from tests.golden import render_text


def draw_knowledge(state):
    """Every draw in the history as (index, drawer, round, position from the top at the
    round's end or now), and how many cards each finished round revealed."""
    fresh = state.game.new_initial_state()
    draws = []
    revealed = {}
    for index, action in enumerate(state.history()):
        if fresh.is_chance_node() and action in (ALIVE, DEAD):
            draws.append([index, fresh.active_seat(), fresh.round_number()])
        fresh.apply_action(action)
        last = fresh.last_round()
        if last is not None:
            revealed[last["round"]] = len(last["revealed"])
    per_round = Counter(r for _, _, r in draws)
    placed = Counter()
    for draw in draws:
        placed[draw[2]] += 1
        draw.append(per_round[draw[2]] - placed[draw[2]] + 1)
    return draws, revealed


def unseen_draws(state, player):
    """History indices of the cards ``player`` has neither peeked nor seen revealed."""
    draws, revealed = draw_knowledge(state)
    return [(index, round_number) for index, drawer, round_number, position in draws
            if drawer != player and position > revealed.get(round_number, 0)]


def twins(state, player, rng, limit=2):
    """Up to ``limit`` positions that differ from ``state`` only in cards hidden from
    ``player``: one card flipped, or two of one round swapped when a flip is impossible."""
    hidden = unseen_draws(state, player)
    rng.shuffle(hidden)
    found = []
    history = state.history()
    for index, round_number in hidden:
        changed = history[:]
        changed[index] = ALIVE + DEAD - changed[index]
        try:
            found.append(replay(state, changed))
        except IllegalActionError:  # too many dead cats in the round: swap instead
            partners = [i for i, r in hidden if r == round_number and history[i] != history[index]]
            if not partners:
                continue
            changed[partners[0]] = history[index]
            found.append(replay(state, changed))
        if len(found) == limit:
            break
    return found


def notations(state, player):
    """The whole log of ``state`` as ``player`` reads it."""
    fresh = state.game.new_initial_state()
    lines = []
    for action in state.history():
        lines.append(fresh.action_string_for(player, action))
        fresh.apply_action(action)
    return lines


def sampled_positions(params, count=6):
    """Some positions of a random game (always including its end)."""
    states = []
    final = random_game(**params, on_step=lambda s: states.append(s.clone()))
    rng = random.Random(params["seed"])
    return [*rng.sample(states, min(count, len(states))), final]


games = st.fixed_dictionaries({
    "seed": st.integers(0, 2**32 - 1),
    "players": st.integers(2, 5),
    "announce": st.sampled_from([0.2, 0.05]),
    "peek_first": st.booleans(),
})


def assert_indistinguishable(state, twin, player, log):
    """``log`` is ``notations(state, player)``, computed once per position and seat."""
    assert twin.history() != state.history()
    assert json.dumps(twin.view(player)) == json.dumps(state.view(player))
    assert notations(twin, player) == log
    names = NAMES[:state.game.num_players]
    assert render_text(text.render(twin.view(player), names, player)) == \
        render_text(text.render(state.view(player), names, player))
    mine = state.resample(player, random.Random(len(log)))
    theirs = twin.resample(player, random.Random(len(log)))
    assert mine.history() == theirs.history()
    assert mine.time_deck() == theirs.time_deck()


NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"]


@settings(max_examples=15)
@given(games)
def test_a_seat_cannot_tell_a_position_from_its_twins(params):
    rng = random.Random(params["seed"])
    for state in sampled_positions(params, count=3):
        for player in [*range(params["players"]), SPECTATOR]:
            log = notations(state, player)
            for twin in twins(state, player, rng, limit=1):
                assert_indistinguishable(state, twin, player, log)


def test_twins_exist_in_long_rounds():
    """The property above is not vacuous: long rounds give every seat hidden cards."""
    made = 0
    for seed in range(4):
        params = {"seed": seed, "players": 2 + seed, "announce": 0.05, "peek_first": True}
        rng = random.Random(seed)
        for state in sampled_positions(params, count=3):
            for player in [*range(params["players"]), SPECTATOR]:
                log = notations(state, player)
                for twin in twins(state, player, rng):
                    assert_indistinguishable(state, twin, player, log)
                    made += 1
    assert made > 40


@given(games)
def test_no_view_or_notation_names_a_card_the_seat_has_not_seen(params):
    final = random_game(**params)
    draws, _ = draw_knowledge(final)
    drawer_at = {index: drawer for index, drawer, _, _ in draws}
    for player in [*range(params["players"]), SPECTATOR]:
        for index, line in enumerate(notations(final, player)):
            if index in drawer_at and drawer_at[index] != player:
                assert line == "draw"
            elif drawer_at.get(index) != player:  # not a draw at all
                assert "alive" not in line and "dead" not in line

    def check(state):
        for player in [*range(params["players"]), SPECTATOR]:
            view = state.view(player)
            for entry in view["time_deck"]:
                assert (entry["card"] is not None) == (entry["peeker"] == player)
                if entry["card"] is not None:
                    assert entry["card"] == state.time_deck()[entry["position"] - 1]
    random_game(**params, on_step=check)


@given(games)
def test_resample_keeps_the_view_and_replays(params):
    for state in sampled_positions(params, count=3):
        for player in [*range(params["players"]), SPECTATOR]:
            sampled = state.resample(player, random.Random(params["seed"]))
            assert sampled.view(player) == state.view(player)
            again = replay(state, sampled.history())
            for seat in [*range(params["players"]), SPECTATOR]:
                assert again.view(seat) == sampled.view(seat)
            assert again.time_deck() == sampled.time_deck()
            assert sampled.card_counts() == again.card_counts()


def test_resample_draws_unseen_cards_with_the_right_odds():
    state = table(2)
    peek(state, "alive", 3)  # Maria's card: 9 cards remain unseen by her, 2 of them dead
    peek(state, "dead", 4)  # John's card: 9 remain unseen by him, 1 of them dead
    tries = 9000
    maria = Counter(state.resample(0, random.Random(i)).time_deck()[0] for i in range(tries))
    john = Counter(state.resample(1, random.Random(i)).time_deck()[1] for i in range(tries))
    assert maria["dead"] / tries == pytest.approx(2 / 9, abs=0.015)
    assert john["dead"] / tries == pytest.approx(1 / 9, abs=0.015)
    for i in range(50):
        assert state.resample(0, random.Random(i)).time_deck()[1] == "alive"  # her own
        assert state.resample(1, random.Random(i)).time_deck()[0] == "dead"  # his own


def test_revealed_cards_are_kept_by_resample():
    state = table(2)
    peek(state, "alive", 2)
    peek(state, "dead", 3)  # revealed below as the first dead cat
    peek(state, "alive", 4)
    play(state, "announce")  # John's alive, then his dead cat: count 2
    for seed in range(30):
        sampled = state.resample(SPECTATOR, random.Random(seed))
        assert sampled.history()[:-1][-5] == DEAD  # John's draw, public since the reveal
        assert sampled.last_round() == state.last_round()


def test_view_of_no_seat_is_refused():
    state = table(3)
    for bad in (3, -1, 1.0, "0"):
        with pytest.raises(IllegalActionError, match="no seat"):
            state.view(bad)
        with pytest.raises(IllegalActionError, match="no seat"):
            state.resample(bad, random.Random(0))


def test_the_revealed_view_shows_every_card_of_the_time_deck():
    """After the game (reveal on) the last round's whole time deck is face up, the cards
    it never turned over too; mid-game, every card of the time deck, peeked or not."""
    mid = []
    state = random_game(0, 3, on_step=lambda s: mid.append(s.clone())
                        if len(s.view(SPECTATOR)["time_deck"]) >= 3 else None)
    assert state.is_terminal()
    revealed = state.revealed_view()
    assert revealed["player"] is None and revealed["revealed"] is True
    last = revealed["last_round"]
    assert len(last["time_deck"]) > len(last["revealed"]), \
        "pick a seed whose last round leaves cards face down"
    assert last["time_deck"][:len(last["revealed"])] == last["revealed"]
    assert "time_deck" not in state.view(0)["last_round"]
    during = mid[-1].revealed_view()["time_deck"]
    assert [entry["card"] for entry in during] == mid[-1].time_deck()
    assert any(entry["card"] is None for entry in mid[-1].view(0)["time_deck"])
