# Before any job is planned: the package on the path, the merged config checked (one line per problem), and the
# recovery after a crash (the lock of a run that is gone is removed). No rules and no helpers here.
import os
import sys

import yaml
from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

sys.path.insert(0, os.path.join(workflow.basedir, "src"))

from directional_inference.config_checks import config_problems, pin_problems, schema_problems, user_input_problems  # noqa: E402
from directional_inference.stale_locks import LockOwner, release_stale_locks  # noqa: E402


def stop_for_config(problems):
    """End the run before any job is planned, with one line per config problem (no traceback, no schema dump)."""
    if problems:
        print("Error in the config (config/config.yaml overlaid by --configfile and --config):", file=sys.stderr)
        for problem in problems:
            print(f"  {problem}", file=sys.stderr)
        sys.exit(1)


try:
    validate(config, schema="../config/schema.yaml")
except WorkflowError:
    with open(os.path.join(workflow.basedir, "config", "schema.yaml"), encoding="utf-8") as schema:
        stop_for_config(schema_problems(config, yaml.safe_load(schema)) or ["the config does not match config/schema.yaml"])
stop_for_config(config_problems(config) + user_input_problems(config) + pin_problems(config))

# After kill -9 or a power loss the next run recovers by itself: the lock of a run that is gone is removed here
# (src/directional_inference/stale_locks.py) and its unfinished jobs re-run (profiles/default: rerun-incomplete).
# Only in the main Snakemake process: cluster and subprocess jobs re-parse this file and never touch locks.
LOCK_OWNER = None
if workflow.is_main_process:
    release_stale_locks(".snakemake", report=lambda message: print(message, file=sys.stderr))
    LOCK_OWNER = LockOwner(".snakemake")


onstart:
    if LOCK_OWNER is not None:  # the lock files this run holds, for a later run to recognise if this one dies
        LOCK_OWNER.record_locks(getattr(workflow.persistence, "_lockfile", {}).values())
