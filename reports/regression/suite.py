"""Suites: a file naming studies, their baselines and thresholds; running one runs the studies, their
reports and the regression against each baseline, and can promote the new runs to baseline.

```toml
name = "nightly"
runs_dir = "runs/suites/nightly"          # each suite run goes to <runs_dir>/<UTC time>/<study>/
baselines_dir = "runs/baselines/nightly"  # <baselines_dir>/<study>/ is the study's baseline run

[thresholds]                              # optional; without it, the defaults of ``regress``
min_difference = 0.03                     # (reports/regression/thresholds.py)
alpha = 0.05
min_trials = 50

[[study]]
name = "imperial-mirror"                  # letters, digits, '-' and '_'
config = "studies/quick.toml"
```

Relative paths are taken from the directory the command runs in (the repository root in CI).
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from reports.regression.compare import DifferentStudiesError, Regression, compare_runs
from reports.regression.render import describe, render_markdown
from reports.regression.thresholds import DEFAULTS, ThresholdError, Thresholds
from sim.errors import UserError
from sim.files import FileInputError, read_toml

_NAME = re.compile(r"^[A-Za-z0-9_-]+$")


class SuiteConfigError(UserError):
    pass


@dataclass(frozen=True)
class SuiteStudy:
    name: str
    config: Path


@dataclass(frozen=True)
class Suite:
    name: str
    runs_dir: Path
    baselines_dir: Path
    thresholds: Thresholds
    studies: tuple[SuiteStudy, ...]

    def baseline(self, study: SuiteStudy) -> Path:
        return self.baselines_dir / study.name


def _field(path: Path, table: dict[str, Any], key: str, kind: type, where: str = "") -> Any:
    if key not in table:
        raise SuiteConfigError(f"{path}: {where}{key}: missing")
    value = table[key]
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise SuiteConfigError(f"{path}: {where}{key}: expected {kind.__name__}, got {value!r}")
    return value


def load_suite(path: Path | str) -> Suite:
    path = Path(path)
    try:
        data = read_toml(path)
    except FileInputError as e:
        raise SuiteConfigError(str(e)) from None
    known = {"name", "runs_dir", "baselines_dir", "thresholds", "study"}
    unknown = set(data) - known
    if unknown:
        raise SuiteConfigError(
            f"{path}: unknown key(s) {', '.join(sorted(unknown))}; expected {', '.join(sorted(known))}")
    t = data.get("thresholds", {})
    try:
        thresholds = Thresholds(
            _field(path, t, "min_difference", float, "thresholds.") if "min_difference" in t
            else DEFAULTS.min_difference,
            _field(path, t, "alpha", float, "thresholds.") if "alpha" in t else DEFAULTS.alpha,
            _field(path, t, "min_trials", int, "thresholds.") if "min_trials" in t else DEFAULTS.min_trials,
        )
    except ThresholdError as e:
        raise SuiteConfigError(f"{path}: thresholds.{e.field}: {e.problem}") from None
    studies = []
    raw = data.get("study")
    if not isinstance(raw, list) or not raw:
        raise SuiteConfigError(f"{path}: study: expected one or more [[study]] tables")
    for i, s in enumerate(raw):
        where = f"study[{i}]."
        name = _field(path, s, "name", str, where)
        if not _NAME.match(name):
            raise SuiteConfigError(f"{path}: {where}name: use letters, digits, '-' and '_' only, got {name!r}")
        config = Path(_field(path, s, "config", str, where))
        if not config.is_file():
            raise SuiteConfigError(f"{path}: {where}config: no such study file {config}")
        studies.append(SuiteStudy(name, config))
    if len({s.name for s in studies}) != len(studies):
        raise SuiteConfigError(f"{path}: study names must be unique")
    return Suite(_field(path, data, "name", str), Path(_field(path, data, "runs_dir", str)),
                 Path(_field(path, data, "baselines_dir", str)), thresholds, tuple(studies))


@dataclass
class StudyOutcome:
    study: SuiteStudy
    run: Path
    report: Path
    regression: Regression | None  # None when there was no baseline yet, or one of another study
    promoted: bool = False
    stale_baseline: str = ""  # how the baseline's study differs, when it is of another study


def promote(run: Path, baseline: Path) -> None:
    """Make ``run`` the baseline: copy it beside the baseline, then swap the two directories."""
    baseline.parent.mkdir(parents=True, exist_ok=True)
    fresh = baseline.with_name(baseline.name + ".new")
    old = baseline.with_name(baseline.name + ".old")
    shutil.rmtree(fresh, ignore_errors=True)
    shutil.rmtree(old, ignore_errors=True)
    shutil.copytree(run, fresh)
    if baseline.exists():
        baseline.rename(old)
    fresh.rename(baseline)
    shutil.rmtree(old, ignore_errors=True)


def render_summary(suite: Suite, outcomes: list[StudyOutcome], stamp: str) -> str:
    lines = [f"# Suite {suite.name}: {stamp}", ""]
    for o in outcomes:
        lines.append(f"## {o.study.name}")
        lines.append("")
        lines.append(f"- run: `{o.run}`; report: `{o.report}`")
        if o.regression is None and o.stale_baseline:
            lines.append(f"- the baseline is a run of another study ({o.stale_baseline}); not compared"
                         + ("; this run is now the baseline" if o.promoted else ""))
        elif o.regression is None:
            lines.append("- no baseline yet" + ("; this run is now the baseline" if o.promoted else ""))
        else:
            lines.append(f"- {len(o.regression.moved)} gate(s) moved"
                         + ("; promoted to baseline" if o.promoted else ""))
            lines += [f"  - {describe(g)}" for g in o.regression.moved]
            lines += ["", render_markdown(o.regression).replace("# Regression report", "### Regression", 1)]
        lines.append("")
    return "\n".join(lines)


def check_baselines(suite: Suite, new_baseline: bool) -> None:
    """Refuse, before any study runs, a suite whose studies lack a baseline unless ``new_baseline`` asks for
    one: a baseline lost (an evicted cache, a wrong folder) must not silently become tonight's run."""
    missing = [st for st in suite.studies if not (suite.baseline(st) / "manifest.json").exists()]
    if missing and not new_baseline:
        where = ", ".join(f"{st.name} ({suite.baseline(st)})" for st in missing)
        raise SuiteConfigError(f"suite {suite.name}: no baseline for {where}; give --new-baseline to make this "
                               "run the baseline")


