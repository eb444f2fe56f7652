"""cluster.yaml and Dockerfile: a valid Ray cluster launcher config whose nodes hold the dependencies only (the
product comes with each job, as a wheel), with authentication on."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import jsonschema
import pytest
import ray
import yaml
from ray.autoscaler._private.util import prepare_config, validate_config

ROOT = Path(__file__).parent.parent
SCHEMA = Path(ray.__file__).parent / "autoscaler" / "ray-schema.json"


def config() -> dict:
    return yaml.safe_load((ROOT / "cluster.yaml").read_text())


def test_cluster_yaml_validates_against_the_schema_shipped_with_ray():
    jsonschema.validate(config(), json.loads(SCHEMA.read_text()))


def test_ray_up_would_accept_it_once_defaults_are_filled_in():
    validate_config(prepare_config(config()))  # what `ray up` does before it contacts the cloud


def test_the_schema_check_catches_a_broken_config():
    with pytest.raises(jsonschema.ValidationError, match="eight"):
        jsonschema.validate(config() | {"max_workers": "eight"}, json.loads(SCHEMA.read_text()))


def test_nodes_install_the_dependencies_only_and_keep_token_authentication():
    c = config()
    assert {"ray.head.default", "ray.worker.default"} <= set(c["available_node_types"])
    assert c["head_node_type"] == "ray.head.default"
    assert c["file_mounts"] == {"~/tashkalar/pyproject.toml": "./pyproject.toml",
                                "~/.ray/auth_token": "~/.ray/auth_token"}  # no source tree
    setup = " ".join(c["setup_commands"] + c["head_setup_commands"] + c["worker_setup_commands"])
    assert not any(word in setup for word in ("cargo", "rustup", "maturin", "pip install -e", "pip install .")), setup
    assert "['project']['dependencies']" in setup and "pip install --quiet -r requirements.txt" in setup
    commands = c["head_start_ray_commands"] + c["worker_start_ray_commands"]
    starts = [cmd for cmd in commands if "ray start" in cmd]
    assert len(starts) == 2 and all("RAY_AUTH_MODE=token" in cmd for cmd in starts)
    assert "--env RAY_AUTH_MODE=token" in c["docker"]["run_options"]
    assert c["docker"]["image"].endswith(f"{ray.__version__}-py311-cpu")


def test_the_setup_command_installs_exactly_what_pyproject_declares(tmp_path):
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    listing = config()["setup_commands"][0].split(" && ")[1].split(" > ")[0]
    printed = subprocess.run(listing.replace("python ", f"{sys.executable} ", 1), shell=True, cwd=tmp_path,
                             capture_output=True, text=True, check=True).stdout.split()
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert printed == declared


def test_the_node_image_starts_from_the_clusters_ray_image():
    first = (ROOT / "Dockerfile").read_text().split("\nFROM ", 1)[1].split()[0]
    assert first == config()["docker"]["image"]
