"""A game's log as each viewpoint reads it: made for a viewpoint only when first read and
kept up to date move by move, its lines work out a view only when they read one; what
each viewpoint reads is the same as a log written out in full from each state's view."""

import random

import pytest

from quarkade.core.protocol import SPECTATOR
from quarkade.core.registry import list_games, load_game
from quarkade.core.words import log_line
from quarkade.server.play.logbook import LogBook

NAMES = ["Ann", "Bob", "Cy", "Di"]


def written_out(game, moves, viewpoint):
    """The log of ``moves`` for ``viewpoint``, each line from the whole view after it."""
    state = game.new_initial_state()
    entries = []
    for player, action in moves:
        full = state.action_to_string(action)
        notation = state.action_string_for(viewpoint, action)
        state.apply_action(action)
        try:
            line = log_line(game.name, state.view(viewpoint), player, notation, NAMES)
        except ModuleNotFoundError:
            line = None
        entries.append((len(state.history()), player, notation, line, notation != full))
    return entries


@pytest.mark.parametrize("name", list_games())
def test_each_viewpoints_log_is_the_log_written_out_from_its_views(name):
    game = load_game(name)
    viewpoints = [*range(game.num_players), SPECTATOR]
    book = LogBook(name, viewpoints, lambda: NAMES[:game.num_players])
    rng = random.Random(7)
    state = game.new_initial_state()
    moves = []
    read = []  # the viewpoints read so far: one more every few moves
    while not state.is_terminal() and len(moves) < 400:
        if len(moves) % 5 == 0 and len(read) < len(viewpoints):
            read.append(viewpoints[len(read)])
            book.of(read[-1], game, moves)
        pending = book.pending()
        assert pending is None or set(pending) == set(read)  # only the logs made are kept
        player = state.current_player()
        action = rng.choice(state.legal_actions())
        book.play(state, action, pending)
        book.add(pending)
        moves.append((player, action))
    for viewpoint in viewpoints:
        log = book.of(viewpoint, game, moves)
        assert [(e.step, e.player, e.text, e.line, e.hidden) for e in log] == \
            written_out(game, moves, viewpoint)


def test_a_log_made_while_a_move_was_being_stored_is_made_again_with_it():
    game = load_game("hadronize")
    book = LogBook("hadronize", [0, 1, SPECTATOR], lambda: NAMES[:2])
    state = game.new_initial_state()
    moves = []
    book.of(0, game, moves)
    for _ in range(3):
        pending = book.pending()  # a move on its way to the database...
        player, action = state.current_player(), state.legal_actions()[0]
        book.play(state, action, pending)
        if not moves:
            book.of(SPECTATOR, game, moves)  # ...while a spectator's page opens
        book.add(pending)
        moves.append((player, action))
    assert len(book.of(SPECTATOR, game, moves)) == len(moves) == len(book.of(0, game, moves))
    assert [e.text for e in book.of(SPECTATOR, game, moves)] == \
        [e[2] for e in written_out(game, moves, SPECTATOR)]
