"""The compiled Decoherence engine against the reference engine (see ``tests/compiled.py``):
the rules (proofs included) at 100,000 positions, perft, the bridge, ``play_one``; compiled
``greedy``'s line scores to the last bit; compiled worlds in distribution against
``knowledge``'s, and keeping every deduction a seat can make."""

from __future__ import annotations

import math
import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import chi2_contingency

from quarkade import load_game
from quarkade.core import jit
from quarkade.core.rng import sample_chance
from quarkade.games.decoherence import compiled
from quarkade.games.decoherence.compiled import layout, lines
from quarkade.games.decoherence.lines import GREEDY as GREEDY_WEIGHTS
from quarkade.games.decoherence.lines import LinePlayer
from quarkade.games.decoherence.notation import MAX_TABLE, NUM_WORDS, WORDS
from quarkade.games.decoherence.table import FIELDS
from tests.compiled import (
    agree_at_positions,
    assert_bridge_round_trips,
    assert_compiled_perft,
    assert_play_one_is_stepwise,
    compiled_games,
    midgame_states,
)
from tests.games.decoherence.helpers import ANN, BOB, scene
from tests.games.decoherence.test_invariants import choose as lingering
from tests.games.decoherence.test_knowledge import bob_nouns

RANDOM, GREEDY = compiled.RANDOM_POLICY, compiled.GREEDY
# The presets against each other, random decks (drawn by chance), open decklists, a deck
# written out as text.
VARIANTS = [{}, {"deck0": "surge", "deck1": "observer"}, {"deck0": "weaver", "deck1": "random"},
            {"deck0": "random", "deck1": "random", "open_decklists": True},
            {"deck0": "observer", "deck1": "weaver", "open_decklists": True},
            {"deck0": "kiki 4, bouba 4, lulu 2 | up 4, down 4, out 2 | verved 2, twigged 4, "
                      "riffed 4", "deck1": "surge"}]
POSITIONS = 100_000  # at least, over all variants


def test_compiled_and_reference_agree_at_100000_positions():
    # Compiled games (random seats pass often: short games) and reference games whose seats
    # seldom pass (full tables, links, long games, every sentence).
    checked, finals = agree_at_positions(compiled, "decoherence", VARIANTS,
                                         [[RANDOM], [GREEDY], [RANDOM, GREEDY]], POSITIONS,
                                         others=2, reference_policy=lingering, games=12)
    assert checked.positions >= POSITIONS
    assert checked.terminals > 1000 and checked.decisions > 30_000
    assert checked.phases == set(range(9))  # every phase, the end included
    endings = Counter(final.ending() for final in finals)
    assert min(endings.values()) > 50 and len(endings) == 3, endings
    assert sum(len(final._proofs) for final in finals) > 1000  # proofs compared too
    longest = max(len(compiled.to_compiled(final)[layout.PROOFS:].nonzero()[0])
                  for final in finals)
    assert longest < layout.PROOF_SPACE // 4  # room to spare


def test_compiled_perft_counts_match_the_data():
    assert_compiled_perft(compiled, Path(__file__).with_name("perft.json"))


def test_the_bridge_goes_there_and_back():
    assert_bridge_round_trips(compiled, load_game("decoherence", deck1="random"),
                              [GREEDY, RANDOM], load_game("decoherence", deck1="surge"))
    assert_bridge_round_trips(compiled, load_game("decoherence", open_decklists=True),
                              [RANDOM], load_game("decoherence"))


def test_the_bridge_keeps_the_proofs():
    for seed in range(20):
        final = _long_game(seed, {})
        back = compiled.from_compiled(final.game, compiled.to_compiled(final))
        assert back._proofs == final._proofs and back._id_words == final._id_words


def test_play_one_is_play_stepwise_draw_for_draw():
    for options in VARIANTS[:4]:
        game = load_game("decoherence", **options)
        for policies in ([RANDOM], [GREEDY], [GREEDY, RANDOM]):
            assert_play_one_is_stepwise(compiled, game.new_initial_state(), policies,
                                        range(60))


def test_play_one_finishes_a_game_handed_over_mid_turn():
    game = load_game("decoherence", deck0="weaver", deck1="surge")
    for number, state in enumerate(midgame_states(game, 60, 3)):
        assert_play_one_is_stepwise(compiled, state, [GREEDY, RANDOM],
                                    range(number, number + 2))


def test_a_batch_plays_the_games_one_by_one_would():
    game = load_game("decoherence", deck1="random")
    template = compiled.new_state(game)
    matchups = np.array([[RANDOM, GREEDY]], np.int64)
    batch = jit.new_results(40)
    compiled.play_games(template, matchups, 40, 7, 0, batch)
    streams = np.zeros(3, np.uint64)
    policies = np.zeros(2, np.int64)
    for index in range(40):
        seed = jit.start_game(matchups, 40, 7, index, streams, policies)
        alone = compiled.play_one(template.copy(), streams, policies)
        assert [seed, *alone] == batch[index].tolist()


