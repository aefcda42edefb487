"""The HTML report: one self-contained file (tables, and plots as embedded PNG images).

The plots are drawn with matplotlib (the ``quarkade[sim]`` extra) on its Agg back end,
without pyplot, so nothing opens a window or touches global state. A designer can mail
the file: it loads nothing from anywhere.
"""

from __future__ import annotations

import base64
import html
import io
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from quarkade import __version__
from quarkade.core.errors import QuarkadeError
from quarkade.sim.ratings import Rating
from quarkade.sim.stats import Lengths, Rate, Summary
from quarkade.sim.sweep import (
    Axis,
    Cell,
    Measure,
    interval_text,
    measure_title,
    measures,
    settings,
)
from quarkade.sim.tables import SummaryTable, summary_tables

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.2em; margin-top: 2em; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border-bottom: 1px solid #ddd; padding: 0.25em 0.8em; text-align: left; }
th { background: #f4f4f4; }
figure { margin: 0.5em 0 1.5em; } figcaption { color: #555; font-size: 0.9em; }
code { background: #f4f4f4; padding: 0.1em 0.3em; }
p.note { color: #444; margin: 0.3em 0; max-width: 50em; }
"""


def matplotlib_figure() -> Any:
    """A new matplotlib ``Figure`` class, or a clear error saying how to install it."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise QuarkadeError("--report needs matplotlib: pip install 'quarkade[sim]'") from None
    return Figure


def write_report(path: str | Path, summary: Summary, ratings: Sequence[Rating] | None,
                 command: str, about: dict[str, str]) -> None:
    """Write the report of ``summary`` (and ``ratings``) to ``path``."""
    Figure = matplotlib_figure()
    tables = summary_tables(summary, ratings)
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Quarkade report: {html.escape(summary.game)}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>Quarkade report: {html.escape(summary.game)}</h1>",
        f"<p>Command: <code>{html.escape(command)}</code></p>",
        html_table(SummaryTable("Run", ("", "value"), tuple(about.items()))),
    ]
    agents, seats, balance, lengths, *rest = tables
    parts += [html_table(agents),
              _figure(_rate_plot(Figure, agents.rates, summary.fair_share, "agent"),
                      "Win rate per agent with its 95% interval; the dashed line is the "
                      "fair share.")]
    parts += [html_table(seats),
              _figure(_rate_plot(Figure, seats.rates, summary.fair_share, "seat"),
                      "Win rate per seat and of the first mover, with 95% intervals.")]
    parts += [html_table(balance), html_table(lengths),
              _figure(_length_histogram(Figure, summary.lengths),
                      "How long games last: decisions per game.")]
    extras = rest
    if ratings:
        parts += [html_table(rest[0]),
                  _figure(_ladder(Figure, ratings), "Rating ladder: Bradley-Terry ratings on "
                          "the Elo scale with 95% bootstrap intervals.")]
        extras = rest[1:]
    for table in extras:
        parts.append(html_table(table))
        if table.groups:
            parts.append(_figure(
                _grouped_rate_plot(Figure, table),
                f"{table.title}: {table.plotted} held by each agent, with 95% intervals."))
        elif table.rates:
            parts.append(_figure(_rate_plot(Figure, table.rates, None, table.columns[0],
                                            table.plotted),
                                 f"{table.title}: {table.plotted}, with 95% intervals."))
    parts.append(f"<p><small>quarkade {__version__}</small></p></body></html>")
    Path(path).write_text("\n".join(parts) + "\n", encoding="utf-8")


def html_table(table: SummaryTable) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in table.columns)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>"
                   for row in table.rows)
    note = f'<p class="note">{html.escape(table.note)}</p>\n' if table.note else ""
    return (f"<h2>{html.escape(table.title)}</h2>\n{note}<table><thead><tr>{head}</tr>"
            f"</thead><tbody>{body}</tbody></table>")


def _figure(png: bytes, caption: str) -> str:
    data = base64.b64encode(png).decode("ascii")
    return (f'<figure><img src="data:image/png;base64,{data}" alt="{html.escape(caption)}">'
            f"<figcaption>{html.escape(caption)}</figcaption></figure>")


def _png(figure: Any) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, metadata={"Software": None})
    return buffer.getvalue()


