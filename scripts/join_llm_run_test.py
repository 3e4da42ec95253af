"""Rule join_llm_run_test: the predictions of one of this run's other test sets (the LLMs' of llm.test_sets, the
files of llm.predictions) joined to it, with the counts of each join."""

from directional_inference.llm.predictions import join_files
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
name = f"{snakemake.wildcards.test}_run"
join_files(
    snakemake.input.predictions,
    snakemake.params.names,
    {name: snakemake.input.test},
    {name: snakemake.output.scores},
    snakemake.output.joins,
    max_unmatched_share=snakemake.params.max_unmatched_share,
    references=snakemake.input.references,
    partial=[],
)
