"""Rule make_booqa_table: Table 5 (BoOQA test), 15 (dev) or 16 (test, LM retrieval variants), ours with intervals beside
the paper's, notes for methods that cannot run."""

from directional_inference.evaluation.methods import BOOQA_TABLES, BooqaMethods, method_alias, method_spec
from directional_inference.layout import booqa_scores, search_directory
from directional_inference.levyholt.experiments import language_subset
from directional_inference.workflow.rulelog import start_job
from directional_inference.tables.booqa import booqa_table_rows
from directional_inference.tables.common import Evaluation, read_model_record, write_csv

start_job(snakemake)
params = snakemake.params


def record(method, lang):
    variant, subset = method_spec(method)[1]
    alias = method_alias(method) or params.models["sns"][lang]
    return read_model_record(search_directory(alias, variant, language_subset(subset, lang)))


header, rows = booqa_table_rows(
    BOOQA_TABLES[snakemake.wildcards.booqa_table],
    params.languages,
    params.runnable,
    booqa_scores,
    models=params.models,
    scale=params.scale,
    evaluation=Evaluation(**params.evaluation),
    why_not=BooqaMethods(**params.booqa_methods).why_not,
    model_kinds=params.model_kinds,
    record=record,
    methods=params.methods,
)
write_csv(snakemake.output[0], header, rows)
