"""The ``quarkade`` command: list games, read rules, play in the terminal, replay records."""

from __future__ import annotations

import functools
import inspect
import random
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markdown import Markdown
from rich.table import Table
from typer.core import TyperCommand, TyperGroup

from quarkade import __version__
from quarkade.agents import available_agents, make_agent
from quarkade.agents import plugins as plugin_bots
from quarkade.agents.contained import DEFAULT_MOVE_TIME, ContainedAgent
from quarkade.agents.registry import bot_about, bot_title, plugin_names, plugin_problems
from quarkade.cli import faces
from quarkade.cli.bot_help import bot_help
from quarkade.cli.decks import deck_test
from quarkade.cli.human import HumanAgent, Quit
from quarkade.cli.ladder import DEFAULT_RESULTS, ladder
from quarkade.cli.learn import hint_source, learn
from quarkade.cli.new_bot import new_bot
from quarkade.cli.output import MoveTimeOpt, check_move_time, console, errors, user_errors
from quarkade.cli.puzzles import puzzles
from quarkade.cli.review import review
from quarkade.cli.simulate import analyze, compile_engines, simulate, tournament
from quarkade.cli.solve import solve
from quarkade.cli.sweep import sweep
from quarkade.cli.train import train
from quarkade.core.agent import Agent
from quarkade.core.errors import QuarkadeError
from quarkade.core.options import parse_option_pairs
from quarkade.core.protocol import CHANCE, SPECTATOR, State
from quarkade.core.records import Fault, GameRecord, Seat
from quarkade.core.registry import game_class, list_games, load_game
from quarkade.sim.match import MatchEvent, play_match


class _Flags:
    """``--help`` shows a flag without a type: typer writes ``<bool>`` beside every flag,
    ``--help`` itself included, where there is nothing to type."""

    def get_params(self, ctx: Any) -> list[Any]:
        params: list[Any] = super().get_params(ctx)  # type: ignore[misc]
        for param in params:
            if getattr(param, "is_flag", False) and param.metavar is None:
                param.metavar = ""
        return params


class _Command(_Flags, TyperCommand):
    pass


class _Group(_Flags, TyperGroup):
    """The list of commands gives each one's first paragraph as one flowing sentence
    (typer's rich mode keeps the docstring's line breaks, which cut sentences in two)."""

    def get_command(self, ctx: Any, name: str) -> Any:
        command = super().get_command(ctx, name)
        if command is not None and command.short_help is None and command.help:
            first = inspect.cleandoc(command.help).split("\n\n")[0]
            command.short_help = " ".join(first.split())
        return command


app = typer.Typer(
    cls=_Group,
    help="Quarkade: four quantum-physics card games. Play, replay, and read the rules.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


def main() -> None:
    app()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", help="Print the version.")] = False,
) -> None:
    if version:
        console.print(f"quarkade {__version__}")
        raise typer.Exit()


@app.command()
def games() -> None:
    """List the games."""
    table = Table("game", "players", "what it is", show_edge=False)
    for name in list_games():
        cls = game_class(name)
        players = f"{cls.min_players}-{cls.max_players}" if cls.max_players > cls.min_players \
            else str(cls.min_players)
        table.add_row(name, players, cls.summary)
    console.print(table)


@app.command()
def rules(game: Annotated[str, typer.Argument(help="A game, as `quarkade games` lists it.")]
          ) -> None:
    """Print a game's rules page."""
    with user_errors():
        page = faces.rules_page(game)
    console.print(Markdown(page))


@app.command()
def agents(game: Annotated[str, typer.Argument(help="A game, as `quarkade games` lists it.")],
           bot: Annotated[str | None, typer.Argument(
               help="A bot: say what it does and which parameters its spec may set.")] = None,
           ) -> None:
    """List the agents (bots) that can play a game: built-in and plug-in, then the levels;
    with a bot's name, what that bot does and its parameters."""
    if bot is not None:
        with user_errors():
            console.print(bot_help(game, bot))
        return
    with user_errors():
        names = available_agents(game)
        plugins = plugin_names(game)
        problems = plugin_problems(game)
    declared = plugin_bots.declared()
    for name in names:
        if name in plugins:
            console.print(f"{name}  (plug-in from {declared[name].package})", markup=False)
        else:
            console.print(name)
    for problem in problems:
        errors.print(f"warning: {problem}", markup=False, soft_wrap=True)


