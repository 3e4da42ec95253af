"""Rule make_booqa_table: Table 5 (BoOQA test) or Table 15 (dev), ours beside the paper's, notes for methods that cannot run."""

from directional_inference.booqa_methods import booqa_score_path, booqa_table_rows
from directional_inference.levyholt_tables import write_csv
from directional_inference.rulelog import log_to_file

log_to_file(snakemake.log[0])
params = snakemake.params
split = "test" if snakemake.wildcards.booqa_table == "table5" else "dev"
why_not = {
    "lm": "the configured encoder cannot read this language (no Chinese or multilingual weights offline; evaluation.model_languages)",
    "sns": "the S&S models are trained from an English-only encoder (evaluation.model_languages)",
    "graph": "measure not in graphs.measures",
}
header, rows = booqa_table_rows(
    split, params.languages, params.runnable, booqa_score_path,
    model=params.model, scale=params.scale, auc_floor=params.auc_floor, why_not=why_not,
)
write_csv(snakemake.output[0], header, rows)
