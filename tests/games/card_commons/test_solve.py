"""The compiled Card Commons solvers (``solve``): checked against the reference engine.

Small versions of the checks in ``bench/card_commons_solve.py`` (whose large runs are in
docs/ANALYSIS.md): values against plain minimax, move generators against the engine's
legal actions, the symmetries and the discard rule the Tutorial solver relies on, the book,
and the perfect bot never losing a won position.
"""

import random

import pytest

from quarkade.agents import make_agent
from quarkade.games.card_commons.rules import GEOMETRIES
from quarkade.games.card_commons.solve import book as opening_book
from quarkade.games.card_commons.solve import classic, perfect, proof, trust, tutorial

TUTORIAL_SOLVER = tutorial.TutorialSolver(table_bits=18)
CLASSIC_SOLVER = classic.ClassicSolver(table_bits=18)


def positions(variant, torus, count, seed, plies=(4, 18)):
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = trust.random_position(rng, variant, torus, plies)
        if state is not None:
            found.append(state)
    return found


@pytest.mark.parametrize("torus", [False, True], ids=["flat", "torus"])
def test_tutorial_values_match_plain_minimax(torus):
    report = trust.crosscheck("tutorial", torus, count=24, seed=3, budget=4000,
                              depths=(3, 10), plies=(11, 18))
    assert report.disagreements == []
    assert report.total == 24 and 0 < report.wins < 24
    assert sum(n for depth, n in report.compared.items() if depth >= 6) >= 5


@pytest.mark.parametrize("torus", [False, True], ids=["flat", "torus"])
def test_classic_values_match_plain_minimax(torus):
    report = trust.crosscheck("classic", torus, count=16, seed=4, budget=4000,
                              depths=(3, 10), plies=(16, 26))
    assert report.disagreements == []
    assert report.total == 16 and 0 < report.wins < 16


def classic_positions(torus, count, seed, plies=(18, 26)):
    """Classic positions a few cells from the end that the plain kernel settles."""
    plain = classic.ClassicSolver(torus=torus, table_bits=16, features=0)
    found = []
    for state in positions("classic", torus, 3 * count, seed=seed, plies=plies):
        position = classic.position_of(state)
        plain.clear()
        value = plain.value(position, budget=100_000).value
        if value != classic.ABORTED:
            found.append((position, value))
        if len(found) == count:
            break
    return found


@pytest.mark.parametrize("torus", [False, True], ids=["flat", "torus"])
def test_each_classic_search_feature_keeps_the_value(torus):
    """Every cut of the Classic kernel on its own, and all of them, find the plain
    kernel's value (which the minimax cross-check above holds to the engine)."""
    cases = classic_positions(torus, 12, seed=16)
    assert len(cases) == 12 and 0 < sum(v == classic.WIN for _, v in cases) < 12
    flags = [classic.PASS_WINS, classic.BOUND, classic.SYMMETRY, classic.ETC,
             classic.HISTORY, classic.PASS_FIRST, classic.DISCARDS, classic.MOBILITY,
             classic.LAW, classic.MATCHING, classic.FORGET_PASS, classic.STATIC_CHILD,
             classic.TIE, classic.PROOF]
    searches = [classic.FEATURES, classic.FEATURES | classic.PROOF,
                classic.FEATURES & ~classic.PROOF, sum(flags)]
    for features in [*flags, *searches]:
        solver = proof.solver(torus=torus, table_bits=16, features=features, etc_from=1)
        for position, value in cases:
            assert solver.value(position).value == value, (features, position)
        if features & classic.LAW:  # the Law's bound did settle nodes here
            assert solver.stats[classic.LAW_BOUNDED] > 0, features


@pytest.mark.parametrize("torus", [False, True], ids=["flat", "torus"])
def test_df_pn_settles_what_the_alpha_beta_search_settles(torus):
    """The proof-number search (``classic.PROOF``) finds the other search's value on
    positions further from the end, across calls that share one table, and its winning
    moves are the other search's."""
    cases = classic_positions(torus, 8, seed=21, plies=(12, 18))
    assert len(cases) == 8 and 0 < sum(v == classic.WIN for _, v in cases) < 8
    by_proof = proof.ProofSolver(torus=torus, table_bits=18)
    no_leaves = proof.ProofSolver(torus=torus, table_bits=18, ab_cells=0)
    bare = proof.ProofSolver(torus=torus, table_bits=18, features=classic.PROOF, ab_cells=0)
    alpha_beta = classic.ClassicSolver(torus=torus, table_bits=18,
                                       features=classic.FEATURES & ~classic.PROOF)
    for position, value in cases:
        assert by_proof.value(position).value == value, position
        assert no_leaves.value(position).value == value, position
        assert by_proof.value(position, budget=1).value == classic.ABORTED
        winners = alpha_beta.winning_moves(position)
        assert by_proof.winning_moves(position) == winners
        # no cuts: a kept inversion that wins must not end the listing of the other moves
        assert bare.winning_moves(position) == winners
    # the alpha-beta leaves settled nodes, counted in the search's nodes; none without them
    assert by_proof.proof.ab_stats[classic.NODES] > 0
    assert no_leaves.proof.ab_stats[classic.NODES] == 0


