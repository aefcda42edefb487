"""People: players and sessions (``players``), ratings (``skill``: the model; ``ratings``),
the lobby (``lobby``) and quick play (``quick``)."""
