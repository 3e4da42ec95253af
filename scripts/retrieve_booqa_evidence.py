"""Rule retrieve_booqa_evidence: evidence relations of every entry of a BoOQA split."""

import logging

import pandas as pd

from directional_inference.atomic import atomic_file
from directional_inference.booqa.negatives import RelationKeys
from directional_inference.evidence import retrieve_evidence
from directional_inference.relations import load_relations
from directional_inference.rulelog import log_to_file
from directional_inference.wordnet import open_wordnet

log_to_file(snakemake.log[0])
relations = load_relations(snakemake.input.relations, pd.read_parquet(snakemake.input.articles))
entries = pd.read_parquet(snakemake.input.split)
# the entry's own predicate is no evidence, in either voice: the same relation keys as BoOQA's negatives
keys = RelationKeys(snakemake.wildcards.lang, open_wordnet(snakemake.input.wordnet))
evidence = retrieve_evidence(entries, relations, cap=snakemake.params.cap, seed=snakemake.params.seed, relation_keys=keys)
logging.info("%d evidence rows for %d of %d entries", len(evidence), evidence["entry"].nunique(), len(entries))
with atomic_file(snakemake.output[0]) as tmp:
    evidence.to_parquet(tmp, index=False)
