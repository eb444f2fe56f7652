"""What a search found: the candidates ranked by their loss on the search's games, the Pareto front of the
targets against the size of the change, and the best few verified by an independent paired study on fresh
seeds (the unchanged set and every verified proposal play the same new games), played and reported by the
study pipeline and the report itself, so that ``tashkalar run`` + ``tashkalar report`` on a proposal's files
give the verification's numbers again."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipelines.balance.candidates import Choice, changed, describe, diff, digest, size, write_cards
from pipelines.balance.evaluate import Tally, study_config, verify_seed
from pipelines.balance.objective import Rate, Score, deck_rates, first_rates, pareto, score, skill_rates
from pipelines.balance.search import Settings, TrialResult
from reports.stats import newcombe

PROPOSALS = "proposals"  # DIR/proposals/RANK-NAME/: cards/, diff.patch, verify.toml (and verify-skill.toml), run/


@dataclass
class Candidate:
    name: str
    choice: Choice
    trials: list[int]
    metrics: dict[str, Any]

    @property
    def tally(self) -> Tally:
        return Counter(json.loads(self.metrics["tally"]))

    @property
    def score(self) -> dict[str, Any]:
        return json.loads(self.metrics["score"])


@dataclass
class Verified:
    tally: Tally
    score: Score
    runs: list[str]
    moved: list[dict[str, Any]] = field(default_factory=list)  # deck win rates that moved, vs the unchanged set
    verdict: str = ""


def full_candidates(settings: Settings, trials: list[TrialResult]) -> list[Candidate]:
    """The distinct candidates that played every rung, best first (loss, then change size, then name)."""
    full = settings.balance.games[-1]
    out: dict[str, Candidate] = {}
    for t in trials:
        if not t.metrics.get("valid") or t.metrics.get("games") != full:
            continue
        name = digest(settings.balance, t.choice)
        if name in out:
            out[name].trials.append(t.number)
        else:
            out[name] = Candidate(name, t.choice, [t.number], t.metrics)
    return sorted(out.values(), key=lambda c: (c.metrics["loss"], size(settings.balance, c.choice), c.name))


def front(settings: Settings, candidates: list[Candidate]) -> list[str]:
    """The names of the candidates on the Pareto front of (decks, first player, skill, values changed)."""
    points = [(c.score["decks"], c.score["first"], c.score["skill"], c.score["values"]) for c in candidates]
    return [candidates[i].name for i in pareto(points)]


def _study_text(config: dict[str, Any], comment: str) -> str:
    pairs = ", ".join(f'["{a}", "{b}"]' for a, b in config["deck_pairings"])
    players = ", ".join(f'["{a}", "{b}"]' for a, b in config["strategy_pairings"])
    forms = ", ".join(f'"{f}"' for f in config["forms"])
    return (f"# {comment}\nname = \"{config['name']}\"\nforms = [{forms}]\ndeck_pairings = [{pairs}]\n"
            f"strategy_pairings = [{players}]\ngames_per_cell = {config['games_per_cell']}\n"
            f"base_seed = {config['base_seed']}\nshard_size = {min(config['games_per_cell'], 200)}\n"
            f"card_set = \"cards\"\n")


def write_proposal(settings: Settings, rank: int, candidate: Candidate) -> Path:
    """The proposal's folder: its card files, their diff and the verification studies on them."""
    from sim.files import read_text

    balance = settings.balance
    folder = Path(settings.out) / PROPOSALS / f"{rank:02d}-{candidate.name}"
    write_cards(balance, candidate.choice, folder / "cards")  # here, not copied: trials may run on other nodes
    (folder / "diff.patch").write_text(diff(balance, candidate.choice), encoding="utf-8")
    seed = verify_seed(settings.seed)
    what = f"the verification of proposal {rank} ({describe(balance, candidate.choice)}), fresh seeds"
    config = study_config(balance, settings.player, "cards", balance.verify_games, seed)
    (folder / "verify.toml").write_text(_study_text(config, what), encoding="utf-8")
    if balance.targets.skill is not None:
        config = study_config(balance, settings.player, "cards", balance.verify_games, seed, skill=True)
        (folder / "verify-skill.toml").write_text(_study_text(config, what + ": skill depth"), encoding="utf-8")
    read_text(folder / "verify.toml")
    return folder


