"""Rule build_corpus: one language's news corpus as results/<lang>/corpus/articles.parquet."""

from directional_inference.atomic import atomic_file
from directional_inference.corpus import build_articles, corpus_files, read_corpus
from directional_inference.rulelog import log_to_file

log_to_file(snakemake.log[0])
settings = snakemake.params.settings
files = corpus_files(settings["source"], snakemake.input[0], settings["years"])
table = build_articles(read_corpus(settings["source"], files), settings["window_days"], settings["max_articles"], settings["years"])
with atomic_file(snakemake.output[0]) as tmp:
    table.to_parquet(tmp, index=False)
