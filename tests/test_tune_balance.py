"""tune (balance tuning): the search space file and its errors, candidates as card files, the objective, the
paired games; on Ray, one search of a planted imbalance on a two-node cluster (found and verified, its trials on
the node without the driver, the verification reproduced by run + report, the same proposals after an
interruption and --resume) and an A/A on local Ray that proposes nothing."""

from __future__ import annotations

import csv
import json
import os
import shutil
import signal
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipelines.balance.candidates import diff, size, write_cards
from pipelines.balance.evaluate import play_rung
from pipelines.balance.objective import pareto, score
from pipelines.balance.search import Settings, settings_json
from pipelines.balance.space import load_balance
from pipelines.raytune import SETTINGS, check_out
from sim.cards import BUILTIN_DIR, load_card_set
from sim.cli import app
from sim.errors import UserError
from tests.ray_cluster import local_env, node_cpus, two_node_cluster

TASHKALAR = Path(sys.executable).parent / "tashkalar"
ROOT = Path(__file__).resolve().parent.parent

SMALL = """name = "small"
forms = ["high-form"]
decks = ["highland", "sylvan"]
[targets]
deck_band = 0.06
first_player_band = 0.1
change_cost = 0.005
[search]
trials = 4
games = [100, 400]
reduction = 2
verify = 1
verify_games = 1000
[[change]]
card = "highland/wild-eagle"
field = "rank"
values = ["common", "heroic", "legendary"]
[[change]]
card = "sylvan/forest-ancient"
field = "effect[1].count"
values = [1, 2, 3]
"""


