"""``quarkade learn``: a game's tutorial in the terminal, lesson by lesson.

Each lesson shows the table, says what to do and lists the moves, the ones that complete
the task marked ``>``. A wrong move is answered with the rule it breaks and the lesson waits;
``q`` stops (finished lessons are remembered in ``learn.json`` under the user's data
directory, see ``quarkade.learn.progress``). The last lesson is a real game against ``easy``.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from quarkade.agents import make_agent
from quarkade.cli import faces
from quarkade.cli.human import HintSource, HumanAgent, Quit, numbered
from quarkade.cli.output import console, user_errors
from quarkade.core.agent import Turn
from quarkade.core.lessons import Lesson, LessonError, LessonRun, Tutorial, tutorial
from quarkade.core.registry import game_class, list_games, load_game
from quarkade.learn.hints import hint_for
from quarkade.learn.progress import FileProgress, next_lesson
from quarkade.sim.match import MatchEvent, play_match

LEARNER = "local"
NAMES = ["you", "opponent"]


def learn(
    game: Annotated[str | None, typer.Argument(
        help="A game, as `quarkade games` lists it; without one, your progress in each.")
    ] = None,
    lesson: Annotated[str | None, typer.Option(
        help="Take this lesson (by its key) rather than the next unfinished one.")] = None,
    reset: Annotated[bool, typer.Option(help="Forget your progress in this game.")] = False,
    progress_file: Annotated[Path | None, typer.Option(
        help="Where progress is kept (default: learn.json in your data directory).")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for the final game.")] = None,
) -> None:
    """Learn a game: short lessons on prepared tables, then a real game against easy."""
    store = FileProgress(progress_file)
    with user_errors():
        if game is None:
            _overview(store)
            return
        course = tutorial(game_class(game).name)
        if reset:
            store.reset(LEARNER, game)
            console.print(f"Your progress in {game} is forgotten.")
            return
        done = store.completed(LEARNER, game)
        first = course.lesson(lesson) if lesson is not None else next_lesson(course, done)
    if first is None:
        console.print(f"You have finished every lesson of {game}. `quarkade learn {game} "
                      "--lesson KEY` takes one again; the keys are: "
                      f"{', '.join(item.key for item in course.lessons)}.", markup=False)
        return
    start = course.lessons.index(first)
    for number, current in enumerate(course.lessons[start:], start=start + 1):
        console.print()
        console.rule(f"Lesson {number}/{len(course.lessons)}: {current.title}")
        console.print(current.intro, markup=False)
        taught = ", ".join(course.rule(r).name for r in current.teaches)
        console.print(f"[dim]Rules: {taught}[/dim]", highlight=False)
        try:
            if current.final:
                _final_game(course, current, seed)
            else:
                _scripted(course, current)
        except Quit:
            console.print("Stopped. Finished lessons are remembered: `quarkade learn "
                          f"{game}` goes on from here.", markup=False)
            raise typer.Exit(0) from None
        with user_errors():
            store.complete(LEARNER, game, current.key)
        console.print(f"[bold green]Lesson {number} done.[/bold green]")
        if lesson is not None:
            return
    console.print(f"[bold]You have finished the {course.game} tutorial.[/bold] "
                  f"`quarkade play {game}` for more games.", highlight=False)


def _overview(store: FileProgress) -> None:
    table = Table("game", "lessons done", "next", show_edge=False)
    for name in list_games():
        try:
            course = tutorial(name)
        except LessonError:
            continue
        done = store.completed(LEARNER, name)
        following = next_lesson(course, done)
        finished = sum(lesson.key in done for lesson in course.lessons)
        table.add_row(name, f"{finished}/{len(course.lessons)}",
                      following.title if following else "all done")
    console.print(table)
    console.print("`quarkade learn GAME` starts or goes on with a game's tutorial.")


def _scripted(course: Tutorial, lesson: Lesson) -> None:
    """Play a scripted lesson at the terminal; ``Quit`` if the learner stops."""
    run = LessonRun(course, lesson)
    game = course.game
    while not run.finished:
        task = run.task
        assert task is not None
        console.print()
        console.print(faces.render(game, run.state.view(run.seat), NAMES, you=run.seat))
        console.print(f"[bold]Task {run.index + 1}/{len(lesson.tasks)}:[/bold] {task.say}",
                      highlight=False)
        moves = run.moves()
        _list_moves(run, moves)
        hint = f"enter 1-{len(moves)} or a move's notation; > marks the moves asked for; q quits"
        while True:
            try:
                answer = console.input("move: ").strip()
            except EOFError:
                raise Quit from None
            if answer.lower() in ("q", "quit", "exit"):
                raise Quit
            if answer.lower() == "list":
                _list_moves(run, moves)
                continue
            if not answer:
                console.print(f"nothing entered: {hint}", markup=False)
                continue
            move: int | str = answer
            if answer.isdigit():
                if not 1 <= int(answer) <= len(moves):
                    console.print(f"{answer} is out of range: {hint}", markup=False)
                    continue
                move = moves[int(answer) - 1]
            feedback = run.attempt(move)
            if feedback.accepted:
                break
            console.print(f"[red]Not that:[/red] {feedback.message}", highlight=False)
        log = faces.GameLog(console)
        for event in run.events:
            log.show(event.player, faces.log_line(game, event.view, event.player, event.text,
                                                  NAMES))
        console.print(f"[green]{feedback.message}[/green]", highlight=False)


def _list_moves(run: LessonRun, moves: list[int]) -> None:
    goals = set(run.goal_actions())
    view = run.state.view(run.seat)
    labels = [faces.action_label(run.course.game, view,
                                 run.state.action_string_for(run.seat, action), NAMES)
              for action in moves]
    numbered(console, labels, [">" if action in goals else " " for action in moves])


def _final_game(course: Tutorial, lesson: Lesson, seed: int | None) -> None:
    """A whole game against ``easy``, the learner at the lesson's seat."""
    game = load_game(course.game, **lesson.options)
    names = ["you" if seat == lesson.seat else "easy bot" for seat in range(game.num_players)]
    agents = [HumanAgent(console, names, hints=hint_source(names)) if seat == lesson.seat else
              make_agent("easy", course.game) for seat in range(game.num_players)]

    log = faces.GameLog(console)

    def show(event: MatchEvent) -> None:
        notation = event.before.action_string_for(lesson.seat, event.action)
        log.show(event.player, faces.log_line(course.game, event.after.view(lesson.seat),
                                              event.player, notation, names))

    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    final, _ = play_match(game, agents, seed, names, on_event=show)
    # (the table's last line says the result: "Game over: you win ...")
    console.print(faces.render(course.game, final.view(lesson.seat), names, you=lesson.seat))


def hint_source(names: list[str]) -> HintSource:
    """Hints at the terminal prompt: each move's win chance and the best of them, from
    one search (the seat's earlier turns are not needed)."""

    def give(turn: Turn, earlier: list[Turn]) -> Table:
        found = hint_for(turn, random.Random())
        game = turn.game.name

        def label(text: str) -> str:
            return " ".join(faces.action_label(game, turn.view, text, names).split())

        table = Table("", "move", "win chance", show_edge=False,
                      title=f"hint: best by {'the solver' if found.exact else 'this search'}: "
                            f"{label(found.best.text)}",
                      title_justify="left")
        for move in found.moves:
            table.add_row("*" if move is found.best else "", label(move.text),
                          f"{move.chance:.0%}")
        table.caption = ("solved: 100% wins with best play, 0% loses" if found.exact else
                         f"estimated by {found.iterations} searches from what you can see")
        return table

    return give
