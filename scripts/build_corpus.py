"""Rule build_corpus: one language's news corpus as results/<lang>/corpus/articles.parquet, written as it is read, and
reading.json: the records read and skipped per raw file and the articles dropped (duplicates, years, max_articles)."""

import json

from directional_inference.atomic import write_text_atomic
from directional_inference.corpus.articles import write_articles
from directional_inference.corpus.reading import ReadingReport
from directional_inference.corpus.sources import corpus_files, read_corpus
from directional_inference.engine import job_engine
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
settings = snakemake.params.settings
files = corpus_files(settings["source"], snakemake.input[0], settings["years"])
report = ReadingReport(settings["source"], snakemake.input[0])
with job_engine(snakemake) as engine:
    write_articles(
        read_corpus(settings["source"], files, report),
        snakemake.output.articles,
        engine,
        settings["window_days"],
        settings["max_articles"],
        settings["years"],
        report,
    )
write_text_atomic(snakemake.output.reading, json.dumps(report.summary(), indent=1, ensure_ascii=False) + "\n")
