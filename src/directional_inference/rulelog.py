"""Logging set-up shared by the rule scripts: everything (logging, warnings, tqdm, tracebacks) goes to the rule's log."""

from __future__ import annotations

import logging
import sys


def log_to_file(path: str) -> None:
    """Send logging records and stderr to ``path`` (the rule's ``log:`` file), line-buffered."""
    stream = open(path, "w", buffering=1, encoding="utf-8")  # noqa: SIM115 - lives as long as the job
    sys.stderr = stream
    logging.basicConfig(
        stream=stream,
        level=logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        force=True,
    )
    logging.captureWarnings(True)