@pytest.mark.parametrize("torus", [False, True], ids=["flat", "torus"])
def test_the_tie_bound_keeps_plain_minimaxs_value(torus):
    """``classic.TIE`` (open cells that can at best tie, and a tie-break the other seat
    cannot turn: Repel's slides, inversions, passing) settles nodes, and every search
    with it finds plain minimax's value on the reference engine."""
    rng = random.Random(28)
    searches = [classic.BOUND | classic.TIE, classic.SEARCHES["alpha-beta"] | classic.TIE,
                classic.SEARCHES["df-pn"] | classic.TIE]
    solvers = [proof.solver(torus=torus, table_bits=16, features=f, etc_from=1)
               for f in searches]
    compared = wins = 0
    while compared < 30:
        state = trust.random_position(rng, "classic", torus, (16, 26))
        if state is None:
            continue
        try:
            value, _ = trust.plain_minimax(state, 4000)
        except trust.TooLarge:
            continue
        compared += 1
        wins += value > 0
        position = classic.position_of(state)
        for features, solver in zip(searches, solvers, strict=True):
            solver.clear()
            found = solver.value(position).value
            assert (1 if found == classic.WIN else -1) == value, (features, position)
    assert 0 < wins < compared
    # the bound did settle nodes (the leaves' kernel counts its own under df-pn)
    for solver in solvers:
        tied = solver.stats[classic.TIED]
        if isinstance(solver, proof.ProofSolver):
            tied += solver.proof.ab_stats[classic.TIED]
        assert tied > 0, solver.settings


def test_the_tie_bound_leaves_a_tie_break_the_other_seat_can_still_turn():
    """Open cells the other seat can at best tie, and a tie-break it can still turn: one
    open cell on seat 0's side, seat 0 with no card, seat 1 with a card to fill it and a
    black 4 (and a discard) to invert the red 4 on seat 0's side; seat 0 opened. Tied open
    cells and a stack more on its side lose for seat 0, so the bound must not call its
    lead won; the plain kernel (held to minimax above) and the bound agree."""
    cells = [classic.DOWN] * 16  # face down: no Law anywhere
    cells[15] = 0
    cells[8] = classic.SINGLE + 3  # a red 4, alone and face up, on seat 0's side
    hands = (0, 1 << 9 | 1 << 0 | 1 << 6)  # seat 1: the black 4, the red and black aces
    plain = classic.ClassicSolver(table_bits=16, features=0)
    tied = classic.ClassicSolver(table_bits=16, features=classic.BOUND | classic.TIE)
    for to_move, value in ((0, classic.LOSS), (1, classic.WIN)):
        position = classic.Position(tuple(cells), hands, to_move, 0, False, classic.IN_TURN,
                                    -1)
        assert plain.value(position).value == value
        assert tied.value(position).value == value
    assert tied.stats[classic.TIED] > 0


def test_df_pn_leaves_count_in_the_budget():
    """A budget stops the df-pn search with its alpha-beta leaves (their nodes count),
    and a budget too small for a leaf leaves the node to df-pn: the value stays exact."""
    cases = classic_positions(False, 4, seed=21, plies=(12, 18))
    for position, value in cases:
        solver = proof.ProofSolver(table_bits=16)
        solver.proof.ab_budget[0] = 50
        assert solver.value(position).value == value, position
        solver.clear()
        result = solver.value(position, budget=200)
        assert result.value in (value, classic.ABORTED)
        assert result.nodes <= 200


def mirrored(position, perm, swap):
    """A Classic position through a field map (cell i -> perm[i]); ``swap``: the map
    swaps the sides, so the seats swap too."""
    cells = [0] * 16
    for cell, code in enumerate(position.cells):
        cells[perm[cell]] = code
    hands = position.hands[::-1] if swap else position.hands
    return classic.Position(tuple(cells), hands, position.to_move ^ swap,
                            position.opener ^ swap, position.passed, position.phase,
                            perm[position.ability] if position.ability >= 0 else -1)


