"""Rule build_booqa_hyponly: type-masked hypothesis-only BoOQA (train and dev2 from dev, test) for Table 3."""

import pandas as pd

from directional_inference.booqa.hyponly import hypothesis_only_splits
from directional_inference.levyholt import write_entries
from directional_inference.rulelog import log_to_file

log_to_file(snakemake.log[0])
splits = hypothesis_only_splits(pd.read_parquet(snakemake.input.dev), pd.read_parquet(snakemake.input.test), train_share=0.8, seed=snakemake.params.seed)
for name, entries in splits.items():
    write_entries(snakemake.output[name], entries)
