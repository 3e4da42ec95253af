"""Rule make_levyholt_table: Table 1, 2 or 6, or the numbers of Figure 1 / 2, beside the paper's."""

from directional_inference import levyholt_tables as tables
from directional_inference.experiments import levyholt_score_path as score_path
from directional_inference.rulelog import log_to_file

log_to_file(snakemake.log[0])
models = [tables.ModelInfo(alias, name) for alias, name in snakemake.params.models]


table, scale, floor = snakemake.wildcards.table, snakemake.params.scale, snakemake.params.auc_floor
conventions = snakemake.params.conventions
if table == "table1":
    header, rows = tables.table1_rows(models, score_path, scale, floor, conventions)
elif table == "table2":
    header, rows = tables.table2_rows(models, score_path, scale, floor, conventions)
elif table == "table6":
    header, rows = tables.table6_rows(models, score_path, scale, floor)
else:
    variant = "sns" if table == "figure1" else "hyponly"
    header, rows = [], []
    for model in models:
        header, model_rows = tables.mesh_rows(model, variant, score_path, scale, floor, conventions)
        rows += model_rows
tables.write_csv(snakemake.output[0], header, rows)
