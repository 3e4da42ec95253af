"""Rule select_booqa_positives: starring argument pairs x felicitous predicates, one positive per sentence at most."""

import pandas as pd

from directional_inference.atomic import atomic_file
from directional_inference.booqa.positives import select_positives
from directional_inference.relations.shards import load_relations
from directional_inference.rulelog import log_to_file

log_to_file(snakemake.log[0])
settings = snakemake.params.settings
relations = load_relations(snakemake.input.relations, pd.read_parquet(snakemake.input.articles))
positives, counts = select_positives(relations, snakemake.wildcards.lang, **settings, seed=snakemake.params.seed)
with atomic_file(snakemake.output.positives) as tmp:
    positives.to_parquet(tmp, index=False)
with atomic_file(snakemake.output.counts) as tmp:
    counts.rename("count").reset_index().to_parquet(tmp, index=False)
