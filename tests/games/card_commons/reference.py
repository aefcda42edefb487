"""A slow, plain reading of the rules, independent of the engine's masks and tables.

``reference_actions(state)`` lists the legal actions of a Card Commons state by trying
every card on every cell, straight from the rulebook and RULINGS C-3..C-16, using only the
state's public accessors. The invariant tests compare it with ``legal_actions``.
"""

from __future__ import annotations

from quarkade.games.card_commons.notation import (
    CELL_NAMES,
    DECLINE,
    PASS,
    POLARIZE_BASE,
    REPEL_BASE,
    invert_action,
    is_red,
    level,
    place_action,
)

CENTRE = {"b2", "c2", "b3", "c3"}
CORNERS = {(0, 0), (3, 0), (0, 3), (3, 3)}


def neighbours(col, row, torus, steps):
    """Cells ``steps`` away, each as (cell, wrapped?), or only those on the field."""
    found = []
    for dc, dr in steps:
        c, r = col + dc, row + dr
        wrapped = not (0 <= c < 4 and 0 <= r < 4)
        if wrapped and not torus:
            continue
        found.append(((r % 4) * 4 + c % 4, wrapped))
    return found


ORTHOGONAL = ((0, 1), (0, -1), (-1, 0), (1, 0))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def law_allows(state, card, cell, torus, abilities):
    """Play 2 with the Anchor (C-8): count the face-up neighbours that forbid ``card``."""
    col, row = cell % 4, cell // 4
    broken = {False: 0, True: 0}  # by in-field / wrapped neighbour
    for n, wrapped in neighbours(col, row, torus, ORTHOGONAL):
        stack = state.stack(n)
        if not stack or not stack[-1][1]:
            continue
        other = stack[-1][0]
        fits = level(card) > level(other) if is_red(other) else level(card) < level(other)
        if not fits:
            broken[wrapped] += 1
    if not broken[False] and not broken[True]:
        return True
    anchor = abilities and level(card) == 4 and (col, row) in CORNERS
    return anchor and broken[False] <= 1 and broken[True] <= 1


def reference_actions(state):
    view = state.view(0)
    phase = view["phase"]
    torus = view["torus"]
    abilities = view["variant"] == "classic"
    if phase == "coin":
        return [2530, 2531]
    if phase == "over":
        return []
    seat = view["to_move"]
    if phase in ("repel", "polarize"):
        cell = CELL_NAMES.index(view["ability"]["cell"])
        col, row = cell % 4, cell // 4
        actions = []
        if phase == "repel":
            for dc, dr in ORTHOGONAL:
                near = neighbours(col, row, torus, [(dc, dr)])
                beyond = neighbours(col, row, torus, [(2 * dc, 2 * dr)])
                if near and beyond and state.stack(near[0][0]) and not state.stack(beyond[0][0]):
                    actions.append(REPEL_BASE + near[0][0])
        else:
            actions.append(POLARIZE_BASE + cell)
            for n, _ in neighbours(col, row, torus, ORTHOGONAL):
                if state.stack(n) and state.stack(n)[-1][1]:
                    actions.append(POLARIZE_BASE + n)
        return [*sorted(actions), DECLINE]
    hand = state.hand(seat)
    actions = []
    for card in hand:
        local = card % 12
        for cell in range(16):
            name = CELL_NAMES[cell]
            stack = state.stack(cell)
            if phase == "opening":
                if name in CENTRE and 2 <= level(card) <= 5:
                    actions.append(place_action(local, cell))
                continue
            col, row = cell % 4, cell // 4
            if not stack:
                beside = any(state.stack(n) for n, _ in neighbours(col, row, torus, ORTHOGONAL))
                diagonal = abilities and level(card) == 2 and any(
                    state.stack(n) for n, _ in neighbours(col, row, torus, DIAGONAL))
                if (beside or diagonal) and law_allows(state, card, cell, torus, abilities):
                    actions.append(place_action(local, cell))
            elif (len(stack) == 1 and stack[0][1] and level(stack[0][0]) == level(card)
                  and is_red(stack[0][0]) != is_red(card) and len(hand) >= 2
                  and law_allows(state, card, cell, torus, abilities)):
                actions += [invert_action(local, cell, d % 12) for d in hand if d != card]
    if abilities and phase == "turn":  # the opening is no turn (C-3); passing is Classic
        actions.append(PASS)
    return sorted(actions)