def test_a_random_seat_picks_each_legal_move_equally_often():
    state = _long_game(3, {}, stop=lambda s: s.current_player() >= 0
                       and len(s.legal_actions()) >= 6 and s.phase() == "play")
    legal = state.legal_actions()
    array = compiled.to_compiled(state)
    streams = np.zeros(3, np.uint64)
    jit.seed_streams(streams, 9)
    counts = Counter()
    draws = 20_000 * len(legal) // 4
    for _ in range(draws):
        counts[int(_random_choice(array.copy(), streams))] += 1
    assert set(counts) == set(legal)
    expected = draws / len(legal)
    assert all(abs(c - expected) < 5 * math.sqrt(expected) for c in counts.values()), counts


def _random_choice(array, streams):
    """One decision of a random seat, through the batch player: a game of one decision."""
    policies = np.zeros(2, np.int64)
    record = np.zeros(1, np.int64)
    before = array.copy()
    compiled.play_stepwise(array, streams, policies, record)
    assert before[layout.PHASE] in (4, 5, 7)
    return record[0]


# -- greedy ---------------------------------------------------------------------------------

def test_compiled_line_scores_are_the_reference_s():
    """On full states (worlds), every legal move's line scores the same to the last bit,
    with greedy's weights and with lookahead's, so compiled greedy picks the reference's
    move on the same world (and the search's ``lines`` playouts play ``LinePlayer``'s)."""
    from quarkade.games.decoherence.lookahead import TUNED

    players = [(LinePlayer(GREEDY_WEIGHTS), lines.GREEDY_WEIGHTS),
               (LinePlayer(TUNED), lines.TUNED_WEIGHTS)]
    work = lines.new_work()
    compared = picked = 0
    for options in VARIANTS[:3]:
        game = load_game("decoherence", **options)
        for number, history in enumerate(compiled_games(compiled, game, [GREEDY], 10, 11)):
            player, weights = players[number % 2]
            state = game.new_initial_state()
            for action in history:
                seat = state.current_player()
                legal = state.legal_actions()
                if seat >= 0 and len(legal) > 1:
                    array = compiled.to_compiled(state)
                    buffer = np.array(legal, np.int64)
                    values = np.zeros(len(legal), np.float64)
                    lines.line_values(array, seat, buffer, len(legal), values, *work, weights)
                    expected = [player.line(state, seat, a) for a in legal]
                    assert values.tolist() == expected, state.history()
                    assert lines.lines_action(array, *work, weights) == \
                        player.choose(state, seat, legal)
                    compared += len(legal)
                    picked += 1
                state.apply_action(action)
    assert compared > 5000 and picked > 500


def test_compiled_greedy_without_hidden_nouns_plays_the_reference_s_move():
    """With nothing face-down on the other table there is nothing to draw: the compiled
    greedy and the reference greedy (which draws a world) make the same move."""
    from quarkade.agents import make_agent, turn_for

    greedy = make_agent("greedy", "decoherence")
    scratch = compiled.new_scratch()
    streams = np.zeros(3, np.uint64)
    compared = 0
    game = load_game("decoherence", deck0="observer", deck1="balanced")
    for history in compiled_games(compiled, game, [GREEDY], 30, 4):
        state = game.new_initial_state()
        for action in history:
            seat = state.current_player()
            if seat >= 0 and not _face_down(state, 1 - seat):
                expected = greedy.act(turn_for(state), random.Random(0))
                got = compiled.choose(compiled.to_compiled(state), streams, GREEDY, *scratch)
                assert got == expected, state.history()
                compared += 1
            state.apply_action(action)
    assert compared > 300


def _face_down(state, seat):
    return [g for g in range(seat * MAX_TABLE, (seat + 1) * MAX_TABLE)
            if state._table[g * FIELDS] >= 0 and not state._table[g * FIELDS + 5]]


# -- worlds ---------------------------------------------------------------------------------

def _compiled_nouns(state, viewer=ANN, samples=300, seed=7, full=False):
    """The other seat's face-down nouns by slot in ``samples`` compiled worlds."""
    array = compiled.to_compiled(state)
    if full:
        compiled.with_odds(array, state, viewer)
    streams = np.zeros(3, np.uint64)
    jit.seed_streams(streams, seed)
    seat = 1 - viewer
    hidden = _face_down(state, seat)
    out = []
    for _ in range(samples):
        world = array.copy()
        if full:
            compiled.resample(world, viewer, streams, 0, array)
        else:
            compiled.resample_nouns(world, viewer, streams, 0, np.zeros(3, np.int64), array)
        out.append(tuple(WORDS[world[layout.TABLE + g * FIELDS]] for g in hidden))
    return out