def run_suite(suite: Suite, *, promote_mode: str = "never", new_baseline: bool = False, address: str | None = None,
              workers: int | None = None, history: Path | None = None, show_progress: bool = True) -> tuple[
                  list[StudyOutcome], Path]:
    """Run every study of the suite; returns the outcomes and the summary file.

    ``promote_mode``: "never", "always", or "if-unchanged" (only a study in which nothing moved).
    ``new_baseline``: a study without a baseline is run and its run becomes the baseline (else such a suite is
    refused before anything runs).
    """
    check_baselines(suite, new_baseline)
    from rich.console import Console

    from pipelines.runner import run_study
    from pipelines.study import load_study
    from reports.build import write_report
    from reports.regression.history import record_run_or_warn

    console = Console(stderr=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out_dir = suite.runs_dir / stamp
    outcomes = []
    for st in suite.studies:
        study = load_study(st.config)
        run = out_dir / st.name
        run_study(study, run, address=address, workers=workers, console=console, show_progress=show_progress)
        console.print(record_run_or_warn(run, history), markup=False, highlight=False)
        report = run / "report.html"
        write_report([run], html=report, md=run / "report.md")
        baseline = suite.baseline(st)
        regression = None
        stale = ""
        if (baseline / "manifest.json").exists():
            try:
                regression = compare_runs(baseline, run, suite.thresholds)
                (run / "regression.md").write_text(render_markdown(regression))
            except DifferentStudiesError as e:
                stale = "; ".join(e.differences)
        outcome = StudyOutcome(st, run, report, regression, stale_baseline=stale)
        first = regression is None and new_baseline  # no baseline, or one of another study, replaced as asked
        unchanged = regression is not None and not regression.moved
        if first or promote_mode == "always" or (promote_mode == "if-unchanged" and unchanged):
            promote(run, baseline)
            outcome.promoted = True
        outcomes.append(outcome)
    summary = out_dir / "summary.md"
    summary.write_text(render_summary(suite, outcomes, stamp))
    latest = suite.runs_dir / "latest"
    shutil.rmtree(latest, ignore_errors=True)
    latest.mkdir(parents=True)
    shutil.copy(summary, latest / "summary.md")
    for o in outcomes:
        for name in ("report.html", "report.md", "regression.md"):
            if (o.run / name).exists():
                shutil.copy(o.run / name, latest / f"{o.study.name}-{name}")
    return outcomes, summary
