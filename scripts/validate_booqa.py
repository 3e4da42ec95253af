"""Rule validate_booqa: fail the workflow if the built BoOQA breaks an invariant; else write what was checked."""

import json

import pandas as pd

from directional_inference.atomic import write_text_atomic
from directional_inference.booqa.negatives import RelationKeys
from directional_inference.booqa.validation import check_invariants
from directional_inference.engine import job_engine
from directional_inference.resources.wordnet import open_wordnet
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
inputs, settings = snakemake.input, snakemake.params.settings
with job_engine(snakemake) as engine:
    checked = check_invariants(
        engine,
        {"dev": pd.read_parquet(inputs.dev), "test": pd.read_parquet(inputs.test)},
        inputs.negatives,
        inputs.relations,
        inputs.counts,
        pd.read_csv(inputs.reserved)["window"].astype(str),
        **settings,
        relation_keys=RelationKeys(snakemake.wildcards.lang, open_wordnet(inputs.wordnet)),
    )
write_text_atomic(snakemake.output[0], json.dumps({"invariants": "all hold", "checked": checked}, indent=1) + "\n")
