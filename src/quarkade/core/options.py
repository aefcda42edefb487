"""Game options: declared once per game, checked in one place, explained on refusal.

Values may arrive as Python values (``players=3``) or as text from the command line or a
web form (``players="3"``, ``torus="yes"``); both are coerced and range-checked here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from quarkade.core.errors import GameOptionError

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True)
class Option:
    """One option of a game: its name, default, allowed values and a line of help.

    ``kind`` is ``int``, ``bool`` or ``str``. An ``int`` option may set ``minimum`` and
    ``maximum``; a ``str`` option may list ``choices`` or give a ``check`` that returns the
    normalised value or raises ``ValueError`` with a reason.
    """

    name: str
    default: Any
    help: str
    kind: type = int
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    check: Callable[[Any], Any] | None = field(default=None, compare=False)

    def allowed(self) -> str:
        """A short phrase saying which values this option takes."""
        if self.kind is bool:
            return "true or false"
        if self.choices:
            return "one of " + ", ".join(self.choices)
        if self.kind is int:
            low = "" if self.minimum is None else str(self.minimum)
            high = "" if self.maximum is None else str(self.maximum)
            if low and high:
                return f"a whole number from {low} to {high}"
            if low:
                return f"a whole number of at least {low}"
            return "a whole number"
        return "text"

    def coerce(self, game: str, value: Any) -> Any:
        """The value converted to ``kind`` and checked, or a ``GameOptionError``."""
        problem = f"{game}: option {self.name}={value!r} is not allowed; it takes {self.allowed()}"
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
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise GameOptionError(problem)
            return value
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
                raise GameOptionError(f"{game}: option {self.name}: {reason}") from None
        return value


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


def parse_options(game: str, specs: Sequence[Option], given: Mapping[str, Any]) -> dict[str, Any]:
    """Defaults overlaid with ``given``, each value coerced; unknown names are refused."""
    by_name = {spec.name: spec for spec in specs}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        known = ", ".join(by_name) or "none"
        raise GameOptionError(f"{game} has no option {unknown[0]!r}; its options are: {known}")
    return {
        spec.name: spec.coerce(game, given[spec.name]) if spec.name in given else spec.default
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
