"""The one door to Snakemake's internals: every name of Snakemake's that is not its public API, and every file of its
state directory (``.snakemake/``) that this workflow reads or writes, is read here and nowhere else.

The rules hand over the ``workflow`` object (this package imports no Snakemake): the run's cores and the GPUs it
offers (``global_resources``), the lock files it holds (the file store's ``_lockfile``), the persistence backend it
keeps its metadata in, and the jobs its DAG will run. The state directory: the metadata record of every output
(``metadata/``, named by the output's urlsafe base64, cut into folders), the incomplete markers (``incomplete/``,
named alike) and a directory output's ``.snakemake_timestamp``.

Each is read as the Snakemake that pyproject.toml pins keeps it. Where a later Snakemake keeps it
elsewhere, the read stops with ``SnakemakeChanged`` naming what moved, rather than a recovery that silently finds
nothing; ``tests/test_snakemake_state.py`` drives a real run through every function here.
"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

METADATA = "metadata"
INCOMPLETE = "incomplete"
DIRECTORY_TIMESTAMP = ".snakemake_timestamp"  # the file whose time is a directory output's


class SnakemakeChanged(RuntimeError):
    """What this module reads of Snakemake is not where the pinned version keeps it."""


def _attribute(value, dotted: str, what: str):
    """``workflow.<dotted>``, or ``SnakemakeChanged`` naming it."""
    for name in dotted.split("."):
        if not hasattr(value, name):
            import importlib.metadata

            raise SnakemakeChanged(
                f"Snakemake {importlib.metadata.version('snakemake')} has no workflow.{dotted} ({what}), which "
                "the version pyproject.toml pins has: src/directional_inference/workflow/snakemake_state.py reads it and must "
                "follow the change"
            )
        value = getattr(value, name)
    return value


def _resource(workflow, name: str, what: str) -> int | None:
    value = _attribute(workflow, "global_resources", "the run's resources").get(name)
    return getattr(value, "value", value)  # a Resource in Snakemake 9, a number before


def run_cores(workflow) -> int | None:
    """The run's ``--cores`` (None on a cluster, where each job gets its own node's cores)."""
    return _resource(workflow, "_cores", "the run's --cores")


def offered_gpus(workflow) -> int | None:
    """The GPUs the run offers its jobs (``--resources gpu=N``), or None."""
    return _resource(workflow, "gpu", "the run's resources")


def metadata_in_files(workflow) -> bool:
    """Whether the run keeps its metadata in Snakemake's file store (the default), the one ``recorded_outputs`` reads."""
    return _attribute(workflow, "workflow_settings.persistence_backend", "the persistence backend").name == "FILE"


def lock_files(workflow) -> list[str]:
    """The lock files the run holds in its file store (none with another persistence backend)."""
    if not metadata_in_files(workflow):
        return []
    return [str(path) for path in _attribute(workflow, "persistence._lockfile", "the file store's lock files").values()]


def planned_jobs(workflow) -> list[dict]:
    """The jobs the run's DAG will make, as ``plan.planned_job_details`` gives a dry run's (rule, wildcards, threads,
    priority, input, output, benchmark, resources)."""
    return [
        {
            "rule": job.rule.name,
            "wildcards": dict(job.wildcards_dict),
            "threads": int(job.threads),
            "priority": int(job.priority),
            "input": [str(path) for path in job.input],
            "output": [str(path) for path in job.output],
            "benchmark": str(job.benchmark) if job.benchmark else None,
            "resources": {name: str(value) for name, value in job.resources.items()} | {"gpu": str(job.resources.get("gpu", 0))},
        }
        for job in _attribute(workflow, "dag", "the run's DAG").needrun_jobs()
    ]


def target_files(workflow) -> list[str]:
    """The files the run was asked for."""
    return sorted(_attribute(workflow, "dag.targetfiles", "the run's targets"))


def record_key(relative: Path) -> str | None:
    """The output path a record file stands for: Snakemake names it by the path's urlsafe base64, cut into folder
    names of at most NAME_MAX - 1 characters, each but the last prefixed by '@'."""
    parts = list(relative.parts)
    if any(not p.startswith("@") for p in parts[:-1]):
        return None
    encoded = "".join(p[1:] for p in parts[:-1]) + parts[-1]
    try:
        return base64.urlsafe_b64decode(encoded.encode()).decode()
    except (ValueError, UnicodeDecodeError):
        return None


def record_path(directory: Path, key: str) -> Path:
    """Where Snakemake's file store keeps the record of ``key`` in ``directory`` (the inverse of ``record_key``)."""
    limit = os.pathconf(directory, "PC_NAME_MAX") if os.name == "posix" else 255
    limit = limit or 255
    encoded = base64.urlsafe_b64encode(key.encode()).decode()
    pieces = [encoded[i : i + limit - 1] for i in range(0, len(encoded), limit - 1)]
    return directory.joinpath(*["@" + p for p in pieces[:-1]], pieces[-1])


@dataclass(frozen=True)
class Record:
    """What Snakemake recorded of the job that made an output: its rule and input files."""

    rule: str | None
    inputs: tuple[str, ...]


def recorded_outputs(state_dir: str | os.PathLike) -> dict[str, Record]:
    """Output -> the record of the job that made it, from Snakemake's metadata (unreadable records, such as one being
    written, are skipped)."""
    root = Path(state_dir) / METADATA
    records: dict[str, Record] = {}
    if not root.is_dir():
        return records
    for folder, _, files in os.walk(root):
        for name in files:
            path = Path(folder) / name
            key = record_key(path.relative_to(root))
            if key is None:
                continue
            try:
                record = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if isinstance(record, dict) and isinstance(record.get("input"), list):
                records[key] = Record(record.get("rule"), tuple(str(f) for f in record["input"]))
    return records


def mark_incomplete(state_dir: str | os.PathLike, outputs: Iterable[str]) -> list[str]:
    """Mark ``outputs`` incomplete in Snakemake's file store, as a job that started and never finished leaves them; returns
    the ones newly marked."""
    directory = Path(state_dir) / INCOMPLETE
    directory.mkdir(parents=True, exist_ok=True)
    marked = []
    for output in outputs:
        path = record_path(directory, output)
        if path.exists():
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"external_jobid": None}), encoding="utf-8")
        marked.append(output)
    return marked


def output_time(path: str) -> float:
    """An output's modification time as Snakemake reads it (a directory's by its ``.snakemake_timestamp``)."""
    stamp = os.path.join(path, DIRECTORY_TIMESTAMP)
    return os.stat(stamp if os.path.isdir(path) and os.path.exists(stamp) else path).st_mtime
