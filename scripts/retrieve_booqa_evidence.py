"""Rule retrieve_booqa_evidence: evidence relations of every entry of a BoOQA split."""

import logging

import pandas as pd

from directional_inference.engine import job_engine
from directional_inference.evaluation.evidence import retrieve_language_evidence
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
entries = pd.read_parquet(snakemake.input.split)
with job_engine(snakemake) as engine:
    rows = retrieve_language_evidence(
        engine,
        entries,
        snakemake.input.relations,
        snakemake.wildcards.lang,
        snakemake.input.wordnet,
        cap=snakemake.params.cap,
        seed=snakemake.params.seed,
        output=snakemake.output[0],
    )
logging.info("%d evidence rows for the %d entries", rows, len(entries))