def _rate_plot(Figure: Any, rates: Sequence[tuple[Any, Rate]], fair: float | None,
               label: str, measure: str = "win rate") -> bytes:
    names = [str(name) for name, _ in rates]
    values, errors = _bars([rate for _, rate in rates])
    figure = Figure(figsize=(7, max(2.2, 0.8 + 0.45 * len(rates))))
    axes = figure.add_subplot()
    positions = list(range(len(rates)))
    axes.barh(positions, values, xerr=errors, capsize=4, color="#4c72b0")
    _label_axes(axes, names, label, measure)
    if fair is not None:
        axes.axvline(100 * fair, color="#c44e52", linestyle="--", linewidth=1)
    figure.tight_layout()
    return _png(figure)


GROUP_COLOURS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b2", "#937860")


def _grouped_rate_plot(Figure: Any, table: SummaryTable) -> bytes:
    """One bar per agent in each row: a value's overall rate mostly tells who held it."""
    rows, groups = len(table.rates), len(table.groups)
    height = 0.8 / groups
    figure = Figure(figsize=(7, max(2.2, 1.1 + (0.2 + 0.18 * groups) * rows)))
    axes = figure.add_subplot()
    for g, agent in enumerate(table.groups):
        shown = [(row, rate) for row, rates in enumerate(table.group_rates)
                 if (rate := rates[g]) is not None]
        positions = [row - 0.4 + height * (g + 0.5) for row, _ in shown]
        values, errors = _bars([rate for _, rate in shown])
        axes.barh(positions, values, height=height, xerr=errors, capsize=2,
                  color=GROUP_COLOURS[g % len(GROUP_COLOURS)], label=agent)
    _label_axes(axes, [name for name, _ in table.rates], table.columns[0], table.plotted)
    axes.legend(loc="lower left", bbox_to_anchor=(0, 1), ncol=groups, frameon=False,
                fontsize="small")  # above the bars, never over them
    figure.tight_layout()
    return _png(figure)


def _bars(rates: Sequence[Rate]) -> tuple[list[float], list[list[float]]]:
    """Bar lengths in percent and their error bars (below, above) from the intervals."""
    values = [100 * rate.value for rate in rates]
    errors = [[100 * (rate.value - rate.interval[0]) for rate in rates],
              [100 * (rate.interval[1] - rate.value) for rate in rates]]
    return values, errors


def _label_axes(axes: Any, names: list[str], label: str, measure: str) -> None:
    """Rows top to bottom without margins, rates 0-100%, and the row label if it is short
    (a long one is in the table and the caption, and would not fit beside a few rows)."""
    axes.set_yticks(range(len(names)), names)
    axes.set_ylim(len(names) - 0.5, -0.5)
    axes.set_xlim(0, 100)
    axes.set_xlabel(f"{measure} (%)")
    if len(label) <= 24:
        axes.set_ylabel(label)


def _length_histogram(Figure: Any, lengths: Lengths) -> bytes:
    figure = Figure(figsize=(7, 3))
    axes = figure.add_subplot()
    values = [length for length, _ in lengths.counts]
    low, high = values[0], values[-1]
    bins = min(60, high - low + 1)
    axes.hist(values, bins=bins, range=(low - 0.5, high + 0.5),
              weights=[games for _, games in lengths.counts], color="#55a868")
    axes.set_xlabel("decisions per game")
    axes.set_ylabel("games")
    figure.tight_layout()
    return _png(figure)


def _ladder(Figure: Any, ratings: Sequence[Rating]) -> bytes:
    figure = Figure(figsize=(7, max(2.2, 0.8 + 0.45 * len(ratings))))
    axes = figure.add_subplot()
    positions = list(range(len(ratings)))
    axes.errorbar([r.elo for r in ratings], positions,
                  xerr=[[r.elo - r.low for r in ratings], [r.high - r.elo for r in ratings]],
                  fmt="o", capsize=4, color="#8172b2")
    axes.set_yticks(positions, [r.agent for r in ratings])
    axes.invert_yaxis()
    axes.set_xlabel("rating (Elo scale, mean 1500)")
    figure.tight_layout()
    return _png(figure)


