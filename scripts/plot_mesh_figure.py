"""Rule plot_mesh_figure: Figure 1 (S&S) or Figure 2 (hypothesis-only) as the sub-group mesh, for the main model."""

import pandas as pd

from directional_inference.tables.figures import plot_mesh
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
rows = pd.read_csv(snakemake.input[0])
main = rows[rows["model"] == rows["model"].iloc[0]]
values = {r.subset: r.auc_norm / 100 for r in main.itertuples() if pd.notna(r.auc_norm)}
what = "S&S" if snakemake.wildcards.figure == "figure1" else "hypothesis-only S&S"
title = f"{what}, AUCnorm % ({main['model'].iloc[0]}, {main['scale'].iloc[0]} scale)"
plot_mesh(values, title, snakemake.output.png, snakemake.output.svg)
