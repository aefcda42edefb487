"""The examples in public docstrings run."""

import doctest

import pytest

import quarkade
import quarkade.adapters.gymnasium
import quarkade.adapters.openspiel
import quarkade.adapters.pettingzoo
import quarkade.core.options
import quarkade.core.protocol
import quarkade.games.card_commons.notation
import quarkade.sim
import quarkade.sim.ratings
import quarkade.sim.stats

MODULES = [quarkade, quarkade.adapters.gymnasium, quarkade.adapters.openspiel,
           quarkade.adapters.pettingzoo, quarkade.core.options, quarkade.core.protocol,
           quarkade.games.card_commons.notation, quarkade.sim, quarkade.sim.ratings,
           quarkade.sim.stats]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_docstring_examples(module):
    failures, tried = doctest.testmod(module)
    assert tried > 0
    assert failures == 0
