"""Rule write_booqa_card: the dataset card (README.md) of a BoOQA release: counts, construction parameters, what
the corpus reader skipped, evidence per entry, fields and licences; the evidence per entry also as
evidence_density.csv (Table 4 reads it)."""

import json

import pandas as pd

from directional_inference.atomic import write_text_atomic
from directional_inference.booqa.release import dataset_card, evidence_density, write_evidence_density
from directional_inference.engine import job_engine
from directional_inference.evaluation.evidence import retrieve_language_evidence
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
inputs, params = snakemake.input, snakemake.params
splits = {"dev": pd.read_parquet(inputs.dev), "test": pd.read_parquet(inputs.test)}
with open(inputs.reading, encoding="utf-8") as handle:
    reading = json.load(handle)
# the retrieval of the evidence rule (retrieve_booqa_evidence, a later phase), with its cap and seed
with job_engine(snakemake) as engine:
    densities = {
        name: evidence_density(
            entries,
            retrieve_language_evidence(
                engine, entries, inputs.relations, snakemake.wildcards.lang, inputs.wordnet, cap=params.cap, seed=params.seed, counts=True
            ),
        )
        for name, entries in splits.items()
    }
card = dataset_card(
    snakemake.wildcards.lang, params.source, splits, params.parameters, params.scale, reading=reading, evidence=densities, evidence_cap=params.cap
)
write_evidence_density(snakemake.output.density, densities)
write_text_atomic(snakemake.output.card, card)
