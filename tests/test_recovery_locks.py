"""Stale Snakemake locks: the lock of a run that is gone is removed, never the lock of a live run or another host's."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from directional_inference.recovery.locks import OWNERS, other_runs, release_stale_locks

OWNER = """
import sys, time
from directional_inference.recovery.locks import LockOwner
owner = LockOwner(sys.argv[1])
owner.record_locks(sys.argv[2:])
print("ready", flush=True)
time.sleep(120)
"""


@pytest.fixture
def state(tmp_path) -> Path:
    locks = tmp_path / ".snakemake" / "locks"
    locks.mkdir(parents=True)
    for name in ("0.input.lock", "0.output.lock"):
        (locks / name).write_text(f"results/{name}\n")
    return tmp_path / ".snakemake"


def _start_owner(state: Path, *locks: Path) -> subprocess.Popen:
    process = subprocess.Popen([sys.executable, "-c", OWNER, str(state), *map(str, locks)], stdout=subprocess.PIPE, text=True)
    assert process.stdout.readline().strip() == "ready"
    return process


def test_a_live_runs_lock_is_kept_and_a_killed_runs_lock_is_removed(state):
    locks = sorted((state / "locks").iterdir())
    owner = _start_owner(state, *locks)
    try:
        messages = []
        assert release_stale_locks(state, messages.append) == [] and messages == []
        assert sorted((state / "locks").iterdir()) == locks
    finally:
        owner.send_signal(signal.SIGKILL)
        owner.wait()
    messages = []
    assert release_stale_locks(state, messages.append) == [p.resolve() for p in locks]
    assert list((state / "locks").iterdir()) == [] and list((state / OWNERS).glob("*.json")) == []
    assert len(messages) == 1 and f"pid {owner.pid}" in messages[0] and "no longer running" in messages[0]


def test_a_lock_file_written_again_after_the_kill_is_not_the_dead_runs(state):
    lock = state / "locks" / "0.input.lock"
    owner = _start_owner(state, lock)
    owner.send_signal(signal.SIGKILL)
    owner.wait()
    lock.unlink()
    lock.write_text("results/0.input.lock\n")  # a new run's lock: same name and content, another file
    os.utime(lock, ns=(1, 1))
    assert release_stale_locks(state) == [] and lock.exists()


def test_other_hosts_and_runs_that_listed_no_lock_are_never_judged(state):
    owners = state / OWNERS
    owners.mkdir()
    lock = (state / "locks" / "0.input.lock").resolve()
    stat = lock.stat()
    identity = {"inode": stat.st_ino, "mtime_ns": stat.st_mtime_ns, "sha256": hashlib.sha256(lock.read_bytes()).hexdigest()}
    (owners / "node7-123-abcd.json").write_text(json.dumps({"host": "node7", "pid": 123, "locks": {str(lock): identity}}))
    owner = _start_owner(state)  # killed before Snakemake's onstart: it listed no lock file
    owner.send_signal(signal.SIGKILL)
    owner.wait()
    assert release_stale_locks(state) == [] and lock.exists()
    assert [p.name for p in owners.glob("*.json")] == ["node7-123-abcd.json"]  # the dead local record is gone


def test_other_runs_are_the_live_ones_here_and_every_one_elsewhere(state):
    """What the scratch sweep asks before it removes anything: a live run here, or any run recorded by another host, may
    be using scratch; a dead one here is not (release_stale_locks has removed its record)."""
    assert other_runs(state) == []
    owner = _start_owner(state)
    try:
        assert other_runs(state) == [f"pid {owner.pid} on {socket.gethostname()}"]
    finally:
        owner.send_signal(signal.SIGKILL)
        owner.wait()
    release_stale_locks(state)
    assert other_runs(state) == []
    (state / OWNERS / "node7-123-abcd.json").write_text(json.dumps({"host": "node7", "pid": 123, "locks": {}}))
    assert other_runs(state) == ["pid 123 on node7"]
