"""Rule import_graph_files: a graph made elsewhere (graphs.from_files.<name>), its Hosseini-format files as one graph table."""

from directional_inference.graphs import import_graph_files
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
import_graph_files(snakemake.input, snakemake.params.section, snakemake.output[0])
