"""Rules write_model_card and write_booqa_hyponly_card: the card (README.md) of a selected model: base model, training
data and settings, stopping point, dev and test AUCnorm with intervals, sanity check, and what the model is and is not
for."""

from pathlib import Path

from directional_inference.workflow.rulelog import start_job
from directional_inference.tables.common import Evaluation
from directional_inference.tables.model_cards import write_model_card

start_job(snakemake)
inputs, params, wildcards = snakemake.input, snakemake.params, snakemake.wildcards
write_model_card(
    snakemake.output[0],
    alias=wildcards.lm,
    variant=wildcards.get("variant", "hyponly"),
    trained_on=params.trained_on,
    dataset=params.dataset,
    scale=params.scale,
    model_dir=Path(inputs.selection).parent,
    base_dir=inputs.base,
    score_files=params.score_files,
    evaluation=Evaluation(**params.evaluation),
)
