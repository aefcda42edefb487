"""Every registered game at every player count it allows, with every variant: the cases
each adapter is checked on."""

import quarkade
from quarkade.core.options import option_variations


def all_cases():
    cases = []
    for name in quarkade.list_games():
        cls = quarkade.core.game_class(name)
        for players in range(cls.min_players, cls.max_players + 1):
            for variation in option_variations(cls.option_specs):
                cases.append((name, {"players": players, **variation}))
    return cases


CASES = all_cases()
IDS = [f"{name}-" + "-".join(f"{k}={v}" for k, v in options.items()) for name, options in CASES]
HIDDEN = [name for name in quarkade.list_games()
          if not quarkade.core.game_class(name).perfect_information]
OPEN = [name for name in quarkade.list_games() if name not in HIDDEN]
