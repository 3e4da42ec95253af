"""Rule join_llm_predictions: every predictions file joined to the whole Directional test and to this run's, one
score set per (model, setting), with the counts of each join."""

from directional_inference.llm.predictions import join_files
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
join_files(snakemake.input.predictions, snakemake.params.names, {"directional_whole": snakemake.input.whole, "directional_run": snakemake.input.run},
           dict(zip(["directional_whole", "directional_run"], snakemake.output.scores)), snakemake.output.joins,
           max_unmatched_share=snakemake.params.max_unmatched_share, samples=["directional_run"])