SCENES = {
    "kiki takes the down spin": (
        lambda: scene((BOB, ["tapped up kiki", "tapped up kiki"]), (ANN, [])),
        {("kiki", "kiki")}),
    "a gain of three from a verved-up bouba": (
        lambda: scene((BOB, ["tapped up bouba", "verved up bouba"]), (ANN, [])),
        {("bouba",)}),
    "verved through counts the lulus": (
        lambda: scene((BOB, ["tapped up lulu", "verved through kiki"]), (ANN, [])),
        {("lulu",)}),
    "a tapped-out bouba too big": (
        lambda: scene((BOB, ["tapped up bouba", "tapped up bouba"]),
                      (ANN, ["tapped out lulu > their #2"])),
        {("bouba",)}),
    "a push that keeps a kiki": (
        lambda: scene((BOB, ["tapped up kiki", "tapped down kiki"]),
                      (ANN, ["tapped up lulu > their #2"])),
        {("kiki", "kiki")}),
    "a measured kiki takes the other spin": (
        lambda: scene((BOB, ["tapped up kiki", "riffed through kiki"]),
                      (ANN, ["boo'd up lulu > their #2"])),
        {("kiki",)}),
    "a twig with no legal partner": (
        lambda: scene((BOB, ["tapped up kiki", "riffed through kiki"]),
                      (ANN, ["verved down lulu"]), (BOB, []),
                      (ANN, ["boo'd up lulu > their #1"]), (BOB, []), (ANN, []),
                      (BOB, ["twigged down bouba"]), (ANN, [])),
        {("kiki", word) for word in ("kiki", "bouba", "lulu")}),  # the twig's own: any
}


@pytest.mark.parametrize("name", SCENES)
def test_compiled_worlds_keep_every_deduction(name):
    make, only = SCENES[name]
    state = make()
    for full in (False, True):
        assert set(_compiled_nouns(state, full=full)) == only
    assert set(bob_nouns(state, samples=600)) == only  # the reference agrees


def test_compiled_worlds_draw_the_reference_s_distribution():
    """Where proofs leave several answers, compiled and reference worlds give each the same
    odds (chi-square over the assignments of the face-down nouns)."""
    cases = [
        scene((BOB, ["tapped up kiki", "verved up bouba"]), (ANN, [])),
        scene((BOB, ["tapped up kiki", "tapped up bouba"]), (ANN, ["tapped down lulu > their #2"])),
        scene((BOB, ["tapped up kiki", "tapped down bouba"]), (ANN, ["tapped up lulu > their #2"])),
        scene((BOB, ["tapped up kiki", "riffed through bouba"]), (ANN, [])),
        *_greedy_positions(6),
    ]
    compared = 0
    for state in cases:
        reference = Counter(bob_nouns(state, samples=2000))
        if len(reference) < 2:
            continue
        compared += 1
        ours = Counter(_compiled_nouns(state, samples=2000, seed=3))
        keys = sorted(set(reference) | set(ours))
        assert set(ours) <= set(reference), (set(ours) - set(reference))
        _, p, _, _ = chi2_contingency([[reference[k] for k in keys], [ours[k] for k in keys]])
        assert p > 1e-4, (state.history(), reference, ours)
    assert compared >= 8


def _greedy_positions(count):
    """Ann to move, in greedy self-play games, with Bob holding several face-down nouns."""
    game = load_game("decoherence", deck0="weaver", deck1="observer")
    found = []
    for history in compiled_games(compiled, game, [GREEDY], 40, 21):
        state = game.new_initial_state()
        for action in history:
            if (state.current_player() == ANN and len(_face_down(state, BOB)) >= 3
                    and state._proofs):
                found.append(state.clone())
                break
            state.apply_action(action)
        if len(found) == count:
            break
    assert len(found) == count
    return found


def test_a_compiled_world_looks_the_same_to_its_seat():
    """A full compiled world: the seat's view is the real one's; the other seat's cards are
    a legal deal of its (perhaps drawn) decklist."""
    rng = random.Random(4)
    streams = np.zeros(3, np.uint64)
    jit.seed_streams(streams, 4)
    checked = 0
    for options in VARIANTS:
        for seed in range(6):
            state = _long_game(seed, options, stop=lambda s: s.current_player() >= 0
                               and rng.random() < 0.05)
            if state.is_terminal():
                continue
            viewer = state.current_player()
            array = compiled.with_odds(compiled.to_compiled(state), state, viewer)
            for _ in range(5):
                world = array.copy()
                compiled.resample(world, viewer, streams, 0, array)
                lists = [int(v) for v in world[layout.DECKLISTS:layout.DECKLISTS + 24]]
                game = state.game._with_decklists(lists, viewer) \
                    if not state.game.open_decklists else state.game
                back = compiled.from_compiled(game, world)
                back._events = state._events
                assert back.view(viewer) == state.view(viewer)
                assert back.card_count() == state.card_count() == 60
                assert sorted(back.hand(1 - viewer)) != [] or not state.hand(1 - viewer)
                assert len(back.hand(1 - viewer)) == len(state.hand(1 - viewer))
                checked += 1
    assert checked > 100


