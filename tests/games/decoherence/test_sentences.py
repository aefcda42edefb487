"""The sixty sentences (seed 000 section 5, seed 001's table x three nouns): one scenario each.

Ann (seat 0) resolves the sentence under test; Bob (seat 1) usually set his table up on
the turn before. Every test ends with ``after``: both verves, both tables (noun, kind,
spin, status, size, link) and what each seat's view shows of the other's nouns. Bob
starts at 10 verve; ``verved down`` puts him on 11 with no leak.
"""

import pytest

from tests.games.decoherence.helpers import (
    ANN,
    BOB,
    end_turn,
    facts,
    play,
    scene,
    seen_by,
    sentence,
    table,
)

# Bob's usual table: #1 a hidden down bouba (verved down: 11 verve), #2 a hidden bare lulu.
BOB_STATE_AND_BARE = (BOB, ["verved down bouba", "riffed through lulu"])
BOUBA_DOWN = ("bouba", "state", "down", "hidden", 2, None)
LULU_BARE = ("lulu", "bare", None, "hidden", 2, None)
BOB_USUAL = {1: BOUBA_DOWN, 2: LULU_BARE}


def after(state, verve, ann, bob):
    """Both verves, both tables as {slot: (noun, kind, spin, status, size, link)}, and
    visibility: each seat's view names the other's noun exactly when it is not hidden."""
    assert (state.verve(ANN), state.verve(BOB)) == verve
    assert table(state, ANN) == ann
    assert table(state, BOB) == bob
    for seat, other in ((ANN, BOB), (BOB, ANN)):
        assert seen_by(state, seat, other) == {
            slot: thing[0] if thing[3] != "hidden" else None
            for slot, thing in table(state, seat).items()}
        assert seen_by(state, seat, seat) == {slot: thing[0]
                                              for slot, thing in table(state, seat).items()}


def _ann_after(*turns, test, target=None):
    state = scene(*turns, test=test)
    sentence(state, test, target)
    return state


# -- tapped: pay 1, push / coin / examine ---------------------------------------------------

def test_tapped_up_kiki():
    # Ann already holds an up kiki, so her new kiki takes the down spin (exclusion).
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, ["twigged up kiki"]), test="tapped up kiki",
                       target="their #1")
    assert facts(state) == ["flipped", "pay", "spin"]
    after(state, (9, 11),
          ann={1: ("kiki", "state", "up", "hidden", 3, None),
               2: ("kiki", "state", "down", "hidden", 3, None)},
          bob={1: ("bouba", "state", "up", "hidden", 2, None), 2: LULU_BARE})


def test_tapped_up_bouba():
    # Bob's down bouba is linked to his lulu; pushing it up sends the lulu down.
    state = _ann_after((BOB, ["riffed through lulu", "twigged down bouba > your #1"]),
                       (ANN, []), test="tapped up bouba", target="their #2")
    after(state, (9, 10),
          ann={1: ("bouba", "state", "up", "hidden", 2, None)},
          bob={1: ("lulu", "state", "down", "hidden", 2, (1, 2)),
               2: ("bouba", "state", "up", "hidden", 2, (1, 1))})


def test_tapped_up_lulu():
    # Two down boubas bunch (size 3 each); pushing one up leaves both at size 2.
    state = scene((BOB, ["verved down bouba", "verved down bouba"]), (ANN, []),
                  test="tapped up lulu")
    assert [t[4] for t in table(state, BOB).values()] == [3, 3]
    sentence(state, "tapped up lulu", "their #1")
    after(state, (9, 12),
          ann={1: ("lulu", "state", "up", "hidden", 2, None)},
          bob={1: ("bouba", "state", "up", "hidden", 2, None),
               2: ("bouba", "state", "down", "hidden", 2, None)})


def test_tapped_down_kiki():
    # Bob has only a bare particle: no state to push. Tapped pays anyway; the kiki is cover.
    state = _ann_after((BOB, ["riffed through lulu"]), (ANN, []), test="tapped down kiki")
    assert state.phase() == "play"  # no target decision
    assert facts(state) == ["pay", "no target"]
    after(state, (9, 10), ann={1: ("kiki", "state", "down", "hidden", 3, None)},
          bob={1: LULU_BARE})


