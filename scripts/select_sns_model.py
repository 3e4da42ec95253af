"""Rules select_sns_model and select_booqa_hyponly_model: the trial with the best dev AUC (precision >= floor) at its best
dev point; selection.csv lists every trial (and, where the trials are the authors', how the model was chosen)."""

from directional_inference.workflow.rulelog import start_job
from directional_inference.sns.search import read_trials, select_best_trial, trials_numbered

start_job(snakemake)
hyperparameters = snakemake.input.hyperparameters
select_best_trial(
    trials_numbered(read_trials(hyperparameters), snakemake.params.trials, hyperparameters),
    snakemake.input.dev_scores,
    snakemake.input.evaluations,
    snakemake.input.records,
    snakemake.input.weights,
    snakemake.params.floor,
    snakemake.output.selection,
    snakemake.output.best,
    origin=snakemake.params.origin,
)