def report_tally(run: Path, skill: str | None = None) -> Tally:
    """The counts the objective needs, read from the report of ``run`` (its "Deck matchups" and
    "First-player advantage" tables: the numbers ``tashkalar report`` prints)."""
    from reports.build import build_report

    tables = {t.id: t for t in build_report([run]).tables()}
    out: Tally = Counter()
    for r in tables["matchups"].rows:
        if skill is not None:
            if r["strategy"] == skill and r["deck"] == r["opp_deck"] and r["opp_strategy"] != skill:
                key = f"skill|{r['mode']}|{r['deck']}"
            else:
                continue
        elif r["deck"] != r["opp_deck"]:
            key = f"deck|{r['mode']}|{r['deck']}|{r['opp_deck']}"
        else:
            continue
        out[key] += r["won"].k
        out[key + "#n"] += r["won"].n
    if skill is None:
        for r in tables["first_player"].rows:
            out[f"first|{r['mode']}"] += r["first_won"].k
            out[f"first|{r['mode']}#n"] += r["first_won"].n
    return out


def verify(settings: Settings, folder: Path, choice: Choice, address: str | None, workers: int | None) -> Verified:
    """Play the proposal's verification studies with the study pipeline and read them back from the report."""
    from pipelines.runner import run_study
    from pipelines.study import load_study

    balance = settings.balance
    tally: Tally = Counter()
    runs = []
    for study_file, skill in (("verify.toml", None), ("verify-skill.toml", balance.targets.skill)):
        if not (folder / study_file).exists():
            continue
        run = folder / study_file.replace("verify", "run").removesuffix(".toml")
        run_study(load_study(folder / study_file), run, address=address, workers=workers, show_progress=False)
        tally += report_tally(run, skill.stronger if skill else None)
        runs.append(str(run))
    return Verified(tally, score(balance, tally, size(balance, choice)), runs)


def compare(settings: Settings, base: Verified, proposal: Verified) -> None:
    """Which deck win rates moved from the unchanged set's (Newcombe 95% interval of the difference excluding
    0), and the verdict: ``better`` when the proposal's verified distance to the targets is smaller and a deck
    it moved came nearer 50%; otherwise ``not significant``."""
    balance = settings.balance
    nearer = False
    for b, p in zip(deck_rates(balance, base.tally), deck_rates(balance, proposal.tally), strict=True):
        lo, hi = newcombe(p.k, p.n, b.k, b.n)
        if lo > 0 or hi < 0:
            toward = abs(p.value - 0.5) < abs(b.value - 0.5)
            nearer |= toward
            proposal.moved.append({"key": p.key, "from": round(b.value, 4), "to": round(p.value, 4),
                                   "change_interval": [round(lo, 4), round(hi, 4)], "toward_50": toward})
    better = proposal.score.distance < base.score.distance and nearer
    proposal.verdict = "better" if better else "not significant"


def rates_dict(settings: Settings, tally: Tally) -> dict[str, list[dict[str, object]]]:
    balance = settings.balance
    return {"decks": [r.to_dict() for r in deck_rates(balance, tally)],
            "first_player": [r.to_dict() for r in first_rates(balance, tally)],
            "skill": [r.to_dict() for r in skill_rates(balance, tally)]}


def proposal_dict(settings: Settings, rank: int, c: Candidate, folder: Path | None, on_front: bool,
                  verified: Verified | None) -> dict[str, Any]:
    balance = settings.balance
    out: dict[str, Any] = {
        "rank": rank, "candidate": c.name, "change": describe(balance, c.choice),
        "changes": [{"card": ch.card, "field": ch.label.split(" ", 1)[1], "from": ch.current, "to": v}
                    for ch, v in changed(balance, c.choice)],
        "trials": c.trials, "pareto": on_front, "search": {"score": c.score, "games_per_cell": balance.games[-1],
                                                           "rates": rates_dict(settings, c.tally)},
        "folder": str(folder) if folder else None, "diff": diff(balance, c.choice) if c.choice else ""}
    if verified is not None:
        out["verification"] = {"score": verified.score.to_dict(), "games_per_cell": balance.verify_games,
                               "seed": verify_seed(settings.seed), "runs": verified.runs,
                               "rates": rates_dict(settings, verified.tally), "moved": verified.moved,
                               "verdict": verified.verdict}
    return out