def write(folder: Path, text: str, name: str = "balance.toml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text)
    return path


def planted_cards(folder: Path) -> Path:
    """The built-in set with Wild Eagle made a legendary piece: Highland then wins clearly more."""
    cards = folder / "planted"
    shutil.copytree(BUILTIN_DIR, cards)
    text = (cards / "highland.toml").read_text()
    (cards / "highland.toml").write_text(text.replace('rank = "common"', 'rank = "legendary"', 1))
    assert next(b for b in load_card_set(cards).decks["highland"] if b.id == "highland/wild-eagle").rank == 2
    return cards


def test_the_example_space_loads():
    balance = load_balance(ROOT / "studies" / "balance-example.toml")
    assert balance.pairings == (("highland", "sylvan"),) and len(balance.changes) == 6
    assert [c.current for c in balance.changes] == ["common", "c", 2, 1, 5, 1]


BAD = [
    ("forms = [\"melee-3\"]\n", "forms: expected a list of different forms among high-form, deathmatch"),
    ("decks = [\"imperial\"]\n", "decks: expected a list of at least two different decks"),
    ("colour = 1\n", "colour: unknown key"),
    ("[targets]\ndeck_band = 0.7\n", "targets.deck_band: expected a number from 0 up to (not including) 0.5"),
    ("[targets]\nband = 0.1\n", "targets.band: unknown key"),
    ("[targets]\nskill = { weaker = \"greedy\" }\n", "targets.skill: expected { weaker"),
    ("[targets]\nskill = { weaker = \"nope\", stronger = \"builder\", at_least = 0.6 }\n",
     "targets.skill.weaker: unknown strategy 'nope'"),
    ("[search]\ngames = [100, 50]\n", "search.games: expected even numbers of at least 2, each larger"),
    ("[search]\nverify_games = 7\n", "search.verify_games: expected an even number"),
    ("[[change]]\ncard = \"imperial/nope\"\nfield = \"rank\"\nvalues = [\"common\", \"heroic\"]\n",
     "change[0].card: expected the id of a card of the set"),
    ("[[change]]\ncard = \"imperial/herald\"\nfield = \"effect[3].up_to\"\nvalues = [1, 2]\n",
     "change[0].field: imperial/herald has no value at 'effect[3].up_to'"),
    ("[[change]]\ncard = \"imperial/herald\"\nfield = \"name\"\nvalues = [1, 2]\n",
     "change[0].field: 'name' of imperial/herald is 'Herald': expected a number in an effect step"),
    ("[[change]]\ncard = \"imperial/herald\"\nfield = \"effect[0].up_to\"\nvalues = [1, 3]\n",
     "change[0].values: expected the card's current value 2 among them"),
    ("[[change]]\ncard = \"imperial/herald\"\nfield = \"effect[0].up_to\"\nvalues = [2, \"x\"]\n",
     "change[0].values: expected whole numbers of at least 0, got 'x'"),
    ("[[change]]\ncard = \"imperial/herald\"\nfield = \"rank\"\nvalues = [\"common\", \"royal\"]\n",
     "change[0].values: expected one of 'common', 'heroic', 'legendary', got 'royal'"),
    ("[[change]]\ncard = \"imperial/herald\"\nfield = \"pattern\"\nrow = 1\ncolumn = 1\nvalues = [\".\", \"c\"]\n",
     "change[0].row: row 1, column 1 of imperial/herald is '@'"),
    ("[[change]]\ncard = \"imperial/herald\"\nfield = \"pattern\"\nrow = 9\ncolumn = 1\nvalues = [\".\", \"c\"]\n",
     "change[0].row: expected a row of imperial/herald's pattern, 1 to 3"),
    ("[[change]]\ncard = \"legend/fire-dragon\"\nfield = \"rank\"\nvalues = [\"legendary\", \"heroic\"]\n",
     "change[0].values: 'heroic' gives a card set that does not load: "),
    ("", "change: expected at least one [[change]] table"),
]


@pytest.mark.parametrize(("extra", "expected"), BAD)
def test_space_file_errors_name_the_file_key_and_expectation(tmp_path, extra, expected):
    base = 'forms = ["high-form"]\ndecks = ["highland", "sylvan"]\n'
    if "[[change]]" not in extra and extra:
        extra += SMALL[SMALL.index("[[change]]"):]
    if extra.startswith(("forms", "decks")):
        base = ""
        extra = ('decks = ["highland", "sylvan"]\n' if extra.startswith("forms") else 'forms = ["high-form"]\n') + extra
    path = write(tmp_path, base + extra)
    with pytest.raises(UserError) as e:
        load_balance(path)
    assert str(e.value).startswith(f"{path}: "), str(e.value)
    assert expected in str(e.value)
    run = CliRunner().invoke(app, ["tune", str(path), "--out", str(tmp_path / "out")], prog_name="tashkalar")
    assert run.exit_code == 2 and run.stderr.startswith("error: ") and expected in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


def test_bad_options_are_one_line(tmp_path):
    path = write(tmp_path, SMALL)
    for args, expected in ((["--player", "nope"], "--player: unknown strategy 'nope'"),
                           (["--cards", str(tmp_path / "none")], "--cards: no card-set directory"),
                           (["--resume"], "no search to resume there"), (["--concurrency", "0"], "--concurrency")):
        run = CliRunner().invoke(app, ["tune", str(path), "--out", str(tmp_path / "out"), *args],
                                 prog_name="tashkalar")
        assert run.exit_code == 2 and expected in run.stderr, run.output
    assert CliRunner().invoke(app, ["tune", "-h"], prog_name="tashkalar").exit_code == 0


def test_a_candidate_is_card_files_with_only_the_chosen_values_changed(tmp_path):
    text = SMALL + ('[[change]]\ncard = "highland/wild-eagle"\nfield = "pattern"\nrow = 2\ncolumn = 1\n'
                    'values = ["c", "."]\n[[change]]\ncard = "flare/03"\nfield = "lower.needs_more"\nvalues = [5, 3]\n'
                    '[[change]]\ncard = "task/destruction"\nfield = "points"\nvalues = [1, 3]\n'
                    '[[change]]\ncard = "sylvan/forest-ancient"\nfield = "effect[1].where"\nvalues = [3, 2]\n')
    balance = load_balance(write(tmp_path, text))
    choice = ("heroic", 3, ".", 3, 3, 2)
    cards = load_card_set(write_cards(balance, choice, tmp_path / "cand"))
    eagle = cards.by_id["highland/wild-eagle"]
    assert eagle.rank == 1 and len(eagle.pattern.cells) == 1
    assert cards.by_id["sylvan/forest-ancient"].effect[1]["count"] == 3
    assert cards.by_id["sylvan/forest-ancient"].effect[1]["where"] == "within:2"  # a distance
    assert cards.by_id["flare/03"].lower.threshold == 3 and cards.by_id["task/destruction"].points == 3
    patch = diff(balance, choice)
    removed = [line for line in patch.splitlines() if line.startswith("-") and not line.startswith("---")]
    assert len(removed) == 5  # rank, pattern row, count and distance, needs_more, points: one line each
    assert size(balance, choice) == (6, 4)
    unchanged = [p.name for p in (tmp_path / "cand").glob("*.toml")
                 if p.read_text() == (BUILTIN_DIR / p.name).read_text()]
    assert sorted(unchanged) == ["etherweave.toml", "everfrost.toml", "imperial.toml", "legends.toml",
                                 "nethervoid.toml"]
    assert diff(balance, ("common", 2, "c", 5, 1, 3)) == ""


def test_a_candidate_is_written_from_the_texts_of_the_tuned_set_alone(tmp_path):
    cards = planted_cards(tmp_path)
    balance = load_balance(write(tmp_path, SMALL), cards)
    shutil.rmtree(cards)  # as on a cluster node that has no copy of the tuned set's folder
    written = write_cards(balance, ("common", 2), tmp_path / "candidate")
    assert (written / "highland.toml").read_text() == (BUILTIN_DIR / "highland.toml").read_text()


def test_resume_refuses_a_search_whose_card_files_changed_naming_the_file(tmp_path):
    cards = planted_cards(tmp_path)
    settings = Settings(load_balance(write(tmp_path, SMALL), cards), "builder", 1, 2, str(tmp_path / "out"))
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / SETTINGS).write_text(json.dumps(settings_json(settings)))
    check_out(tmp_path / "out", settings_json(settings), resume=True)
    with (cards / "highland.toml").open("a") as f:
        f.write("# edited after the search started\n")
    edited = Settings(load_balance(write(tmp_path, SMALL), cards), "builder", 1, 2, str(tmp_path / "out"))
    with pytest.raises(UserError, match=r"other settings \(balance.files.highland.toml\); give the same"):
        check_out(tmp_path / "out", settings_json(edited), resume=True)