@pytest.mark.parametrize("torus", [False, True], ids=["flat", "torus"])
def test_classic_symmetric_images_have_the_same_value(torus):
    """The four maps the Classic table is keyed by (mirror, flip with the seats swapped)
    keep the value, searched without them."""
    maps = classic.symmetries(torus)
    assert len(maps) == 4 and sum(swap for _, swap in maps) == 2
    geo = GEOMETRIES[torus]
    for perm, swap in maps:
        def image(cells, perm=perm):
            return frozenset(perm[c] for c in cells)

        assert image(range(8, 16)) == frozenset(range(8) if swap else range(8, 16))
        for cell in range(16):
            to = perm[cell]
            assert image(geo.orth[cell]) == frozenset(geo.orth[to])
            assert image(geo.diag[cell]) == frozenset(geo.diag[to])
            assert ({(perm[a], perm[b]) for a, b in geo.repel_pairs[cell]}
                    == set(geo.repel_pairs[to]))
            assert ({image(group) for group in geo.anchor_pairs[cell]}
                    == {frozenset(group) for group in geo.anchor_pairs[to]})
    plain = classic.ClassicSolver(torus=torus, table_bits=16, features=0)
    for position, value in classic_positions(torus, 8, seed=17):
        for perm, swap in maps[1:]:
            plain.clear()
            assert plain.value(mirrored(position, perm, swap)).value == value


@pytest.mark.parametrize("torus", [False, True], ids=["flat", "torus"])
def test_classic_moves_are_the_engines_legal_actions(torus):
    solver = classic.ClassicSolver(torus=torus, table_bits=10)
    rng = random.Random(5)
    checked = {"turn": 0, "repel": 0, "polarize": 0}
    while min(checked.values()) < 10:
        state = trust.random_position(rng, "classic", torus, (2, 30))
        if state is None:
            continue
        # step into an ability decision now and then: play a 3 or a 5 if there is one
        for action in state.legal_actions():
            if rng.random() < 0.5 and state.action_to_string(action)[0] in "35":
                state.apply_action(action)
                break
        if state.is_terminal():
            continue
        position = classic.position_of(state)
        moves = sorted(classic.action_of(m, d) for m, d in solver.moves(position))
        assert moves == state.legal_actions(), state.history()
        checked[state.phase()] += 1


@pytest.mark.parametrize("torus", [False, True], ids=["flat", "torus"])
def test_tutorial_moves_are_the_engines_legal_actions(torus):
    solver = tutorial.TutorialSolver(torus=torus, table_bits=10)
    for state in positions("tutorial", torus, 60, seed=6):
        moves = sorted(tutorial.action_of(m, d)
                       for m, d in solver.moves(tutorial.position_of(state)))
        assert moves == state.legal_actions(), state.history()


def test_winning_moves_are_the_reference_solvers():
    from quarkade.games.card_commons.solver import Solver

    for state in positions("tutorial", False, 12, seed=7, plies=(10, 14)):
        winners = TUTORIAL_SOLVER.winning_moves(tutorial.position_of(state))
        mine = sorted(tutorial.action_of(m, d) for m, d in winners)
        assert mine == sorted(Solver(10**7).winning_actions(state)), state.history()


def image(position, perm, dual):
    """A Tutorial position through a field map (cell i -> perm[i]) and the colour swap."""
    cells = [0] * 16
    for cell, code in enumerate(position.cells):
        if code and dual:
            base = tutorial.SINGLE if code < tutorial.STACK else tutorial.STACK
            code = base + tutorial.dual_kind(code - base)
        cells[perm[cell]] = code
    hand = (lambda m: int(tutorial.DUAL_HAND[m])) if dual else (lambda m: m)
    return tutorial.Position(tuple(cells), hand(position.mover), hand(position.other))


@pytest.mark.parametrize("torus", [False, True], ids=["flat", "torus"])
def test_symmetric_images_have_the_same_value(torus):
    """The maps the solver keys its table by really keep the value (searched without
    them, so neither side of the comparison uses them)."""
    plain = tutorial.TutorialSolver(torus=torus, table_bits=18, max_symmetries=1)
    maps = tutorial.automorphisms(torus)
    assert len(maps) == (384 if torus else 8)
    rng = random.Random(8)
    for state in positions("tutorial", torus, 10, seed=9, plies=(9, 13)):
        position = tutorial.position_of(state)
        value = plain.value(position).value
        for _ in range(3):
            other = image(position, rng.choice(maps), rng.random() < 0.5)
            assert plain.value(other).value == value


