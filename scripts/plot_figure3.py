"""Rule plot_figure3: precision-recall curves on BoOQA test of the representative LM, S&S and graph methods (S&S Full of
every language model of training.booqa_language_models), and their points as DVC plots."""

import pandas as pd

from directional_inference.evaluation.methods import figure3_methods
from directional_inference.layout import booqa_scores
from directional_inference.workflow.rulelog import start_job
from directional_inference.tables.common import write_csv
from directional_inference.tables.figures import plot_figure3
from directional_inference.tables.summary import booqa_pr_points

start_job(snakemake)
params = snakemake.params
curves = {lang: {m: pd.read_parquet(booqa_scores(lang, "test", m)) for m in figure3_methods(methods)} for lang, methods in params.runnable.items()}
plot_figure3(curves, f"model {params.model}, {params.scale} scale", snakemake.output.png, snakemake.output.svg)
write_csv(snakemake.output.points, ["curve", "recall", "precision"], booqa_pr_points(curves))
