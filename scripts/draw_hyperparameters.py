"""Rule draw_hyperparameters: the trials of the search, drawn once from the seed (the same for every subset)."""

from directional_inference.workflow.rulelog import start_job
from directional_inference.sns.search import draw_trials, write_trials

start_job(snakemake)
params = snakemake.params
trials = draw_trials(params.trials, params.seed, params.learning_rate_range, params.weight_decay_range, params.grad_accumulation_range)
write_trials(snakemake.output[0], trials)
