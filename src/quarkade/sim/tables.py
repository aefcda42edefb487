"""The summary as plain tables: the terminal draws them with rich, the report in HTML."""

from __future__ import annotations

from collections.abc import Sequence

from quarkade.sim.ratings import Rating
from quarkade.sim.stats import Breakdown, Summary

SummaryTable = Breakdown  # a title, column names and rows of text (and rates to plot)


def summary_tables(summary: Summary, ratings: Sequence[Rating] | None = None
                   ) -> list[SummaryTable]:
    """Agents, seats, balance, length, ratings (if any), then the game's own extras."""
    fair = summary.fair_share
    agents = SummaryTable(
        "Win rate by agent (per seat-game)",
        ("agent", "seat-games", "wins", "draws", "win rate [95% CI]", "fair share"),
        tuple((spec, str(rate.trials), str(rate.wins), str(summary.agent_draws.get(spec, 0)),
               rate.text(), _percent(fair)) for spec, rate in summary.agents.items()),
        tuple(summary.agents.items()))
    seat_rows = [(str(seat), str(rate.trials), str(rate.wins), rate.text())
                 for seat, rate in summary.seats.items()]
    seat_rows.append(("first mover", str(summary.first_mover.trials),
                      str(summary.first_mover.wins), summary.first_mover.text()))
    seats = SummaryTable(
        "Win rate by seat", ("seat", "games", "wins", "win rate [95% CI]"), tuple(seat_rows),
        (*((f"seat {seat}", rate) for seat, rate in summary.seats.items()),
         ("first mover", summary.first_mover)))
    advantage, low, high = summary.advantage
    balance_rows = [
        ("games", f"{summary.games:,}"),
        ("players", ", ".join(map(str, summary.players))),
        ("balance across seats (1 = even)", f"{summary.balance:.3f}"),
        ("first-seat advantage (first mover's win rate - fair share)",
         f"{100 * advantage:+.1f} pp [{100 * low:+.1f}, {100 * high:+.1f}]"),
        ("draws (drawishness)", summary.draws.text()),
        ("decisive games", _percent(1 - summary.draws.value)),
    ]
    if summary.lead_changes is not None and summary.lead_change_games is not None:
        balance_rows += [
            ("lead changes per game (mean)", f"{summary.lead_changes:.2f}"),
            ("games with a lead change", summary.lead_change_games.text()),
        ]
    if summary.decided_at is not None:
        balance_rows.append(("winner led for good from (share of the game, mean)",
                             _percent(summary.decided_at)))
    balance_rows.append(("mean length (decisions)", f"{summary.lengths.mean:.1f}"))
    balance = SummaryTable("Balance", ("metric", "value"), tuple(balance_rows))
    row = summary.lengths.row()
    lengths = SummaryTable(
        "Game length (decisions per game)", tuple(row),
        ((f"{row['mean']:.1f}", f"{row['sd']:.1f}", *(f"{row[k]:g}" for k in list(row)[2:])),))
    tables = [agents, seats, balance, lengths]
    if ratings:
        tables.append(SummaryTable(
            "Ratings (Bradley-Terry, Elo scale, 95% bootstrap interval)",
            ("rank", "agent", "comparisons", "score", "Elo", "95% interval"),
            tuple((str(rank), r.agent, str(r.comparisons), _percent(r.score), f"{r.elo:.0f}",
                   f"[{r.low:.0f}, {r.high:.0f}]")
                  for rank, r in enumerate(ratings, start=1))))
    tables.extend(summary.breakdowns)
    return tables


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"
