"""Rule fetch_model: the weights and tokenizer of a configured model into resources/models/<alias>/ (a hub model
downloaded straight into place)."""

from directional_inference.resources.hub import save_model
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
save_model(snakemake.params.name, snakemake.output[0])
