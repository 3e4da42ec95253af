"""Scratch that follows the job: the out-of-core engine's spill and a job's staging files in one folder per job.

A job's scratch folder is ``<root>/directional-inference-<workdir id>/<rule>/<wildcards>``: ``root`` is the config key
``scratch_root`` (``$VARS`` and ``~`` expanded where the job runs, so that a cluster profile can point it at node-local
disk) or else the job's ``tmpdir`` (Snakemake's, ``$TMPDIR`` or the system's temporary directory); the workdir id
keeps two workflows that share a root apart. The job empties the folder when it starts (what an earlier run of the
same job left when it was killed), and removes it when it ends, whether it succeeded or failed. A SIGKILL leaves the
folder behind: the next start of the same job empties it, and every run sweeps this workflow's scratch folders when
it starts and no other run works in the directory (``sweep_scratch``, rules/recovery.smk).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

log = logging.getLogger(__name__)

PREFIX = "directional-inference-"


def scratch_root(configured: str | None, tmpdir: str | None = None) -> Path:
    """The root of the scratch folders: ``configured`` with environment variables and ``~`` expanded, else ``tmpdir``,
    else the system's temporary directory."""
    if configured:
        return Path(os.path.expanduser(os.path.expandvars(str(configured))))
    return Path(tmpdir or tempfile.gettempdir())


def workflow_scratch(root: str | os.PathLike, workdir: str | os.PathLike | None = None) -> Path:
    """This working directory's folder under ``root`` (a digest of its real path)."""
    real = os.path.realpath(workdir if workdir is not None else os.getcwd())
    return Path(root) / f"{PREFIX}{hashlib.sha256(real.encode()).hexdigest()[:12]}"


def _name(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_.=," else "_" for c in text) or "_"


def job_folder(root: str | os.PathLike, rule: str, wildcards: dict, workdir: str | os.PathLike | None = None) -> Path:
    """The scratch folder of one job: its rule, then its wildcards (``name=value`` in their order, comma-separated)."""
    job = ",".join(f"{name}={value}" for name, value in wildcards.items()) or "job"
    return workflow_scratch(root, workdir) / _name(rule) / _name(job)


def _make(folder: Path, attempts: int = 5) -> None:
    """mkdir -p, again if a job ending beside this one removed an empty parent in between."""
    for attempt in range(attempts):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            return
        except FileNotFoundError:
            if attempt == attempts - 1:
                raise


def _remove_empty_parents(folder: Path, stop: Path) -> None:
    for parent in folder.parents:
        if parent == stop.parent:
            break
        try:
            parent.rmdir()
        except OSError:  # another job's folder is still there, or the parent is gone already
            break


@contextlib.contextmanager
def scratch_folder(root: str | os.PathLike, rule: str, wildcards: dict, workdir: str | os.PathLike | None = None) -> Iterator[Path]:
    """The job's scratch folder, emptied before and removed after the block (module docstring)."""
    folder = job_folder(root, rule, wildcards, workdir)
    if folder.exists():
        log.warning("emptying %s, left by an earlier run of this job that did not end", folder)
        shutil.rmtree(folder)
    _make(folder)
    log.info("scratch folder %s", folder)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        _remove_empty_parents(folder, workflow_scratch(root, workdir))


def job_scratch(job) -> contextlib.AbstractContextManager[Path]:
    """The scratch folder of the running Snakemake job ``job`` (a rule script's ``snakemake``: its rule, wildcards,
    config key ``scratch_root`` and ``tmpdir`` resource)."""
    wildcards = dict(job.wildcards.items())
    root = scratch_root(job.config.get("scratch_root"), getattr(job.resources, "tmpdir", None))
    return scratch_folder(root, job.rule, wildcards)


def sweep_scratch(root: str | os.PathLike, workdir: str | os.PathLike | None = None) -> list[Path]:
    """Remove every job scratch folder of this working directory under ``root`` (call only while no job of it runs);
    returns the job folders removed."""
    base = workflow_scratch(root, workdir)
    if not base.is_dir():
        return []
    removed = sorted(job for rule in base.iterdir() if rule.is_dir() for job in rule.iterdir())
    shutil.rmtree(base, ignore_errors=True)
    return removed
