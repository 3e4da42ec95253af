"""Rule make_table3: hypothesis-only robustness on BoOQA beside the paper's Table 3."""

from directional_inference.booqa_methods import table3_rows
from directional_inference.levyholt_tables import write_csv
from directional_inference.rulelog import log_to_file

log_to_file(snakemake.log[0])
params = snakemake.params
header, rows = table3_rows(
    params.languages, lambda lang, trained_on: f"results/robustness/{lang}/scores/{params.models[lang]}/{trained_on}.parquet",
    models=params.models, scale=params.scale,
)
write_csv(snakemake.output[0], header, rows)