def test_tapped_down_bouba():
    # Bob holds a down kiki, so his up kiki cannot be pushed down (exclusion, his piles).
    state = _ann_after((BOB, ["verved down kiki", "boo'd up kiki"]), (ANN, []),
                       test="tapped down bouba", target="their #2")
    assert facts(state) == ["pay", "kept"]
    after(state, (9, 11), ann={1: ("bouba", "state", "down", "hidden", 2, None)},
          bob={1: ("kiki", "state", "down", "hidden", 3, None),
               2: ("kiki", "state", "up", "hidden", 3, None)})


def test_tapped_down_lulu():
    state = _ann_after((BOB, ["boo'd up bouba"]), (ANN, []), test="tapped down lulu",
                       target="their #1")
    after(state, (9, 10), ann={1: ("lulu", "state", "down", "hidden", 2, None)},
          bob={1: ("bouba", "state", "down", "hidden", 2, None)})


def test_tapped_through_kiki():
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, []), test="tapped through kiki")
    assert state.phase() == "coin" and state.verve(ANN) == 9
    play(state, "heads")
    after(state, (9, 8), ann={1: ("kiki", "bare", None, "known", 3, None)}, bob=BOB_USUAL)


def test_tapped_through_bouba():
    # Tails: nothing happens to Bob, but the 1 is paid and the noun is still revealed.
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, []), test="tapped through bouba")
    play(state, "tails")
    after(state, (9, 11), ann={1: ("bouba", "bare", None, "known", 2, None)}, bob=BOB_USUAL)


def test_tapped_through_lulu():
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, []), test="tapped through lulu")
    play(state, "heads")
    assert facts(state) == ["pay", "coin", "lose"]
    after(state, (9, 9), ann={1: ("lulu", "bare", None, "known", 2, None)}, bob=BOB_USUAL)


def test_tapped_out_kiki():
    # Bob's hidden down bouba (size 2) is examined and, being at most N = 3, discarded.
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, []), test="tapped out kiki",
                       target="their #1")
    assert facts(state) == ["pay", "reveal", "discard"]
    assert state.discards(BOB)["bouba"] == 1
    after(state, (9, 11), ann={1: ("kiki", "bare", None, "known", 3, None)},
          bob={2: LULU_BARE})


def test_tapped_out_bouba():
    # Bob's hidden kiki (size 3) is revealed but too big for N = 2: it stays, known.
    state = _ann_after((BOB, ["verved down kiki"]), (ANN, []), test="tapped out bouba",
                       target="their #1")
    assert facts(state) == ["pay", "reveal", "too big"]
    after(state, (9, 11), ann={1: ("bouba", "bare", None, "known", 2, None)},
          bob={1: ("kiki", "state", "down", "known", 3, None)})


def test_tapped_out_lulu():
    # Bob's only things are linked: nothing can be examined. Ann pays 1; the lulu is cover.
    state = _ann_after((BOB, ["riffed through lulu", "twigged up bouba > your #1"]), (ANN, []),
                       test="tapped out lulu")
    assert facts(state) == ["pay", "no target"]
    after(state, (9, 10), ann={1: LULU_BARE},
          bob={1: ("lulu", "state", "down", "hidden", 2, (1, 2)),
               2: ("bouba", "state", "up", "hidden", 2, (1, 1))})


# -- verved: verve and the leak -----------------------------------------------------------

def test_verved_up_kiki():
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, []), test="verved up kiki")
    after(state, (13, 11), ann={1: ("kiki", "state", "up", "known", 3, None)}, bob=BOB_USUAL)
    end_turn(state)
    assert state.verve(ANN) == 12  # leak: no open chain, plus 1 for verved up


def test_verved_up_bouba():
    # Ann's other up bouba bunches: N = 3.
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, ["twigged up bouba"]), test="verved up bouba")
    after(state, (13, 11),
          ann={1: ("bouba", "state", "up", "hidden", 3, None),
               2: ("bouba", "state", "up", "known", 3, None)}, bob=BOB_USUAL)


def test_verved_up_lulu():
    state = scene(BOB_STATE_AND_BARE, (ANN, []), test="verved up lulu riffed")
    play(state, "verb riffed -> chain 1")  # a chain left open: it leaks too
    sentence(state, "verved up lulu")
    after(state, (12, 11), ann={1: ("lulu", "state", "up", "known", 2, None)}, bob=BOB_USUAL)
    end_turn(state)
    assert state.verve(ANN) == 10  # one open chain plus one for verved up


def test_verved_down_kiki():
    state = scene(BOB_STATE_AND_BARE, (ANN, []), test="verved down kiki tapped")
    play(state, "verb tapped -> chain 1")
    sentence(state, "verved down kiki")
    after(state, (11, 11), ann={1: ("kiki", "state", "down", "hidden", 3, None)},
          bob=BOB_USUAL)
    end_turn(state)
    assert state.verve(ANN) == 11  # no leak this turn, open chain or not


