"""Options: declared once, checked in one place, explained on refusal.

A game declares its options (``Game.option_specs``) and a bot its parameters
(``Agent.parameters``) as ``Option``s. Values may arrive as Python values (``players=3``)
or as text from the command line, an agent spec or a web form (``players="3"``,
``torus="yes"``, ``time=0.5``); both are coerced and range-checked here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from quarkade.core.errors import GameOptionError

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True)
class Option:
    """One option of a game (or parameter of a bot): its name, default, allowed values
    and a line of help.

    ``kind`` is ``int``, ``float``, ``bool`` or ``str``. A number may set ``minimum`` and
    ``maximum`` (a ``float`` is always finite), and ``server_maximum``: the most a server
    lets its visitors ask for, where the value is what a move costs (search time,
    iterations); None leaves ``maximum``. A ``str`` option may list ``choices`` or give a
    ``check`` that returns the normalised value or raises ``ValueError`` with a reason.

    For the web's new-game form: ``label`` names the option in players' words (else its
    name does), ``about`` says more for them than ``help``, ``recommended`` is the value
    the form suggests where it differs from the default (the rulebook as written), and
    ``simulation`` marks an option for the simulator and the terminal that a person's
    game has no use for (the form leaves it out).
    """

    name: str
    default: Any
    help: str
    kind: type = int
    minimum: int | float | None = None
    maximum: int | float | None = None
    choices: tuple[str, ...] = ()
    check: Callable[[Any], Any] | None = field(default=None, compare=False)
    server_maximum: int | float | None = None
    label: str = ""
    about: str = ""
    recommended: Any = None
    simulation: bool = False

    def allowed(self) -> str:
        """A short phrase saying which values this option takes."""
        if self.kind is bool:
            return "true or false"
        if self.choices:
            return "one of " + ", ".join(self.choices)
        if self.kind in (int, float):
            number = "a whole number" if self.kind is int else "a number"
            low = "" if self.minimum is None else _shown(self.minimum)
            high = "" if self.maximum is None else _shown(self.maximum)
            if self.kind is int and self.minimum is not None and \
                    self.maximum == self.minimum + 1:
                return f"{low} or {high}"
            if low and high:
                return f"{number} from {low} to {high}"
            if low:
                return f"{number} of at least {low}"
            if high:
                return f"{number} of at most {high}"
            return number
        return "text"

    def on_server(self) -> Option:
        """This option as a server allows it: ``maximum`` lowered to ``server_maximum``."""
        if self.server_maximum is None:
            return self
        return replace(self, maximum=self.server_maximum if self.maximum is None
                       else min(self.maximum, self.server_maximum))

    def coerce(self, game: str, value: Any, word: str = "option") -> Any:
        """The value converted to ``kind`` and checked, or a ``GameOptionError``
        (``game`` and ``word`` name what it is an option of, and what it is called)."""
        problem = (f"{game}: {word} {self.name}={value!r} is not allowed; it takes "
                   f"{self.allowed()}")
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
                return value.strip().lower() in _TRUE
            raise GameOptionError(problem)
        if self.kind is int:
            if isinstance(value, bool):
                raise GameOptionError(problem)
            if isinstance(value, str):
                try:
                    value = int(value.strip())
                except ValueError:
                    raise GameOptionError(problem) from None
            if not isinstance(value, int):
                raise GameOptionError(problem)
            if not self._in_range(value):
                raise GameOptionError(problem)
            return value
        if self.kind is float:
            if isinstance(value, bool):
                raise GameOptionError(problem)
            if isinstance(value, str):
                try:
                    value = float(value.strip())
                except ValueError:
                    raise GameOptionError(problem) from None
            if not isinstance(value, int | float) or not math.isfinite(value) \
                    or not self._in_range(value):
                raise GameOptionError(problem)
            return float(value)
        if not isinstance(value, str):
            raise GameOptionError(problem)
        if self.choices:
            text = value.strip().lower()
            if text not in self.choices:
                raise GameOptionError(problem)
            return text
        if self.check is not None:
            try:
                return self.check(value)
            except ValueError as reason:
                raise GameOptionError(f"{game}: {word} {self.name}: {reason}") from None
        return value

    def _in_range(self, value: int | float) -> bool:
        return (self.minimum is None or value >= self.minimum) and (
            self.maximum is None or value <= self.maximum)


def _shown(number: int | float) -> str:
    """A bound as people write it: 20000, 0.5, 5 (never 5.0 or 2e+04)."""
    if isinstance(number, float) and not number.is_integer():
        return repr(number)
    return str(int(number))


def players_option(minimum: int, maximum: int, default: int | None = None) -> Option:
    """The ``players`` option every game has."""
    return Option(
        "players",
        minimum if default is None else default,
        "number of seats at the table",
        kind=int,
        minimum=minimum,
        maximum=maximum,
    )


def parse_options(game: str, specs: Sequence[Option], given: Mapping[str, Any],
                  word: str = "option") -> dict[str, Any]:
    """Defaults overlaid with ``given``, each value coerced; unknown names are refused
    (``word`` is what the message calls an option: a bot's are parameters)."""
    by_name = {spec.name: spec for spec in specs}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        known = ", ".join(by_name) or "none"
        raise GameOptionError(f"{game} has no {word} {unknown[0]!r}; its {word}s are: "
                              f"{known}")
    return {
        spec.name: spec.coerce(game, given[spec.name], word) if spec.name in given
        else spec.default
        for spec in specs
    }


def option_variations(specs: Sequence[Option], switches: bool = True) -> list[dict[str, Any]]:
    """Every combination of the options that take one of a few values: each ``choices``
    option over its choices and, with ``switches``, each ``bool`` option over false and
    true (the others keep their defaults). Used to test and benchmark every variant.

    >>> option_variations([Option("variant", "a", "", str, choices=("a", "b")),
    ...                    Option("torus", False, "", bool)])
    [{'variant': 'a', 'torus': False}, {'variant': 'a', 'torus': True}, \
{'variant': 'b', 'torus': False}, {'variant': 'b', 'torus': True}]
    """
    variations: list[dict[str, Any]] = [{}]
    for spec in specs:
        values: tuple[Any, ...] = spec.choices
        if not values and switches and spec.kind is bool:
            values = (False, True)
        if values:
            variations = [{**done, spec.name: value} for done in variations for value in values]
    return variations


def parse_option_pairs(pairs: Sequence[str]) -> dict[str, str]:
    """``["players=3", "torus=yes"]`` as a dict of text values, for the CLI and web forms."""
    parsed: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise GameOptionError(f"option {pair!r} should look like name=value, e.g. players=3")
        parsed[name.strip().replace("-", "_")] = value.strip()
    return parsed
