"""Rule score_booqa_hyponly: a hypothesis-only model scores type-masked BoOQA test (Table 3); groups are bundles."""

from directional_inference.levyholt.entries import read_subset_tsv
from directional_inference.workflow.rulelog import start_job
from directional_inference.levyholt.scores import write_scores
from directional_inference.sns.model import PromptScorer
from directional_inference.compute import set_threads

start_job(snakemake)
params = snakemake.params
set_threads(params.torch_threads)
scorer = PromptScorer(snakemake.input.model, max_length=params.max_length, symmetric=False, lang=params.lang, precision=params.precision)
test = read_subset_tsv(snakemake.input.test)
write_scores(snakemake.output[0], test, scorer.scores(test), groups=[e.subgroup for e in test])
