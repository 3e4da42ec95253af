"""Stale outputs: what was made from an output that a killed or failed job took with it, marked to be made again.

Snakemake plans backwards from the requested targets: an output that exists, is newer than its inputs and was made
with today's params is up to date, and the jobs that made its inputs are not looked at again. When a job dies (a kill,
an out-of-memory kill, a time limit, a failure) Snakemake has already removed its old outputs, so the outputs made
from them earlier stay behind and a plain rerun keeps them: "Nothing to be done" with the dead job's outputs missing
or, after a config change, results of the old config downstream of the new ones.

Snakemake records, for every output it accepted, the rule and the input files of the job that made it
(``.snakemake/metadata``, one JSON record per output, read through ``workflow.snakemake_state``). At the start of every run (rules/recovery.smk, main process)
each existing recorded output is judged: it is *stale* when one of its recorded inputs is a product of the workflow
(the output of a rule, not a ``temp()`` one, which is removed by design) that no longer exists; when a module of this
package that its rule's script imports (directly or not) is newer than it, the rule Snakemake applies to the script
itself, carried to the code the script runs; or when one of its recorded inputs is stale. A stale output is marked
incomplete in Snakemake's own record (``.snakemake/incomplete``): Snakemake then re-makes it, with the jobs that make
its missing inputs and everything downstream (``rerun-incomplete``, which every profile of this workflow sets), in a
dry run as in a real run; one outside the requested targets stays marked, and so untrusted, until a run makes it.
Nothing is deleted here. A product removed by hand counts as lost too: what was made from it is made again (as
``dvc repro`` would), because nothing tells a removal by hand from one by a dying job.

Only Snakemake's default (file) metadata store is read; with ``--persistence-backend db`` the check is off and the run
says so.
"""

from __future__ import annotations

import os
from collections import defaultdict, deque
from collections.abc import Callable
from pathlib import Path

from ..workflow.snakemake_state import Record, mark_incomplete, output_time, recorded_outputs


def stale_outputs(
    records: dict[str, Record],
    exists: Callable[[str], bool],
    is_product: Callable[[str], bool],
    outdated: Callable[[str, str | None], str | None] = lambda output, rule: None,
) -> dict[str, str]:
    """The existing outputs of ``records`` that are stale (module docstring), each with the reason, in the order they
    were found: those made from a lost product (a missing input that ``is_product``) or that ``outdated`` gives a reason
    for, then, breadth first, what was made from them."""
    consumers: dict[str, list[str]] = defaultdict(list)
    for output, record in sorted(records.items()):
        for path in dict.fromkeys(record.inputs):
            consumers[path].append(output)
    present: dict[str, bool] = {}

    def there(path: str) -> bool:
        if path not in present:
            present[path] = exists(path)
        return present[path]

    stale: dict[str, str] = {}
    queue: deque[str] = deque()
    for path in sorted(consumers):
        if not there(path) and is_product(path):
            for output in consumers[path]:
                if output not in stale and there(output):
                    stale[output] = f"its input {path} is missing"
                    queue.append(output)
    for output, record in sorted(records.items()):
        if output not in stale and there(output):
            reason = outdated(output, record.rule)
            if reason:
                stale[output] = reason
                queue.append(output)
    while queue:
        path = queue.popleft()
        for output in consumers.get(path, ()):
            if output not in stale and there(output):
                stale[output] = f"made from {path}, which is stale"
                queue.append(output)
    return stale


def code_changes(
    scripts: dict[str, str], package_dir: str | os.PathLike, time_of: Callable[[str], float] = output_time
) -> Callable[[str, str | None], str | None]:
    """``outdated`` for ``stale_outputs``: an output is outdated when a module of the package that its rule's script
    (``scripts``: rule name -> script path) imports, directly or not, is newer than the output."""
    from ..workflow.dvc_pipeline import module_dependencies

    newest: dict[str, tuple[float, str]] = {}

    def outdated(output: str, rule: str | None) -> str | None:
        script = scripts.get(rule or "")
        if script is None:
            return None
        if rule not in newest:
            modules = [Path(package_dir) / m for m in module_dependencies([script], package_dir)]
            newest[rule] = max(((m.stat().st_mtime, str(m)) for m in modules if m.exists()), default=(0.0, ""))
        changed, module = newest[rule]
        return f"its code changed since it was made ({module})" if changed > time_of(output) else None

    return outdated


def rule_products(rules) -> Callable[[str], bool]:
    """Whether a path is made by one of ``rules`` (Snakemake rules: each output pattern matched with its wildcard
    constraints) and kept: a ``temp()`` output is removed once its consumers are done, so its absence is no loss."""
    patterns = [(output, output.is_flagged("temp")) for rule in rules for output in rule.output]

    def is_product(path: str) -> bool:
        for output, temporary in patterns:
            if output.match(path):
                return not temporary
        return False

    return is_product


def mark_stale_outputs(
    state_dir: str | os.PathLike,
    is_product: Callable[[str], bool],
    outdated: Callable[[str, str | None], str | None] = lambda output, rule: None,
    report: Callable[[str], None] = print,
    shown: int = 5,
) -> dict[str, str]:
    """Judge every recorded output (module docstring), mark the stale ones incomplete and report them; returns them."""
    stale = stale_outputs(recorded_outputs(state_dir), os.path.exists, is_product, outdated)
    if stale:
        mark_incomplete(state_dir, stale)
        lines = [f"  {output}: {reason}" for output, reason in list(stale.items())[:shown]]
        more = f"\n  ... and {len(stale) - shown} more" if len(stale) > shown else ""
        report(
            f"{len(stale)} output(s) no longer follow their inputs or code (a job that made an input was killed or "
            "failed, the input was removed, or the code changed): marked incomplete, so this run makes them again "
            "with what they are made from (rerun-incomplete):\n" + "\n".join(lines) + more
        )
    return stale
