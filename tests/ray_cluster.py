"""A Ray cluster of two nodes on this machine, for the tests that run a command on a cluster by address."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

BIN = Path(sys.executable).parent


def local_env(**extra: str) -> dict[str, str]:
    """This process's environment without a Ray address (a command then starts its own local Ray)."""
    return {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"} | extra


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop_group(group: int) -> None:
    try:
        os.killpg(group, signal.SIGTERM)
        time.sleep(3)
        os.killpg(group, signal.SIGKILL)
    except ProcessLookupError:
        pass


@contextmanager
def two_node_cluster() -> Iterator[tuple[str, dict[str, str]]]:
    """A head with no CPU and a second node with two, with token authentication on; yields the address and
    the environment that joins it. Whatever needs a CPU runs on the second node, never beside the driver on
    the head: a shard played in the core takes milliseconds, so with a CPU on the head its ready workers
    would take every shard before the other node's workers start, and which node plays what would be left to
    chance.

    Each node has its own session (so it is stopped by its process group, leaving any other Ray on the
    machine alone), its own short temp dir and its own ports; the token lives in a temp file.
    """
    root = Path(tempfile.mkdtemp(prefix="tkray-", dir="/tmp"))
    token = root / "token"
    token.write_text(secrets.token_hex(32))
    env = local_env(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN_PATH=str(token))
    address = f"127.0.0.1:{free_port()}"
    groups: list[int] = []

    def start(name: str, cpus: int, *args: str) -> None:
        services = ("dashboard-agent-listen", "metrics-export", "runtime-env-agent", "node-manager",
                    "object-manager")
        ports = [f"--{service}-port={free_port()}" for service in services]
        node = subprocess.Popen([str(BIN / "ray"), "start", f"--num-cpus={cpus}", "--disable-usage-stats",
                                 f"--temp-dir={root / name}", *ports, *args], env=env, start_new_session=True,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        groups.append(node.pid)
        log, _ = node.communicate(timeout=120)
        assert node.returncode == 0, log

    try:
        start("head", 0, "--head", f"--port={address.rsplit(':', 1)[1]}", "--include-dashboard=false",
              f"--ray-client-server-port={free_port()}", f"--dashboard-port={free_port()}")
        start("node", 2, f"--address={address}")
        yield address, env
    finally:
        for group in reversed(groups):
            stop_group(group)
        shutil.rmtree(root, ignore_errors=True)


def node_cpus(address: str, env: dict[str, str]) -> dict[str, float]:
    """The CPUs of each live node of the cluster, by node id."""
    script = (f"import json, ray; ray.init(address={address!r}, logging_level='ERROR'); print(json.dumps("
              "{n['NodeID']: n['Resources'].get('CPU', 0) for n in ray.nodes() if n['Alive']}))")
    result = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])
