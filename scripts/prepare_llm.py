"""Rule prepare_llm: a causal LM of llm.models saved as a workflow artefact (weights, tokenizer, SOURCE.json)."""

from directional_inference.llm.models import prepare_llm
from directional_inference.resources.models import levyholt_texts
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
prepare_llm(snakemake.params.spec, snakemake.output[0], texts=levyholt_texts(snakemake.input.texts), seed=snakemake.params.seed)