def test_verved_down_bouba():
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, []), test="verved down bouba")
    assert state.view(BOB)["events"][-1]["noun"] is None  # the log does not name it either
    after(state, (11, 11), ann={1: BOUBA_DOWN}, bob=BOB_USUAL)


def test_verved_down_lulu():
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, []), test="verved down lulu")
    assert state.view(ANN)["leak"]["amount"] == 0
    after(state, (11, 11), ann={1: ("lulu", "state", "down", "hidden", 2, None)},
          bob=BOB_USUAL)


def test_verved_through_kiki():
    # Seed 000 section 8: with no lulus, verved through gains just N.
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, []), test="verved through kiki")
    after(state, (13, 11), ann={1: ("kiki", "bare", None, "known", 3, None)}, bob=BOB_USUAL)


def test_verved_through_bouba():
    # Bob's lulu is on his table, not Ann's: it adds nothing.
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, []), test="verved through bouba")
    after(state, (12, 11), ann={1: ("bouba", "bare", None, "known", 2, None)}, bob=BOB_USUAL)


def test_verved_through_lulu():
    # N = 2, plus 1 for Ann's lulu already on the table and 1 for the new lulu itself,
    # which is on her table when the effect is worked out (D-12).
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, ["riffed through lulu"]),
                       test="verved through lulu")
    after(state, (14, 11), ann={1: LULU_BARE, 2: ("lulu", "bare", None, "known", 2, None)},
          bob=BOB_USUAL)


def test_verved_out_kiki():
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, []), test="verved out kiki")
    after(state, (9, 8), ann={1: ("kiki", "bare", None, "known", 3, None)}, bob=BOB_USUAL)


def test_verved_out_bouba():
    # A bare particle has no spin, so no bunching with Ann's up bouba: N = 2.
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, ["twigged up bouba"]), test="verved out bouba")
    after(state, (9, 9),
          ann={1: ("bouba", "state", "up", "hidden", 2, None),
               2: ("bouba", "bare", None, "known", 2, None)}, bob=BOB_USUAL)


def test_verved_out_lulu():
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, []), test="verved out lulu")
    assert facts(state) == ["lose", "lose"]
    after(state, (9, 9), ann={1: ("lulu", "bare", None, "known", 2, None)}, bob=BOB_USUAL)


# -- boo'd: measure ---------------------------------------------------------------------

def test_bood_up_kiki():
    # A measured bare particle given a spin becomes a state (D-13).
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, []), test="boo'd up kiki", target="their #2")
    after(state, (10, 11), ann={1: ("kiki", "state", "up", "hidden", 3, None)},
          bob={1: BOUBA_DOWN, 2: ("lulu", "state", "up", "measured", 2, None)})


def test_bood_up_bouba():
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, []), test="boo'd up bouba", target="their #1")
    after(state, (10, 11), ann={1: ("bouba", "state", "up", "hidden", 2, None)},
          bob={1: ("bouba", "state", "up", "measured", 2, None), 2: LULU_BARE})


def test_bood_up_lulu():
    # Bob's known up kiki is no target (not hidden); his bare kiki, measured into up, finds
    # the up spin taken by his other kiki and goes down instead.
    state = scene((BOB, ["verved up kiki", "riffed through kiki"]), (ANN, []),
                  test="boo'd up lulu")
    sentence(state, "boo'd up lulu")
    assert state.legal_actions() == [state.string_to_action("target their #2")]
    play(state, "target their #2")
    after(state, (10, 12),  # Bob: +3 for verved up, then a leak of 1
          ann={1: ("lulu", "state", "up", "hidden", 2, None)},
          bob={1: ("kiki", "state", "up", "known", 3, None),
               2: ("kiki", "state", "down", "measured", 3, None)})


def test_bood_down_kiki():
    state = _ann_after((BOB, ["boo'd up bouba"]), (ANN, []), test="boo'd down kiki",
                       target="their #1")
    after(state, (10, 10), ann={1: ("kiki", "state", "down", "hidden", 3, None)},
          bob={1: ("bouba", "state", "down", "measured", 2, None)})


def test_bood_down_bouba():
    # Bob's only thing is known, not hidden: no target; the bouba stays as hidden cover.
    state = _ann_after((BOB, ["verved up lulu"]), (ANN, []), test="boo'd down bouba")
    assert facts(state) == ["no target"]
    after(state, (10, 11), ann={1: BOUBA_DOWN},
          bob={1: ("lulu", "state", "up", "known", 2, None)})


