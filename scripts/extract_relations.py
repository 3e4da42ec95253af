"""Rule extract_relations: relations of one shard of a language's articles (spaCy for English, LAC for Chinese)."""

import logging

import pandas as pd

from directional_inference.atomic import atomic_file
from directional_inference.relations.chinese import extract_chinese
from directional_inference.relations.english import extract_english
from directional_inference.relations.shards import relations_frame, shard_of
from directional_inference.rulelog import log_to_file

log_to_file(snakemake.log[0])
params, shard = snakemake.params, int(snakemake.wildcards.shard)
articles = pd.read_parquet(snakemake.input[0])
mine = [(r.article_id, r.window, r.text) for i, r in enumerate(articles.itertuples()) if shard_of(i, params.shards) == shard]
if snakemake.wildcards.lang == "en":
    import spacy

    relations = extract_english(mine, spacy.load(params.spacy_model), batch_size=params.batch_size)
else:
    relations = extract_chinese(mine)
table = relations_frame(relations)
logging.info("shard %d: %d articles, %d relations", shard, len(mine), len(table))
with atomic_file(snakemake.output[0]) as tmp:
    table.to_parquet(tmp, index=False)
