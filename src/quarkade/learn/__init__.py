"""Learning to play and getting better: tutorial progress, hints and post-game reviews.

``progress``: which lessons a learner has finished (a file in the terminal, the database on
the web). ``hints``: the ``hard`` bot's move and a win chance for every legal move, from the
seat's own information only. ``review``: a finished game's decisions, each with its win
chance before and after, the best move and a mark. Estimates come from
``quarkade.agents.estimate``. This package sits beside the terminal and the server: it uses
the games and the agents, and neither of them uses it.
"""