def test_bood_down_lulu():
    state = _ann_after((BOB, ["riffed through bouba"]), (ANN, []), test="boo'd down lulu",
                       target="their #1")
    after(state, (10, 10), ann={1: ("lulu", "state", "down", "hidden", 2, None)},
          bob={1: ("bouba", "state", "down", "measured", 2, None)})


def test_bood_through_kiki():
    # The sweep measures every hidden, unlinked bare particle of Bob's, spins unchanged.
    state = _ann_after((BOB, ["riffed through lulu", "riffed through bouba"]), (ANN, []),
                       test="boo'd through kiki")
    assert state.phase() == "play"
    assert facts(state) == ["measure", "measure"]
    after(state, (10, 10), ann={1: ("kiki", "bare", None, "hidden", 3, None)},
          bob={1: ("lulu", "bare", None, "measured", 2, None),
               2: ("bouba", "bare", None, "measured", 2, None)})


def test_bood_through_bouba():
    # No bare particles: Ann measures one hidden state of her choice, its spin unchanged.
    state = scene((BOB, ["verved down bouba", "boo'd up kiki"]), (ANN, []),
                  test="boo'd through bouba")
    sentence(state, "boo'd through bouba")
    assert [state.action_to_string(a) for a in state.legal_actions()] == \
        ["target: their bouba #1", "target: their kiki #2"]
    play(state, "target their #2")
    after(state, (10, 11), ann={1: ("bouba", "bare", None, "hidden", 2, None)},
          bob={1: BOUBA_DOWN, 2: ("kiki", "state", "up", "measured", 3, None)})


def test_bood_through_lulu():
    # Bob's things are linked: nothing to sweep or measure.
    state = _ann_after((BOB, ["riffed through lulu", "twigged up bouba > your #1"]), (ANN, []),
                       test="boo'd through lulu")
    assert facts(state) == ["no target"]
    after(state, (10, 10), ann={1: LULU_BARE},
          bob={1: ("lulu", "state", "down", "hidden", 2, (1, 2)),
               2: ("bouba", "state", "up", "hidden", 2, (1, 1))})


def test_bood_out_kiki():
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, []), test="boo'd out kiki", target="their #1")
    assert state.discards(BOB) == {"verved": 1, "riffed": 1, "down": 1, "through": 1,
                                   "bouba": 1}
    after(state, (10, 11), ann={1: ("kiki", "bare", None, "hidden", 3, None)},
          bob={2: LULU_BARE})


def test_bood_out_bouba():
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, []), test="boo'd out bouba", target="their #2")
    assert state.discards(BOB)["lulu"] == 1
    after(state, (10, 11), ann={1: ("bouba", "bare", None, "hidden", 2, None)},
          bob={1: BOUBA_DOWN})


def test_bood_out_lulu():
    # Only Bob's hidden bouba may be chosen; his known kiki may not.
    state = scene((BOB, ["verved up kiki", "verved down bouba"]), (ANN, []),
                  test="boo'd out lulu")
    sentence(state, "boo'd out lulu")
    assert [state.action_to_string(a) for a in state.legal_actions()] == \
        ["target: their bouba #2"]
    play(state, "target their #2")
    after(state, (10, 14),  # Bob: +3 +1, and verved down cancelled his whole leak
          ann={1: LULU_BARE}, bob={1: ("kiki", "state", "up", "known", 3, None)})


# -- twigged: links --------------------------------------------------------------------

def test_twigged_up_kiki():
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, ["riffed through bouba"]),
                       test="twigged up kiki", target="your #1")
    after(state, (10, 11),
          ann={1: ("bouba", "state", "down", "hidden", 2, (0, 2)),
               2: ("kiki", "state", "up", "hidden", 3, (0, 1))}, bob=BOB_USUAL)


def test_twigged_up_bouba():
    # Nothing of Ann's own to link to: an unlinked up state, hidden.
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, []), test="twigged up bouba")
    assert facts(state) == ["no target"]
    after(state, (10, 11), ann={1: ("bouba", "state", "up", "hidden", 2, None)},
          bob=BOB_USUAL)


def test_twigged_up_lulu():
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, ["verved down kiki"]), test="twigged up lulu",
                       target="your #1")
    after(state, (11, 11),
          ann={1: ("kiki", "state", "down", "hidden", 3, (0, 2)),
               2: ("lulu", "state", "up", "hidden", 2, (0, 1))}, bob=BOB_USUAL)


