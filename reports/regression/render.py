"""The regression page (Markdown): the changed cards first, then the verdict, then the other metrics."""

from __future__ import annotations

from reports.regression.compare import Change, Regression
from reports.regression.gates import Gate
from reports.regression.summary import DEFINITIONS, DIFFERENCE, KIND_NOTES, KINDS

OTHER_ROWS = 12  # other metrics shown per kind, most significant first
CARD_METRICS = ("card_position_effect", "card_ablation_effect")

_METRIC_NAMES = {
    "deck_win_rate": "deck win rate (against other decks)",
    "matchup_win_rate": "matchup win rate (first deck's)",
    "card_position_effect": "card's own effect (shuffled position: top of the deck minus bottom)",
    "card_ablation_effect": "card's own effect (ablation: with it minus without)",
}


def render_markdown(r: Regression) -> str:
    t = r.thresholds
    warning = ([f"> **Not the same study** ({'; '.join(r.different_study)}): differences below may come from "
                "the studies, not from the cards.", ""] if r.different_study else [])
    design = ("paired game by game (both runs played the same seeds)" if r.paired
              else "unpaired (the runs played different seeds)")
    lines = [
        "# Regression report",
        "",
        *warning,
        f"- Baseline: `{r.baseline}`",
        f"- Candidate: `{r.candidate}`",
        f"- Comparison: {design}. Results count a win 1, a tie 0.5, a loss 0.",
        f"- Rule: a gate moved when its Benjamini-Hochberg q-value is below {t.alpha} and its change is not "
        f"shown to be smaller than {t.min_difference:.3f} (its 95% interval reaches {t.min_difference:.3f}); "
        f"{sum(g.tested for g in r.gates)} gates tested; gates with fewer than {t.min_trials} games are not "
        "tested.",
        "",
        "## Changed cards",
        "",
        *warning,
    ]
    lines += _changed_cards(r)
    lines += ["", f"## Verdict: {len(r.moved)} gate(s) moved", "", *warning]
    lines += _verdict(r)
    lines += ["", "## Other metrics (informative, never gating)", "", *warning]
    lines += _others(r)
    return "\n".join(lines) + "\n"


def _changed_cards(r: Regression) -> list[str]:
    if not (r.changed_cards or r.added_cards or r.removed_cards):
        return ["No card changed definition."]
    lines = []
    effects = {(g.subject, g.mode): g for g in r.gates if g.metric in CARD_METRICS}
    for card in r.changed_cards:
        lines.append(f"- changed: `{card}`")
        for (subject, mode), g in sorted(effects.items()):
            if subject == card:
                e = g.estimate
                how = "ablation" if g.metric == "card_ablation_effect" else "shuffled position"
                lines.append(f"  - {mode}: own effect ({how}) {_pp(e.baseline)} before, {_pp(e.candidate)} after: "
                             f"change {_pp(e.difference)} [{_pp(e.low)}, {_pp(e.high)}], q = {g.q_value:.2g}"
                             + (f" — **moved {'up' if e.difference > 0 else 'down'}**" if g.moved else ""))
        if any(subject == card and g.metric == "card_position_effect" for (subject, _), g in effects.items()):
            lines.append("  - the shuffled position measures what drawing the card earlier is worth: with players "
                         "who play a card at once into a board where it is weak, that can run against its "
                         "strength (docs/regression.md); ablation measures strength")
        if not any(subject == card for subject, _ in effects):
            lines.append("  - no own-effect gate: the runs do not both ablate it and it has no shuffled position "
                         "(only a being has); ablate it (the study's [ablation]) to gate its own effect. The deck "
                         "gates below still see what it does.")
    lines += [f"- added: `{c}`" for c in r.added_cards]
    lines += [f"- removed: `{c}`" for c in r.removed_cards]
    moved_decks = [g for g in r.moved if g.metric not in CARD_METRICS]
    if moved_decks and (r.changed_cards or r.added_cards or r.removed_cards) and not r.different_study:
        what = ", ".join(f"{g.subject} ({g.mode}, {_pp(g.estimate.difference)})" for g in moved_decks)
        lines += ["", f"Only the cards above differ between the runs, so they caused what moved: {what}."]
    return lines


