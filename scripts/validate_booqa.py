"""Rule validate_booqa: fail the workflow if the built BoOQA breaks an invariant; else write what was checked."""

import json

import pandas as pd

from directional_inference.atomic import write_text_atomic
from directional_inference.booqa.negatives import RelationKeys
from directional_inference.booqa.validation import check_invariants
from directional_inference.relations.shards import load_relations
from directional_inference.rulelog import log_to_file
from directional_inference.resources.wordnet import open_wordnet

log_to_file(snakemake.log[0])
inputs, settings = snakemake.input, snakemake.params.settings
checked = check_invariants(
    {"dev": pd.read_parquet(inputs.dev), "test": pd.read_parquet(inputs.test)},
    pd.read_parquet(inputs.negatives),
    load_relations(inputs.relations, pd.read_parquet(inputs.articles)),
    pd.read_parquet(inputs.counts).set_index(["pred", "subj_type", "obj_type"])["count"],
    pd.read_csv(inputs.reserved)["window"].astype(str),
    **settings,
    relation_keys=RelationKeys(snakemake.wildcards.lang, open_wordnet(inputs.wordnet)),
)
write_text_atomic(snakemake.output[0], json.dumps({"invariants": "all hold", "checked": checked}, indent=1) + "\n")
