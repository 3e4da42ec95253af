"""Rule make_levyholt_table: Table 1, 2 or 6, or the numbers of Figure 1 / 2, beside the paper's, with intervals."""

from directional_inference.levyholt.experiments import levyholt_score_path as score_path
from directional_inference.layout import search_directory
from directional_inference.workflow.rulelog import start_job
from directional_inference.tables import levyholt as tables
from directional_inference.tables.common import Evaluation, read_model_record, write_csv

start_job(snakemake)
params = snakemake.params
models = [tables.ModelInfo(alias, name) for alias, name in params.models]
table, scale, evaluation, conventions = snakemake.wildcards.table, params.scale, Evaluation(**params.evaluation), params.conventions


def record(alias, variant, subset):
    return read_model_record(search_directory(alias, variant, subset))


if table == "table1":
    header, rows = tables.table1_rows(models, score_path, scale, evaluation, conventions, record)
elif table == "table2":
    header, rows = tables.table2_rows(models, score_path, scale, evaluation, conventions, record)
elif table == "table6":
    header, rows = tables.table6_rows(models, score_path, scale, evaluation, record)
else:
    variant = "sns" if table == "figure1" else "hyponly"
    header, rows = [], []
    for model in models:
        header, model_rows = tables.mesh_rows(model, variant, score_path, scale, evaluation, conventions, record)
        rows += model_rows
write_csv(snakemake.output[0], header, rows)
