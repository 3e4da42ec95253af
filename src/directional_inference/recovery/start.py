"""What a run does at its start, in order: stale locks, stale outputs, stale scratch (see the package docstring)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable

from .locks import LockOwner, other_runs, release_stale_locks
from .outputs import code_changes, mark_stale_outputs, rule_products
from ..scratch import scratch_root, sweep_scratch


def recover_at_start(
    state_dir: str | os.PathLike,
    rules: Iterable,
    package_dir: str | os.PathLike,
    configured_scratch: str | None,
    *,
    metadata_in_files: bool = True,
    tell: Callable[[str], None] = print,
) -> LockOwner:
    """The recovery of a run that starts in this directory (module docstring), before Snakemake plans its jobs:
    ``rules`` are the workflow's (Snakemake rules: their outputs and scripts), ``package_dir`` this package's source,
    ``configured_scratch`` the config's ``scratch_root``; ``metadata_in_files`` says whether Snakemake keeps its
    metadata in its file store (the default), which the stale-output check reads; ``tell`` prints a message. Returns this run's lock owner record."""
    rules = list(rules)
    release_stale_locks(state_dir, report=tell)
    if metadata_in_files:
        scripts = {rule.name: os.path.join(rule.basedir, rule.script) for rule in rules if rule.script}
        mark_stale_outputs(state_dir, rule_products(rules), code_changes(scripts, package_dir), report=tell)
    else:
        tell(
            "Snakemake's metadata is not in its file store (--persistence-backend): outputs made from what a killed "
            "job took with it are not found; after a kill, rerun with --forcerun on the killed job's rule."
        )
    if not other_runs(state_dir):
        swept = sweep_scratch(scratch_root(configured_scratch))
        if swept:
            tell(
                f"Removed {len(swept)} scratch folder(s) that killed jobs left: {', '.join(str(p) for p in swept[:5])}"
                + (" ..." if len(swept) > 5 else "")
            )
    return LockOwner(state_dir)
