"""Rule extract_relations: relations of one shard of a language's articles (spaCy for English, LAC for Chinese), read and
written in bounded batches."""

from functools import partial

from directional_inference.relations.chinese import extract_chinese
from directional_inference.relations.english import extract_english
from directional_inference.relations.extraction import extract_shard
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
params = snakemake.params
if snakemake.wildcards.lang == "en":
    import spacy

    extract = partial(extract_english, nlp=spacy.load(params.spacy_model), batch_size=params.batch_size)
else:
    from directional_inference.chinese_text import lac_tagger

    extract = partial(extract_chinese, tagger=lac_tagger())
extract_shard(snakemake.input[0], params.shards, int(snakemake.wildcards.shard), snakemake.output[0], extract)
