"""The HTML page of ``tashkalar tune``: the objective over the trials, the proposals and their verification,
as a report of the balance report's own kind (``reports.model``), rendered by ``reports.render_html``."""

from __future__ import annotations

from typing import Any

from pipelines.balance.space import Balance
from reports import charts
from reports.model import INT, NUM, RATE, TEXT, Chart, Column, Report, Section, Table
from reports.render_html import render_html
from reports.stats import Rate


def _objective_chart(result: dict[str, Any]) -> Chart:
    log = result["trial_log"]
    rungs = sorted({t["rung"] for t in log if t["rung"]})
    series = {f"loss after {next(t['games_per_cell'] for t in log if t['rung'] == r)} games per cell":
              [(t["trial"] + 1, t["loss"]) for t in log if t["rung"] == r] for r in rungs}
    best, low = [], None
    for t in log:
        if t["rung"] == (rungs[-1] if rungs else 0):
            low = t["loss"] if low is None else min(low, t["loss"])
        if low is not None:
            best.append((t["trial"] + 1, low))
    series["best at full size so far"] = best
    svg = charts.lines("Loss over trials", series, "trial", "loss", fmt_y=lambda v: f"{v:.3f}")
    return Chart("objective", "Loss over trials", svg, "Each trial's loss at the last rung it reached; a trial "
                                                        "stopped early by successive halving shows at its rung.")


def _rows(p: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for where in ("search", "verification"):
        if where not in p:
            continue
        rates = p[where]["rates"]
        for r in [*rates["decks"], *rates["first_player"], *rates["skill"]]:
            out.append({"proposal": "unchanged" if p["rank"] == 0 else str(p["rank"]), "where": where,
                        "subject": r["key"], "won": Rate(r["wins"], r["games"])})
    return out


def _verification_chart(result: dict[str, Any]) -> Chart | None:
    rows = []
    for p in [result["base"], *result["proposals"]]:
        if "verification" not in p:
            continue
        label = "unchanged" if p["rank"] == 0 else f"proposal {p['rank']}"
        for r in p["verification"]["rates"]["decks"]:
            lo, hi = r["interval"]
            rows.append(charts.Interval(f"{label}: {r['key'].removeprefix('deck|')}", r["rate"], lo, hi,
                                        p["rank"] > 0 and p["verification"]["verdict"] == "better"))
    if not rows:
        return None
    svg = charts.bars("Deck win rates on fresh seeds", rows, "win rate", reference=(0.5, "50%"))
    return Chart("verification-chart", "Deck win rates on fresh seeds", svg)


def render_page(result: dict[str, Any], balance: Balance) -> str:
    """The page as one offline HTML file."""
    listed = [result["base"], *result["proposals"]]
    table_rows = []
    for p in listed:
        v = p.get("verification", {})
        table_rows.append({"rank": p["rank"], "change": p["change"],
                           "search_distance": p["search"]["score"]["distance"],
                           "loss": p["search"]["score"]["loss"], "values": p["search"]["score"]["values"],
                           "pareto": "yes" if p["pareto"] else "",
                           "verified_distance": v.get("score", {}).get("distance"),
                           "verdict": v.get("verdict", "") if p["rank"] else "reference",
                           "folder": p["folder"] or ""})
    columns = [Column("rank", "Rank", INT), Column("change", "Change", TEXT),
               Column("search_distance", "Distance (search)", NUM, "distance to the targets on the search's games", 4),
               Column("loss", "Loss (search)", NUM, "distance plus the change's cost", 4),
               Column("values", "Values changed", INT), Column("pareto", "Pareto front", TEXT),
               Column("verified_distance", "Distance (fresh seeds)", NUM, "the verification study's", 4),
               Column("verdict", "Verdict", TEXT), Column("folder", "Card files", TEXT)]
    rates = [r for p in listed for r in _rows(p)]
    rate_cols = [Column("proposal", "Proposal", TEXT), Column("where", "Games", TEXT),
                 Column("subject", "Estimate", TEXT, "deck|FORM|DECK|AGAINST, first|FORM, skill|FORM|DECK"),
                 Column("won", "Win rate", RATE)]
    verification = _verification_chart(result)
    t = balance.targets
    facts = [("balance file", balance.path), ("player", result["player"]), ("seed", str(result["seed"])),
             ("trials", str(result["trials"])), ("games per cell", " / ".join(map(str, balance.games))),
             ("targets", f"decks 50% ± {100 * t.deck_band:.0f} pp, first player 50% ± "
                         f"{100 * t.first_player_band:.0f} pp" + (f", {t.skill.stronger} beats {t.skill.weaker} "
                                                                 f"{100 * t.skill.at_least:.0f}%" if t.skill else ""))]
    report = Report(f"Balance tuning: {balance.name}", facts, result["summary"], [
        Section("search", "The search", "", [_objective_chart(result)]),
        Section("proposals", "Proposals", "Ranked by loss on the search's games; the best are verified on fresh "
                                          "seeds, paired with the unchanged set.",
                [Table("proposals", "Proposals", columns, table_rows)]),
        Section("verification", "Win rates", "", [*([verification] if verification else []),
                                                  Table("rates", "Win rates per proposal", rate_cols, rates)]),
    ])
    return render_html(report)