def test_compiled_hands_follow_the_reference_odds():
    """The other seat's hand, by kinds and by words, as often in compiled worlds as in the
    reference's (the opening hands' odds, D-23, come from ``knowledge``)."""
    for seed in range(4):
        state = _long_game(seed, {"deck1": "random"},
                           stop=lambda s: s.current_player() == ANN and s._turn >= 3)
        rng = random.Random(seed)
        reference = Counter(tuple(state.resample(ANN, rng)._hands[NUM_WORDS:])
                            for _ in range(1500))
        array = compiled.with_odds(compiled.to_compiled(state), state, ANN)
        streams = np.zeros(3, np.uint64)
        jit.seed_streams(streams, seed)
        ours = Counter()
        for _ in range(1500):
            world = array.copy()
            compiled.resample(world, ANN, streams, 0, array)
            ours[tuple(world[layout.HANDS + NUM_WORDS:layout.HANDS + 2 * NUM_WORDS])] += 1
        for kind in (range(5), range(5, 9), range(9, 12)):  # each kind's count in the hand
            a = Counter(sum(h[w] for w in kind) for h in reference.elements())
            b = Counter(sum(h[w] for w in kind) for h in ours.elements())
            keys = sorted(set(a) | set(b))
            if len(keys) > 1:
                _, p, _, _ = chi2_contingency([[a[k] for k in keys], [b[k] for k in keys]])
                assert p > 1e-4, (seed, a, b)


def test_a_compiled_world_depends_only_on_what_the_seat_knows():
    from tests.games.decoherence.test_hidden import _twin

    kiki, bouba = _twin("kiki"), _twin("bouba")
    arrays = [compiled.with_odds(compiled.to_compiled(s), s, ANN) for s in (kiki, bouba)]
    assert arrays[0].tobytes() != arrays[1].tobytes()
    for seed in range(20):
        worlds = []
        for array in arrays:
            world = array.copy()
            streams = np.zeros(3, np.uint64)
            jit.seed_streams(streams, seed)
            compiled.resample(world, ANN, streams, 0, array)
            worlds.append(world.tobytes())
        assert worlds[0] == worlds[1]


# -- helpers --------------------------------------------------------------------------------

def _long_game(seed, options, stop=None):
    """A reference game whose seats seldom pass, to its end or to the first state
    ``stop`` accepts."""
    rng = random.Random(seed)
    state = load_game("decoherence", **options).new_initial_state()
    while not state.is_terminal():
        if stop is not None and stop(state):
            return state
        state.apply_action(sample_chance(state, rng) if state.is_chance_node()
                           else lingering(state, rng))
    return state


def test_compiled_worlds_weigh_private_decklists_by_the_cards_they_dealt():  # D-21
    """As ``test_knowledge``: three riffed seen; a split with four riffed dealt them 4*3*2
    ways, one with three 3*2*1 ways; with the root's odds (a search) or without."""
    from quarkade.games.decoherence.notation import KIND_COMPOSITIONS, VERB

    state = scene((ANN, ["verved down lulu"]),
                  (BOB, ["verb riffed -> chain 1", "verb riffed -> chain 2",
                         "verb riffed -> chain 3"]), (ANN, []))
    splits = [s for s in KIND_COMPOSITIONS[VERB] if s[4] >= 3]
    weight = {4: 24 * sum(s[4] == 4 for s in splits), 3: 6 * sum(s[4] == 3 for s in splits)}
    expected = weight[4] / (weight[3] + weight[4])
    plain = compiled.to_compiled(state)
    plain[layout.HAND_ODDS:layout.PROOFS] = 0
    plain[layout.HAND_ODDS] = 1  # one hand of kinds: Bob's as it is
    plain[layout.HAND_ODDS + 1:layout.HAND_ODDS + 5] = [
        *[sum(state._hands[NUM_WORDS + w] for w in kind)
          for kind in (range(5), range(5, 9), range(9, 12))], layout.ODDS_SCALE]
    for odds in (compiled.with_odds(compiled.to_compiled(state), state, ANN), plain):
        streams = np.zeros(3, np.uint64)
        jit.seed_streams(streams, 5)
        draws = 4000
        fours = 0
        for _ in range(draws):
            world = odds.copy()
            compiled.resample(world, ANN, streams, 0, odds)
            fours += world[layout.DECKLISTS + NUM_WORDS + 4] == 4
        assert abs(fours / draws - expected) < 4 * math.sqrt(expected * (1 - expected) / draws)