def _parse_seats(seat_specs: list[str], players: int) -> dict[int, str]:
    seats: dict[int, str] = {}
    for text in seat_specs:
        index, sep, spec = text.partition("=")
        if not sep or not index.strip().isdigit() or not spec.strip():
            raise QuarkadeError(f"--seat {text!r} should look like SEAT=AGENT, e.g. 0=human or "
                                "1=greedy")
        seat = int(index)
        if not 0 <= seat < players:
            raise QuarkadeError(f"--seat {text!r}: seats are 0-{players - 1} with {players} "
                                "players")
        if seat in seats:
            raise QuarkadeError(f"--seat {seat} is given twice")
        seats[seat] = spec.strip()
    return seats


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="A game, as `quarkade games` lists it.")],
    players: Annotated[int | None, typer.Option("--players", "-p",
                                                help="Number of seats.")] = None,
    seat: Annotated[list[str] | None, typer.Option(
        "--seat", "-s", help="SEAT=AGENT, e.g. 0=human, 1=greedy, 2=random (repeatable). "
        "Seats not given keep their defaults: seat 0 is you, the rest are greedy bots "
        "(give seat 0 a bot, e.g. 0=random, for a game of bots only).")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="A game option NAME=VALUE (repeatable).")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for a reproducible game.")] = None,
    record: Annotated[Path | None, typer.Option(help="Save the game record (JSON) here.")] = None,
    move_time: MoveTimeOpt = DEFAULT_MOVE_TIME,
) -> None:
    """Play a game in the terminal, against bots, friends on this keyboard, or bots only."""
    with user_errors():
        check_move_time(move_time)
        options: dict[str, Any] = parse_option_pairs(option or [])
        if players is not None:
            options["players"] = players
        loaded = load_game(game, **options)
        n = loaded.num_players
        given = _parse_seats(seat or [], n)
        default_bot = "greedy" if "greedy" in available_agents(game) else "random"
        # Seats not given keep their defaults (seat 0 a person), so `--seat 1=hard` is you
        # against hard, not two bots.
        specs = {s: given.get(s, "human" if s == 0 else default_bot) for s in range(n)}
        names = table_names(game, [specs[s] for s in range(n)])
        # Hints are offered in games against bots (a hot-seat game of people has none).
        hints = hint_source(names) if any(spec != "human" for spec in specs.values()) else None
        seat_agents: list[Agent] = [
            HumanAgent(console, names, hints=hints) if specs[s] == "human"
            else make_agent(specs[s], game, move_time=move_time) for s in range(n)
        ]
    humans = [s for s in range(n) if specs[s] == "human"]
    # A fault's detail may hold what only the bot's seat knows: shown when no person plays.
    say = functools.partial(_say_fault, names, detail=not humans)
    for agent in seat_agents:
        if isinstance(agent, ContainedAgent):
            agent.on_fault = say
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    # One person sees the log as their seat does; several at one keyboard see the public log.
    viewer = humans[0] if len(humans) == 1 else SPECTATOR
    console.print(f"[bold]{loaded.title}[/bold], {n} players, seed {seed} "
                  f"(--seed {seed} replays this game)")
    for s in range(n):
        about = "" if specs[s] == "human" else f": {bot_about(specs[s], game)}"
        console.print(f"  {names[s]}{about}", markup=False, highlight=False)
    last_state: list[State] = [loaded.new_initial_state()]
    log = faces.GameLog(console)

    def show(event: MatchEvent) -> None:
        last_state[0] = event.after
        notation = event.before.action_string_for(viewer, event.action)
        log.show(event.player,
                 faces.log_line(game, event.after.view(viewer), event.player, notation, names))

    def hinted() -> list[int]:
        return sorted({seat for agent in seat_agents if isinstance(agent, HumanAgent)
                       for seat in agent.hinted})

    try:
        final, game_record = play_match(loaded, seat_agents, seed, names, on_event=show)
    except Quit:
        console.print("Game stopped.")
        if record is not None:
            seats = [Seat(names[s], specs[s]) for s in range(n)]
            stopped = GameRecord.from_state(last_state[0], seats, seed=seed)
            replace(stopped, hints=hinted()).save(record)
            console.print(f"The unfinished game's record is saved to {record}.")
        raise typer.Exit(1) from None
    game_record = replace(game_record, hints=hinted())
    console.print()
    # The table's last line says the result and how it came ("Game over: you win, ...").
    console.print(faces.render(game, final.view(viewer), names,
                               you=viewer if viewer != SPECTATOR else None))
    if game_record.hints:
        console.print("You asked for hints in this game; its record says so.")
    for fault in game_record.faults:
        _say_fault(names, fault, detail=not humans, flagged=True)
    if record is not None:
        game_record.save(record)
        console.print(f"record saved to {record}")


