"""Rule convert_released_predictions: the released predictions of McKenna, Li et al. 2023 on the directional LevyHolt
test in the documented predictions format (llm.predictions)."""

from directional_inference.llm.predictions import write_predictions
from directional_inference.llm.released import convert
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
write_predictions(snakemake.output[0], convert(snakemake.input.released, snakemake.input.authors))