def test_twigged_down_kiki():
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, ["twigged up lulu"]), test="twigged down kiki",
                       target="your #1")
    after(state, (10, 11),
          ann={1: ("lulu", "state", "up", "hidden", 2, (0, 2)),
               2: ("kiki", "state", "down", "hidden", 3, (0, 1))}, bob=BOB_USUAL)


def test_twigged_down_bouba():
    # The bare lulu partner becomes an up state.
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, ["riffed through lulu"]),
                       test="twigged down bouba", target="your #1")
    after(state, (10, 11),
          ann={1: ("lulu", "state", "up", "hidden", 2, (0, 2)),
               2: ("bouba", "state", "down", "hidden", 2, (0, 1))}, bob=BOB_USUAL)


def test_twigged_down_lulu():
    # Bob measured Ann's only thing: a measured thing cannot be twigged.
    state = _ann_after((ANN, ["riffed through kiki"]), (BOB, ["boo'd up bouba > their #1"]),
                       (ANN, []), test="twigged down lulu")
    assert facts(state) == ["no target"]
    after(state, (10, 10),
          ann={1: ("kiki", "state", "up", "measured", 3, None),
               2: ("lulu", "state", "down", "hidden", 2, None)},
          bob={1: ("bouba", "state", "up", "hidden", 2, None)})


def test_twigged_through_kiki():
    # A spinless state on Ann's side, linked to Bob's down bouba, which keeps its spin.
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, []), test="twigged through kiki",
                       target="their #1")
    after(state, (10, 11), ann={1: ("kiki", "state", None, "hidden", 3, (1, 1))},
          bob={1: ("bouba", "state", "down", "hidden", 2, (0, 1)), 2: LULU_BARE})


def test_twigged_through_bouba():
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, []), test="twigged through bouba",
                       target="their #2")
    after(state, (10, 11), ann={1: ("bouba", "state", None, "hidden", 2, (1, 2))},
          bob={1: BOUBA_DOWN, 2: ("lulu", "bare", None, "hidden", 2, (0, 1))})


def test_twigged_through_lulu():
    # Ann measures Bob's only thing first; then the twig has no target: a bare particle.
    state = scene((BOB, ["verved down bouba"]), (ANN, ["boo'd up kiki > their #1"]),
                  test="twigged through lulu")
    sentence(state, "twigged through lulu")
    assert facts(state) == ["no target"]
    after(state, (10, 11),
          ann={1: ("kiki", "state", "up", "hidden", 3, None), 2: LULU_BARE},
          bob={1: ("bouba", "state", "up", "measured", 2, None)})


def test_twigged_out_kiki():
    # Twigged out leaves a bare particle (D-10); its partner goes down, as under twigged up,
    # and the link is fatal.
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, ["riffed through bouba"]),
                       test="twigged out kiki", target="your #1")
    after(state, (10, 11),
          ann={1: ("bouba", "state", "down", "hidden", 2, (0, 2, "fatal")),
               2: ("kiki", "bare", None, "hidden", 3, (0, 1, "fatal"))}, bob=BOB_USUAL)


def test_twigged_out_bouba():
    # No target: a bare particle, like any other out sentence (D-10).
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, []), test="twigged out bouba")
    assert facts(state) == ["no target"]
    after(state, (10, 11), ann={1: ("bouba", "bare", None, "hidden", 2, None)},
          bob=BOB_USUAL)


def test_twigged_out_lulu():
    # Ann's up kiki is the partner: it turns down (no other kiki of hers is down).
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, ["twigged up kiki"]), test="twigged out lulu",
                       target="your #1")
    after(state, (10, 11),
          ann={1: ("kiki", "state", "down", "hidden", 3, (0, 2, "fatal")),
               2: ("lulu", "bare", None, "hidden", 2, (0, 1, "fatal"))}, bob=BOB_USUAL)


# -- riffed: interference ------------------------------------------------------------------

def test_riffed_up_kiki():
    # Same spin: both grow by N = 3, for good. Bob's lulu stays hidden; its growth shows.
    state = _ann_after((BOB, ["twigged up lulu"]), (ANN, []), test="riffed up kiki",
                       target="their #1")
    assert state.view(ANN)["tables"][BOB][0]["growth"] == 3
    after(state, (10, 10), ann={1: ("kiki", "state", "up", "known", 6, None)},
          bob={1: ("lulu", "state", "up", "hidden", 5, None)})


