"""Rules score_booqa and score_booqa_part: one method's scores of the entries of a BoOQA split (or of one job's chunk of
them: evaluation.scoring_jobs), each the maximum over the entry's evidence, read and scored in bounded batches."""

import pandas as pd

from directional_inference.atomic import atomic_file
from directional_inference.compute import set_threads
from directional_inference.engine import job_engine
from directional_inference.evaluation.methods import method_spec
from directional_inference.resume import ScoringProgress, input_signature
from directional_inference.evaluation.scoring import BATCH_ROWS, entry_chunk, score_split
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
set_threads(snakemake.params.torch_threads)
inputs = snakemake.input
entries = entry_chunk(pd.read_parquet(inputs.split), snakemake.params.part, snakemake.params.parts)
# the batches' size is in it: saved batches are skipped by number, so progress saved with other batches is not resumed
settings = {**snakemake.params.settings, "part": snakemake.params.part, "parts": snakemake.params.parts, "batch_rows": BATCH_ROWS}
signature = input_signature(settings, list(inputs))
progress = ScoringProgress(snakemake.params.progress, signature)  # a job stopped at its time limit resumes from it
known_ids = [entry for path in inputs.get("splits", []) for entry in pd.read_parquet(path, columns=["id"])["id"]]
# a graph is scored in SQL, with the job's threads; the other methods' engine only reads evidence beside torch's threads
with job_engine(snakemake, threads=None if method_spec(snakemake.wildcards.method)[0] == "graph" else 1) as engine:
    frame = score_split(
        engine,
        snakemake.wildcards.method,
        snakemake.wildcards.lang,
        entries,
        inputs.get("evidence"),
        snakemake.params.settings,
        model=inputs.get("model"),
        graph=inputs.get("graph"),
        nltk_data=inputs.get("wordnet"),
        progress=progress,
        predictions=inputs.get("predictions"),
        known_ids=known_ids,
    )
with atomic_file(snakemake.output[0]) as tmp:
    frame.to_parquet(tmp, index=False)
progress.remove()
