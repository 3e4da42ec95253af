"""Rule retrieve_tfidf_evidence: sentences of the top TF-IDF articles of each entry's window (LM tfidf baseline)."""

import logging

import pandas as pd

from directional_inference.atomic import atomic_file
from directional_inference.engine import job_engine
from directional_inference.evaluation.evidence import source_sentences, tfidf_evidence, window_articles_reader
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
settings = snakemake.params.settings
entries = pd.read_parquet(snakemake.input.split)
with job_engine(snakemake) as engine:
    own = source_sentences(engine, entries, snakemake.input.relations)
    evidence = tfidf_evidence(entries, window_articles_reader(engine, snakemake.input.articles), own, snakemake.wildcards.lang, **settings)
logging.info(
    "%d sentences from the top-%d articles of %d of %d entries", len(evidence), settings["top_articles"], evidence["entry"].nunique(), len(entries)
)
with atomic_file(snakemake.output[0]) as tmp:
    evidence.to_parquet(tmp, index=False)
