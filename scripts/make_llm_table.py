"""Rule make_llm_table: large language models on directional LevyHolt beside the S&S models (results/table_llm.csv),
and the precision-recall curves of its main rows."""

import json

import pandas as pd

from directional_inference.levyholt.experiments import levyholt_score_path
from directional_inference.tables.common import Evaluation, write_csv
from directional_inference.tables.figures import plot_pr_curves
from directional_inference.tables.llm import figure_curves, table_rows
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
params = snakemake.params
joined = {test: pd.read_parquet(path) for test, path in zip(params.tests, snakemake.input.scores)}
joins = json.loads(open(snakemake.input.joins, encoding="utf-8").read())
run_files = iter(snakemake.input.run_tests)  # per other test set of this run: its joined scores, then its joins' counts
for test, scores, counts in zip(params.run_tests, run_files, run_files):
    joined[test] = pd.read_parquet(scores)
    joins |= json.loads(open(counts, encoding="utf-8").read())
sns = {
    lm: {subset: pd.read_parquet(levyholt_score_path(lm, "sns", subset, "directional")) for subset in ("directional", "full")} for lm in params.lms
}
test_entries = {test: next(iter(joins[test].values()))["entries"] for test in joins}
header, rows = table_rows(joined, joins, sns, test_entries=test_entries, scale=params.scale, evaluation=Evaluation(**params.evaluation))
write_csv(snakemake.output.csv, header, rows)
plot_pr_curves(
    {"LevyHolt Directional test of this run": figure_curves(joined["directional_run"], sns[params.lms[0]], params.lms[0])},
    f"LLMs and S&S ({params.lms[0]}), {params.scale} scale",
    snakemake.output.png,
    snakemake.output.svg,
)
