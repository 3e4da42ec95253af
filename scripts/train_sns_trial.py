"""Rules train_sns_trial and train_booqa_hyponly_trial: fine-tune one trial of S&S (or a variant), keeping its best dev point;
its weights stay only while no finished trial of its search ranks above it."""

from directional_inference.levyholt.entries import read_subset_tsv, stratified_sample
from directional_inference.levyholt.scores import write_scores
from directional_inference.workflow.rulelog import start_job
from directional_inference.sns.search import keep_best_weights, read_trials, write_evaluations
from directional_inference.compute import set_threads
from directional_inference.sns.training import TrainingSettings, train_prompt_model, write_training_record

start_job(snakemake)
params, wildcards, output = snakemake.params, snakemake.wildcards, snakemake.output
settings = TrainingSettings(**params.settings)
set_threads(settings.threads)
seed = settings.seed
train = stratified_sample(read_subset_tsv(snakemake.input.train), params.samples["train"], seed)
dev = stratified_sample(read_subset_tsv(snakemake.input.dev), params.samples["dev"], seed)
result = train_prompt_model(
    snakemake.input.model,
    train,
    dev,
    read_trials(snakemake.input.hyperparameters)[int(wildcards.trial)],
    settings,
    output.weights,
    params.checkpoint_dir,
    selection_floor=params.selection_floor,
)
write_scores(output.dev_scores, dev, result.dev_scores)
write_evaluations(output.evaluations, result.evaluations, result.best)
write_training_record(output.record, result.record)
keep_best_weights(params.search, params.search_trials, params.selection_floor, output.record)
