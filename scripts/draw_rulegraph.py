"""Rule draw_rulegraph: the rule graph of the default target for this run's config (results/rulegraph.svg)."""

import logging
import sys
from pathlib import Path

from directional_inference.scratch import job_scratch
from directional_inference.tools.rulegraph import draw_rulegraph, parse_rulegraph, snakemake_rulegraph
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
with job_scratch(snakemake) as scratch:
    dot = snakemake_rulegraph(
        Path(snakemake.scriptdir).parent, snakemake.params.config, "all", scratch, str(Path(sys.executable).with_name("snakemake"))
    )
names, edges = parse_rulegraph(dot)
names, edges = [n for n in names if n != "all"], [e for e in edges if "all" not in e]
logging.getLogger("draw_rulegraph").info("%d rules, %d edges: %s", len(names), len(edges), names)
draw_rulegraph(names, edges, snakemake.output[0], snakemake.params.title)
