"""Rule score_levyholt: a selected prompt model scores every test set it is compared on (LevyHolt subsets, SherLIiC),
each distinct pair once."""

import logging

from directional_inference.workflow.rulelog import start_job
from directional_inference.levyholt.scores import score_test_sets
from directional_inference.sns.model import PromptScorer
from directional_inference.compute import set_threads

start_job(snakemake)
params = snakemake.params
set_threads(params.torch_threads)
scorer = PromptScorer(snakemake.input.model, **params.scorer)
tests = {name: path for name, path in snakemake.input.items() if name != "model"}
pairs = score_test_sets(scorer, tests, snakemake.output[0])
logging.info("%d distinct pairs scored for %d test sets", pairs, len(tests))
