"""Rule write_model_card: the card (README.md) of a selected model: base model, training data and settings, stopping
point, dev and test AUCnorm with intervals, sanity check, and what the model is and is not for."""

from pathlib import Path

from directional_inference.rulelog import log_to_file
from directional_inference.tables.common import Evaluation
from directional_inference.tables.model_cards import write_model_card

log_to_file(snakemake.log[0])
inputs, params, wildcards = snakemake.input, snakemake.params, snakemake.wildcards
scores = {test: Path(inputs.scores) / f"{test}.parquet" for test in params.tests}
write_model_card(snakemake.output[0], alias=wildcards.lm, variant=wildcards.variant, subset=wildcards.subset, scale=params.scale,
                 model_dir=Path(inputs.selection).parent, base_dir=inputs.base, score_files=scores,
                 evaluation=Evaluation(**params.evaluation))
