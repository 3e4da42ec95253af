"""Rule write_pr_points: precision-recall points of the Table 1 models (DVC plots)."""

from directional_inference.levyholt.experiments import levyholt_score_path
from directional_inference.workflow.rulelog import start_job
from directional_inference.tables.common import write_csv
from directional_inference.tables.levyholt import ModelInfo, pr_points

start_job(snakemake)
models = [ModelInfo(alias, name) for alias, name in snakemake.params.models]
write_csv(snakemake.output[0], ["curve", "recall", "precision"], pr_points(models, levyholt_score_path))
