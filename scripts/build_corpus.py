"""Rule build_corpus: one language's news corpus as results/<lang>/corpus/articles.parquet, and reading.json: the
records read and skipped per raw file and the articles dropped (duplicates, years, max_articles)."""

import json

from directional_inference.atomic import atomic_file, write_text_atomic
from directional_inference.corpus.articles import build_articles
from directional_inference.corpus.reading import ReadingReport
from directional_inference.corpus.sources import corpus_files, read_corpus
from directional_inference.rulelog import log_to_file

log_to_file(snakemake.log[0])
settings = snakemake.params.settings
files = corpus_files(settings["source"], snakemake.input[0], settings["years"])
report = ReadingReport(settings["source"], snakemake.input[0])
table = build_articles(read_corpus(settings["source"], files, report), settings["window_days"], settings["max_articles"], settings["years"], report)
with atomic_file(snakemake.output.articles) as tmp:
    table.to_parquet(tmp, index=False)
write_text_atomic(snakemake.output.reading, json.dumps(report.summary(), indent=1, ensure_ascii=False) + "\n")
