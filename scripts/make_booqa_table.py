"""Rule make_booqa_table: Table 5 (BoOQA test), 15 (dev) or 16 (test, LM retrieval variants), ours beside the paper's,
notes for methods that cannot run."""

from directional_inference.booqa_methods import BOOQA_TABLES, booqa_score_path, booqa_table_rows, why_not_runnable
from directional_inference.levyholt_tables import write_csv
from directional_inference.rulelog import log_to_file

log_to_file(snakemake.log[0])
params = snakemake.params
available = params.availability


def why_not(method, lang):
    return why_not_runnable(method, lang, available["model_languages"], available["measures"], available["lm_retrieval"])


header, rows = booqa_table_rows(
    BOOQA_TABLES[snakemake.wildcards.booqa_table], params.languages, params.runnable, booqa_score_path,
    model=params.model, scale=params.scale, auc_floor=params.auc_floor, why_not=why_not,
)
write_csv(snakemake.output[0], header, rows)
