"""Stale Snakemake locks: recognise and remove the lock of a run that is gone, never the lock of a live one.

After ``kill -9`` of Snakemake or a power loss, ``.snakemake/locks/`` keeps the dead run's lock files and the
next run stops with a LockException until ``--unlock``. So every Snakemake process that loads this workflow
(the main process only: cluster jobs re-parse the Snakefile and must not touch locks) leaves an *owner record*
in ``.snakemake/lock-owners/``: its host and pid, held open under an exclusive ``flock`` for the life of the
process, and, once Snakemake has locked the directory (the ``onstart`` hook), the identity (path, inode,
modification time, sha256) of the lock files it wrote. The kernel releases a ``flock`` when its process dies,
however it dies, so a record that can be locked by another process belongs to a run that is gone.

A later run on the same host removes exactly the lock files listed in such a dead record that are still the
same files (same inode, time and content), with a log line, and deletes the record. Records of other hosts
(a shared file system on a cluster) are never judged: a lock there stays until ``--unlock``. A run killed
between taking its lock and its ``onstart`` hook (while Snakemake plans the jobs) has listed no lock file, so
its lock stays too; Snakemake then says to run ``--unlock``.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import socket
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

OWNERS = "lock-owners"


def _identity(path: Path) -> dict:
    status = path.stat()
    return {"inode": status.st_ino, "mtime_ns": status.st_mtime_ns, "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}


@contextlib.contextmanager
def _exclusive(path: Path) -> Iterator[None]:
    """One process at a time on this state directory (two runs starting together must not judge a record twice)."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


class LockOwner:
    """This Snakemake process's owner record, alive (flock held) until the process ends."""

    def __init__(self, state_dir: str | os.PathLike) -> None:
        directory = Path(state_dir) / OWNERS
        directory.mkdir(parents=True, exist_ok=True)
        self.host, self.pid = socket.gethostname(), os.getpid()
        self.path = directory / f"{self.host}-{self.pid}-{os.urandom(4).hex()}.json"
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
        fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        self._write({})

    def _write(self, locks: dict) -> None:
        data = json.dumps({"host": self.host, "pid": self.pid, "locks": locks}, sort_keys=True).encode()
        os.ftruncate(self.fd, 0)
        os.pwrite(self.fd, data, 0)
        os.fsync(self.fd)

    def record_locks(self, lock_files: Iterable[str | os.PathLike]) -> None:
        """List the lock files this run holds (called once Snakemake has locked the directory)."""
        self._write({str(Path(p).resolve()): _identity(Path(p)) for p in lock_files if Path(p).is_file()})


def _is_dead(record: Path) -> bool:
    """True if no process holds the record's flock (its owner has ended); False while the owner lives."""
    fd = os.open(record, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(fd)


def other_runs(state_dir: str | os.PathLike) -> list[str]:
    """The runs other than this process that may be working in this directory: on this host, those whose owner record is
    still locked (alive); on another host (a shared file system), every one with a record (they cannot be judged from
    here). Call after ``release_stale_locks`` and before this process's own ``LockOwner``."""
    directory = Path(state_dir) / OWNERS
    host, runs = socket.gethostname(), []
    for record_path in sorted(directory.glob("*.json")) if directory.is_dir() else []:
        try:
            record = json.loads(record_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            record = {}  # being written: its owner is alive
        with contextlib.suppress(OSError):
            if record.get("host", host) != host or not _is_dead(record_path):
                runs.append(f"pid {record.get('pid')} on {record.get('host', host)}")
    return runs


def release_stale_locks(state_dir: str | os.PathLike, report: Callable[[str], None] = print) -> list[Path]:
    """Remove the lock files of runs on this host that are gone (see module docstring); return them."""
    directory = Path(state_dir) / OWNERS
    if not directory.is_dir():
        return []
    removed: list[Path] = []
    host = socket.gethostname()
    with _exclusive(directory / ".judging"):
        for record_path in sorted(directory.glob("*.json")):
            try:
                record = json.loads(record_path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue  # being written: its owner is alive
            if record.get("host") != host or not _is_dead(record_path):
                continue  # another machine's run (cannot be judged from here), or a live run
            stale = []
            for lock, identity in sorted(record.get("locks", {}).items()):
                path = Path(lock)
                with contextlib.suppress(OSError):  # gone already, or not ours to remove
                    if path.is_file() and _identity(path) == identity:
                        path.unlink()
                        stale.append(path)
            if stale:
                report(
                    f"Removed the Snakemake lock of a run that is no longer running (pid {record.get('pid')} on {host}; "
                    f"killed, crashed or the machine went down): {', '.join(str(p) for p in stale)}. "
                    "Its unfinished jobs are re-run (rerun-incomplete)."
                )
            removed += stale
            with contextlib.suppress(OSError):
                record_path.unlink(missing_ok=True)
    return removed
