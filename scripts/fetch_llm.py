"""Rule fetch_llm: a hub LLM of llm.scorers downloaded straight into resources/llms/<alias>/ (weights, tokenizer,
SOURCE.json), where Snakemake runs."""

from directional_inference.resources.hub import LLM_FILE_PATTERNS, download_hub_model
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
download_hub_model(snakemake.params.name, snakemake.output[0], LLM_FILE_PATTERNS)
