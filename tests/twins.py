"""Twin games for leak tests: another history that a given seat cannot tell from this one.

At every step the twin plays an action whose notation *as the seat sees it*
(``action_string_for``) is the same as the original's and after which the seat's view is
the same too; where several fit (a hidden draw, a face-down card), it picks one at random,
so the twin differs in what the seat cannot see. A choice that later leaves no fitting
action is undone by starting over.
"""

from __future__ import annotations

import random


def twin_history(game, history: list[int], seat: int, rng: random.Random,
                 tries: int = 200) -> list[int]:
    """A history the seat sees exactly as ``history``; the original if no other is found."""
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
            return twin
    return list(history)