def test_riffed_up_bouba():
    # Opposite spins: both are discarded and the sentence leaves nothing.
    state = _ann_after((BOB, ["verved down bouba"]), (ANN, []), test="riffed up bouba",
                       target="their #1")
    assert state.discards(ANN) == {"riffed": 1, "up": 1, "bouba": 1}
    assert state.discards(BOB)["bouba"] == 1
    assert state.view(BOB)["events"][-1]["noun"] == "bouba"  # discarded face-up
    after(state, (10, 11), ann={}, bob={})


def test_riffed_up_lulu():
    # Bob has no state with a spin: no effect, and the lulu stays hidden as cover.
    state = _ann_after((BOB, ["riffed through lulu"]), (ANN, []), test="riffed up lulu")
    assert facts(state) == ["no target"]
    after(state, (10, 10), ann={1: ("lulu", "state", "up", "hidden", 2, None)},
          bob={1: LULU_BARE})


def test_riffed_down_kiki():
    state = _ann_after((BOB, ["twigged up lulu"]), (ANN, []), test="riffed down kiki",
                       target="their #1")
    assert state.discards(BOB)["lulu"] == 1 and state.discards(ANN)["kiki"] == 1
    after(state, (10, 10), ann={}, bob={})


def test_riffed_down_bouba():
    # Ann's other down bouba bunches, so N = 3: her new bouba is 2 + 1 + 3 = 6, Bob's kiki 6.
    state = _ann_after((BOB, ["verved down kiki"]), (ANN, ["verved down bouba"]),
                       test="riffed down bouba", target="their #1")
    after(state, (11, 11),
          ann={1: ("bouba", "state", "down", "hidden", 3, None),
               2: ("bouba", "state", "down", "known", 6, None)},
          bob={1: ("kiki", "state", "down", "hidden", 6, None)})


def test_riffed_down_lulu():
    # Cancelling Bob's linked lulu breaks the link: his bouba goes dark (hidden bare).
    state = _ann_after((BOB, ["riffed through lulu", "twigged down bouba > your #1"]),
                       (ANN, []), test="riffed down lulu", target="their #1")
    assert facts(state) == ["discard", "dark", "discard"]
    after(state, (10, 10), ann={}, bob={2: ("bouba", "bare", None, "hidden", 2, None)})


def test_riffed_through_kiki():
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, []), test="riffed through kiki")
    assert facts(state) == []
    after(state, (10, 11), ann={1: ("kiki", "bare", None, "hidden", 3, None)}, bob=BOB_USUAL)


def test_riffed_through_bouba():
    # Bob has a state to aim at, but riffed through does nothing and asks for no target.
    state = _ann_after((BOB, ["twigged up lulu"]), (ANN, []), test="riffed through bouba")
    assert state.phase() == "play"
    after(state, (10, 10), ann={1: ("bouba", "bare", None, "hidden", 2, None)},
          bob={1: ("lulu", "state", "up", "hidden", 2, None)})


def test_riffed_through_lulu():
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, []), test="riffed through lulu")
    assert state.view(BOB)["hidden_nouns"] == [1, 2]
    after(state, (10, 11), ann={1: LULU_BARE}, bob=BOB_USUAL)


def test_riffed_out_kiki():
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, []), test="riffed out kiki", target="their #2")
    assert state.discards(ANN)["kiki"] == 1 and state.discards(BOB)["lulu"] == 1
    after(state, (10, 11), ann={}, bob={1: BOUBA_DOWN})


def test_riffed_out_bouba():
    # Riffed out may take a linked thing; the surviving half goes dark.
    state = _ann_after((BOB, ["riffed through lulu", "twigged down bouba > your #1"]),
                       (ANN, []), test="riffed out bouba", target="their #2")
    assert facts(state) == ["discard", "dark", "discard"]
    after(state, (10, 10), ann={}, bob={1: LULU_BARE})


def test_riffed_out_lulu():
    # Bob's table is empty: no target, and the lulu stays as hidden cover (D-14, D-29).
    state = _ann_after((BOB, []), (ANN, []), test="riffed out lulu")
    assert facts(state) == ["no target"]
    after(state, (10, 10), ann={1: LULU_BARE}, bob={})


@pytest.mark.parametrize("noun", ["kiki", "bouba", "lulu"])
def test_every_sentence_returns_the_turn_to_its_player(noun):
    state = _ann_after(BOB_STATE_AND_BARE, (ANN, []), test=f"verved down {noun}")
    assert state.current_player() == ANN and state.phase() == "play"
