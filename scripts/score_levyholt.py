"""Rule score_levyholt: the selected model scores a LevyHolt / SherLIiC test set."""

from directional_inference.levyholt import read_subset_tsv
from directional_inference.levyholt_tables import write_scores
from directional_inference.rulelog import log_to_file
from directional_inference.sns import PromptScorer

log_to_file(snakemake.log[0])
import torch  # noqa: E402

torch.set_num_threads(snakemake.threads)
scorer = PromptScorer(snakemake.input.model, max_length=snakemake.params.max_length, symmetric=snakemake.wildcards.variant == "sns_sym")
test = read_subset_tsv(snakemake.input.test)
write_scores(snakemake.output[0], test, scorer.scores(test))
