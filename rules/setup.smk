# First of all: the package on the path and the merged config checked (one line per problem). No rules and
# no helpers here; the recovery after a crash or a change is rules/recovery.smk, once every rule is defined.
import os
import sys

import yaml
from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

sys.path.insert(0, os.path.join(workflow.basedir, "src"))

from directional_inference.workflow.config_checks import config_problems, pin_problems, schema_problems, user_input_problems  # noqa: E402


def stop_for_config(problems, heading="Error in the config (config/config.yaml overlaid by --configfile and --config):"):
    """End the run before any job runs, with one line per problem (no traceback, no schema dump)."""
    if problems:
        print(heading, file=sys.stderr)
        for problem in problems:
            print(f"  {problem}", file=sys.stderr)
        sys.exit(1)


try:
    validate(config, schema="../config/schema.yaml")
except WorkflowError:
    with open(os.path.join(workflow.basedir, "config", "schema.yaml"), encoding="utf-8") as schema:
        stop_for_config(schema_problems(config, yaml.safe_load(schema)) or ["the config does not match config/schema.yaml"])
stop_for_config(config_problems(config) + user_input_problems(config) + pin_problems(config))
