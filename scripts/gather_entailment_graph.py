"""Rule gather_entailment_graph: the graph jobs' parts of one graph as one file."""

import logging

from directional_inference.graphs import gather_graph_parts
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
edges = gather_graph_parts(snakemake.input.parts, snakemake.output[0])
logging.info("%d edges", edges)