def table_names(game: str, specs: list[str]) -> list[str]:
    """What the terminal calls each seat: "you" for the one person at the keyboard (with
    several, "Player 1", "Player 2"...), a bot in players' words ("Greedy bot"); two seats
    that would read the same get a number ("Greedy bot 1", "Greedy bot 2")."""
    people = specs.count("human")
    names = [("you" if people == 1 else f"Player {seat + 1}") if spec == "human"
             else bot_title(spec, game) for seat, spec in enumerate(specs)]
    seen = Counter(names)
    counted: Counter[str] = Counter()
    shown = []
    for name in names:
        counted[name] += 1
        shown.append(f"{name} {counted[name]}" if seen[name] > 1 else name)
    return shown


def _say_fault(names: list[str], fault: Fault, detail: bool, flagged: bool = False) -> None:
    """A plug-in bot stopped, in a sentence with its seat's name, as it happens or (with
    ``flagged``) at the end; ``detail`` (what it raised or answered) when no person plays."""
    text = ("The result is flagged. " if flagged else "") + fault.sentence(names)
    if detail and fault.detail:
        text += f" (It said: {fault.detail})"
    console.print(text, markup=False, style="yellow", soft_wrap=True)


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A game record saved with --record.")],
    step: Annotated[int | None, typer.Option(help="Show the table after this many actions.")
                    ] = None,
    interactive: Annotated[bool, typer.Option(
        "--interactive", "-i", help="Step with Enter (n), b back, f first, l last, q quit.")
    ] = False,
    seat: Annotated[int, typer.Option(
        help="Whose view to show (-2: a spectator's, the public view).")] = SPECTATOR,
) -> None:
    """Step through a recorded game."""
    with user_errors():
        game_record = GameRecord.load(file)
        states = list(game_record.states())
        names = [s.name for s in game_record.seats]
        if not (0 <= seat < len(names) or seat == SPECTATOR):
            raise QuarkadeError(f"--seat {seat}: seats are 0-{len(names) - 1}, "
                                f"or {SPECTATOR} for the public view")
        if step is not None and not 0 <= step < len(states):
            raise QuarkadeError(f"--step {step}: this game has steps 0-{len(states) - 1}")
    game = game_record.game
    console.print(f"[bold]{game}[/bold] {game_record.options}, seed {game_record.seed}, "
                  f"{len(game_record.actions)} actions")
    for s, who in enumerate(game_record.seats):
        console.print(f"  seat {s}: {who.name} ({who.agent})", markup=False)

    def line_at(index: int) -> str:
        recorded = game_record.actions[index - 1]
        notation = states[index - 1].action_string_for(seat, recorded.id)
        who = "chance" if recorded.player == CHANCE else names[recorded.player]
        return f"{index:>4}  {who}: {notation}"

    def show_at(index: int) -> None:
        console.print(faces.render(game, states[index].view(seat), names))
        if index:
            console.print(line_at(index), markup=False)

    if step is not None:
        show_at(step)
        return
    if not interactive:
        for index in range(1, len(states)):
            line = faces.log_line(game, states[index].view(seat),
                                  game_record.actions[index - 1].player,
                                  states[index - 1].action_string_for(
                                      seat, game_record.actions[index - 1].id), names)
            if line:
                console.print(f"{index:>4}  {line}", markup=False)
        show_at(len(states) - 1)
        return
    index = 0
    while True:
        show_at(index)
        try:
            key = console.input(f"step {index}/{len(states) - 1} (Enter/n, b, f, l, q): ")
        except EOFError:
            return
        key = key.strip().lower()
        moves = {"": index + 1, "n": index + 1, "b": index - 1, "f": 0, "l": len(states) - 1}
        if key == "q":
            return
        if key.isdigit():
            moves[key] = int(key)
        if key not in moves:
            console.print(f"{key!r}: press Enter or n (next), b (back), f (first), l (last), "
                          "a step number, or q (quit)", markup=False)
            continue
        index = max(0, min(len(states) - 1, moves[key]))


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on (0: any free port).")] = 8000,
    db: Annotated[str, typer.Option(
        envvar="QUARKADE_DB",
        help="Where games are kept: a SQLite file path (the default, in this directory) or a "
        "database URL, e.g. postgresql+psycopg://user:password@host/quarkade.")] = "quarkade.db",
    workers: Annotated[int, typer.Option(
        help="Server processes sharing the port (more than one needs --broker).")] = 1,
    broker: Annotated[str, typer.Option(
        envvar="QUARKADE_BROKER",
        help="The message broker that tells server processes about each other's moves, "
        "e.g. redis://127.0.0.1:6379/0 (none: one process).")] = "",
    bot_delay: Annotated[float, typer.Option(
        help="Seconds a bot waits before moving, so people can follow.")] = 0.6,
    rate_limits: Annotated[bool, typer.Option(
        help="Limit how fast one client address may make games and moves (turn off only "
        "for benchmarks or a trusted network).")] = True,
    allow_bots: Annotated[str, typer.Option(
        help="Plug-in bots that seats may use, by name, separated by commas (none unless "
        "named: a plug-in runs its code on this server).")] = "",
    move_time: MoveTimeOpt = DEFAULT_MOVE_TIME,
    ladder_dir: Annotated[Path, typer.Option(
        "--ladder", help="Where `quarkade ladder` writes the ladders the /ladder pages show."
    )] = DEFAULT_RESULTS,
    puzzles: Annotated[Path | None, typer.Option(
        help="The puzzle pool the /puzzles page serves, written by quarkade puzzles "
        "card-commons --pool FILE (default: the pool that comes with the server).")] = None,
) -> None:
    """Start the web app: play every game in a browser, against bots or friends."""
    with user_errors():
        check_move_time(move_time)
        allowed = allowed_plugins(allow_bots)
    try:
        from sqlalchemy.exc import SQLAlchemyError

        from quarkade.server import create_app
        from quarkade.server.broker import make_broker
        from quarkade.server.limits import Limits, without_rates
        from quarkade.server.run import bind, serve_workers, url_of
        from quarkade.server.run import serve as run_server
        from quarkade.server.storage import Store, database_url, shown_url
    except ModuleNotFoundError as missing:
        errors.print(f"error: the web app needs the web extra ({missing.name} is missing): "
                     "pip install 'quarkade[web]'", markup=False, soft_wrap=True)
        raise typer.Exit(2) from None
    if not 0 <= port <= 65535:
        errors.print(f"error: --port {port}: a port is 0-65535", markup=False)
        raise typer.Exit(2)
    if move_time > Limits().bot_seconds:
        errors.print(f"error: --move-time {move_time:g}: at most {Limits().bot_seconds:g} "
                     "seconds, the server's deadline for any bot move", markup=False)
        raise typer.Exit(2)
    if not 1 <= workers <= 64:
        errors.print(f"error: --workers {workers}: from 1 to 64 processes", markup=False)
        raise typer.Exit(2)
    if workers > 1 and not broker:
        errors.print("error: --workers above 1 needs --broker (e.g. redis://127.0.0.1:6379/0), "
                     "so each process hears of the others' moves", markup=False, soft_wrap=True)
        raise typer.Exit(2)
    if puzzles is not None:
        from quarkade.server.learn.puzzles import read_pool

        try:
            read_pool(puzzles)
        except ValueError as problem:
            errors.print(f"error: --puzzles: {problem}", markup=False, soft_wrap=True)
            raise typer.Exit(2) from None
    url = database_url(db)
    shown = shown_url(url)
    try:
        make_broker(broker, "")  # only checks the URL
    except ValueError as problem:
        errors.print(f"error: --broker: {problem}", markup=False, soft_wrap=True)
        raise typer.Exit(2) from None
    settings: dict[str, Any] = {
        "bot_delay": bot_delay, "broker": broker or None, "rate_limits": rate_limits,
        "allow_bots": allowed, "move_time": move_time, "ladder_dir": str(ladder_dir),
        "puzzle_pool": None if puzzles is None else str(puzzles),
        # Workers load the compiled search at their first search, not when they start: a
        # reserve worker started while every other worker is busy answers a cheap bot
        # within seconds (issue 24's bar), which loading the search first broke.
        "warm_workers": False}
    try:
        if workers > 1:
            Store(url).close()  # migrate once, before the workers start
            web_app = None
        else:
            web_app = create_app(url, **settings)
    except (SQLAlchemyError, ImportError) as problem:
        reason = " ".join(str(problem).split())
        password = _password(url)
        if password:
            reason = reason.replace(password, "***")
        errors.print(f"error: cannot open the database {shown}: {reason}", markup=False,
                     soft_wrap=True)
        raise typer.Exit(2) from None
    try:
        sock = bind(host, port)
    except OSError as problem:
        errors.print(f"error: cannot listen on {host}:{port}: {problem.strerror or problem}",
                     markup=False, soft_wrap=True)
        raise typer.Exit(2) from None
    processes = f" with {workers} processes" if workers > 1 else ""
    console.print(f"Quarkade is running{processes}: open {url_of(sock)} in a browser "
                  "(Ctrl+C stops it)", markup=False, soft_wrap=True)
    bounds = Limits() if rate_limits else without_rates(Limits())
    if web_app is None:
        serve_workers(sock, workers, {"db": url, **settings}, bounds)
    else:
        run_server(sock, web_app, bounds)