def test_more_cards_never_hurt_in_the_tutorial_game():
    """A card more in the mover's hand never turns a win into a loss, a card more in the
    other's never a loss into a win (checked by plain negamax). The Classic solver settles
    all discards with one search by it; the Tutorial solver measured it dearer than
    searching each discard (docs/ANALYSIS.md)."""
    rng = random.Random(10)
    checked = 0
    for state in positions("tutorial", False, 40, seed=11, plies=(12, 16)):
        position = tutorial.position_of(state)
        on_field = {(code - 1) % 12 for code in position.cells if code}
        value = plain_value(position)
        spare = [k for k in range(12) if not position.mover >> k & 1]
        if spare and value == tutorial.WIN:
            more = rng.choice(spare)
            richer = tutorial.Position(position.cells, position.mover | 1 << more,
                                       position.other)
            assert plain_value(richer) == tutorial.WIN
            checked += 1
        gone = [k for k in range(12) if position.other >> k & 1 and k not in on_field]
        if gone and value == tutorial.WIN:
            poorer = tutorial.Position(position.cells, position.mover,
                                       position.other & ~(1 << rng.choice(gone)))
            assert plain_value(poorer) == tutorial.WIN
            checked += 1
    assert checked >= 20


def plain_value(position, known={}):  # noqa: B006 - a memo of exact values
    """Negamax over abstract positions, every discard searched: no discard rule."""
    if position not in known:
        known[position] = tutorial.LOSS
        for move, discard in TUTORIAL_SOLVER.moves(position):
            if plain_value(position.after(move, discard)) == tutorial.LOSS:
                known[position] = tutorial.WIN
                break
    return known[position]


def test_a_book_answers_with_winning_moves_for_every_reply():
    for state in positions("tutorial", False, 4, seed=12, plies=(8, 9)):
        root = tutorial.position_of(state)
        entries = opening_book.solution(TUTORIAL_SOLVER, [root], 4)
        book = opening_book.Book("tutorial", False, 4, [], entries)
        value, move = book.lookup(TUTORIAL_SOLVER, root)
        assert value == TUTORIAL_SOLVER.value(root).value
        after = [root.after(*move)] if value == tutorial.WIN else \
            [root.after(m, d) for m, d in TUTORIAL_SOLVER.moves(root)]
        for child in after:
            replies = [child.after(m, d) for m, d in TUTORIAL_SOLVER.moves(child)] \
                if value == tutorial.WIN else [child]
            for position in replies:
                found = book.lookup(TUTORIAL_SOLVER, position)
                assert found is not None
                assert found[0] == TUTORIAL_SOLVER.value(position).value
                if found[0] == tutorial.WIN:
                    won = position.after(*found[1])
                    assert TUTORIAL_SOLVER.value(won).value == tutorial.LOSS


def test_the_shipped_books_answer_every_opening_they_solved():
    # Every opening is listed, solved (a book may mark one "" for not solved, as a run of
    # some --openings writes it), and the book answers every solved one with its value.
    for torus in (False, True):
        path = perfect.book_path(torus)
        if not path.exists():
            pytest.fail(f"{path} is missing: run quarkade solve (docs/ANALYSIS.md)")
        shipped = opening_book.Book.load(path)
        assert len(shipped.openings) == 32 and shipped.torus == torus
        for row in shipped.openings:
            first = shipped.openings[row.group]
            assert row.value == first.value in ("win", "loss", "")
        solved = [row for row in shipped.openings if row.value]
        assert solved, f"{path} solves no opening"
        # Both fields solved whole (docs/ANALYSIS.md): the opener wins by 5H or 2S only.
        assert len(solved) == 32
        assert {row.card for row in solved if row.value == "loss"} == {"5H", "2S"}
        solver = tutorial.TutorialSolver(torus=torus, table_bits=12)
        for row in shipped.openings:
            found = shipped.lookup(solver, row.position)
            if not row.value:
                assert found is None
                continue
            assert found is not None
            assert (found[0] == tutorial.WIN) == (row.value == "win")


def test_perfect_never_loses_a_position_the_solver_calls_won():
    agent = make_agent("perfect", "card-commons")
    opponents = {"random": lambda: make_agent("random", "card-commons"),
                 "greedy": lambda: make_agent("greedy", "card-commons"),
                 "hard": lambda: make_agent("mcts:iterations=100", "card-commons")}
    report = trust.perfect_games(agent, opponents, games=24, seed=13, plies=(8, 14))
    assert sum(report.games.values()) == 24 and set(report.games) == set(opponents)
    assert report.lost == []


