"""Rule build_booqa_hyponly: type-masked hypothesis-only BoOQA (train and dev2 from dev, test) for Table 3."""

import pandas as pd

from directional_inference.booqa.hyponly import hypothesis_only_splits
from directional_inference.levyholt.entries import write_entries
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
settings = snakemake.params.settings
splits = hypothesis_only_splits(
    pd.read_parquet(snakemake.input.dev),
    pd.read_parquet(snakemake.input.test),
    train_positives=settings["booqa_train_positives"],
    dev_positives=settings["booqa_dev_positives"],
    seed=snakemake.params.seed,
    premise=(settings["premise"][snakemake.wildcards.lang], "", ""),
)
for name, entries in splits.items():
    write_entries(snakemake.output[name], entries)