def _password(url: str) -> str | None:
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).password
    except ArgumentError:
        return None


@app.command()
def migrate(
    db: Annotated[str, typer.Option(envvar="QUARKADE_DB",
                                    help="The database: a SQLite file path or a URL.")
                  ] = "quarkade.db",
) -> None:
    """Bring the web app's database to this version's schema (serve also does it on start)."""
    from sqlalchemy.exc import SQLAlchemyError

    from quarkade.server.storage import Store, database_url, shown_url
    from quarkade.server.storage import migrate as migrations

    url = database_url(db)
    try:
        store = Store(url, upgrade=False)
        before = migrations.current(store.engine)
        migrations.upgrade(store.engine)
        after = migrations.current(store.engine)
        store.close()
    except (SQLAlchemyError, ImportError) as problem:
        password = _password(url)
        reason = " ".join(str(problem).split())
        errors.print(f"error: cannot migrate {shown_url(url)}: "
                     f"{reason.replace(password, '***') if password else reason}",
                     markup=False, soft_wrap=True)
        raise typer.Exit(2) from None
    console.print(f"{shown_url(url)}: schema {before or 'none'} -> {after}", markup=False,
                  soft_wrap=True)


def allowed_plugins(text: str) -> list[str]:
    """``--allow-bots a,b``: names of installed plug-in bots that load, or a refusal."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    installed = plugin_bots.installed(names)
    for name in names:
        if name not in installed:
            known = ", ".join(sorted(plugin_bots.declared())) or "none is installed"
            raise QuarkadeError(f"--allow-bots: no plug-in bot named {name!r} is installed "
                                f"(plug-in bots: {known})")
        if installed[name].problem:
            raise QuarkadeError(f"--allow-bots: {installed[name].describe()} "
                                f"{installed[name].problem}")
    return names


# Simulation and analysis at scale (quarkade.sim), in their own module.
app.command()(simulate)
app.command()(tournament)
app.command()(analyze)
app.command()(sweep)
app.command("deck-test")(deck_test)
app.command("compile")(compile_engines)
# Tutorials, hints and reviews (quarkade.learn).
app.command()(learn)
app.command()(review)
# Plug-in bots: a package to start from, and where every bot stands.
app.command("new-bot")(new_bot)
app.command()(ladder)
# Card Commons solved (the compiled solver, extra quarkade[solve]).
app.command()(solve)
app.command()(puzzles)
# Self-play training of a learned bot (quarkade.jax, extra quarkade[jax]).
app.command()(train)

for _info in app.registered_commands:
    if _info.cls in (None, TyperCommand):
        _info.cls = _Command


if __name__ == "__main__":  # pragma: no cover
    main()
