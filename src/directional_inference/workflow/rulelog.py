"""The start of every rule script (``start_job``): everything (logging, warnings, tqdm, tracebacks) goes to the rule's
log, which ends with the job's exact peak memory (``peak memory: <MB> MB``; the scale benchmark reads it), and a job
whose resources ask for a GPU stops at once where it sees none (``compute.require_gpus``)."""

from __future__ import annotations

import atexit
import logging
import sys

PEAK_MEMORY_LINE = "peak memory: {:.0f} MB"


def peak_memory_mb() -> float:
    """Peak resident memory of this process and of its finished children, in MB (``getrusage``: exact, where a poller
    such as Snakemake's benchmark samples every 30 s and can miss a short peak)."""
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, children) / 1024


def log_to_file(path: str) -> None:
    """Send logging records and stderr to ``path`` (the rule's ``log:`` file), line-buffered; log the peak memory at exit."""
    stream = open(path, "w", buffering=1, encoding="utf-8")  # noqa: SIM115 - lives as long as the job
    sys.stderr = stream
    logging.basicConfig(
        stream=stream,
        level=logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        force=True,
    )
    logging.captureWarnings(True)
    atexit.register(lambda: logging.getLogger("rulelog").info(PEAK_MEMORY_LINE.format(peak_memory_mb())))


def start_job(snakemake) -> None:
    """What every rule script does first: log to the rule's log file, and declare the GPUs the job's resources ask for
    (``gpu``), so that a GPU job that sees no CUDA device stops now, with the reason in its log, not after hours on the CPU."""
    from ..compute import NoGPUError, require_gpus

    log_to_file(snakemake.log[0])
    try:
        require_gpus(snakemake.resources.get("gpu", 0))
    except NoGPUError as error:
        logging.getLogger("rulelog").error("%s", error)
        raise SystemExit(1) from None
