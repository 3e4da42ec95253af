"""Rules score_levyholt and score_booqa_hyponly: a selected prompt model scores a test set (LevyHolt, SherLIiC, H-only BoOQA)."""

from directional_inference.levyholt import read_subset_tsv
from directional_inference.levyholt_tables import write_scores
from directional_inference.rulelog import log_to_file
from directional_inference.sns import PromptScorer

log_to_file(snakemake.log[0])
import torch  # noqa: E402

torch.set_num_threads(snakemake.threads)
scorer = PromptScorer(snakemake.input.model, max_length=snakemake.params.max_length, symmetric=snakemake.params.symmetric)
test = read_subset_tsv(snakemake.input.test)
write_scores(snakemake.output[0], test, scorer.scores(test))
