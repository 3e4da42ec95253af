"""The test cluster's configuration: ports chosen free at start, so two test runs on one host do not collide."""

from __future__ import annotations

import re
import socket
import subprocess

from conftest import REPO

CLUSTER = REPO / "tests" / "slurm" / "cluster.sh"


def _ports(directory) -> tuple[int, int]:
    subprocess.run([str(CLUSTER), "config", str(directory)], check=True, capture_output=True)
    text = (directory / "slurm.conf").read_text()
    return int(re.search(r"^SlurmctldPort=(\d+)$", text, re.M).group(1)), int(re.search(r"^SlurmdPort=(\d+)$", text, re.M).group(1))


def test_two_clusters_on_one_host_get_different_free_ports(tmp_path):
    first = _ports(tmp_path / "one")
    assert first[0] != first[1]
    # the first cluster's daemons listen on its ports; the second cluster must choose others
    listeners = []
    for port in first:
        listener = socket.socket()
        listener.bind(("127.0.0.1", port))
        listener.listen()
        listeners.append(listener)
    try:
        second = _ports(tmp_path / "two")
    finally:
        for listener in listeners:
            listener.close()
    assert not set(second) & set(first) and second[0] != second[1]
    assert f"AuthInfo=socket={tmp_path / 'two'}/munge/run/munge.socket.2" in (tmp_path / "two" / "slurm.conf").read_text()