def _verdict(r: Regression) -> list[str]:
    if not r.gates:
        return ["No gate: the study has no games between different decks and no changed card."]
    lines = ["| gate | form | subject | baseline | candidate | change (95% CI) | games | q-value | "
             f"detectable (80% power) | power at {_pp(r.thresholds.min_difference, sign=False)} | moved |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for g in sorted(r.gates, key=lambda g: (not g.moved, g.q_value, g.metric, g.mode, g.subject)):
        e = g.estimate
        lines.append(f"| {_METRIC_NAMES[g.metric]} | {g.mode} | {_md(g.subject)} | {_num(e.baseline)} | "
                     f"{_num(e.candidate)} | {_pp(e.difference)} [{_pp(e.low)}, {_pp(e.high)}] | {e.n} | "
                     + (f"{g.q_value:.2g} | {_pp(g.mde, sign=False)} | {g.power:.0%} | "
                        f"{'**yes**' if g.moved else 'no'} |" if g.tested else "not tested | | | |"))
    weak = r.underpowered
    if weak:
        lines += ["", f"**Too small to see the threshold**: {len(weak)} gate(s) cannot detect a change of "
                  f"{r.thresholds.min_difference:.3f} with 80% power (worst case: every game plays differently); "
                  "a change below their detectable effect may go unseen: "
                  + ", ".join(f"{g.subject} ({g.mode}, {_pp(g.mde, sign=False)})" for g in weak[:12])
                  + (" ..." if len(weak) > 12 else "") + "."]
    return lines


def _others(r: Regression) -> list[str]:
    """The summary metrics of the history by kind, the trusted ones first; one false-discovery family."""
    counts = ", ".join(f"{sum(c.base.kind == k for c in r.changes)} {k}" for k in KINDS)
    lines = [f"{len(r.changes)} metrics tested ({counts}), {r.untested} with too few trials or no interval, "
             f"{r.only_in_one} in one run only. Randomized, ablation and controlled metrics measure what the "
             "study assigned; descriptive ones track how games went (a card drawn more often by winners looks "
             "strong). They explain the verdict but never make it."]
    for kind in KINDS:
        of_kind = sorted((c for c in r.changes if c.base.kind == kind), key=lambda c: (c.q_value, -abs(c.difference)))
        if not of_kind:
            continue
        lines += ["", f"**{kind}** ({KIND_NOTES[kind]}): {len(of_kind)} tested"
                  + (f", the {OTHER_ROWS} most significant shown" if len(of_kind) > OTHER_ROWS else ""), "",
                  "| metric | mode | subject | context | baseline | candidate | change | q-value |",
                  "|---|---|---|---|---|---|---|---|"]
        lines += [_other_row(c) for c in of_kind[:OTHER_ROWS]]
    return lines


def _other_row(c: Change) -> str:
    definition = DEFINITIONS.get(c.base.metric)
    form = "+.3f" if definition is not None and definition.shape == DIFFERENCE else ".3f"
    return (f"| {c.base.metric} | {c.base.mode} | {_md(c.base.subject)} | {_md(c.base.context)} | "
            f"{c.base.value:{form}} (n={c.base.n}) | {c.cand.value:{form}} (n={c.cand.n}) | "
            f"{c.difference:+.3f} | {c.q_value:.2g} |")


def _pp(value: float, sign: bool = True) -> str:
    return f"{value * 100:+.1f} pp" if sign else f"{value * 100:.1f} pp"


def _num(value: float) -> str:
    return f"{value:.3f}"


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")


def describe(g: Gate) -> str:
    """One line for a moved gate, for summaries."""
    return f"{_METRIC_NAMES[g.metric]}, {g.mode}, {g.subject}: {_pp(g.estimate.difference)}"
