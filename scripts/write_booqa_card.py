"""Rule write_booqa_card: the dataset card (README.md) of a BoOQA release: counts, construction parameters, what
the corpus reader skipped, fields and licences."""

import json

import pandas as pd

from directional_inference.atomic import write_text_atomic
from directional_inference.booqa.release import dataset_card
from directional_inference.rulelog import log_to_file

log_to_file(snakemake.log[0])
inputs, params = snakemake.input, snakemake.params
splits = {"dev": pd.read_parquet(inputs.dev), "test": pd.read_parquet(inputs.test)}
with open(inputs.reading, encoding="utf-8") as handle:
    reading = json.load(handle)
card = dataset_card(snakemake.wildcards.lang, params.source, splits, params.parameters, params.scale, reading=reading)
write_text_atomic(snakemake.output[0], card)
