"""Rule build_tiny_model: a small randomly initialised encoder with a tokenizer trained offline (smoke scale)."""

from directional_inference.resources.models import build_tiny_model, levyholt_texts
from directional_inference.workflow.rulelog import start_job
from directional_inference.sns.prompts import template_texts

start_job(snakemake)
texts = levyholt_texts(snakemake.input.texts) + template_texts()
build_tiny_model(snakemake.params.spec, texts, snakemake.output[0], seed=snakemake.params.seed)
