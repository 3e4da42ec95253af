"""Rule make_table3: hypothesis-only robustness on BoOQA beside the paper's Table 3, with intervals."""

from directional_inference.layout import robustness_score_path
from directional_inference.workflow.rulelog import start_job
from directional_inference.tables.booqa import table3_rows
from directional_inference.tables.common import Evaluation, write_csv

start_job(snakemake)
params = snakemake.params
header, rows = table3_rows(
    params.languages,
    robustness_score_path,
    models=params.models,
    scale=params.scale,
    evaluation=Evaluation(**params.evaluation),
)
write_csv(snakemake.output[0], header, rows)
