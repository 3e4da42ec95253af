"""Rule build_tiny_model: a small randomly initialised encoder with a tokenizer trained offline (smoke scale)."""

from directional_inference.models import build_tiny_model, levyholt_texts
from directional_inference.rulelog import log_to_file

log_to_file(snakemake.log[0])
build_tiny_model(snakemake.params.spec, levyholt_texts(snakemake.input.texts), snakemake.output[0], seed=snakemake.params.seed)
