"""A scoring job's progress, saved as it goes, so that a job stopped at its time limit (or killed) resumes where it
stopped instead of scoring its evidence again.

Scoring streams the evidence in batches in a fixed order (``scoring.evidence_batches``) and keeps, per entry, the
best score so far: the running state after ``k`` batches is the entries' best scores, which entries had evidence,
and the pair counts of the deduplication ratio. ``ScoringProgress`` writes that state (atomically) at most every
``every_s`` seconds; a later run of the same job with the same inputs and settings (its ``signature``) skips the
first ``k`` batches and goes on. The maximum does not depend on where a run stopped, so the job's output is the same
bytes as an uninterrupted run's. The file lives outside the job's declared outputs (which Snakemake removes before a
rerun) and is removed when the job has written its output.
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .atomic import atomic_file, remove_stale_temporaries

log = logging.getLogger(__name__)


@dataclass
class ScoringState:
    """The running state of a scoring after ``batches`` batches of evidence."""

    batches: int
    best: np.ndarray
    has_evidence: np.ndarray
    pairs: float
    unique: float


def input_signature(settings: dict, inputs) -> str:
    """A digest of a job's settings and of the files it reads (path, size and modification time of every file under
    each input): progress saved under another signature is not resumed."""
    files = []
    for item in inputs:
        path = Path(item)
        for file in sorted(path.rglob("*")) if path.is_dir() else [path]:
            if file.is_file():
                stat = file.stat()
                files.append([str(file), stat.st_size, stat.st_mtime_ns])
    text = json.dumps({"settings": settings, "files": files}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


class ScoringProgress:
    """The progress file of one scoring job: ``path`` (an ``.npz``), ``signature`` (``input_signature``)."""

    def __init__(self, path: str | os.PathLike, signature: str, *, every_s: float = 60.0):
        self.path, self.signature, self.every_s = Path(path), signature, every_s
        self._saved_at = time.monotonic()

    def load(self, entries: int) -> ScoringState | None:
        """The saved state of this job (None: nothing saved, or saved by other inputs or settings)."""
        if not self.path.is_file():
            return None
        try:
            with np.load(self.path, allow_pickle=False) as saved:
                if str(saved["signature"]) != self.signature or len(saved["best"]) != entries:
                    log.info("scoring progress in %s is of other inputs or settings: starting over", self.path)
                    return None
                state = ScoringState(
                    int(saved["batches"]), saved["best"].copy(), saved["has_evidence"].copy(), float(saved["pairs"]), float(saved["unique"])
                )
        except (OSError, ValueError, KeyError) as error:
            log.warning("scoring progress in %s cannot be read (%s): starting over", self.path, error)
            return None
        log.info("resuming the scoring after batch %d of evidence (progress saved in %s)", state.batches, self.path)
        return state

    def save(self, state: ScoringState, *, force: bool = False) -> None:
        """Write ``state`` if ``every_s`` seconds have passed since the last write (or ``force``)."""
        if not force and time.monotonic() - self._saved_at < self.every_s:
            return
        buffer = io.BytesIO()
        np.savez(
            buffer,
            signature=np.array(self.signature),
            batches=np.array(state.batches),
            best=state.best,
            has_evidence=state.has_evidence,
            pairs=np.array(state.pairs),
            unique=np.array(state.unique),
        )
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_file(self.path) as tmp:
            Path(tmp).write_bytes(buffer.getvalue())
        self._saved_at = time.monotonic()

    def remove(self) -> None:
        """Remove the progress file, and any ``.part`` of it that a save interrupted by a kill left."""
        self.path.unlink(missing_ok=True)
        remove_stale_temporaries(self.path)
