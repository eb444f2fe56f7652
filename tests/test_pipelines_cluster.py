"""cluster.yaml: a valid Ray cluster launcher config that installs this project with authentication on."""

from __future__ import annotations

import json
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


def test_nodes_install_the_project_and_keep_token_authentication():
    c = config()
    assert {"ray.head.default", "ray.worker.default"} <= set(c["available_node_types"])
    assert c["head_node_type"] == "ray.head.default"
    assert c["file_mounts"]["~/tashkalar"] == "."
    assert any("pip install" in cmd and "~/tashkalar" in cmd for cmd in c["setup_commands"])
    assert c["file_mounts"]["~/.ray/auth_token"] == "~/.ray/auth_token"
    commands = c["head_start_ray_commands"] + c["worker_start_ray_commands"]
    starts = [cmd for cmd in commands if "ray start" in cmd]
    assert len(starts) == 2 and all("RAY_AUTH_MODE=token" in cmd for cmd in starts)
    assert "--env RAY_AUTH_MODE=token" in c["docker"]["run_options"]
    assert c["docker"]["image"].endswith(f"{ray.__version__}-py311-cpu")
