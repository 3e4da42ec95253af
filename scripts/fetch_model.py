"""Rule fetch_model: the weights and tokenizer of a configured model into resources/models/<alias>/."""

from directional_inference.resources.models import snapshot_model
from directional_inference.workflow.rulelog import log_to_file

log_to_file(snakemake.log[0])
snapshot_model(snakemake.params.name, snakemake.output[0])
