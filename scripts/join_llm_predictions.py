"""Rule join_llm_predictions: every predictions file joined to the whole Directional test and to this run's (and to
the whole Full test where llm.predictions has files), one score set per (model, setting), with the counts of each
join."""

from directional_inference.llm.predictions import join_files
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
tests = snakemake.params.tests  # name -> test file
join_files(
    snakemake.input.predictions,
    snakemake.params.names,
    tests,
    dict(zip(tests, snakemake.output.scores)),
    snakemake.output.joins,
    max_unmatched_share=snakemake.params.max_unmatched_share,
    references=snakemake.input.references,
    partial=["directional_whole", "directional_run"],
)
