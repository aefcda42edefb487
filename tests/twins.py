"""Twin games for leak tests: another history that a given seat cannot tell from this one.

At every step the twin plays an action whose notation *as the seat sees it*
(``action_string_for``) is the same as the original's and after which the seat's view is
the same too; where several fit (a hidden draw, a face-down card), it picks one at random,
so the twin differs in what the seat cannot see. A choice that later leaves no fitting
action is undone by starting over.

A twin always differs from the original: a leak test that compared a game with itself could
not fail, so where no different twin is found ``twin_history`` raises ``NoTwin`` (pick a
history in which the other seats hold something this seat has not seen:
``history_with_secrets``).
"""

from __future__ import annotations

import random


class NoTwin(AssertionError):
    """No history was found that the seat sees the same way and that differs."""


def twin_history(game, history: list[int], seat: int, rng: random.Random,
                 tries: int = 200) -> list[int]:
    """A history the seat sees exactly as ``history`` and that differs from it."""
    for attempt in range(tries):
        keep_original = attempt / tries  # later attempts stray less, so one always fits
        state = game.new_initial_state()
        original = game.new_initial_state()
        twin: list[int] = []
        for action in history:
            seen = original.action_string_for(seat, action)
            original.apply_action(action)
            wanted = original.view(seat)
            candidates = [a for a in state.legal_actions()
                          if state.action_string_for(seat, a) == seen]
            rng.shuffle(candidates)
            if action in candidates and rng.random() < keep_original:
                candidates.insert(0, action)
            for candidate in candidates:
                trial = state.clone()
                trial.apply_action(candidate)
                if trial.view(seat) == wanted:
                    state = trial
                    twin.append(candidate)
                    break
            else:
                break
        else:
            if twin != list(history):
                return twin
    raise NoTwin(f"no twin of this {len(history)}-action {game.name} history for seat {seat}")


def history_with_secrets(game, seat: int, rng: random.Random, length: int,
                         deciding: bool = False) -> list[int]:
    """The first ``length`` or more actions of a random game, going on until it holds
    something ``seat`` cannot see (so that it has a twin); a game that ends first is
    replaced by another. ``deciding``: it also stops where ``seat`` is to move."""
    from quarkade.core.rng import random_playout

    for _ in range(50):
        final = random_playout(game.new_initial_state(), rng)
        history = final.history()
        movers = []
        state = game.new_initial_state()
        for action in history:
            movers.append(state.current_player())
            state.apply_action(action)
        for stop in range(min(length, len(history)), len(history) + 1):
            if deciding and (stop == len(history) or movers[stop] != seat):
                continue
            try:
                twin_history(game, history[:stop], seat, random.Random(stop), tries=20)
            except NoTwin:
                continue
            return history[:stop]
    raise NoTwin(f"no {game.name} game hid anything from seat {seat}")