def test_the_objective_counts_distance_outside_the_bands_and_the_change():
    balance = load_balance(ROOT / "studies" / "balance-example.toml")
    tally = Counter({"deck|high-form|highland|sylvan": 60, "deck|high-form|highland|sylvan#n": 100,
                     "deck|high-form|sylvan|highland": 40, "deck|high-form|sylvan|highland#n": 100,
                     "deck|deathmatch|highland|sylvan": 52, "deck|deathmatch|highland|sylvan#n": 100,
                     "deck|deathmatch|sylvan|highland": 48, "deck|deathmatch|sylvan|highland#n": 100,
                     "first|high-form": 56, "first|high-form#n": 100, "first|deathmatch": 50,
                     "first|deathmatch#n": 100})
    s = score(balance, tally, (2, 1))
    assert s.decks == pytest.approx(0.10) and s.first == pytest.approx(0.01) and s.skill == 0
    assert s.loss == pytest.approx(0.11 + 3 * 0.005)
    assert pareto([(1, 1), (0, 2), (2, 2), (0, 1)]) == [3]
    assert pareto([(1, 0), (0, 1), (1, 1)]) == [0, 1]


def test_every_candidate_plays_the_same_games_and_skill_depth_is_counted(tmp_path):
    text = SMALL.replace("[targets]\n", '[targets]\nskill = { weaker = "random", stronger = "builder", '
                                        'at_least = 0.9 }\n').replace("[100, 400]", "[20, 40]")
    balance = load_balance(write(tmp_path, text))
    base = write_cards(balance, ("common", 2), tmp_path / "base")
    again = write_cards(balance, ("common", 2), tmp_path / "again")
    first = play_rung(balance, "builder", base, 5, 0)
    assert first == play_rung(balance, "builder", again, 5, 0)  # common random numbers
    assert first != play_rung(balance, "builder", base, 5, 1)  # each rung its own games
    assert first["deck|high-form|highland|sylvan#n"] == 20 and first["skill|high-form|sylvan#n"] == 20
    assert first["skill|high-form|highland"] >= 18  # builder beats random
    assert score(balance, first, (0, 0)).skill < 0.2


