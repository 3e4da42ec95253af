"""Rule collect_metrics: every number of the tables as one JSON file (DVC metrics)."""

import json
from pathlib import Path

from directional_inference.atomic import write_text_atomic
from directional_inference.tables.summary import metrics_summary
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
summary = metrics_summary({Path(path).stem: path for path in snakemake.input})
write_text_atomic(snakemake.output[0], json.dumps(summary, indent=1, sort_keys=True) + "\n")
