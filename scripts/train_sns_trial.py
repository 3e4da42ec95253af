"""Rules train_sns_trial and train_booqa_hyponly_trial: fine-tune one trial of S&S (or a variant) and score its dev set."""

from directional_inference.levyholt import read_subset_tsv
from directional_inference.levyholt_tables import write_scores
from directional_inference.rulelog import log_to_file
from directional_inference.sns import TrainingSettings, read_trials, train_prompt_model

log_to_file(snakemake.log[0])
params, wildcards = snakemake.params, snakemake.wildcards
hyperparameters = read_trials(snakemake.input.hyperparameters)[int(wildcards.trial)]
settings = TrainingSettings(
    epochs=params.epochs,
    batch_size=params.batch_size,
    max_length=params.max_length,
    seed=params.seed,
    symmetric=params.symmetric,
    threads=snakemake.threads,
)
scorer = train_prompt_model(
    snakemake.input.model,
    read_subset_tsv(snakemake.input.train),
    hyperparameters,
    settings,
    snakemake.output.weights,
    params.checkpoint_dir,
)
dev = read_subset_tsv(snakemake.input.dev)
write_scores(snakemake.output.dev_scores, dev, scorer.scores(dev))
