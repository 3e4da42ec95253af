"""Rule fetch_model: the weights and tokenizer of a configured model into resources/models/<alias>/."""

from directional_inference.resources.models import snapshot_model
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
snapshot_model(snakemake.params.name, snakemake.output[0])
