"""Decoherence invariants over random games (hypothesis picks seeds, decks and options).

The random player here passes less often than a uniform one would (so tables fill up,
links form and games run long); chance is sampled with its probabilities.
"""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quarkade import CHANCE, IllegalActionError, load_game
from quarkade.core.rng import sample_chance
from quarkade.games.decoherence.decks import PRESETS
from quarkade.games.decoherence.notation import KIKI, MAX_TABLE, NUM_ACTIONS, PASS
from quarkade.games.decoherence.table import FIELDS, LINK, NO_SPIN, SPIN
from tests.games.decoherence.internals import internals

DECKS = st.sampled_from([*PRESETS, "random"])
OPTIONS = st.fixed_dictionaries({"deck0": DECKS, "deck1": DECKS,
                                 "open_decklists": st.booleans()})


def choose(state, rng):
    if state.is_chance_node():
        return sample_chance(state, rng)
    legal = state.legal_actions()
    if len(legal) > 1 and PASS in legal and rng.random() < 0.8:
        legal = [a for a in legal if a != PASS]
    return rng.choice(legal)


def playout(seed, options, on_step=None, limit=5_000):
    rng = random.Random(seed)
    state = load_game("decoherence", **options).new_initial_state()
    for _ in range(limit):
        if on_step is not None:
            on_step(state)
        if state.is_terminal():
            return state
        state.apply_action(choose(state, rng))
    raise AssertionError(f"no end within {limit} actions")


def check_table(state):
    table = state._table
    for seat in range(2):
        kiki_spins = []
        for g in range(seat * MAX_TABLE, (seat + 1) * MAX_TABLE):
            base = g * FIELDS
            if table[base] < 0:
                continue
            partner = table[base + LINK]
            if partner >= 0:
                assert table[partner * FIELDS + LINK] == g, "links are mutual"
                spins = (table[base + SPIN], table[partner * FIELDS + SPIN])
                if NO_SPIN not in spins:
                    assert spins[0] != spins[1], "linked spins are opposite"
            if table[base] == KIKI and table[base + SPIN]:
                kiki_spins.append(table[base + SPIN])
        assert len(kiki_spins) == len(set(kiki_spins)), "exclusion: one kiki per spin"


@given(seed=st.integers(0, 2**32 - 1), options=OPTIONS)
def test_cards_chains_hands_and_links_stay_within_the_rules(seed, options):
    def check(state):
        if state.phase() not in ("decks", "first", "opening"):
            assert state.card_count() == 60
        for seat in range(2):
            assert sum(c is not None for c in state.chains(seat)) <= 3
            # Verve is checked once a whole sentence has resolved (D-3).
            assert state.verve(seat) > 0 or state.phase() in ("over", "target", "coin")
        active = state.active_seat()
        if active >= 0:
            assert len(state.hand(1 - active)) <= 7  # the other seat discarded to seven
        check_table(state)
    playout(seed, options, check)


@given(seed=st.integers(0, 2**32 - 1), options=OPTIONS)
def test_games_end_and_replay_rebuilds_them(seed, options):
    final = playout(seed, options)
    assert final.returns() in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
    assert final.ending() in ("decoherence", "empty deck", "made classical")
    replayed = load_game("decoherence", **options).new_initial_state()
    for action in final.history():
        replayed.apply_action(action)
    assert replayed.history() == final.history()
    assert internals(replayed) == internals(final)
    assert [replayed.view(p) for p in (0, 1, -2)] == [final.view(p) for p in (0, 1, -2)]


@given(seed=st.integers(0, 2**32 - 1), options=OPTIONS)
def test_resample_keeps_the_view_and_depends_only_on_it(seed, options):
    def check(state):
        if state.is_terminal() or state.is_chance_node():
            return
        for player in (0, 1):
            first = state.resample(player, random.Random(seed))
            assert first.view(player) == state.view(player)
            check_table(first)
            assert first.card_count() == state.card_count()
            if len(state.history()) % 3:
                continue  # the next check is the costly one: every third action will do
            # A state differing only in what `player` cannot see resamples identically.
            other = state.resample(player, random.Random(seed + 7))
            assert internals(other.resample(player, random.Random(seed))) == \
                internals(state.resample(player, random.Random(seed)))
    playout(seed, options, check)


@given(seed=st.integers(0, 2**32 - 1))
def test_every_legal_action_applies_and_every_other_is_refused(seed):
    rng = random.Random(seed)

    def check(state):
        if rng.random() > 0.1 or state.is_terminal():
            return
        legal = set(state.legal_actions())
        before = (state.history(), internals(state))
        for action in range(-1, NUM_ACTIONS + 1):
            if action in legal:
                trial = state.clone()
                trial.apply_action(action)
                assert trial.history() == [*state.history(), action]
            else:
                with pytest.raises(IllegalActionError):
                    state.apply_action(action)
        assert (state.history(), internals(state)) == before
    playout(seed, {}, check)


@given(seed=st.integers(0, 2**32 - 1))
def test_same_seed_same_game(seed):
    assert playout(seed, {}).history() == playout(seed, {}).history()


def test_clone_is_independent():
    state = playout(3, {}, limit=5_000)
    start = load_game("decoherence").new_initial_state()
    copy = start.clone()
    copy.apply_action(14)
    assert start.history() == [] and start.current_player() == CHANCE
    assert state.clone().history() == state.history()