def write_sweep_report(path: str | Path, game: str, agents: list[str], axes: list[Axis],
                       cells: list[Cell], command: str, about: dict[str, str],
                       shown: list[Measure] | None = None) -> None:
    """Write a sweep's report to ``path``: its table, and a heat map per measure (per
    value of any axes beyond the first two that vary); ``shown``: the measures, if not
    the simulator's (a deck sweep's)."""
    Figure = matplotlib_figure()
    shown = shown or measures(agents)
    columns = (*(axis.name for axis in axes), "games",
               *(measure_title(m, agents) + " [95% CI]" for m in shown), "engine")
    rows = tuple((*(str(cell.setting[axis.name]) for axis in axes),
                  f"{cell.summary.games:,}",
                  *(interval_text(m.read(cell.summary, agents[0]), m.unit) for m in shown),
                  cell.engine) for cell in cells)
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Quarkade sweep: {html.escape(game)}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>Quarkade sweep: {html.escape(game)}</h1>",
        f"<p>Command: <code>{html.escape(command)}</code></p>",
        html_table(SummaryTable("Run", ("", "value"), tuple(about.items()))),
        html_table(SummaryTable("Every setting", columns, rows)),
    ]
    varying = [axis for axis in axes if len(axis.values) > 1]
    across, down = [*varying, Axis("", ("",)), Axis("", ("",))][:2]
    facets = settings(varying[2:]) or [{}]
    for measure in shown:
        title = measure_title(measure, agents)
        parts.append(f"<h2>Heat map: {html.escape(title)}</h2>")
        for facet in facets:
            grid = _grid(cells, across, down, facet, measure, agents[0])
            where = ", ".join(f"{k}={v}" for k, v in facet.items())
            caption = (f"{title}{' (' + measure.unit + ')' if measure.unit else ''} by "
                       f"{across.name or 'setting'}{' and ' + down.name if down.name else ''}"
                       f"{', ' + where if where else ''}; each cell shows the value and the "
                       "half-width of its 95% interval.")
            parts.append(_figure(_heat_map(Figure, grid, across, down, measure), caption))
    parts.append(f"<p><small>quarkade {__version__}</small></p></body></html>")
    Path(path).write_text("\n".join(parts) + "\n", encoding="utf-8")


def _grid(cells: list[Cell], across: Axis, down: Axis, facet: dict[str, Any],
          measure: Measure, agent: str) -> list[list[Any]]:
    """``grid[row][column]``: the measure's interval in the cell at ``down`` value ``row``
    and ``across`` value ``column`` within ``facet`` (None where there is none)."""
    grid: list[list[Any]] = [[None] * len(across.values) for _ in down.values]
    for cell in cells:
        if any(cell.setting[name] != value for name, value in facet.items()):
            continue
        column = across.values.index(cell.setting[across.name]) if across.name else 0
        row = down.values.index(cell.setting[down.name]) if down.name else 0
        grid[row][column] = measure.read(cell.summary, agent)
    return grid


def _heat_map(Figure: Any, grid: list[list[Any]], across: Axis, down: Axis,
              measure: Measure) -> bytes:
    values = [[math.nan if v is None else v[0] for v in row] for row in grid]
    known = [v for row in values for v in row if not math.isnan(v)]
    figure = Figure(figsize=(max(4.0, 1.0 + 0.85 * len(across.values)),
                             max(2.0, 1.0 + 0.6 * len(down.values))))
    axes = figure.add_subplot()
    if measure.diverging:
        reach = max((abs(v) for v in known), default=1.0) or 1.0
        image = axes.imshow(values, cmap="RdBu_r", vmin=-reach, vmax=reach, aspect="auto")
    else:
        image = axes.imshow(values, cmap="viridis", aspect="auto")
    middle = (min(known) + max(known)) / 2 if known else 0.0
    for row, cells in enumerate(grid):
        for column, cell in enumerate(cells):
            if cell is None:
                continue
            value, low, high = cell
            dark = (abs(value) > max(abs(v) for v in known) / 2) if measure.diverging \
                else value < middle
            axes.text(column, row, f"{value:.1f}\n±{(high - low) / 2:.1f}", ha="center",
                      va="center", fontsize=7, color="white" if dark else "black")
    axes.set_xticks(range(len(across.values)), [str(v) for v in across.values])
    axes.set_yticks(range(len(down.values)), [str(v) for v in down.values])
    axes.set_xlabel(across.name)
    if down.name:
        axes.set_ylabel(down.name)
    figure.colorbar(image, ax=axes, label=measure.unit or None)
    figure.tight_layout()
    return _png(figure)
