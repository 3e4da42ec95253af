"""Rule retrieve_booqa_evidence: evidence relations of every entry of a BoOQA split."""

import logging

import pandas as pd

from directional_inference.atomic import atomic_file
from directional_inference.evaluation.evidence import retrieve_language_evidence
from directional_inference.relations.shards import load_relations
from directional_inference.rulelog import log_to_file

log_to_file(snakemake.log[0])
relations = load_relations(snakemake.input.relations, pd.read_parquet(snakemake.input.articles))
entries = pd.read_parquet(snakemake.input.split)
evidence = retrieve_language_evidence(entries, relations, snakemake.wildcards.lang, snakemake.input.wordnet, cap=snakemake.params.cap,
                                      seed=snakemake.params.seed)
logging.info("%d evidence rows for %d of %d entries", len(evidence), evidence["entry"].nunique(), len(entries))
with atomic_file(snakemake.output[0]) as tmp:
    evidence.to_parquet(tmp, index=False)