def tune(*args: str, env: dict[str, str] | None = None, popen: bool = False,
         ) -> subprocess.CompletedProcess | subprocess.Popen:
    """``tashkalar tune ARGS`` with builder, two trials at a time; on local Ray unless ``env`` joins a cluster."""
    command = [str(TASHKALAR), "tune", *map(str, args), "--player", "builder", "--workers", "2",
               "--concurrency", "2"]
    env = (env or local_env()) | {"TASHKALAR_HISTORY": os.devnull}
    if popen:
        return subprocess.Popen(command, env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def cluster():
    """A head without CPUs (the driver's node) and a node with two: every trial runs on the other node."""
    with two_node_cluster() as (address, env):
        yield address, env


@pytest.fixture(scope="module")
def planted(tmp_path_factory, cluster):
    """One search on the cluster over the planted set, shared by the tests below."""
    folder = tmp_path_factory.mktemp("planted")
    path = write(folder, SMALL)
    cards = planted_cards(folder)
    address, env = cluster
    args = (path, "--cards", cards, "--seed", "2", "--address", address)
    run = tune(*args, "--out", folder / "out", env=env)
    assert run.returncode == 0, run.stderr
    return Planted(folder, args, run, json.loads((folder / "out" / "proposals.json").read_text()))


@dataclass(frozen=True)
class Planted:
    folder: Path
    args: tuple
    run: subprocess.CompletedProcess
    result: dict


@pytest.mark.ray
def test_a_planted_imbalance_is_found_and_verified(planted):
    result = planted.result
    assert [line.split(":")[0] for line in planted.run.stderr.splitlines() if line.startswith("trial ")] == [
        f"trial {i}/4" for i in range(1, 5)]
    base = result["base"]["verification"]
    highland = next(r for r in base["rates"]["decks"] if r["key"] == "deck|high-form|highland|sylvan")
    assert highland["rate"] > 0.56  # the plant: Highland clearly too strong on fresh seeds
    best = result["proposals"][0]
    assert [c["card"] for c in best["changes"]] == ["highland/wild-eagle"]
    assert best["changes"][0]["to"] in ("common", "heroic")
    verified = best["verification"]
    assert verified["verdict"] == "better"
    fixed = next(r for r in verified["rates"]["decks"] if r["key"] == "deck|high-form|highland|sylvan")
    assert abs(fixed["rate"] - 0.5) <= 0.06  # back within the band, on fresh seeds
    assert verified["seed"] == base["seed"] and verified["games_per_cell"] == 1000
    out = planted.folder / "out"
    assert "+rank = \"" in best["diff"] and (out / "tune.html").read_text().startswith("<!DOCTYPE html>")
    assert "Proposal 1" in (out / "proposals.md").read_text()


@pytest.mark.ray
def test_the_trials_ran_on_the_cluster_node_without_the_driver(planted, cluster):
    cpus = node_cpus(*cluster)
    [worker] = [node for node, n in cpus.items() if n > 0]
    assert len(cpus) == 2 and {t["node"] for t in planted.result["trial_log"]} == {worker}


@pytest.mark.ray
def test_the_verification_is_reproduced_by_run_and_report(planted, tmp_path):
    best = planted.result["proposals"][0]
    study = Path(best["folder"]) / "verify.toml"
    env = local_env(TASHKALAR_HISTORY=os.devnull)
    run = subprocess.run([str(TASHKALAR), "run", str(study), "--out", str(tmp_path / "run"), "--no-progress",
                          "--no-history", "--workers", "2"], capture_output=True, text=True, env=env, timeout=600)
    assert run.returncode == 0, run.stderr
    report = subprocess.run([str(TASHKALAR), "report", str(tmp_path / "run"), "--csv", str(tmp_path / "csv"),
                             "--no-html"], capture_output=True, text=True, env=env, timeout=600)
    assert report.returncode == 0, report.stderr
    with (tmp_path / "csv" / "matchups.csv").open() as f:
        rows = list(csv.DictReader(f))
    for r in best["verification"]["rates"]["decks"]:
        _, mode, deck, opp = r["key"].split("|")
        [row] = [x for x in rows if (x["mode"], x["deck"], x["opp_deck"]) == (mode, deck, opp)]
        assert int(row["games"]) == r["games"]
        assert float(row["won"]) == pytest.approx(r["rate"], abs=5e-5)


def _comparable(result: dict) -> dict:
    """The proposals without the folders they were written in and the CPU time the trials took."""
    for t in result["trial_log"]:
        del t["cpu_seconds"]
    text = json.dumps({k: result[k] for k in ("base", "proposals", "trial_log", "summary")})
    return json.loads(text.replace(str(result["base"]["folder"]).rsplit("/proposals/", 1)[0], "OUT"))


@pytest.mark.ray
def test_an_interrupted_search_resumes_to_the_same_proposals(planted, cluster):
    _, env = cluster
    out = planted.folder / "resumed"
    interrupted = tune(*planted.args, "--out", out, env=env, popen=True)
    for line in interrupted.stderr:
        if line.startswith("trial 2/4"):
            interrupted.send_signal(signal.SIGINT)
            break
    interrupted.stderr.read()
    assert interrupted.wait(timeout=300) == 130
    assert not (out / "proposals.json").exists()
    resumed = tune(*planted.args, "--out", out, "--resume", env=env)
    assert resumed.returncode == 0, resumed.stderr
    assert _comparable(json.loads((out / "proposals.json").read_text())) == _comparable(planted.result)
    again = tune(*planted.args, "--out", out, env=env)
    assert again.returncode == 2 and "holds a search already" in again.stderr
    other = tune(*planted.args[:-4], "--seed", "4", *planted.args[-2:], "--out", out, "--resume", env=env)
    assert other.returncode == 2 and "started with other settings (seed)" in other.stderr


@pytest.mark.ray
def test_an_already_balanced_set_gets_no_significant_proposal(tmp_path):
    path = write(tmp_path, SMALL)
    run = tune(path, "--out", tmp_path / "out", "--seed", "2")  # on a local Ray
    assert run.returncode == 0, run.stderr
    result = json.loads((tmp_path / "out" / "proposals.json").read_text())
    assert result["base"]["verification"]["score"]["distance"] == 0
    assert not [p for p in result["proposals"] if p.get("verification", {}).get("verdict") == "better"]
    assert "nothing to change" in run.stdout