def test_perfect_plays_the_solver_bot_in_classic():
    from quarkade.core.agent import turn_for

    state = positions("classic", False, 1, seed=14, plies=(10, 12))[0]
    agent = make_agent("perfect", "card-commons")
    assert agent.act(turn_for(state), random.Random(0)) in state.legal_actions()
    assert agent.solved is False


def test_hard_plays_a_won_classic_endgame_by_the_compiled_solver():
    from quarkade.core.agent import turn_for

    hard = make_agent("hard", "card-commons")
    played = 0
    solvers = {}
    for state in positions("classic", False, 30, seed=15, plies=(16, 24)):
        position = classic.position_of(state)
        if position.empty > classic.ENDGAME_CELLS or len(state.legal_actions()) < 2:
            continue
        if CLASSIC_SOLVER.value(position).value != classic.WIN:
            continue
        action = hard.act(turn_for(state), random.Random(0))
        assert hard.last_iterations == 0  # answered by the endgame, not the search
        child = state.clone()
        child.apply_action(action)
        assert (child.is_terminal() and child.winner() == state.current_player()) or \
            trust.compiled_value(child, solvers) == (
                1 if child.current_player() == state.current_player() else -1)
        played += 1
    assert played >= 5


@pytest.mark.parametrize("torus", [False, True], ids=["flat", "torus"])
def test_perfect_never_opens_with_an_opening_the_book_calls_lost(torus, monkeypatch):
    # With no opening known to win and some not settled, perfect falls back on greedy's
    # opening unless the book calls it lost; a greedy that always picks a lost one shows
    # the guard at work. The shipped books settle every opening, so the test keeps only
    # the 2H class of one (the seat after the opening wins it) and leaves the rest unsettled.
    from quarkade import load_game
    from quarkade.core.agent import turn_for
    from quarkade.games.card_commons.notation import place_action

    shipped = opening_book.Book.load(perfect.book_path(torus))
    two = {row.group for row in shipped.openings if row.card == "2H"}
    for row in shipped.openings:
        if row.group not in two:
            row.value, row.first_move = "", ""
    monkeypatch.setitem(perfect._books, torus, shipped)
    lost = sorted(place_action(row.kind, row.cell_id) for row in shipped.openings
                  if row.value == "win")
    assert lost and all(row.value in ("win", "") for row in shipped.openings)

    class LosingOpener:
        def act(self, turn, rng):
            return rng.choice([a for a in turn.legal_actions if a in lost])

    agent = make_agent("perfect", "card-commons")
    agent._greedy = LosingOpener()
    for seed in range(8):
        state = load_game("card-commons", variant="tutorial", torus=torus).new_initial_state()
        state.apply_action(state.string_to_action(f"opener {seed % 2}"))
        assert state.phase() == "opening"
        action = agent.act(turn_for(state), random.Random(seed))
        assert action in state.legal_actions() and action not in lost


@pytest.mark.parametrize("variant", ["classic", "tutorial"])
def test_hints_show_the_solvers_exact_values_where_it_reaches(variant):
    """A hint (and so a review) in a small endgame gives 1 to exactly the moves the
    reference engine's own solver finds winning and 0 to the rest, and says it is exact;
    a position past the endgame's reach gets the search's estimates."""
    from quarkade.agents.estimate import estimate_moves
    from quarkade.core.agent import turn_for
    from quarkade.games.card_commons.solve.endgame import CLASSIC_CELLS, action_values
    from quarkade.games.card_commons.solver import Solver

    plies = (20, 28) if variant == "classic" else (12, 16)
    checked = 0
    for state in positions(variant, False, 12, seed=18, plies=plies):
        if len(state.legal_actions()) < 2 or sum(not state.stack(c) for c in range(16)) > 6:
            continue
        found = estimate_moves(turn_for(state), random.Random(1), iterations=50)
        assert found.exact and found.iterations == 0
        winners = set(Solver(10**7).winning_actions(state))
        assert {m.action for m in found.moves if m.chance == 1.0} == winners
        assert all(m.chance in (0.0, 1.0) for m in found.moves)
        checked += 1
    assert checked >= 3
    early = positions("classic", False, 1, seed=19, plies=(3, 4))[0]
    assert sum(not early.stack(cell) for cell in range(16)) > CLASSIC_CELLS
    assert action_values(early) is None  # so the hint is the search's estimate
