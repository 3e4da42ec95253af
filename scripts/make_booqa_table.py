"""Rule make_booqa_table: Table 5 (BoOQA test), 15 (dev) or 16 (test, LM retrieval variants), ours beside the paper's,
notes for methods that cannot run."""

from directional_inference.booqa_methods import BOOQA_TABLES, METHODS, booqa_score_path, booqa_table_rows
from directional_inference.levyholt_tables import write_csv
from directional_inference.rulelog import log_to_file

log_to_file(snakemake.log[0])
params = snakemake.params
languages_read = snakemake.config["evaluation"]["model_languages"]


def why_not(method, lang):
    family, detail = METHODS[method]
    if family == "lm" and detail not in snakemake.config["evaluation"]["lm_retrieval"]:
        return "retrieval variant not in evaluation.lm_retrieval"
    if family in ("lm", "sns") and lang not in languages_read:
        return ("the configured encoder cannot read this language (no Chinese or multilingual weights offline; "
                "evaluation.model_languages)" if family == "lm" else
                "the S&S models are trained from an English-only encoder (evaluation.model_languages)")
    return "measure not in graphs.measures" if family == "graph" else "not configured"


header, rows = booqa_table_rows(
    BOOQA_TABLES[snakemake.wildcards.booqa_table], params.languages, params.runnable, booqa_score_path,
    model=params.model, scale=params.scale, auc_floor=params.auc_floor, why_not=why_not,
)
write_csv(snakemake.output[0], header, rows)
