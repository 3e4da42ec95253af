"""Rules score_levyholt and score_booqa_hyponly: a selected prompt model scores a test set (LevyHolt, SherLIiC, H-only BoOQA)."""

from directional_inference.levyholt import read_subset_tsv
from directional_inference.levyholt_tables import write_scores
from directional_inference.rulelog import log_to_file
from directional_inference.sns.model import PromptScorer
from directional_inference.sns.training import set_threads

log_to_file(snakemake.log[0])
params = snakemake.params
set_threads(params.torch_threads)
scorer = PromptScorer(snakemake.input.model, max_length=params.max_length, symmetric=params.symmetric, lang=params.lang,
                      precision=params.precision)
test = read_subset_tsv(snakemake.input.test)
write_scores(snakemake.output[0], test, scorer.scores(test))