def summary(settings: Settings, result: dict[str, Any]) -> list[str]:
    """The answer in a few sentences."""
    lines = []
    base = result["base"]
    bv = base.get("verification", {}).get("score")
    lines.append(f"The unchanged set: distance to the targets {base['search']['score']['distance']:.4f} on the "
                 f"search's games" + (f", {bv['distance']:.4f} on the verification's" if bv else "") + ".")
    better = [p for p in result["proposals"] if p.get("verification", {}).get("verdict") == "better"]
    if not better:
        lines.append("No proposal is significantly better than the unchanged set on fresh seeds: nothing to "
                     "change.")
    for p in better:
        v = p["verification"]["score"]
        lines.append(f"Proposal {p['rank']} ({p['change']}): distance {v['distance']:.4f} on fresh seeds "
                     f"(unchanged: {bv['distance']:.4f}); {p['folder']}.")
    return lines


def markdown(settings: Settings, result: dict[str, Any]) -> str:
    """The proposals as Markdown: the summary, then each proposal with its rates and diff."""
    out = [f"# Balance tuning: {settings.balance.name}", "", *(f"- {line}" for line in result["summary"]), ""]
    for p in [result["base"], *result["proposals"]]:
        title = "The unchanged set" if p["rank"] == 0 else f"Proposal {p['rank']}: {p['change']}"
        out += [f"## {title}", ""]
        for where in ("search", "verification"):
            if where not in p:
                continue
            s = p[where]["score"]
            out.append(f"**{where}** ({p[where]['games_per_cell']} games per cell): distance {s['distance']:.4f}, "
                       f"loss {s['loss']:.4f}" + (f", verdict: {p[where]['verdict']}" if where == "verification"
                                                 and p["rank"] else ""))
            out += ["", "| estimate | win rate | 95% interval | games |", "|---|---:|---:|---:|"]
            for r in [*p[where]["rates"]["decks"], *p[where]["rates"]["first_player"], *p[where]["rates"]["skill"]]:
                lo, hi = r["interval"]
                out.append(f"| {r['key']} | {100 * r['rate']:.1f}% | {100 * lo:.1f}% to {100 * hi:.1f}% | "
                           f"{r['games']} |")
            out.append("")
        if p["diff"]:
            out += ["```diff", p["diff"].rstrip("\n"), "```", ""]
    return "\n".join(out)


def rate_of(rows: list[dict[str, Any]]) -> list[Rate]:
    return [Rate(r["key"], r["wins"], r["games"]) for r in rows]


def finish(settings: Settings, trials: list[TrialResult], address: str | None, workers: int | None
           ) -> dict[str, Any]:
    """Rank the candidates, verify the unchanged set and the best ``verify`` proposals on the same fresh seeds,
    and write ``proposals.json``, ``proposals.md`` and ``tune.html`` into the search's folder."""
    from reports.balance_page import render_page

    balance, out = settings.balance, Path(settings.out)
    ranked = full_candidates(settings, trials)
    on_front = set(front(settings, ranked))
    base = next(c for c in ranked if c.name == "base")
    proposals = [c for c in ranked if c.name != "base" and c.metrics["loss"] < base.metrics["loss"]]
    base_folder = write_proposal(settings, 0, base)
    base_verified = verify(settings, base_folder, base.choice, address, workers) if balance.verify else None
    listed = []
    for rank, c in enumerate(proposals, 1):
        folder = write_proposal(settings, rank, c) if rank <= balance.verify else None
        verified = None
        if folder is not None and base_verified is not None:
            verified = verify(settings, folder, c.choice, address, workers)
            compare(settings, base_verified, verified)
        listed.append(proposal_dict(settings, rank, c, folder, c.name in on_front, verified))
    result: dict[str, Any] = {
        "name": balance.name, "player": settings.player, "seed": settings.seed, "trials": len(trials),
        "base": proposal_dict(settings, 0, base, base_folder, "base" in on_front, base_verified),
        "proposals": listed,
        "trial_log": [{"trial": t.number, "candidate": t.metrics.get("candidate"), "change": t.metrics.get("change"),
                       "loss": t.metrics["loss"], "rung": t.metrics.get("rung", 0),
                       "cpu_seconds": t.metrics.get("cpu_seconds", 0.0),
                       "games_per_cell": t.metrics.get("games", 0), "node": t.metrics.get("node")} for t in trials],
    }
    result["search_cpu_seconds"] = round(sum(t["cpu_seconds"] for t in result["trial_log"]), 1)
    result["summary"] = summary(settings, result)
    (out / "proposals.json").write_text(json.dumps(result, indent=1), encoding="utf-8")
    (out / "proposals.md").write_text(markdown(settings, result), encoding="utf-8")
    (out / "tune.html").write_text(render_page(result, balance), encoding="utf-8")
    return result
