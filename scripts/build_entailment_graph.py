"""Rule build_entailment_graph: the local graphs (cosine, Weeds, Lin, BInc) of one job's type pairs, from the relations
of every window outside the BoOQA split the graph will score (cross-fitting)."""

import pandas as pd

from directional_inference.engine import job_engine
from directional_inference.graphs import ENGINE_POOL_SHARE, build_graphs
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
held_out = pd.read_parquet(snakemake.input.split, columns=["window"])["window"]
with job_engine(snakemake, pool_share=ENGINE_POOL_SHARE) as engine:
    build_graphs(
        engine,
        snakemake.input.relations,
        **snakemake.params.cutoffs,
        held_out_windows=held_out,
        part=int(snakemake.wildcards.part),
        parts=snakemake.params.parts,
        output=snakemake.output[0],
    )
