"""Rule build_entailment_graph: local graphs (cosine, Weeds, Lin, BInc) from the relations of every window
outside the BoOQA split the graph will score (cross-fitting)."""

import logging

import pandas as pd

from directional_inference.atomic import atomic_file
from directional_inference.relations.shards import load_relations
from directional_inference.graphs import build_graphs
from directional_inference.rulelog import log_to_file

log_to_file(snakemake.log[0])
relations = load_relations(snakemake.input.relations, pd.read_parquet(snakemake.input.articles))
held_out = set(pd.read_parquet(snakemake.input.split)["window"])
training = relations[~relations["window"].isin(held_out)]
logging.info("graph from %d relations of %d windows (%d windows held out)", len(training), training["window"].nunique(), len(held_out))
graph = build_graphs(training, **snakemake.params.cutoffs)
logging.info("%d edges over %d predicates", len(graph), graph["premise"].nunique())
with atomic_file(snakemake.output[0]) as tmp:
    graph.to_parquet(tmp, index=False)
