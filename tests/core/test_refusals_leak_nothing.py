"""No refusal, parse or message a seat can reach tells it anything it may not know.

Over thousands of random positions of every hidden-information game, for every seat, this
drives each path a seat can reach with text or an action id: the turn it is handed
(notation, parsing of any text), the state's own seat parser, ``apply_action`` with every
illegal id, ids from other phases and values that are not ids, and the terminal's move
prompt. The same probes go to a *twin*: a state the seat cannot tell from this one whose
hidden part was drawn again (``resample``). Every answer, accepted or refused, must be the
same in both, so none can depend on a card the seat has not seen. The probes include the
full notation of the real position (``target: their bouba #1`` where the seat sees only
``their hidden #1``), so a parser that accepted a right guess would be caught.

The server's answers (HTTP and WebSocket) are checked the same way in
``tests/server/test_refusal_leaks.py``.
"""

from __future__ import annotations

import io
import random
from collections.abc import Iterator

import pytest
from rich.console import Console

from quarkade import load_game
from quarkade.cli.human import HumanAgent, Quit
from quarkade.core.agent import turn_for
from quarkade.core.errors import QuarkadeError
from quarkade.core.protocol import SPECTATOR, State
from quarkade.core.rng import sample_chance
from quarkade.games.decoherence.notation import MAX_TABLE, NOUNS

# (game, options, positions): every hidden-information game, its player counts and the
# options that change what is hidden.
CASES = [
    ("decoherence", {}, 500),
    ("decoherence", {"deck0": "random", "deck1": "random"}, 400),
    ("decoherence", {"deck0": "surge", "deck1": "observer"}, 400),
    ("decoherence", {"open_decklists": True, "deck1": "weaver"}, 200),
    ("dead-cat", {"players": 2}, 400),
    ("dead-cat", {"players": 3, "peek_first": True}, 400),
    ("dead-cat", {"players": 4}, 300),
    ("dead-cat", {"players": 5, "peek_first": True}, 300),
]
GARBAGE = ["", "   ", "nonsense", "1", "42", "target", "target: their #99", "draw kiki",
           "deck 1 verbs: tapped 10", "bet 7", "peek now", "announce", "pass", "first 0",
           "alive", "dead", "heads", "<b>kiki</b>", "kiki" * 200, "target: their\x00 #1"]
NOT_IDS: list[object] = ["3", None, 2.5, -1, 10**40, True, [1], float("nan")]


def positions(name: str, options: dict, seed: int) -> Iterator[State]:
    """Positions met along random games (about a third of the decisions)."""
    game = load_game(name, **options)
    rng = random.Random(seed)
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            if rng.random() < 0.35:
                yield state
            state.apply_action(rng.choice(state.legal_actions()))


def guesses(state: State) -> list[str]:
    """Texts naming the real position: the full notation of every legal action and, in
    Decoherence, every noun at every slot a target may name."""
    texts = [state.action_to_string(a) for a in state.legal_actions()]
    if state.game.name == "decoherence":
        for side in ("your", "their"):
            for slot in range(1, MAX_TABLE + 1, 3):
                texts += [f"target: {side} {word} #{slot}" for word in (*NOUNS, "hidden")]
    return texts


def answer(call) -> str:
    """What a seat is told: the action chosen, or the refusal's kind and message."""
    try:
        return f"ok {call()!r}"
    except QuarkadeError as refusal:
        return f"{type(refusal).__name__}: {refusal}"


def probe(state: State, seat: int, texts: list[str], ids: list[int], terminal: bool
          ) -> list[tuple[str, str]]:
    """Every answer ``seat`` can get from ``state`` for these texts and ids."""
    answers = [(f"parse_for {text!r}", answer(lambda t=text: state.string_to_action_for(seat, t)))
               for text in texts]
    if state.current_player() != seat:
        return answers
    turn = turn_for(state)
    answers.append(("turn", repr((turn.player, turn.view, turn.legal_actions,
                                  sorted(turn.game.options.items())))))
    answers += [(f"text {a}", turn.action_text(a)) for a in turn.legal_actions]
    answers += [(f"turn.parse {text!r}", answer(lambda t=text: turn.parse(t))) for text in texts]
    legal = set(state.legal_actions())
    for action in [*(a for a in ids if a not in legal), *NOT_IDS]:
        refused = answer(lambda a=action: state.clone().apply_action(a))
        answers.append((f"apply {action!r}", refused))
    if terminal:
        answers.append(("terminal", prompt_transcript(turn, texts)))
    return answers


def prompt_transcript(turn, texts: list[str]) -> str:
    """What the terminal prints for a person at this seat who types ``texts`` and quits."""
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    replies = iter([*texts[:25], "0", "999", "list", "q"])
    names = [f"seat {s}" for s in range(turn.game.num_players)]
    agent = HumanAgent(console, names, read=lambda prompt: next(replies))
    while True:
        try:
            agent.act(turn, random.Random(0))
        except Quit:
            return out.getvalue()
        # A text was accepted: keep asking with the rest.


def hidden_part_differs(state: State, twin: State, seat: int) -> bool:
    others = [s for s in range(state.game.num_players) if s != seat]
    return any(state.view(other) != twin.view(other) for other in [*others, SPECTATOR])


@pytest.mark.parametrize(("name", "options", "count"), CASES,
                         ids=[f"{n}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}"
                              for n, o, _ in CASES])
def test_no_answer_a_seat_can_get_depends_on_what_it_cannot_see(name, options, count):
    """``count`` (position, seat) pairs where the seat's twin really differs, each probed."""
    probed = 0
    ids = list(range(load_game(name, **options).num_distinct_actions))
    if name == "decoherence":  # every decision id, and a few chance ids
        ids = [*range(0, 120, 1), *range(120, len(ids), 37)]
    for index, state in enumerate(positions(name, options, seed=len(options) + count)):
        texts = [*guesses(state), *GARBAGE]
        for seat in range(state.game.num_players):
            twin = state.resample(seat, random.Random(index))
            assert twin.view(seat) == state.view(seat)
            if not hidden_part_differs(state, twin, seat):
                continue  # nothing hidden from this seat here: no twin to compare with
            terminal = probed % 25 == 0
            mine = probe(state, seat, texts, ids, terminal)
            theirs = probe(twin, seat, texts, ids, terminal)
            for (what, said), (_, twin_said) in zip(mine, theirs, strict=True):
                assert said == twin_said, (
                    f"seat {seat} can tell two positions apart that differ only in what it "
                    f"cannot see, through {what}:\n  real: {said}\n  twin: {twin_said}")
            probed += 1
        if probed >= count:
            break
        assert index < 20 * count, f"only {probed} positions with a twin in {index} tried"
