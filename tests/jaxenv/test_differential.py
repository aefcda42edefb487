"""The JAX rules against the reference engines: at least 10,000 positions per game and
option set, every answer compared (``tests/jaxenv/helpers.py``)."""

from __future__ import annotations

import pytest

from quarkade import load_game
from tests.jaxenv.helpers import Compared, check_positions, reference_positions

POSITIONS = 10_000
OPTION_SETS = [
    *[("hadronize", {"players": n}) for n in range(2, 7)],
    ("hadronize", {"players": 3, "goal": 2, "max_turns": 9}),
    *[("dead-cat", {"players": n, "peek_first": first}) for n in range(2, 6)
      for first in (False, True)],
    *[("card-commons", {"variant": variant, "torus": torus})
      for variant in ("tutorial", "classic") for torus in (False, True)],
]
PHASES = {"hadronize": 6, "dead-cat": 5, "card-commons": 6}


@pytest.mark.parametrize(("name", "options"), OPTION_SETS,
                         ids=[f"{name}-{options}" for name, options in OPTION_SETS])
def test_jax_rules_agree_with_the_reference_at_10000_positions(name, options):
    game = load_game(name, **options)
    compared = Compared()
    positions = reference_positions(game, POSITIONS, seed=len(str(options)))
    check_positions(game, positions, seed=1, compared=compared)
    assert compared.positions >= POSITIONS
    assert compared.children >= POSITIONS
    assert compared.decisions > 1000 and compared.terminals > 5
    # every phase is reached, the end included (Card Commons' Tutorial has no Repel or
    # Polarize; a peek_first Dead Cat game has the die roll only at its start)
    expected = PHASES[name] - (2 if options.get("variant") == "tutorial" else 0)
    assert len(compared.phases) == expected, compared.phases
