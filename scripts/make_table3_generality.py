"""Rule make_table3_generality: what Table 3's hypothesis-only models rank English BoOQA test by (WordNet depth of the
predicate, its frequency)."""

from functools import cache

import pandas as pd

from directional_inference.levyholt.entries import read_subset_tsv
from directional_inference.layout import robustness_score_path
from directional_inference.resources.wordnet import open_wordnet
from directional_inference.workflow.rulelog import start_job
from directional_inference.tables.common import write_csv
from directional_inference.tables.generality import HEADER, generality_rows, not_run_row, predicate_depth

start_job(snakemake)
params, inputs = snakemake.params, snakemake.input
if not inputs:
    rows = [not_run_row(params.scale)]
else:
    wordnet = open_wordnet(inputs.wordnet)
    benchmark = pd.read_parquet(inputs.benchmark)
    frequency = {(b, p): int(f) for b, p, f in zip(benchmark["bundle_id"], benchmark["pred"], benchmark["frequency"])}
    hypotheses, depth = read_subset_tsv(inputs.hypotheses), cache(lambda pred: predicate_depth(pred, wordnet))
    rows = [
        row
        for lm in params.models  # the main language model first
        for row in generality_rows(
            hypotheses, {t: robustness_score_path("en", lm, t) for t in params.trained_on}, frequency, depth, model=lm, scale=params.scale
        )
    ]
write_csv(snakemake.output[0], HEADER, rows)
