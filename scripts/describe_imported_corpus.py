"""Rule describe_imported_corpus: the corpus table (articles, dates, windows) and reading report of a language whose
relations were imported from files made elsewhere."""

import json

from directional_inference.atomic import write_text_atomic
from directional_inference.engine import job_engine
from directional_inference.relations.imported import write_imported_corpus
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
with job_engine(snakemake) as engine:
    reading = write_imported_corpus(engine, snakemake.input.shards, snakemake.input.relations, snakemake.params.files, snakemake.output.articles)
write_text_atomic(snakemake.output.reading, json.dumps(reading, indent=1, ensure_ascii=False) + "\n")
