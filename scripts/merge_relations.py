"""Rule merge_relations: every shard of a language's relations, out of core, as one file in corpus order with repeated
sentences dropped (results/<lang>/relations/merged.parquet)."""

import logging

from directional_inference.engine import job_engine
from directional_inference.relations.shards import merge_relations
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
with job_engine(snakemake) as engine:
    kept = merge_relations(engine, snakemake.input.shards, snakemake.output[0])
logging.info("%d relations after dropping repeated sentences", kept)
