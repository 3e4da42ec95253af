"""Files and blocks of files that code writes and a check compares: a whole generated file (config/README.md,
dvc.yaml), or a marked block of a hand-written document (the findings of docs/results.md, the scale benchmark's table
of docs/run-times.md)."""

from __future__ import annotations

import sys
from pathlib import Path


def splice_block(document: str, start: str, end: str, block: str) -> str:
    """``document`` with the text between its markers ``start`` and ``end`` replaced by ``block``."""
    at, until = document.find(start), document.find(end)
    if at < 0 or until < at:
        raise ValueError(f"the document has no {start} ... {end} block")
    return document[: at + len(start)] + "\n" + block + document[until:]


def write_or_check(target: Path, text: str, module: str, check: bool) -> int:
    """Write ``text`` to ``target``, or with ``check`` only compare: 1 (and a line naming the command that runs
    ``module``, as typed at the repository root) when it differs."""
    if check:
        if not target.is_file() or target.read_text(encoding="utf-8") != text:
            print(f"{target} is stale: run .venv/bin/python -m {module}", file=sys.stderr)
            return 1
        return 0
    target.write_text(text, encoding="utf-8")
    return 0
